//===- Pipelines.h - Export pipeline ----------------------------*- C++ -*-===//
//
// Builder of the export-phase pipeline (`addExportPipeline` /
// `-mpmd-export-pipeline`): from scheduled, sharded fragments to fragment
// calls of deduplicated functions with buffer and memory attributes.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_EXPORT_PIPELINES_H
#define MPMD_TRANSFORMS_EXPORT_PIPELINES_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir::mpmd {

/// Options of the export pipeline.
struct ExportOptions {
  /// Recreate constants in their consumer fragments instead of passing them
  /// between fragments (-mpmd-copy-constants).
  bool copyConstantsFromProducerToConsumer = false;
  /// Merge one-element transfers between the same fragments
  /// (-mpmd-merge-transfers, then fragment-dedup and cse).
  bool applyMergeTransfers = false;
  /// SPMD-partition the outlined functions of meshes of several devices
  /// (-mpmd-partition-fragment-bodies).
  bool partitionFragmentBodies = false;
  /// Remark on each outlined fragment function.
  bool verboseLogging = false;
  /// Validations: errors rather than warnings.
  bool failOnReshardOnlyFragments = false;
  bool failOnBackwardDeps = false;
  bool failOnInferredFragments = true;
  bool failOnParamTransfers = false;
  /// Location substring of parameters (-mpmd-validate-no-param-transfers).
  std::string paramTransferPattern = "params['transformer";
};

/// cse, [copy-constants], canonicalize (no region simplification),
/// fragment-dedup, [merge-transfers, fragment-dedup, cse], fragment-dce,
/// uniquify-function-inputs-outputs,
/// merge-inferred-fragments, mark-offloaded-input-output,
/// mark-input-output-with-layouts, delay-inferred-fragments,
/// delay-transfers-from-cpu, sink-create-token-into-fragments,
/// mark-aliasing-and-donation, mark-fragment-reserved-memory,
/// validate-no-param-transfers, validate-no-inferred-fragments,
/// lower-to-fragment-calls, validate-no-reshards, [partition-fragment-bodies],
/// validate-no-backward-deps.
void addExportPipeline(OpPassManager &pm, const ExportOptions &options);

/// Registers `-mpmd-export-pipeline`.
void registerExportPipeline();

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_EXPORT_PIPELINES_H
