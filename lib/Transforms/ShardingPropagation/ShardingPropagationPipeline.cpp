//===- ShardingPropagationPipeline.cpp - -mpmd-sharding-propagation-pipeline ===//

#include "mpmd/Transforms/ShardingPropagation/Pipelines.h"

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "mlir/Pass/PassRegistry.h"

namespace mlir::mpmd {

void addShardingPropagationPipeline(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  // An output that is an input or is returned twice gets its own buffer
  // first, so that its sharding can differ.
  funcPm.addPass(createUniquifyFunctionInputsOutputsPass(
      UniquifyFunctionInputsOutputsPassOptions{
          /*useTransferInsteadOfFragment=*/true}));
  // (Upstream runs SDY propagation here.)
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
      "Sharding propagation: user shardings at @main's boundary and the "
      "shardings of fragments and transfers move into the mesh tensor types "
      "(no automatic propagation yet: other values are replicated).",
      addShardingPropagationPipeline);
}

} // namespace mlir::mpmd
