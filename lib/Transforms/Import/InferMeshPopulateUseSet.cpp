//===- InferMeshPopulateUseSet.cpp - -mpmd-infer-mesh-populate-use-set ----===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHPOPULATEUSESETPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

class InferMeshPopulateUseSetPass
    : public impl::InferMeshPopulateUseSetPassBase<
          InferMeshPopulateUseSetPass> {
  void runOnOperation() override {
    FailureOr<infer::Program> program = infer::Program::build(getOperation());
    if (failed(program))
      return signalPassFailure();
    infer::populateUseSets(*program);
  }
};

} // namespace
} // namespace mlir::mpmd
