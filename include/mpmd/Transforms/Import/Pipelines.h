//===- Pipelines.h - Import pipelines ---------------------------*- C++ -*-===//
//
// Builders of the import-phase pipelines: the whole import
// (`addImportPipeline` / `-mpmd-import-pipeline`) and its mesh-inference
// part (`addInferMeshPipeline` / `-mpmd-infer-mesh-pipeline`).
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

/// Options of the import pipeline: from a program with named computations
/// to fragments on meshes with transfers.
struct ImportOptions {
  /// Named computation/tensor name → mesh (and stage, memory kind).
  UserAssignmentMap nameToMeshAssignment;
  /// First turn `func.call`s of functions named after assigned names into
  /// named computations (-mpmd-calls-to-named-computations), so that a
  /// plain `jax.jit` program whose layers are jitted functions pipelines.
  bool callsToNamedComputations = false;
  /// Entry-function inputs/outputs placed on meshes by the user.
  IndexedAssignmentMap inputAssignment;
  IndexedAssignmentMap outputAssignment;
  /// Mesh inference; its `inputOutputConstraints` are also enforced after
  /// inference (an input and an output with the same mesh tensor type).
  InferMeshOptions inferMeshOptions;
  /// Merge inferred fragments after scheduling (in the optimize phase)
  /// rather than here, so that merges do not constrain the schedule.
  bool mergeAfterScheduling = false;
  /// Let user fragments of the entry function absorb inferred fragments
  /// (by default only mpmd.call callees are processed).
  bool absorbInferredFragmentsOnEntryPointFunction = false;
  /// Meshes of different shapes: one `sdy.mesh` per topology mesh, axes
  /// named `<mesh>_<axis>` (-mpmd-generate-sdy-meshes-from-topology).
  bool enableHeterogeneousMeshes = false;
  /// Split backward fragments into their transferred and local parts
  /// (-mpmd-split-bwd-fragments), so that zero-bubble schedules can delay the
  /// weight gradients.
  bool splitBwdFragments = false;
  /// Warn when the scheduling units do not cover every microbatch.
  bool verifyScheduleUnits = false;
};

/// Builds the import pipeline on a module pass manager: cleanup, call
/// preparation and loop unrolling, named-op mapping, transfers, mesh
/// inference, merging of inferred fragments, dedup/DCE, transfer cycles,
/// call inlining (call counters reach the fragments) and the scheduling
/// preparation (transfers moved to their producers, scheduling units,
/// optionally split backward fragments).
void addImportPipeline(OpPassManager &pm, const ImportOptions &options);

/// Registers `-mpmd-import-pipeline`.
void registerImportPipeline();

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_IMPORT_PIPELINES_H
