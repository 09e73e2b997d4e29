//===- MergeInferredFragments.cpp - -mpmd-merge-inferred-fragments --------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Common/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MERGEINFERREDFRAGMENTSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

bool allowMergingInferred(const FragmentSummary &producer,
                          const FragmentSummary &consumer) {
  if (producer.isUserFragment() && consumer.isUserFragment())
    return false;
  // Do not undo the split of a backward fragment.
  return !(producer.hasAttr(kSplitKeepTransferredAttrName) &&
           consumer.hasAttr(kSplitDropTransferredAttrName));
}

class MergeInferredFragmentsPass
    : public impl::MergeInferredFragmentsPassBase<MergeInferredFragmentsPass> {
  using MergeInferredFragmentsPassBase::MergeInferredFragmentsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (mergeAnyConsumer && mergeSideways) {
      function.emitError(
          "mpmd-merge-inferred-fragments: merge-any-consumer and "
          "merge-sideways are mutually exclusive");
      return signalPassFailure();
    }
    if (!isMpmdFunction(function))
      return;
    FragmentMergeTraversalOptions options;
    options.allowMerging = allowMergingInferred;
    options.selection = mergeAnyConsumer
                            ? ConsumerSelection::kClosestMergeableConsumer
                        : mergeSideways ? ConsumerSelection::kNextOnSameMesh
                                        : ConsumerSelection::kClosestConsumer;
    IRRewriter rewriter(&getContext());
    mergeFragmentsInFunction(function, options, rewriter);
  }
};

} // namespace
} // namespace mlir::mpmd
