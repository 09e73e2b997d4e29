//===- UnrollForLoops.cpp - -mpmd-unroll-for-loops ------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_UNROLLFORLOOPSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {


/// Replaces `loop` by `iterations` copies of its body. `counter` is the
/// unroll_counter of the first copy; it is advanced past the last one.
void unroll(ForOp loop, uint32_t &counter) {
  OpBuilder builder(loop);
  Block &body = loop.getRegion().front();
  Type ui32 = builder.getIntegerType(32, /*isSigned=*/false);
  auto indexType = RankedTensorType::get({}, ui32);
  SmallVector<Value> carried(loop.getOperands());
  for (uint32_t iteration = 0; iteration < loop.getIterations(); ++iteration) {
    auto counterAttr = builder.getIntegerAttr(ui32, counter++);
    IRMapping mapping;
    auto index = stablehlo::ConstantOp::create(
        builder, loop.getLoc(), indexType,
        DenseElementsAttr::get(indexType,
                               builder.getIntegerAttr(ui32, iteration)));
    index->setAttr(kUnrollCounterAttrName, counterAttr);
    mapping.map(loop.getIndexArgument(), index.getResult());
    for (auto [arg, value] : llvm::zip(body.getArguments(), carried))
      mapping.map(arg, value);
    for (Operation &op : body.without_terminator()) {
      Operation *clone = builder.clone(op, mapping);
      clone->setAttr(kUnrollCounterAttrName, counterAttr);
    }
    carried = llvm::map_to_vector(
        body.getTerminator()->getOperands(),
        [&](Value returned) { return mapping.lookupOrDefault(returned); });
  }
  loop.replaceAllUsesWith(carried);
  loop.erase();
}

class UnrollForLoopsPass
    : public impl::UnrollForLoopsPassBase<UnrollForLoopsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isDistributedFunction(function))
      return;
    SmallVector<ForOp> loops;
    WalkResult result = function.walk<WalkOrder::PreOrder>([&](ForOp loop) {
      if (loop->getParentOfType<ForOp>()) {
        loop.emitError("nested mpmd.for loops are not supported");
        return WalkResult::interrupt();
      }
      std::optional<uint32_t> factor = loop.getUnrollFactor();
      if (!factor)
        return WalkResult::advance();
      if (*factor != loop.getIterations()) {
        loop.emitError() << "only full unrolling of mpmd.for is supported, "
                            "but unroll_factor ("
                         << *factor << ") differs from iterations ("
                         << loop.getIterations() << ")";
        return WalkResult::interrupt();
      }
      loops.push_back(loop);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    uint32_t counter = 0;
    for (ForOp loop : loops)
      unroll(loop, counter);
  }
};

} // namespace
} // namespace mlir::mpmd
