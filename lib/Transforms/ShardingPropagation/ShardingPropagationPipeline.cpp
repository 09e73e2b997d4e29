//===- ShardingPropagationPipeline.cpp - -mpmd-sharding-propagation-pipeline
//===//

#include "mpmd/Transforms/ShardingPropagation/Pipelines.h"

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "mlir/Pass/PassRegistry.h"

namespace mlir::mpmd {

void addSdyPropagation(OpPassManager &pm) {
  // Fragments (block arguments and results) and loops take part through
  // data-flow edges, transfers through their pointwise rule; after the run
  // the edges' shardings go back to in_shardings / out_shardings. The
  // propagation is Shardy's standard one: user priorities, then op
  // priorities, each stage a fixed point of the aggressive strategy.
  pm.addNestedPass<func::FuncOp>(sdy::createAddDataFlowEdgesPass());
  pm.addPass(sdy::createUserPriorityPropagatePass());
  pm.addNestedPass<func::FuncOp>(sdy::createSinkDataFlowEdgesPass());
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
