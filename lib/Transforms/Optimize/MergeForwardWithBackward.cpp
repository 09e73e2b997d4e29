//===- MergeForwardWithBackward.cpp - -mpmd-merge-forward-with-backward ---===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Optimize/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MERGEFORWARDWITHBACKWARDPASS
#include "mpmd/Transforms/Optimize/Passes.h.inc"

namespace {

bool isForwardWithBackward(const FragmentSummary &producer,
                           const FragmentSummary &consumer) {
  return producer.getSingleTransposeCount() == 0 &&
         consumer.getSingleTransposeCount() == 1;
}

class MergeForwardWithBackwardPass
    : public impl::MergeForwardWithBackwardPassBase<
          MergeForwardWithBackwardPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    FragmentMergeTraversalOptions options;
    options.selection = ConsumerSelection::kNextOnSameMeshIfConsumer;
    options.allowMerging = isForwardWithBackward;
    IRRewriter rewriter(&getContext());
    mergeFragmentsInFunction(function, options, rewriter);
  }
};

} // namespace
} // namespace mlir::mpmd
