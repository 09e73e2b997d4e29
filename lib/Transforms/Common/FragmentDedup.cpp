//===- FragmentDedup.cpp - -mpmd-fragment-dedup ---------------------------===//

#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_FRAGMENTDEDUPPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

class FragmentDedupPass
    : public impl::FragmentDedupPassBase<FragmentDedupPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<FragmentOp> fragments;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto fragment = dyn_cast<FragmentOp>(op)) {
        fragments.push_back(fragment);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (FragmentOp fragment : fragments)
      dedupFragment(fragment, rewriter, DedupMode::kRedirectUses);
  }
};

} // namespace
} // namespace mlir::mpmd
