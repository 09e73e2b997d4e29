//===- PropagationPipeline.cpp - -sdy-propagation-pipeline ----------------===//

#include "mpmd/Transforms/Sdy/Pipelines.h"

#include "mlir/Transforms/Passes.h"

namespace mlir::sdy {

void addPropagationPipeline(OpPassManager &pm,
                            const PropagationPipelineOptions &options) {
  ImportPipelineOptions importOptions;
  importOptions.dedupFunctionsFully = options.dedupFunctionsFully.getValue();
  addImportPipeline(pm, importOptions);
  // Dedup mode keeps one body per function and crosses calls through
  // func data-flow edges; otherwise every call gets its own copy of the
  // callee, inlined as a named computation. The import pipeline applied
  // the constraints and imported the groups in dedup mode already.
  if (options.dedupFunctionsFully) {
    pm.addPass(createAddFuncDataFlowEdgesPass());
  } else {
    pm.addPass(createFlattenCallGraphPass());
    pm.addPass(createSymbolDCEPass());
    pm.addPass(createImportFuncCallsPass());
    pm.addPass(createSymbolDCEPass());
    pm.addPass(createApplyShardingConstraintsPass());
    pm.addPass(createShardingGroupImportPass());
  }
  pm.addPass(createPreOrderFuncsPass());
  UserPriorityPropagatePassOptions propagation;
  propagation.keepShardingRules = true;
  propagation.moduleDumpDirectory = options.moduleDumpDirectory;
  propagation.conservativePropagation = options.conservativePropagation;
  propagation.debugShardingOrigins = options.debugShardingOrigins;
  propagation.debugPropagationEdgeSharding =
      options.debugPropagationEdgeSharding;
  pm.addPass(createUserPriorityPropagatePass(propagation));

  if (options.dedupFunctionsFully) {
    pm.addPass(createPropagateToFuncResultsPass());
    pm.addNestedPass<func::FuncOp>(createSinkFuncDataFlowEdgesPass());
  } else {
    pm.addPass(createExportNamedComputationsPass());
    pm.addPass(createPropagateToFuncResultsPass());
  }
  pm.addPass(createUnflattenCallGraphPass(
      UnflattenCallGraphPassOptions{options.dedupFunctionsFully}));
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createInsertFuncCallReshardsPass());

  ExportPipelineOptions exportOptions;
  exportOptions.keepShardingRules = options.keepShardingRules.getValue();
  exportOptions.inlineMeshes = false;
  exportOptions.dumpShardingOrigins = options.debugShardingOrigins.getValue();
  exportOptions.dumpPropagationEdges =
      options.debugPropagationEdgeSharding.getValue();
  exportOptions.enableInsertExplicitCollectives =
      options.enableInsertExplicitCollectives.getValue();
  exportOptions.avoidExportForPartitioning =
      options.avoidExportForPartitioning.getValue();
  addExportPipeline(pm, exportOptions);
}

} // namespace mlir::sdy
