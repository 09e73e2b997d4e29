//===- AggressivePropagate.cpp - -sdy-aggressive-propagate ----------------===//

#include "PropagationDriver.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_AGGRESSIVEPROPAGATEPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class AggressivePropagatePass
    : public impl::AggressivePropagatePassBase<AggressivePropagatePass> {
  using AggressivePropagatePassBase::AggressivePropagatePassBase;

  void runOnOperation() override {
    if (failed(propagateShardings(getOperation(),
                                  getStrategyRuns(propagationStrategy),
                                  conservativePropagation, keepShardingRules)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
