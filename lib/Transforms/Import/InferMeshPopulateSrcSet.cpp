//===- InferMeshPopulateSrcSet.cpp - -mpmd-infer-mesh-populate-src-set ----===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHPOPULATESRCSETPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

class InferMeshPopulateSrcSetPass
    : public impl::InferMeshPopulateSrcSetPassBase<
          InferMeshPopulateSrcSetPass> {
  void runOnOperation() override {
        std::vector<infer::Program> units =
        infer::Program::buildUnits(getOperation());
    for (infer::Program &unit : units)
      infer::populateSrcSets(unit);
  }
};

} // namespace
} // namespace mlir::mpmd
