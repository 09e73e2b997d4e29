//===- Pipelines.h - Import pipelines ---------------------------*- C++ -*-===//
//
// Builders of the import-phase pipelines. Mesh inference:
// `addInferMeshPipeline` / `-mpmd-infer-mesh-pipeline`.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_IMPORT_PIPELINES_H
#define MPMD_TRANSFORMS_IMPORT_PIPELINES_H

#include "mpmd/Transforms/Common/PassOptions.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mpmd {

/// Options of the mesh-inference sub-pipeline.
struct InferMeshOptions {
  /// Create cross-mesh transfers where a value is needed on a mesh it cannot
  /// be computed on. Implies `inferCrossMeshReductions`.
  bool inferTransfers = false;
  /// Turn elementwise ops over values on different meshes into cross-mesh
  /// reductions.
  bool inferCrossMeshReductions = false;
  /// Entry inputs/outputs that must end up on the same mesh.
  SmallVector<InputOutputEquishardingConstraint> inputOutputConstraints;
  /// Cap of each validation pass's diagnostics (-1: all).
  int errorLimit = 5;
  /// Consumer fragments a meshless op may be cloned into.
  int maxClones = 1;
};

/// populate-use-set, populate-src-set, [assign-using-input-output-
/// constraints], convert-reduce-ops, [validate-src-set-not-empty],
/// assign-mesh-func-leaves, populate-use-set, [validate-no-additional-
/// transfers-needed], rewrite-using-analysis, finalize. Nothing may run
/// between the analyses and the rewrite.
void addInferMeshPipeline(OpPassManager &pm, const InferMeshOptions &options);

/// Registers `-mpmd-infer-mesh-pipeline`.
void registerInferMeshPipeline();

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_IMPORT_PIPELINES_H
