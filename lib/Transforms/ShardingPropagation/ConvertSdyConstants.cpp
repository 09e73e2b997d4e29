//===- ConvertSdyConstants.cpp - -mpmd-convert-sdy-constants --------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_CONVERTSDYCONSTANTSPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

class ConvertSdyConstantsPass
    : public impl::ConvertSdyConstantsPassBase<ConvertSdyConstantsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](sdy::ConstantOp constant) {
      rewriter.setInsertionPoint(constant);
      rewriter.replaceOpWithNewOp<stablehlo::ConstantOp>(
          constant, constant.getType(), constant.getValue());
    });
  }
};

} // namespace
} // namespace mlir::mpmd
