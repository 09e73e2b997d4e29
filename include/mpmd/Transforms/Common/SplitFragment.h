//===- SplitFragment.h - Splitting a fragment in two -------------*- C++ -*-===//
//
// The split mechanics shared by -mpmd-split-bwd-fragments and
// -mpmd-split-and-prioritize-transfer-independent-computations: a fragment
// becomes two, the first computing a chosen set of top-level ops, the second
// the rest, with the values the second needs from the first ("residuals")
// threaded through as extra results of the first.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_COMMON_SPLITFRAGMENT_H
#define MPMD_TRANSFORMS_COMMON_SPLITFRAGMENT_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::mpmd {

/// Calls `fn` with every value `op` uses, directly or in its regions, that
/// is defined outside `op`.
template <typename Fn> void forEachUsedValue(Operation *op, Fn fn) {
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Region *defRegion = operand.getParentRegion();
      if (nested == op || !op->isAncestor(defRegion->getParentOp()))
        fn(operand);
    }
  });
}

/// Whether `fragment` is a part of a split (`split_keep_transferred` or
/// `split_drop_transferred`): the split passes leave those alone.
bool isSplitPart(FragmentOp fragment);

/// Splits `fragment` in two, both where it was, the first before the
/// second. The first part holds `firstOps` (top-level ops of the body, closed
/// under dependencies: none uses a value of another op) and returns the
/// results in `firstResults`, then the residuals; it is marked
/// `split_keep_transferred`. The second part holds the other ops, takes the
/// operands and residuals it uses and returns the other results; it is
/// marked `split_drop_transferred`. A residual the first part returns anyway
/// is passed through that result; a new one gets the type and sharding of a
/// result returning the same value, else a fully replicated mesh tensor and
/// a fully open sharding. Both parts keep origin, stage and the other
/// attributes; arg/res attributes and shardings follow their values. When a
/// residual is neither a ranked tensor nor a token, nothing changes: a
/// warning at the fragment names `what` ("backward fragment", …).
void splitFragment(FragmentOp fragment, const llvm::BitVector &firstResults,
                   const llvm::SmallPtrSetImpl<Operation *> &firstOps,
                   StringRef what, RewriterBase &rewriter);

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_COMMON_SPLITFRAGMENT_H
