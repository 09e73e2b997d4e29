//===- ExportPipeline.cpp - -sdy-export-pipeline --------------------------===//

#include "mpmd/Transforms/Sdy/Propagation/Pipelines.h"

namespace mlir::sdy {

void addExportPipeline(OpPassManager &pm,
                       const ExportPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createConstantOrScalarMergerPass());
  pm.addNestedPass<func::FuncOp>(createSinkDataFlowEdgesPass(
      SinkDataFlowEdgesPassOptions{options.dumpShardingOrigins,
                                   options.dumpPropagationEdges}));
  if (!options.avoidExportForPartitioning) {
    pm.addPass(createRemoveShardingGroupsPass());
    pm.addNestedPass<func::FuncOp>(createShardingConstraintToReshardPass());
  }
  if (options.updateNonDivisibleInputOutputShardings) {
    pm.addPass(createUpdateNonDivisibleInputOutputShardingsPass());
    pm.addPass(createRemoveSubAxesInInputOutputShardingsPass());
  }
  pm.addPass(createCloseShardingsPass());
  if (options.dumpShardingOrigins || options.dumpPropagationEdges)
    pm.addPass(createRemovePropagationDebugInfoPass());
  if (!options.keepShardingRules)
    pm.addNestedPass<func::FuncOp>(createDropShardingRulesPass());
  if (!options.avoidExportForPartitioning && options.inlineMeshes)
    pm.addPass(createInlineMeshesPass());
}

} // namespace mlir::sdy
