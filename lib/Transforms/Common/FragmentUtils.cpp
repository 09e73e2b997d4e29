//===- FragmentUtils.cpp - Fragment surgery shared by the passes ----------===//

#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::mpmd;

unsigned mlir::mpmd::getNumDataOperands(FragmentOp fragment) {
  unsigned numOperands = fragment->getNumOperands();
  if (auto start = fragment->getAttrOfType<IntegerAttr>(
          kControlOperandStartIdxAttrName)) {
    int64_t index = start.getInt();
    if (index >= 0 && static_cast<uint64_t>(index) <= numOperands)
      return static_cast<unsigned>(index);
  }
  return numOperands;
}

SmallVector<StringRef> mlir::mpmd::getInferredBy(FragmentOp fragment) {
  SmallVector<StringRef> names;
  if (auto array = fragment->getAttrOfType<ArrayAttr>(kInferredByAttrName))
    for (Attribute name : array)
      if (auto string = dyn_cast<StringAttr>(name))
        names.push_back(string.getValue());
  return names;
}

void mlir::mpmd::addInferredBy(FragmentOp fragment, StringRef name) {
  SmallVector<Attribute> names;
  if (auto array = fragment->getAttrOfType<ArrayAttr>(kInferredByAttrName))
    names.append(array.begin(), array.end());
  Builder builder(fragment->getContext());
  StringAttr nameAttr = builder.getStringAttr(name);
  if (llvm::is_contained(names, nameAttr))
    return;
  names.push_back(nameAttr);
  fragment->setAttr(kInferredByAttrName, builder.getArrayAttr(names));
}

SmallVector<FragmentOp> mlir::mpmd::getFragmentConsumers(FragmentOp fragment) {
  SmallVector<FragmentOp> consumers;
  llvm::SmallPtrSet<Operation *, 8> seen;
  Block *block = fragment->getBlock();
  for (Operation *user : fragment->getUsers()) {
    auto consumer = dyn_cast<FragmentOp>(user);
    if (consumer && consumer->getBlock() == block &&
        seen.insert(consumer).second)
      consumers.push_back(consumer);
  }
  llvm::sort(consumers, [](FragmentOp lhs, FragmentOp rhs) {
    return lhs->isBeforeInBlock(rhs);
  });
  return consumers;
}

FragmentOp mlir::mpmd::getClosestFragmentConsumer(FragmentOp fragment) {
  FragmentOp closest;
  Block *block = fragment->getBlock();
  for (Operation *user : fragment->getUsers()) {
    auto consumer = dyn_cast<FragmentOp>(user);
    if (!consumer || consumer->getBlock() != block)
      continue;
    if (!closest || consumer->isBeforeInBlock(closest))
      closest = consumer;
  }
  return closest;
}

FragmentOp mlir::mpmd::getClosestFragmentProducer(FragmentOp fragment) {
  FragmentOp closest;
  Block *block = fragment->getBlock();
  for (Value operand : fragment->getOperands()) {
    auto producer = operand.getDefiningOp<FragmentOp>();
    if (!producer || producer->getBlock() != block)
      continue;
    if (!closest || closest->isBeforeInBlock(producer))
      closest = producer;
  }
  return closest;
}

bool mlir::mpmd::hasFragmentProducer(FragmentOp fragment) {
  Block *block = fragment->getBlock();
  return llvm::any_of(fragment->getOperands(), [&](Value operand) {
    auto producer = operand.getDefiningOp<FragmentOp>();
    return producer && producer->getBlock() == block;
  });
}

FragmentOp mlir::mpmd::getNextFragmentOnMesh(FragmentOp fragment) {
  for (Operation *op = fragment->getNextNode(); op; op = op->getNextNode())
    if (auto next = dyn_cast<FragmentOp>(op);
        next && next.getMeshName() == fragment.getMeshName())
      return next;
  return nullptr;
}

SmallVector<Block *> mlir::mpmd::getBlocksWithFragments(func::FuncOp function) {
  SmallVector<Block *> blocks;
  function->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<FragmentOp>(op))
      return WalkResult::skip();
    if (isa<func::FuncOp, ForOp>(op))
      for (Region &region : op->getRegions())
        for (Block &block : region)
          blocks.push_back(&block);
    return WalkResult::advance();
  });
  return blocks;
}

std::optional<int64_t> mlir::mpmd::getSingleTransposeCount(ArrayAttr origin) {
  std::optional<int64_t> count;
  for (Attribute attr : origin) {
    auto userOrigin = dyn_cast<UserOriginAttr>(attr);
    if (!userOrigin)
      return std::nullopt;
    if (count && *count != userOrigin.getTransposeCount())
      return std::nullopt;
    count = userOrigin.getTransposeCount();
  }
  return count;
}

bool mlir::mpmd::isSchedulingUnit(FragmentOp fragment) {
  std::optional<int64_t> transposeCount = getSingleTransposeCount(fragment);
  return transposeCount && (*transposeCount == 0 || *transposeCount == 1) &&
         getCallCounter(fragment).has_value();
}

namespace {

/// The rank of a (mesh) tensor type, 0 for other types (tokens).
int64_t getRank(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    type = meshTensor.getRankedTensorType();
  if (auto shaped = dyn_cast<ShapedType>(type);
      shaped && shaped.hasRank())
    return shaped.getRank();
  return 0;
}

} // namespace

sdy::TensorShardingPerValueAttr mlir::mpmd::shardingsForValues(
    MLIRContext *ctx, ArrayRef<Value> values,
    ArrayRef<std::pair<ValueRange, sdy::TensorShardingPerValueAttr>> sources) {
  Attribute meshOrRef;
  for (auto &[range, shardings] : sources)
    if (shardings && !shardings.getShardings().empty())
      meshOrRef = shardings.getShardings().front().getMeshOrRef();
  if (!meshOrRef)
    return nullptr;
  llvm::DenseMap<Value, sdy::TensorShardingAttr> byValue;
  for (auto &[range, shardings] : sources) {
    if (!shardings || shardings.getShardings().size() != range.size())
      continue;
    for (auto [value, sharding] : llvm::zip(range, shardings.getShardings()))
      byValue.try_emplace(value, sharding);
  }
  SmallVector<sdy::TensorShardingAttr> merged;
  for (Value value : values) {
    auto it = byValue.find(value);
    merged.push_back(it != byValue.end()
                         ? it->second
                         : sdy::TensorShardingAttr::getFullyOpen(
                               ctx, meshOrRef, getRank(value.getType())));
  }
  return sdy::TensorShardingPerValueAttr::get(ctx, merged);
}

ArrayAttr mlir::mpmd::dictionariesForValues(
    MLIRContext *ctx, ArrayRef<Value> values,
    ArrayRef<std::pair<ValueRange, ArrayAttr>> sources) {
  llvm::DenseMap<Value, Attribute> byValue;
  for (auto &[range, dicts] : sources) {
    if (!dicts || dicts.size() != range.size())
      continue;
    for (auto [value, dict] : llvm::zip(range, dicts))
      byValue.try_emplace(value, dict);
  }
  bool any = false;
  SmallVector<Attribute> merged;
  for (Value value : values) {
    Attribute dict = byValue.lookup(value);
    if (auto dictionary = dyn_cast_or_null<DictionaryAttr>(dict);
        dictionary && !dictionary.empty())
      any = true;
    merged.push_back(dict ? dict : DictionaryAttr::get(ctx));
  }
  return any ? ArrayAttr::get(ctx, merged) : nullptr;
}


namespace {

/// The elements of `array` whose index is not set in `erased`; null stays
/// null, and an array of the wrong size is dropped.
ArrayAttr filterArray(ArrayAttr array, const llvm::BitVector &erased) {
  if (!array || array.size() != erased.size())
    return nullptr;
  SmallVector<Attribute> kept;
  for (auto [index, element] : llvm::enumerate(array))
    if (!erased.test(index))
      kept.push_back(element);
  return ArrayAttr::get(array.getContext(), kept);
}

sdy::TensorShardingPerValueAttr
filterShardings(sdy::TensorShardingPerValueAttr shardings,
                const llvm::BitVector &erased) {
  if (!shardings || shardings.getShardings().size() != erased.size())
    return nullptr;
  SmallVector<sdy::TensorShardingAttr> kept;
  for (auto [index, sharding] : llvm::enumerate(shardings.getShardings()))
    if (!erased.test(index))
      kept.push_back(sharding);
  return sdy::TensorShardingPerValueAttr::get(shardings.getContext(), kept);
}

} // namespace

FragmentOp mlir::mpmd::eraseFragmentOperandsAndResults(
    FragmentOp fragment, const llvm::BitVector &erasedOperands,
    const llvm::BitVector &erasedResults, RewriterBase &rewriter) {
  if (erasedOperands.none() && erasedResults.none())
    return fragment;
  Block &body = fragment.getRegion().front();
  SmallVector<Value> operands;
  for (auto [index, operand] : llvm::enumerate(fragment->getOperands()))
    if (!erasedOperands.test(index))
      operands.push_back(operand);
  SmallVector<Type> resultTypes;
  for (auto [index, type] : llvm::enumerate(fragment->getResultTypes()))
    if (!erasedResults.test(index))
      resultTypes.push_back(type);

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(fragment);
  auto newFragment = FragmentOp::create(
      rewriter, fragment.getLoc(), resultTypes, operands,
      fragment.getOriginAttr(), fragment.getMeshNameAttr(),
      fragment.getStageIdAttr(),
      filterShardings(fragment.getInShardingsAttr(), erasedOperands),
      filterShardings(fragment.getOutShardingsAttr(), erasedResults));
  for (NamedAttribute attr : fragment->getDiscardableAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name == kArgAttrsAttrName) {
      if (ArrayAttr kept = filterArray(dyn_cast<ArrayAttr>(attr.getValue()),
                                       erasedOperands))
        newFragment->setAttr(name, kept);
    } else if (name == kResAttrsAttrName) {
      if (ArrayAttr kept = filterArray(dyn_cast<ArrayAttr>(attr.getValue()),
                                       erasedResults))
        newFragment->setAttr(name, kept);
    } else if (name == kControlOperandStartIdxAttrName) {
      unsigned start = getNumDataOperands(fragment);
      unsigned erasedBefore = 0;
      for (unsigned i = 0; i < start; ++i)
        erasedBefore += erasedOperands.test(i);
      unsigned newStart = start - erasedBefore;
      if (newStart < operands.size())
        newFragment->setAttr(name, rewriter.getI64IntegerAttr(newStart));
    } else {
      newFragment->setAttr(attr.getName(), attr.getValue());
    }
  }

  rewriter.inlineRegionBefore(fragment.getRegion(), newFragment.getRegion(),
                              newFragment.getRegion().end());
  body.eraseArguments(erasedOperands);
  Operation *terminator = body.getTerminator();
  rewriter.modifyOpInPlace(terminator,
                           [&] { terminator->eraseOperands(erasedResults); });

  unsigned newIndex = 0;
  for (auto [index, result] : llvm::enumerate(fragment->getResults())) {
    if (erasedResults.test(index))
      continue;
    rewriter.replaceAllUsesWith(result, newFragment->getResult(newIndex++));
  }
  rewriter.eraseOp(fragment);
  return newFragment;
}

namespace {

/// `shardings` with a fully open sharding for a value of `type` appended;
/// null and empty stay.
sdy::TensorShardingPerValueAttr
appendOpenSharding(sdy::TensorShardingPerValueAttr shardings, Type type) {
  if (!shardings || shardings.getShardings().empty())
    return shardings;
  MLIRContext *ctx = shardings.getContext();
  SmallVector<sdy::TensorShardingAttr> appended(shardings.getShardings());
  appended.push_back(sdy::TensorShardingAttr::getFullyOpen(
      ctx, appended.front().getMeshOrRef(), getRank(type)));
  return sdy::TensorShardingPerValueAttr::get(ctx, appended);
}

/// Appends an empty dictionary to the array attribute `name` of `op`, if set.
void appendEmptyDictionary(Operation *op, StringRef name) {
  auto dicts = op->getAttrOfType<ArrayAttr>(name);
  if (!dicts)
    return;
  SmallVector<Attribute> appended(dicts.begin(), dicts.end());
  appended.push_back(DictionaryAttr::get(op->getContext()));
  op->setAttr(name, ArrayAttr::get(op->getContext(), appended));
}

} // namespace

BlockArgument mlir::mpmd::appendFragmentOperand(FragmentOp fragment,
                                                Value operand, Type bodyType) {
  fragment.setInShardingsAttr(
      appendOpenSharding(fragment.getInShardingsAttr(), bodyType));
  appendEmptyDictionary(fragment, kArgAttrsAttrName);
  fragment->insertOperands(fragment->getNumOperands(), operand);
  return fragment.getRegion().front().addArgument(bodyType, operand.getLoc());
}

FragmentOp mlir::mpmd::appendFragmentResult(FragmentOp fragment,
                                            Value returned, Type resultType,
                                            RewriterBase &rewriter) {
  Operation *terminator = fragment.getRegion().front().getTerminator();
  rewriter.modifyOpInPlace(terminator, [&] {
    terminator->insertOperands(terminator->getNumOperands(), returned);
  });
  SmallVector<Type> resultTypes(fragment->getResultTypes());
  resultTypes.push_back(resultType);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(fragment);
  auto newFragment = FragmentOp::create(
      rewriter, fragment.getLoc(), resultTypes, fragment->getOperands(),
      fragment.getOriginAttr(), fragment.getMeshNameAttr(),
      fragment.getStageIdAttr(), fragment.getInShardingsAttr(),
      appendOpenSharding(fragment.getOutShardingsAttr(), returned.getType()));
  for (NamedAttribute attr : fragment->getDiscardableAttrs())
    newFragment->setAttr(attr.getName(), attr.getValue());
  appendEmptyDictionary(newFragment, kResAttrsAttrName);
  rewriter.inlineRegionBefore(fragment.getRegion(), newFragment.getRegion(),
                              newFragment.getRegion().end());
  rewriter.replaceOp(fragment, newFragment->getResults().drop_back());
  return newFragment;
}

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

/// Erases the trivially dead ops of `block` and of the regions nested in it.
/// A backward sweep: users come after their operands' producers (values used
/// in nested regions are defined before the op holding the region), so one
/// sweep frees whole dead chains.
void eraseDeadOps(Block &block, RewriterBase &rewriter) {
  // Reverse ilist iterators point at their op, so erasing the current op
  // keeps the early-incremented one valid.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (isOpTriviallyDead(&op)) {
      rewriter.eraseOp(&op);
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        eraseDeadOps(nested, rewriter);
  }
}

} // namespace

FragmentOp mlir::mpmd::dedupFragment(FragmentOp fragment,
                                      RewriterBase &rewriter,
                                      DedupMode mode) {
  bool eraseDuplicates = mode == DedupMode::kErase;
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
      // A repeated control operand only orders: it goes in either mode.
      if (eraseDuplicates || i >= numData)
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
    if (eraseDuplicates)
      erasedResults.set(i);
  }
  return eraseFragmentOperandsAndResults(fragment, erasedOperands,
                                         erasedResults, rewriter);
}

FragmentOp mlir::mpmd::eraseDeadFragmentParts(FragmentOp fragment,
                                               RewriterBase &rewriter) {
  // Unused results, then dead ops, then unused arguments.
  llvm::BitVector erasedResults(fragment->getNumResults());
  for (OpResult result : fragment->getResults())
    if (result.use_empty())
      erasedResults.set(result.getResultNumber());
  llvm::BitVector noOperands(fragment->getNumOperands());
  fragment = eraseFragmentOperandsAndResults(fragment, noOperands,
                                             erasedResults, rewriter);
  if (isOpTriviallyDead(fragment)) {
    rewriter.eraseOp(fragment);
    return nullptr;
  }
  eraseDeadOps(fragment.getRegion().front(), rewriter);
  Block &newBody = fragment.getRegion().front();
  llvm::BitVector erasedOperands(fragment->getNumOperands());
  unsigned numData = getNumDataOperands(fragment);
  for (BlockArgument arg : newBody.getArguments())
    // Control operands are kept: they only exist for their ordering.
    if (arg.use_empty() && arg.getArgNumber() < numData)
      erasedOperands.set(arg.getArgNumber());
  llvm::BitVector noResults(fragment->getNumResults());
  return eraseFragmentOperandsAndResults(fragment, erasedOperands, noResults,
                                         rewriter);
}

