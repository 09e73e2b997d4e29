//===- StablehloImportPipeline.cpp - -xla-sdy-stablehlo-import-pipeline ---===//

#include "mpmd/Transforms/Sdy/Gspmd/Passes.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/Pass/PassRegistry.h"

namespace mlir::sdy {

bool hasGspmdShardings(ModuleOp module) {
  auto walkResult = module.walk([](Operation *op) {
    if (op->hasAttr(kHloShardingAttrName))
      return WalkResult::interrupt();
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (func.getArgAttr(i, kHloShardingAttrName))
          return WalkResult::interrupt();
      for (unsigned i = 0; i < func.getNumResults(); ++i)
        if (func.getResultAttr(i, kHloShardingAttrName))
          return WalkResult::interrupt();
    }
    if (auto call = dyn_cast<stablehlo::CustomCallOp>(op)) {
      StringRef target = call.getCallTargetName();
      if (target == kShardingCustomCallTarget ||
          target == kFullToShardCustomCallTarget ||
          target == kShardToFullCustomCallTarget)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return walkResult.wasInterrupted();
}

void addStablehloImportPipeline(OpPassManager &pm) {
  pm.addPass(createStablehloImportShardingsPass());
  pm.addPass(createStablehloRoundTripShardMapImportPass());
  pm.addNestedPass<func::FuncOp>(createImportSdyCustomCallsPass());
}

void registerStablehloImportPipeline() {
  PassPipelineRegistration<>(
      "xla-sdy-stablehlo-import-pipeline",
      "Imports a GSPMD module (mhlo.sharding strings, @Sharding, "
      "@SPMDFullToShardShape, @SPMDShardToFullShape) into sdy meshes, "
      "shardings, sharding constraints and manual computations",
      [](OpPassManager &pm) { addStablehloImportPipeline(pm); });
}

} // namespace mlir::sdy
