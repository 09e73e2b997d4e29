//===- ShardingPropagationPipeline.cpp - -mpmd-sharding-propagation-pipeline
//===//

#include "mpmd/Transforms/ShardingPropagation/Pipelines.h"

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Sdy/Pipelines.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "mlir/Pass/PassRegistry.h"

namespace mlir::mpmd {

void addSdyPropagation(OpPassManager &pm) {
  // Upstream's full Shardy propagation pipeline (import, user- and
  // op-priority propagation, export), stopping before the partitioner:
  // fragments take part through their data-flow edges, transfers through
  // their pointwise rule, and the import steps (constraints, manual
  // computations' in_shardings, sharding groups) seed it as they do for a
  // plain StableHLO module.
  sdy::PropagationPipelineOptions options;
  options.avoidExportForPartitioning = true;
  sdy::addPropagationPipeline(pm, options);
}

void addShardingPropagationPipeline(OpPassManager &pm) {
  // An output that is an input or is returned twice gets its own buffer
  // first, so that its sharding can differ.
  pm.addNestedPass<func::FuncOp>(createUniquifyFunctionInputsOutputsPass(
      UniquifyFunctionInputsOutputsPassOptions{
          /*useTransferInsteadOfFragment=*/true}));
  addSdyPropagation(pm);
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createPopulateUnreducedOutShardingPass());
  funcPm.addPass(createEnforceUserShardingsPass());
  funcPm.addPass(createExtractReshardsFromInterMeshTransfersPass());
  funcPm.addPass(createConvertSdyShardingsToMpmdTypesPass());
  funcPm.addPass(createConvertSdyConstantsPass());
  funcPm.addPass(createSimplifyProgramPass());
}

void registerShardingPropagationPipeline() {
  PassPipelineRegistration<>(
      "mpmd-sharding-propagation-pipeline",
      "Sharding propagation over the whole MPMD program (through fragments, "
      "transfers between meshes of one shape and loops), then user shardings "
      "at @main's boundary, reshard extraction and the shardings moved into "
      "the mesh tensor types.",
      addShardingPropagationPipeline);
}

} // namespace mlir::mpmd
