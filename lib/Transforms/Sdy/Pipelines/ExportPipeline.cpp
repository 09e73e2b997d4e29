//===- ExportPipeline.cpp - -sdy-export-pipeline --------------------------===//

#include "mpmd/Transforms/Sdy/Pipelines.h"

#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::sdy {
namespace {

/// A canonicalizer that runs only the patterns labelled `label` (and the op
/// folders, which a label cannot turn off).
std::unique_ptr<Pass> createLabelledCanonicalizerPass(StringRef label) {
  return createCanonicalizerPass(GreedyRewriteConfig(),
                                 /*disabledPatterns=*/{},
                                 /*enabledPatterns=*/{label.str()});
}

} // namespace

void addExportPipeline(OpPassManager &pm,
                       const ExportPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createConstantOrScalarMergerPass());
  pm.addNestedPass<func::FuncOp>(
      createSinkDataFlowEdgesPass(SinkDataFlowEdgesPassOptions{
          options.dumpShardingOrigins, options.dumpPropagationEdges}));
  if (!options.avoidExportForPartitioning) {
    pm.addPass(createRemoveShardingGroupsPass());
    pm.addNestedPass<func::FuncOp>(createShardingConstraintToReshardPass());
  }
  if (options.updateNonDivisibleInputOutputShardings) {
    pm.addPass(createUpdateNonDivisibleInputOutputShardingsPass());
    pm.addPass(createRemoveSubAxesInInputOutputShardingsPass());
  }
  pm.addPass(createCloseShardingsPass());

  // The partitioner's first steps: explicit reshards (and all-reduces) for
  // every op, then either each op partitioned on its own or the reshards
  // turned into sdy collectives.
  if (!options.avoidExportForPartitioning) {
    pm.addNestedPass<func::FuncOp>(createVerifyUnreducedAxesPass());
    pm.addNestedPass<func::FuncOp>(
        createInsertExplicitReshardsPass(InsertExplicitReshardsPassOptions{
            options.enableInsertExplicitCollectives ||
            options.enablePerInstructionPartitioning}));
    if (options.enablePerInstructionPartitioning) {
      PerInstructionPartitioningPassOptions perInstruction;
      perInstruction.filter = options.perInstructionPartitioningFilter;
      perInstruction.replicaCount = options.replicaCount;
      perInstruction.partitionCount = options.partitionCount;
      pm.addPass(createPerInstructionPartitioningPass(perInstruction));
    } else if (options.enableInsertExplicitCollectives) {
      pm.addPass(
          createLabelledCanonicalizerPass(SdyDialect::kReshardPatternLabel));
      pm.addNestedPass<func::FuncOp>(createReshardToCollectivesPass());
    }
    pm.addPass(
        createLabelledCanonicalizerPass(SdyDialect::kCollectivePatternLabel));
    if (options.enableInsertExplicitCollectives &&
        options.removeAllGatherReduceScatterForCmv1)
      pm.addNestedPass<func::FuncOp>(
          createRemoveAllGatherReduceScatterForCmv1Pass());
  }

  if (options.dumpShardingOrigins || options.dumpPropagationEdges)
    pm.addPass(createRemovePropagationDebugInfoPass());
  if (!options.keepShardingRules)
    pm.addNestedPass<func::FuncOp>(createDropShardingRulesPass());
  if (!options.avoidExportForPartitioning && options.inlineMeshes)
    pm.addPass(createInlineMeshesPass());
}

} // namespace mlir::sdy
