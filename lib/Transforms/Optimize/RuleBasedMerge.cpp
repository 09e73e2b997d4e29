//===- RuleBasedMerge.cpp - -mpmd-rule-based-merge ------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Optimize/Passes.h"
#include "mpmd/Transforms/Optimize/Scheduling.h"

#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir::mpmd {
#define GEN_PASS_DEF_RULEBASEDMERGEPASS
#include "mpmd/Transforms/Optimize/Passes.h.inc"

namespace {

class RuleBasedMergePass
    : public impl::RuleBasedMergePassBase<RuleBasedMergePass> {
  using RuleBasedMergePassBase::RuleBasedMergePassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    if (!rules.empty()) {
      std::map<FragmentInfo, unsigned> ruleOfSource;
      if (failed(indexRules(function, ruleOfSource)))
        return signalPassFailure();
      IRRewriter rewriter(&getContext());
      for (Block *block : getBlocksWithFragments(function))
        if (failed(mergeInBlock(*block, ruleOfSource, rewriter)))
          return signalPassFailure();
    }
    if (removeControlDependencies)
      mpmd::removeControlDependencies(function);
  }

  /// Maps each source to its rule, checking that sources are in one rule
  /// and that each rule names one mesh.
  LogicalResult indexRules(func::FuncOp function,
                           std::map<FragmentInfo, unsigned> &ruleOfSource) {
    for (auto [index, rule] : llvm::enumerate(rules)) {
      StringRef mesh = rule.sources.front().meshName;
      for (const FragmentInfo &source : rule.sources) {
        auto [it, inserted] = ruleOfSource.try_emplace(source, index);
        if (!inserted)
          return function.emitError()
                 << "fragment " << source
                 << " is a source of more than one merge rule: "
                 << rules[it->second] << " and " << rule;
        if (source.meshName != mesh)
          return function.emitError()
                 << "the sources of merge rule " << rule
                 << " are on different meshes";
      }
      if (!rule.target.meshName.empty() && rule.target.meshName != mesh)
        return function.emitError()
               << "the target of merge rule " << rule << " is on mesh \""
               << rule.target.meshName << "\" but its sources are on \""
               << mesh << "\"";
    }
    return success();
  }

  LogicalResult mergeInBlock(Block &block,
                             const std::map<FragmentInfo, unsigned> &ruleOfSource,
                             IRRewriter &rewriter) {
    // The fragments matching each rule, in block order: a topological order
    // since the block is sorted.
    llvm::MapVector<unsigned, SmallVector<FragmentOp>> matchesOfRule;
    for (auto fragment : block.getOps<FragmentOp>()) {
      if (!fragment.isUserFragment())
        continue;
      auto it = ruleOfSource.find(getFragmentInfo(fragment));
      if (it != ruleOfSource.end())
        matchesOfRule[it->second].push_back(fragment);
    }
    bool merged = false;
    for (auto &[ruleIndex, fragments] : matchesOfRule) {
      const FragmentMergeRule &rule = rules[ruleIndex];
      if (fragments.size() < 2) {
        fragments.front().emitWarning()
            << "only this fragment matches the sources of merge rule " << rule
            << "; nothing is merged";
        continue;
      }
      FragmentSummary summary(fragments.front());
      for (FragmentOp fragment : ArrayRef(fragments).drop_front())
        summary = FragmentSummary::merge(summary, FragmentSummary(fragment));
      // Right after the first fragment; the sort below moves it after the
      // producers of its operands. The fragments are merged pair by pair in
      // order, each into the merge of those before it.
      FragmentOp mergedFragment = mergeFragmentSequence(
          fragments, summary, fragments.front()->getNextNode(),
          /*keptBodyIndex=*/0, rewriter,
          getTrivialProducerMerges(fragments, MergeFold::kEachIntoEarlierOnes));
      setFragmentInfo(mergedFragment, rule.target);
      merged = true;
    }
    if (merged && !sortBlockTopologically(block).complete)
      return block.getParentOp()->emitError(
          "Cycle detected after merging fragments by rules: a merged "
          "fragment depends on an op that depends on it (an op between two "
          "of its sources uses the first and feeds the second)");
    return success();
  }
};

} // namespace
} // namespace mlir::mpmd
