//===- FromUnrollToCallCounter.cpp - -mpmd-from-unroll-to-call-counter ----===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_FROMUNROLLTOCALLCOUNTERPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {


class FromUnrollToCallCounterPass
    : public impl::FromUnrollToCallCounterPassBase<
          FromUnrollToCallCounterPass> {
  void runOnOperation() override {
    getOperation().walk([](CallOp call) {
      Attribute counter = call->removeAttr(kUnrollCounterAttrName);
      if (counter)
        call->setAttr(MpmdDialect::kCallCounterAttrName, counter);
    });
  }
};

} // namespace
} // namespace mlir::mpmd
