//===- PropagationPipeline.cpp - -sdy-propagation-pipeline ----------------===//

#include "mpmd/Transforms/Sdy/Propagation/Pipelines.h"

#include "mlir/Transforms/Passes.h"

namespace mlir::sdy {

void addPropagationPipeline(OpPassManager &pm,
                            const PropagationPipelineOptions &options) {
  ImportPipelineOptions importOptions;
  importOptions.dedupFunctionsFully = options.dedupFunctionsFully.getValue();
  addImportPipeline(pm, importOptions);
  // Upstream imports calls as named computations here (not done yet); the
  // constraints and groups are imported once either way.
  if (!options.dedupFunctionsFully) {
    pm.addPass(createSymbolDCEPass());
    pm.addPass(createApplyShardingConstraintsPass());
    pm.addPass(createShardingGroupImportPass());
  }
  UserPriorityPropagatePassOptions propagation;
  propagation.keepShardingRules = true;
  propagation.moduleDumpDirectory = options.moduleDumpDirectory;
  propagation.conservativePropagation = options.conservativePropagation;
  propagation.debugShardingOrigins = options.debugShardingOrigins;
  propagation.debugPropagationEdgeSharding =
      options.debugPropagationEdgeSharding;
  pm.addPass(createUserPriorityPropagatePass(propagation));

  ExportPipelineOptions exportOptions;
  exportOptions.keepShardingRules = options.keepShardingRules.getValue();
  exportOptions.inlineMeshes = false;
  exportOptions.dumpShardingOrigins = options.debugShardingOrigins.getValue();
  exportOptions.dumpPropagationEdges =
      options.debugPropagationEdgeSharding.getValue();
  addExportPipeline(pm, exportOptions);
}

} // namespace mlir::sdy
