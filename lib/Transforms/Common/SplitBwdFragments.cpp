//===- SplitBwdFragments.cpp - -mpmd-split-bwd-fragments ------------------===//
//
// The keep part is the backward slice, over the top-level ops of the body, of
// the transferred results and of the ops with side effects (values used in
// nested regions count as operands of the op holding the region). The other
// top-level ops form the drop part, in their order. Since the keep part is
// closed under dependencies, it never uses a value of the drop part.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_SPLITBWDFRAGMENTSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

bool isTransferred(OpResult result) {
  return llvm::any_of(result.getUsers(),
                      [](Operation *user) { return isa<TransferOp>(user); });
}

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

/// The ops of the keep part: the backward slice of `roots` (values returned
/// by the body) and of the ops with side effects, over the top-level ops of
/// `body`.
llvm::SmallPtrSet<Operation *, 32> getKeepOps(Block &body,
                                              ArrayRef<Value> roots) {
  llvm::SmallPtrSet<Operation *, 32> keep;
  SmallVector<Operation *> worklist;
  auto addDefiningOp = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return;
    Operation *topLevel = body.findAncestorOpInBlock(*def);
    if (topLevel && keep.insert(topLevel).second)
      worklist.push_back(topLevel);
  };
  for (Value root : roots)
    addDefiningOp(root);
  for (Operation &op : body.without_terminator())
    if (!isMemoryEffectFree(&op) && keep.insert(&op).second)
      worklist.push_back(&op);
  while (!worklist.empty())
    forEachUsedValue(worklist.pop_back_val(), addDefiningOp);
  return keep;
}

/// Splits `fragment` whose results are partitioned by `transferred`, unless a
/// residual cannot be a fragment result (warning; nothing changes: the IR is
/// only modified once the residuals are known).
void splitFragment(FragmentOp fragment, const llvm::BitVector &transferred,
                   RewriterBase &rewriter) {
  MLIRContext *ctx = fragment.getContext();
  Block &body = fragment.getRegion().front();
  Operation *terminator = body.getTerminator();
  unsigned numResults = fragment->getNumResults();

  SmallVector<Value> keepReturned, dropReturned;
  SmallVector<OpResult> keepResults, dropResults;
  for (unsigned i = 0; i < numResults; ++i) {
    (transferred.test(i) ? keepReturned : dropReturned)
        .push_back(terminator->getOperand(i));
    (transferred.test(i) ? keepResults : dropResults)
        .push_back(fragment->getResult(i));
  }
  llvm::SmallPtrSet<Operation *, 32> keepOps = getKeepOps(body, keepReturned);

  // What the drop part uses from the keep part: block arguments (passed as
  // the original operands) and values of keep ops (residuals), in order of
  // first use.
  llvm::SetVector<Value> dropInputs;
  SmallVector<Operation *> dropOps;
  auto addDropInput = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || keepOps.contains(body.findAncestorOpInBlock(*def)))
      dropInputs.insert(value);
  };
  for (Operation &op : body.without_terminator()) {
    if (keepOps.contains(&op))
      continue;
    dropOps.push_back(&op);
    forEachUsedValue(&op, addDropInput);
  }
  for (Value value : dropReturned)
    addDropInput(value);

  // Residuals that the keep part returns anyway are passed through that
  // result; the others become new results.
  llvm::DenseMap<Value, unsigned> keepResultIndexOf;
  for (auto [index, value] : llvm::enumerate(keepReturned))
    keepResultIndexOf.try_emplace(value, index);
  // The first original result returning each value gives a new residual
  // result its type (sharding included).
  llvm::DenseMap<Value, Type> resultTypeOf;
  for (auto [value, result] :
       llvm::zip(terminator->getOperands(), fragment->getResults()))
    resultTypeOf.try_emplace(value, result.getType());
  SmallVector<Value> newResiduals;
  SmallVector<Type> keepResultTypes;
  for (OpResult result : keepResults)
    keepResultTypes.push_back(result.getType());
  for (Value input : dropInputs) {
    if (isa<BlockArgument>(input) || keepResultIndexOf.contains(input))
      continue;
    newResiduals.push_back(input);
    Type type = resultTypeOf.lookup(input);
    if (!type && isTokenType(input.getType()))
      type = input.getType();
    if (!type) {
      auto tensorType = dyn_cast<RankedTensorType>(input.getType());
      if (!tensorType) {
        fragment.emitWarning("backward fragment not split: a value of type ")
            << input.getType()
            << " would have to pass from one part to the other, and only "
               "ranked tensors and tokens can";
        return;
      }
      type = MeshTensorType::get(ctx, fragment.getMeshName(), tensorType);
    }
    keepResultTypes.push_back(type);
  }

  // The keep part takes over the original body.
  rewriter.setInsertionPoint(fragment);
  SmallVector<Value> keepValues(keepResults.begin(), keepResults.end());
  keepValues.append(newResiduals.begin(), newResiduals.end());
  // A new residual result takes the sharding of a result returning the same
  // value, like its type.
  std::pair<ValueRange, sdy::TensorShardingPerValueAttr> resultShardings[] = {
      {fragment->getResults(), fragment.getOutShardingsAttr()},
      {terminator->getOperands(), fragment.getOutShardingsAttr()}};
  ArrayRef<std::pair<ValueRange, sdy::TensorShardingPerValueAttr>>
      originalResultShardings = ArrayRef(resultShardings).take_front();
  std::pair<ValueRange, ArrayAttr> resultAttrs[] = {
      {fragment->getResults(),
       fragment->getAttrOfType<ArrayAttr>(kResAttrsAttrName)}};
  auto keep = FragmentOp::create(
      rewriter, fragment.getLoc(), keepResultTypes, fragment->getOperands(),
      fragment.getOriginAttr(), fragment.getMeshNameAttr(),
      fragment.getStageIdAttr(), fragment.getInShardingsAttr(),
      shardingsForValues(ctx, keepValues, resultShardings));
  keep->setDiscardableAttrs(fragment->getDiscardableAttrDictionary());
  keep->removeAttr(kResAttrsAttrName);
  if (ArrayAttr attrs = dictionariesForValues(ctx, keepValues, resultAttrs))
    keep->setAttr(kResAttrsAttrName, attrs);
  keep->setAttr(kSplitKeepTransferredAttrName, rewriter.getUnitAttr());
  rewriter.inlineRegionBefore(fragment.getRegion(), keep.getRegion(),
                              keep.getRegion().end());
  SmallVector<Value> keepTerminatorOperands(keepReturned);
  keepTerminatorOperands.append(newResiduals.begin(), newResiduals.end());
  rewriter.modifyOpInPlace(
      terminator, [&] { terminator->setOperands(keepTerminatorOperands); });

  // The drop part's operands: the original operand for a block argument,
  // the keep result otherwise.
  llvm::DenseMap<Value, Value> residualResultOf;
  for (auto [index, residual] : llvm::enumerate(newResiduals))
    residualResultOf[residual] = keep->getResult(keepResults.size() + index);
  SmallVector<Value> dropOperands;
  for (Value input : dropInputs) {
    if (auto arg = dyn_cast<BlockArgument>(input))
      dropOperands.push_back(fragment->getOperand(arg.getArgNumber()));
    else if (auto it = keepResultIndexOf.find(input);
             it != keepResultIndexOf.end())
      dropOperands.push_back(keep->getResult(it->second));
    else
      dropOperands.push_back(residualResultOf.at(input));
  }
  SmallVector<Value> dropValues(dropResults.begin(), dropResults.end());
  std::pair<ValueRange, sdy::TensorShardingPerValueAttr> operandShardings[] = {
      {fragment->getOperands(), fragment.getInShardingsAttr()},
      {keep->getResults(), keep.getOutShardingsAttr()}};
  std::pair<ValueRange, ArrayAttr> operandAttrs[] = {
      {fragment->getOperands(),
       fragment->getAttrOfType<ArrayAttr>(kArgAttrsAttrName)},
      {keep->getResults(), keep->getAttrOfType<ArrayAttr>(kResAttrsAttrName)}};
  SmallVector<Type> dropResultTypes;
  for (OpResult result : dropResults)
    dropResultTypes.push_back(result.getType());
  auto drop = FragmentOp::create(
      rewriter, fragment.getLoc(), dropResultTypes, dropOperands,
      fragment.getOriginAttr(), fragment.getMeshNameAttr(),
      fragment.getStageIdAttr(),
      shardingsForValues(ctx, dropOperands, operandShardings),
      shardingsForValues(ctx, dropValues, originalResultShardings));
  drop->setDiscardableAttrs(fragment->getDiscardableAttrDictionary());
  drop->removeAttr(kArgAttrsAttrName);
  drop->removeAttr(kResAttrsAttrName);
  drop->removeAttr(kControlOperandStartIdxAttrName);
  if (ArrayAttr attrs = dictionariesForValues(ctx, dropOperands, operandAttrs))
    drop->setAttr(kArgAttrsAttrName, attrs);
  if (ArrayAttr attrs = dictionariesForValues(ctx, dropValues, resultAttrs))
    drop->setAttr(kResAttrsAttrName, attrs);
  drop->setAttr(kSplitDropTransferredAttrName, rewriter.getUnitAttr());

  Block *dropBody = rewriter.createBlock(&drop.getRegion());
  for (Value input : dropInputs)
    dropBody->addArgument(input.getType(), input.getLoc());
  for (Operation *op : dropOps)
    op->moveBefore(dropBody, dropBody->end());
  llvm::DenseMap<Value, BlockArgument> dropArgOf;
  for (auto [input, arg] : llvm::zip(dropInputs, dropBody->getArguments())) {
    rewriter.replaceUsesWithIf(input, arg, [&](OpOperand &use) {
      return drop->isProperAncestor(use.getOwner());
    });
    dropArgOf[input] = arg;
  }
  SmallVector<Value> dropReturnedInBody;
  for (Value value : dropReturned) {
    Operation *def = value.getDefiningOp();
    bool inDrop = def && !keepOps.contains(body.findAncestorOpInBlock(*def));
    dropReturnedInBody.push_back(inDrop ? value : dropArgOf.at(value));
  }
  rewriter.setInsertionPointToEnd(dropBody);
  ReturnOp::create(rewriter, terminator->getLoc(), dropReturnedInBody);

  for (auto [result, keepResult] : llvm::zip(keepResults, keep->getResults()))
    rewriter.replaceAllUsesWith(result, keepResult);
  for (auto [result, dropResult] : llvm::zip(dropResults, drop->getResults()))
    rewriter.replaceAllUsesWith(result, dropResult);
  rewriter.eraseOp(fragment);

  // Operands only the drop part used are no longer needed by the keep part.
  Block &keepBody = keep.getRegion().front();
  llvm::BitVector unusedOperands(keep->getNumOperands());
  for (BlockArgument arg : keepBody.getArguments())
    if (arg.use_empty() && arg.getArgNumber() < getNumDataOperands(keep))
      unusedOperands.set(arg.getArgNumber());
  eraseFragmentOperandsAndResults(
      keep, unusedOperands, llvm::BitVector(keep->getNumResults()), rewriter);
}

class SplitBwdFragmentsPass
    : public impl::SplitBwdFragmentsPassBase<SplitBwdFragmentsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    IRRewriter rewriter(&getContext());
    for (Block *block : getBlocksWithFragments(function)) {
      SmallVector<FragmentOp> fragments(block->getOps<FragmentOp>());
      for (FragmentOp fragment : fragments) {
        if (getSingleTransposeCount(fragment) != 1 ||
            fragment->hasAttr(kSplitKeepTransferredAttrName) ||
            fragment->hasAttr(kSplitDropTransferredAttrName))
          continue;
        llvm::BitVector transferred(fragment->getNumResults());
        for (OpResult result : fragment->getResults())
          if (isTransferred(result))
            transferred.set(result.getResultNumber());
        if (transferred.none() || transferred.all())
          continue;
        splitFragment(fragment, transferred, rewriter);
      }
    }
  }
};

} // namespace
} // namespace mlir::mpmd
