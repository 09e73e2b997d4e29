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
    FailureOr<infer::Program> program = infer::Program::build(getOperation());
    if (failed(program))
      return signalPassFailure();
    infer::populateSrcSets(*program);
  }
};

} // namespace
} // namespace mlir::mpmd
