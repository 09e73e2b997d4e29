//===- SplitFragment.cpp - Splitting a fragment in two --------------------===//
//
// The first part takes over the original body; the second part's ops move
// into a new block. Since the first part is closed under dependencies, it
// never uses a value of the second.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Transforms/Common/SplitFragment.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::mpmd;

bool mlir::mpmd::isSplitPart(FragmentOp fragment) {
  return fragment->hasAttr(kSplitKeepTransferredAttrName) ||
         fragment->hasAttr(kSplitDropTransferredAttrName);
}

// The IR is only modified once the residuals are known to be valid results.
void mlir::mpmd::splitFragment(FragmentOp fragment,
                               const llvm::BitVector &firstResults,
                               const llvm::SmallPtrSetImpl<Operation *> &keepOps,
                               StringRef what, RewriterBase &rewriter) {
  MLIRContext *ctx = fragment.getContext();
  Block &body = fragment.getRegion().front();
  Operation *terminator = body.getTerminator();
  unsigned numResults = fragment->getNumResults();

  SmallVector<Value> keepReturned, dropReturned;
  SmallVector<OpResult> keepResults, dropResults;
  for (unsigned i = 0; i < numResults; ++i) {
    (firstResults.test(i) ? keepReturned : dropReturned)
        .push_back(terminator->getOperand(i));
    (firstResults.test(i) ? keepResults : dropResults)
        .push_back(fragment->getResult(i));
  }

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
        fragment.emitWarning() << what << " not split: a value of type "
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
