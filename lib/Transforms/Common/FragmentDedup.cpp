//===- FragmentDedup.cpp - -mpmd-fragment-dedup ---------------------------===//

#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_FRAGMENTDEDUPPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

/// The entry `index` of an optional per-value array attribute, or null.
Attribute entryOf(ArrayAttr array, unsigned index, unsigned size) {
  if (!array || array.size() != size)
    return nullptr;
  return array[index];
}

Attribute shardingOf(sdy::TensorShardingPerValueAttr shardings, unsigned index,
                     unsigned size) {
  if (!shardings || shardings.getShardings().size() != size)
    return nullptr;
  return shardings.getShardings()[index];
}

void dedupFragment(FragmentOp fragment, RewriterBase &rewriter) {
  Block &body = fragment.getRegion().front();
  unsigned numOperands = fragment->getNumOperands();
  unsigned numData = getNumDataOperands(fragment);

  // Operands: repeated ones (data among data, control among control, and
  // control ones that repeat a data one) use the first block argument.
  llvm::BitVector erasedOperands(numOperands);
  llvm::DenseMap<Value, unsigned> firstData, firstControl;
  for (unsigned i = 0; i < numOperands; ++i) {
    Value operand = fragment->getOperand(i);
    std::optional<unsigned> first;
    if (auto it = firstData.find(operand); it != firstData.end())
      first = it->second;
    else if (i >= numData)
      if (auto it2 = firstControl.find(operand); it2 != firstControl.end())
        first = it2->second;
    if (first) {
      rewriter.replaceAllUsesWith(body.getArgument(i), body.getArgument(*first));
      erasedOperands.set(i);
      continue;
    }
    (i < numData ? firstData : firstControl).try_emplace(operand, i);
  }

  // Results: the same returned value, type, out sharding and res attrs.
  Operation *terminator = body.getTerminator();
  unsigned numResults = fragment->getNumResults();
  auto resAttrs = fragment->getAttrOfType<ArrayAttr>(kResAttrsAttrName);
  llvm::BitVector erasedResults(numResults);
  using Key = std::tuple<Value, Type, Attribute, Attribute>;
  llvm::DenseMap<Key, unsigned> firstResult;
  for (unsigned i = 0; i < numResults; ++i) {
    Key key{terminator->getOperand(i), fragment->getResult(i).getType(),
            shardingOf(fragment.getOutShardingsAttr(), i, numResults),
            entryOf(resAttrs, i, numResults)};
    auto [it, inserted] = firstResult.try_emplace(key, i);
    if (inserted)
      continue;
    rewriter.replaceAllUsesWith(fragment->getResult(i),
                                fragment->getResult(it->second));
    erasedResults.set(i);
  }
  eraseFragmentOperandsAndResults(fragment, erasedOperands, erasedResults,
                                  rewriter);
}

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
      dedupFragment(fragment, rewriter);
  }
};

} // namespace
} // namespace mlir::mpmd
