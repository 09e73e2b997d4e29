//===- ImportPipeline.cpp - -sdy-import-pipeline --------------------------===//

#include "mpmd/Transforms/Sdy/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::sdy {

void addImportPipeline(OpPassManager &pm,
                       const ImportPipelineOptions &options) {
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createLiftInlinedMeshesPass());
  pm.addPass(createRemoveSizeOneAxesPass());
  pm.addPass(createPropagateShardingFromFuncToCallPass());
  pm.addPass(createConstantOrScalarSplitterPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createManualAxesCleanupPass());
  pm.addNestedPass<func::FuncOp>(createAddDataFlowEdgesPass());
  if (options.dedupFunctionsFully) {
    pm.addPass(createApplyShardingConstraintsPass());
    pm.addPass(createShardingGroupImportPass());
  }
}

void registerSdyPipelines() {
  PassPipelineRegistration<ImportPipelineOptions>(
      "sdy-import-pipeline",
      "Prepares a module for sharding propagation: mesh symbols, no size-1 "
      "axes, call shardings, split constants, clean manual axes, data-flow "
      "edges.",
      addImportPipeline);
  PassPipelineRegistration<PropagationPipelineOptions>(
      "sdy-propagation-pipeline",
      "Import, user-priority propagation and export (through the explicit "
      "reshards).",
      addPropagationPipeline);
  PassPipelineRegistration<ExportPipelineOptions>(
      "sdy-export-pipeline",
      "Finishes propagation: merges constants, sinks data-flow edges, turns "
      "constraints into reshards, makes I/O shardings divisible, closes "
      "every sharding and inserts explicit reshards (optionally turned into "
      "collectives, or each op partitioned on its own).",
      addExportPipeline);
}

} // namespace mlir::sdy
