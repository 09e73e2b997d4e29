//===- BasicPropagate.cpp - -sdy-basic-propagate --------------------------===//

#include "PropagationDriver.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_BASICPROPAGATEPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class BasicPropagatePass
    : public impl::BasicPropagatePassBase<BasicPropagatePass> {
  using BasicPropagatePassBase::BasicPropagatePassBase;

  void runOnOperation() override {
    if (failed(propagateShardings(getOperation(), {PropagationStrategy::kBasic},
                                  conservativePropagation, keepShardingRules)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
