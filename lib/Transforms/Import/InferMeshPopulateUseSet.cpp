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
        std::vector<infer::Program> units =
        infer::Program::buildUnits(getOperation());
    for (infer::Program &unit : units)
      infer::populateUseSets(unit);
  }
};

} // namespace
} // namespace mlir::mpmd
