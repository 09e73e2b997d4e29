//===- Pipelines.cpp - Pass sequences shared by several phases ------------===//

#include "mpmd/Transforms/Common/Pipelines.h"

#include "mpmd/Transforms/Common/Passes.h"

void mlir::mpmd::addMergeInferredFragmentsPasses(OpPassManager &pm,
                                                 bool absorbOnEntryPoint) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createAbsorbInferredFragmentsPass(
      AbsorbInferredFragmentsPassOptions{absorbOnEntryPoint}));
  funcPm.addPass(createMergeInferredFragmentsPass(
      MergeInferredFragmentsPassOptions{/*mergeAnyConsumer=*/true,
                                        /*mergeSideways=*/false}));
  funcPm.addPass(createMergeInferredFragmentsPass(
      MergeInferredFragmentsPassOptions{/*mergeAnyConsumer=*/false,
                                        /*mergeSideways=*/true}));
}
