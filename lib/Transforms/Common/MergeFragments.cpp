//===- MergeFragments.cpp - Merging fragments, and the merge traversal ----===//

#include "mpmd/Transforms/Common/MergeFragments.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>

using namespace mlir;
using namespace mlir::mpmd;

ArrayAttr mlir::mpmd::mergeOrigins(ArrayAttr lhs, ArrayAttr rhs) {
  llvm::SetVector<Attribute> origins;
  origins.insert(lhs.begin(), lhs.end());
  origins.insert(rhs.begin(), rhs.end());
  return ArrayAttr::get(lhs.getContext(), origins.getArrayRef());
}

namespace {

bool isMergeSpecificAttribute(StringRef name) {
  return name == kArgAttrsAttrName || name == kResAttrsAttrName ||
         name == kControlOperandStartIdxAttrName;
}

Type getBodyType(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    return meshTensor.getRankedTensorType();
  return type;
}

/// The op of `block` that is or contains `op`.
Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// True if `value` is available right before `op` (same block): a block
/// argument, a value from outside the block, or defined before `op`.
bool isDefinedBefore(Value value, Operation *op) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return true;
  Operation *ancestor = ancestorIn(op->getBlock(), def);
  return !ancestor || ancestor->isBeforeInBlock(op);
}

/// Values with a count, in insertion order up to removals: O(1) insertion,
/// lookup and removal (a value index is built past a few entries), and the
/// k-th value in O(1). Used for the values crossing the boundary of a run of
/// fragments; `absorb` moves the smaller of two into the larger.
class CountedValues {
public:
  unsigned size() const { return items.size(); }
  Value key(unsigned i) const { return items[i].value; }
  bool isData(unsigned i) const { return items[i].data; }
  /// A use the entry was added for, if any.
  OpOperand *use(unsigned i) const { return items[i].use; }
  unsigned count(Value value) const {
    std::optional<unsigned> i = find(value);
    return i ? items[*i].count : 0;
  }

  /// Adds `n` to the count of `value`; `data` is or-ed into its flag; `use`
  /// is kept if it is the first.
  void add(Value value, unsigned n, bool data, OpOperand *use = nullptr) {
    if (std::optional<unsigned> i = find(value)) {
      items[*i].count += n;
      items[*i].data |= data;
      return;
    }
    items.push_back({value, n, data, use});
    if (index)
      index->try_emplace(value, items.size() - 1);
    else if (items.size() > kLinearSearchLimit)
      buildIndex();
  }

  /// Removes `n` from the count of `value` (which has at least that), and
  /// `value` when nothing is left.
  void subtract(Value value, unsigned n) {
    std::optional<unsigned> i = find(value);
    assert(i && items[*i].count >= n && "subtracting more than was added");
    items[*i].count -= n;
    if (items[*i].count == 0)
      eraseAt(*i);
  }

  void erase(Value value) {
    if (std::optional<unsigned> i = find(value))
      eraseAt(*i);
  }

  /// Adds the entries of `other` and empties it, iterating the smaller of the
  /// two; returns the number of entries moved.
  unsigned absorb(CountedValues &other) {
    if (other.size() > size())
      std::swap(*this, other);
    for (const Item &item : other.items)
      add(item.value, item.count, item.data, item.use);
    unsigned moved = other.size();
    other.items.clear();
    other.index.reset();
    return moved;
  }

private:
  struct Item {
    Value value;
    unsigned count;
    bool data;
    OpOperand *use;
  };
  static constexpr unsigned kLinearSearchLimit = 8;

  std::optional<unsigned> find(Value value) const {
    if (index) {
      auto it = index->find(value);
      if (it == index->end())
        return std::nullopt;
      return it->second;
    }
    for (auto [i, item] : llvm::enumerate(items))
      if (item.value == value)
        return i;
    return std::nullopt;
  }

  void buildIndex() {
    index = std::make_unique<llvm::DenseMap<Value, unsigned>>();
    for (auto [i, item] : llvm::enumerate(items))
      index->try_emplace(item.value, i);
  }

  void eraseAt(unsigned i) {
    if (index)
      index->erase(items[i].value);
    if (i + 1 != items.size()) {
      items[i] = items.back();
      if (index)
        (*index)[items[i].value] = i;
    }
    items.pop_back();
  }

  SmallVector<Item, 1> items;
  std::unique_ptr<llvm::DenseMap<Value, unsigned>> index;
};

/// What crosses the boundary of a run of fragments merged pair by pair (the
/// fragment it stands for, built or not): the values its fragments use that
/// none of them defines (with the number of such uses, and whether one is a
/// data operand), and the values they define that are used outside the run
/// (with the number of such uses).
///
/// These are the operands and results of the built fragment, which tell
/// whether it is a trivial producer: its operands are those values (built
/// merges deduplicate; see `TrivialProducerMerges` for why the values are the
/// same whichever merges were trivial), its results the results used outside
/// and all results of its last fragment.
struct RunBoundary {
  CountedValues operands, results;

  static RunBoundary of(FragmentOp fragment) {
    RunBoundary boundary;
    unsigned numData = getNumDataOperands(fragment);
    for (OpOperand &operand : fragment->getOpOperands())
      boundary.operands.add(operand.get(), 1,
                            operand.getOperandNumber() < numData, &operand);
    for (OpResult result : fragment->getResults())
      if (unsigned uses = std::distance(result.use_begin(), result.use_end()))
        boundary.results.add(result, uses, /*data=*/true);
    return boundary;
  }
};

/// If merging the run `producer` into the run `consumer` is the merge of a
/// trivial producer, the producer's result and a use of its operand. `producerFragment`
/// is the producer's fragment when the run is one unmerged fragment (its
/// operands are not deduplicated), `producerLast` the run's last fragment;
/// `consumerIsOneFragment` says the same of the consumer (its uses of the
/// result are not deduplicated).
std::optional<std::pair<Value, OpOperand *>>
findTrivialProducer(const RunBoundary &producer, FragmentOp producerFragment,
                    FragmentOp producerLast, const RunBoundary &consumer,
                    bool consumerIsOneFragment) {
  OpOperand *operand;
  Value result;
  if (producerFragment) {
    if (producerFragment->getNumOperands() != 1 ||
        getNumDataOperands(producerFragment) != 1 ||
        producerFragment->getNumResults() != 1)
      return std::nullopt;
    operand = &producerFragment->getOpOperand(0);
    result = producerFragment->getResult(0);
  } else {
    if (producer.operands.size() != 1 || !producer.operands.isData(0))
      return std::nullopt;
    operand = producer.operands.use(0);
    // All results of the last fragment, and the others used outside.
    const CountedValues &usedOutside = producer.results;
    if (producerLast->getNumResults() == 1) {
      result = producerLast->getResult(0);
      if (usedOutside.size() > 1 ||
          (usedOutside.size() == 1 && usedOutside.key(0) != result))
        return std::nullopt;
    } else if (producerLast->getNumResults() == 0 && usedOutside.size() == 1) {
      result = usedOutside.key(0);
    } else {
      return std::nullopt;
    }
  }
  // One use, in the consumer: all uses outside the producer are the
  // consumer's, and a built consumer lists the result once.
  unsigned consumerUses = consumer.operands.count(result);
  if (consumerUses == 0 || consumerUses != producer.results.count(result) ||
      (consumerIsOneFragment && consumerUses != 1))
    return std::nullopt;
  return std::make_pair(result, operand);
}

/// Makes `producer` the boundary of the merge of the runs `producer` and
/// `consumer` (`definedInProducer` tells the producer's values), leaving
/// `consumer` empty. Returns the number of entries looked at: the smaller of
/// each pair of sets, so that merging smaller into larger keeps a whole
/// traversal O(n log n).
unsigned mergeBoundaries(RunBoundary &producer, RunBoundary &consumer,
                         function_ref<bool(Value)> definedInProducer) {
  unsigned steps = 0;
  // The consumer's uses of producer results are inside the merge now.
  if (consumer.operands.size() <= producer.results.size()) {
    for (unsigned i = 0; i < consumer.operands.size();) {
      ++steps;
      Value value = consumer.operands.key(i);
      if (!definedInProducer(value)) {
        ++i;
        continue;
      }
      producer.results.subtract(value, consumer.operands.count(value));
      consumer.operands.erase(value);
    }
  } else {
    for (unsigned i = 0; i < producer.results.size();) {
      ++steps;
      Value result = producer.results.key(i);
      unsigned uses = consumer.operands.count(result);
      if (uses == 0) {
        ++i;
        continue;
      }
      consumer.operands.erase(result);
      unsigned before = producer.results.size();
      producer.results.subtract(result, uses);
      if (producer.results.size() == before)
        ++i;
    }
  }
  steps += producer.operands.absorb(consumer.operands);
  steps += producer.results.absorb(consumer.results);
  return steps;
}

/// Replaces each substitute that is itself substituted by the end of its
/// chain.
void resolveSubstituteChains(
    llvm::DenseMap<Value, OpOperand *> &substitutes) {
  SmallVector<Value> path;
  for (auto &entry : substitutes) {
    OpOperand *end = entry.second;
    path.clear();
    for (auto it = substitutes.find(end->get()); it != substitutes.end();
         it = substitutes.find(end->get())) {
      path.push_back(end->get());
      end = it->second;
    }
    entry.second = end;
    for (Value value : path)
      substitutes.find(value)->second = end;
  }
}

} // namespace

TrivialProducerMerges mlir::mpmd::getTrivialProducerMerge(FragmentOp producer,
                                                          FragmentOp consumer) {
  TrivialProducerMerges merges;
  if (producer->getNumOperands() != 1 || getNumDataOperands(producer) != 1 ||
      producer->getNumResults() != 1)
    return merges;
  Value result = producer->getResult(0);
  if (!result.hasOneUse() ||
      result.use_begin()->getOwner() != consumer.getOperation())
    return merges;
  merges.producers.insert(producer);
  merges.substitutes.try_emplace(result, &producer->getOpOperand(0));
  return merges;
}

TrivialProducerMerges
mlir::mpmd::getTrivialProducerMerges(ArrayRef<FragmentOp> fragments,
                                     MergeFold fold) {
  TrivialProducerMerges merges;
  if (fragments.size() < 2)
    return merges;
  llvm::SmallPtrSet<Operation *, 8> run;
  auto inRun = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && run.contains(def);
  };
  if (fold == MergeFold::kEachIntoEarlierOnes) {
    RunBoundary merged = RunBoundary::of(fragments.front());
    run.insert(fragments.front());
    // A trivial merge kills the operands of the whole run so far.
    size_t producersEnd = 0;
    for (size_t k = 1; k < fragments.size(); ++k) {
      RunBoundary next = RunBoundary::of(fragments[k]);
      if (auto trivial = findTrivialProducer(
              merged, k == 1 ? fragments.front() : FragmentOp(),
              fragments[k - 1], next, /*consumerIsOneFragment=*/true)) {
        producersEnd = k;
        merges.substitutes[trivial->first] = trivial->second;
      }
      mergeBoundaries(merged, next, inRun);
      run.insert(fragments[k]);
    }
    for (FragmentOp fragment : fragments.take_front(producersEnd))
      merges.producers.insert(fragment);
  } else {
    RunBoundary merged = RunBoundary::of(fragments.back());
    for (size_t k = fragments.size() - 1; k-- > 0;) {
      RunBoundary producer = RunBoundary::of(fragments[k]);
      if (auto trivial = findTrivialProducer(
              producer, fragments[k], fragments[k], merged,
              /*consumerIsOneFragment=*/k + 2 == fragments.size())) {
        merges.producers.insert(fragments[k]);
        merges.substitutes[trivial->first] = trivial->second;
      }
      run.clear();
      run.insert(fragments[k]);
      mergeBoundaries(producer, merged, inRun);
      std::swap(merged, producer);
    }
  }
  resolveSubstituteChains(merges.substitutes);
  return merges;
}

FragmentSummary::FragmentSummary(FragmentOp fragment)
    : meshName(fragment.getMeshNameAttr()),
      userFragment(!fragment.getOrigin().empty()),
      transposeCounts(TransposeCounts::kNone), transposeCount(0),
      stageId(fragment.getStageIdAttr()) {
  if (std::optional<int64_t> count = mpmd::getSingleTransposeCount(fragment)) {
    transposeCounts = TransposeCounts::kSingle;
    transposeCount = *count;
  } else if (userFragment) {
    transposeCounts = TransposeCounts::kMixed;
  }
  NamedAttrList attrs;
  for (NamedAttribute attr : fragment->getDiscardableAttrs())
    if (!isMergeSpecificAttribute(attr.getName().getValue()))
      attrs.push_back(attr);
  attributes = attrs.getDictionary(fragment->getContext());
}

FragmentSummary FragmentSummary::merge(const FragmentSummary &producer,
                                       const FragmentSummary &consumer) {
  MLIRContext *ctx = producer.meshName.getContext();
  bool producerIsUser = producer.isUserFragment();
  bool consumerIsUser = consumer.isUserFragment();
  // On conflict the only user fragment's value, or else the consumer's.
  auto pick = [&](StringAttr name, Attribute producerValue,
                  Attribute consumerValue) -> Attribute {
    if (!producerValue || producerValue == consumerValue)
      return consumerValue;
    if (!consumerValue)
      return producerValue;
    if (producerIsUser != consumerIsUser)
      return producerIsUser ? producerValue : consumerValue;
    return name.getValue() == MpmdDialect::kCallCounterAttrName
               ? Attribute()
               : consumerValue;
  };
  llvm::SetVector<StringAttr> names;
  for (NamedAttribute attr : producer.attributes)
    names.insert(attr.getName());
  for (NamedAttribute attr : consumer.attributes)
    names.insert(attr.getName());
  NamedAttrList merged;
  for (StringAttr name : names) {
    Attribute producerValue = producer.attributes.get(name);
    Attribute consumerValue = consumer.attributes.get(name);
    if (name.getValue() == kInferredByAttrName) {
      if (producerIsUser || consumerIsUser)
        continue;
      llvm::SetVector<Attribute> union_;
      for (Attribute value : {producerValue, consumerValue})
        if (auto array = dyn_cast_or_null<ArrayAttr>(value))
          union_.insert(array.begin(), array.end());
      merged.set(name, ArrayAttr::get(ctx, union_.getArrayRef()));
      continue;
    }
    if (Attribute value = pick(name, producerValue, consumerValue))
      merged.set(name, value);
  }
  // The origin union holds one transpose count if both sides hold the same
  // one, or one side holds none.
  TransposeCounts counts = TransposeCounts::kMixed;
  int64_t count = 0;
  if (producer.transposeCounts == TransposeCounts::kNone) {
    counts = consumer.transposeCounts;
    count = consumer.transposeCount;
  } else if (consumer.transposeCounts == TransposeCounts::kNone ||
             (producer.transposeCounts == TransposeCounts::kSingle &&
              consumer.transposeCounts == TransposeCounts::kSingle &&
              producer.transposeCount == consumer.transposeCount)) {
    counts = producer.transposeCounts;
    count = producer.transposeCount;
  }
  return FragmentSummary(consumer.meshName, producerIsUser || consumerIsUser,
                         counts, count,
                         producer.stageId ? producer.stageId : consumer.stageId,
                         merged.getDictionary(ctx));
}

bool mlir::mpmd::canMergeAt(FragmentOp producer, FragmentOp consumer,
                            MergePlacement placement) {
  Block *block = producer->getBlock();
  if (placement == MergePlacement::kAtConsumer) {
    for (Operation *user : producer->getUsers()) {
      Operation *ancestor = ancestorIn(block, user);
      if (!ancestor || ancestor == consumer.getOperation())
        continue;
      if (ancestor->isBeforeInBlock(consumer))
        return false;
    }
    return true;
  }
  for (Value operand : consumer->getOperands()) {
    if (operand.getDefiningOp() == producer.getOperation())
      continue;
    if (!isDefinedBefore(operand, producer))
      return false;
  }
  return true;
}

std::optional<MergePlacement>
mlir::mpmd::findMergePlacement(FragmentOp producer, FragmentOp consumer) {
  if (canMergeAt(producer, consumer, MergePlacement::kAtConsumer))
    return MergePlacement::kAtConsumer;
  if (canMergeAt(producer, consumer, MergePlacement::kAtProducer))
    return MergePlacement::kAtProducer;
  return std::nullopt;
}

FragmentOp mlir::mpmd::mergeFragmentSequence(
    ArrayRef<FragmentOp> fragments, const FragmentSummary &summary,
    Operation *insertionPoint, unsigned keptBodyIndex, RewriterBase &rewriter,
    const TrivialProducerMerges &trivialMerges) {
  assert(fragments.size() >= 2 && keptBodyIndex < fragments.size() &&
         "expected at least two fragments and a kept body among them");
  MLIRContext *ctx = summary.getMeshName().getContext();
  llvm::SmallPtrSet<Operation *, 16> members;
  for (FragmentOp fragment : fragments) {
    assert(fragment->getBlock() == fragments.front()->getBlock() &&
           fragment.getMeshName() == fragments.front().getMeshName() &&
           "cannot merge fragments of different blocks or meshes");
    members.insert(fragment);
  }
  auto isMemberResult = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && members.contains(def);
  };

  // Operands: data operands, then control operands, from outside the group.
  // The operands of trivial producers are not listed; a use of a result of
  // one lists its substitute instead (unless the group defines it too), so
  // the operand a trivial producer had is listed in its consumer's place.
  auto listedValue = [&](Value operand) -> Value {
    if (!isMemberResult(operand))
      return operand;
    auto it = trivialMerges.substitutes.find(operand);
    if (it == trivialMerges.substitutes.end())
      return nullptr;
    Value substitute = it->second->get();
    return isMemberResult(substitute) ? Value() : substitute;
  };
  llvm::SetVector<Value> data;
  for (FragmentOp fragment : fragments) {
    if (trivialMerges.producers.contains(fragment))
      continue;
    for (Value operand :
         fragment->getOperands().take_front(getNumDataOperands(fragment)))
      if (Value listed = listedValue(operand))
        data.insert(listed);
  }
  llvm::SetVector<Value> control;
  for (FragmentOp fragment : fragments) {
    if (trivialMerges.producers.contains(fragment))
      continue;
    for (Value operand :
         fragment->getOperands().drop_front(getNumDataOperands(fragment)))
      if (Value listed = listedValue(operand); listed && !data.contains(listed))
        control.insert(listed);
  }
  SmallVector<Value> operands(data.begin(), data.end());
  operands.append(control.begin(), control.end());
  llvm::DenseMap<Value, unsigned> operandIndex;
  for (auto [index, operand] : llvm::enumerate(operands))
    operandIndex.try_emplace(operand, index);

  // Results: those used outside the group, and all of the last fragment.
  SmallVector<Value> oldResults;
  for (FragmentOp fragment : fragments.drop_back())
    for (OpResult result : fragment->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        oldResults.push_back(result);
  llvm::append_range(oldResults, fragments.back()->getResults());
  SmallVector<Type> resultTypes;
  for (Value result : oldResults)
    resultTypes.push_back(result.getType());

  llvm::SetVector<Attribute> origin;
  for (FragmentOp fragment : fragments)
    origin.insert(fragment.getOrigin().begin(), fragment.getOrigin().end());

  SmallVector<Location> locs;
  SmallVector<std::pair<ValueRange, sdy::TensorShardingPerValueAttr>>
      inShardings, outShardings;
  SmallVector<std::pair<ValueRange, ArrayAttr>> argAttrs, resAttrs;
  for (FragmentOp fragment : fragments) {
    locs.push_back(fragment.getLoc());
    inShardings.push_back(
        {fragment->getOperands(), fragment.getInShardingsAttr()});
    outShardings.push_back(
        {fragment->getResults(), fragment.getOutShardingsAttr()});
    argAttrs.push_back({fragment->getOperands(),
                        fragment->getAttrOfType<ArrayAttr>(kArgAttrsAttrName)});
    resAttrs.push_back({fragment->getResults(),
                        fragment->getAttrOfType<ArrayAttr>(kResAttrsAttrName)});
  }

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(insertionPoint);
  auto merged = FragmentOp::create(
      rewriter, rewriter.getFusedLoc(locs), resultTypes, operands,
      ArrayAttr::get(ctx, origin.getArrayRef()), summary.getMeshName(),
      summary.getStageId(),
      shardingsForValues(ctx, operands, inShardings),
      shardingsForValues(ctx, oldResults, outShardings));
  NamedAttrList attrs(summary.getAttributes());
  if (ArrayAttr merged = dictionariesForValues(ctx, operands, argAttrs))
    attrs.set(kArgAttrsAttrName, merged);
  if (ArrayAttr merged = dictionariesForValues(ctx, oldResults, resAttrs))
    attrs.set(kResAttrsAttrName, merged);
  if (!control.empty())
    attrs.set(kControlOperandStartIdxAttrName,
              rewriter.getI64IntegerAttr(data.size()));
  for (NamedAttribute attr : attrs)
    merged->setAttr(attr.getName(), attr.getValue());

  // The body: reuse one block, give it the merged arguments, splice the other
  // bodies around it in order.
  FragmentOp kept = fragments[keptBodyIndex];
  rewriter.inlineRegionBefore(kept.getRegion(), merged.getRegion(),
                              merged.getRegion().end());
  Block &body = merged.getRegion().front();
  Operation *keptFirstOp = &body.front();
  Operation *keptTerminator = body.getTerminator();
  unsigned numOldArgs = body.getNumArguments();
  SmallVector<Value> newArgs;
  for (Value operand : operands)
    newArgs.push_back(
        body.addArgument(getBodyType(operand.getType()), operand.getLoc()));
  // Each fragment's terminator, to rewire uses of its results inside the
  // merged body (a terminator moves with its body, so the pointer stays).
  llvm::DenseMap<Operation *, Operation *> terminatorOf;
  for (FragmentOp fragment : fragments)
    terminatorOf[fragment] = fragment.getRegion().front().getTerminator();
  terminatorOf[kept] = keptTerminator;
  // What each block argument of `fragment` becomes. A returned value may be a
  // block argument not yet replaced; inlining replaces its later uses too.
  auto argReplacements = [&](FragmentOp fragment) {
    SmallVector<Value> replacements;
    for (Value operand : fragment->getOperands()) {
      if (isMemberResult(operand))
        replacements.push_back(
            terminatorOf.at(operand.getDefiningOp())
                ->getOperand(cast<OpResult>(operand).getResultNumber()));
      else
        replacements.push_back(newArgs[operandIndex.at(operand)]);
    }
    return replacements;
  };
  SmallVector<Value> keptReplacements = argReplacements(kept);
  for (unsigned i = 0; i < numOldArgs; ++i)
    rewriter.replaceAllUsesWith(body.getArgument(i), keptReplacements[i]);
  body.eraseArguments(0, numOldArgs);
  for (unsigned index = 0; index < fragments.size(); ++index) {
    if (index == keptBodyIndex)
      continue;
    FragmentOp fragment = fragments[index];
    Block &spliced = fragment.getRegion().front();
    rewriter.inlineBlockBefore(&spliced, &body,
                               index < keptBodyIndex
                                   ? keptFirstOp->getIterator()
                                   : keptTerminator->getIterator(),
                               argReplacements(fragment));
  }
  SmallVector<Value> returned;
  for (Value result : oldResults)
    returned.push_back(terminatorOf.at(result.getDefiningOp())
                           ->getOperand(cast<OpResult>(result).getResultNumber()));
  // The last fragment's terminator ends the body once the others are erased.
  Operation *finalTerminator = terminatorOf.at(fragments.back());
  rewriter.modifyOpInPlace(finalTerminator,
                           [&] { finalTerminator->setOperands(returned); });
  for (FragmentOp fragment : fragments)
    if (Operation *terminator = terminatorOf.at(fragment);
        terminator != finalTerminator)
      rewriter.eraseOp(terminator);

  // Uses, then the merged fragments, consumers first.
  for (auto [oldResult, newResult] :
       llvm::zip(oldResults, merged->getResults()))
    rewriter.replaceAllUsesWith(oldResult, newResult);
  for (FragmentOp fragment : llvm::reverse(fragments))
    rewriter.eraseOp(fragment);
  return merged;
}

FragmentOp mlir::mpmd::mergeFragments(FragmentOp producer, FragmentOp consumer,
                                      RewriterBase &rewriter,
                                      MergeFragmentsOptions options) {
  assert(producer != consumer && "cannot merge a fragment with itself");
  assert(producer->getBlock() == consumer->getBlock() &&
         producer->isBeforeInBlock(consumer) &&
         "the producer must come before the consumer in the same block");
  assert(canMergeAt(producer, consumer, options.placement) &&
         "invalid merge placement");
  FragmentSummary summary = FragmentSummary::merge(FragmentSummary(producer),
                                                   FragmentSummary(consumer));
  Operation *insertionPoint = options.placement == MergePlacement::kAtConsumer
                                  ? consumer.getOperation()
                                  : producer.getOperation();
  return mergeFragmentSequence({producer, consumer}, summary, insertionPoint,
                               options.keepProducerBody ? 0 : 1, rewriter,
                               getTrivialProducerMerge(producer, consumer));
}

FailureOr<FragmentOp> mlir::mpmd::tryMergeFragments(FragmentOp producer,
                                                    FragmentOp consumer,
                                                    RewriterBase &rewriter,
                                                    bool allowMovingTransfers,
                                                    bool keepProducerBody) {
  if (producer == consumer || producer->getBlock() != consumer->getBlock() ||
      producer.getMeshName() != consumer.getMeshName())
    return failure();
  if (consumer->isBeforeInBlock(producer))
    std::swap(producer, consumer);
  MergeFragmentsOptions options;
  options.keepProducerBody = keepProducerBody;
  if (std::optional<MergePlacement> placement =
          findMergePlacement(producer, consumer)) {
    options.placement = *placement;
    return mergeFragments(producer, consumer, rewriter, options);
  }
  if (!allowMovingTransfers)
    return failure();
  Block *block = producer->getBlock();

  // At the consumer: transfers of producer results lying between the two move
  // after the consumer, if all their users come after it.
  SmallVector<Operation *> toMoveAfter;
  bool atConsumer = true;
  llvm::SmallPtrSet<Operation *, 8> seen;
  for (Operation *user : producer->getUsers()) {
    Operation *ancestor = ancestorIn(block, user);
    if (!ancestor || ancestor == consumer.getOperation() ||
        !ancestor->isBeforeInBlock(consumer) || !seen.insert(ancestor).second)
      continue;
    auto transfer = dyn_cast<TransferOp>(ancestor);
    if (!transfer ||
        llvm::any_of(transfer->getUsers(), [&](Operation *transferUser) {
          Operation *userAncestor = ancestorIn(block, transferUser);
          return userAncestor && (userAncestor == consumer.getOperation() ||
                                  userAncestor->isBeforeInBlock(consumer));
        })) {
      atConsumer = false;
      break;
    }
    toMoveAfter.push_back(transfer);
  }
  if (atConsumer) {
    llvm::sort(toMoveAfter, [](Operation *lhs, Operation *rhs) {
      return lhs->isBeforeInBlock(rhs);
    });
    Operation *anchor = consumer;
    for (Operation *transfer : toMoveAfter) {
      rewriter.moveOpAfter(transfer, anchor);
      anchor = transfer;
    }
    options.placement = MergePlacement::kAtConsumer;
    return mergeFragments(producer, consumer, rewriter, options);
  }

  // At the producer: transfers feeding the consumer that lie between the two
  // move before the producer, if their operand is defined before it.
  SmallVector<Operation *> toMoveBefore;
  seen.clear();
  for (Value operand : consumer->getOperands()) {
    if (operand.getDefiningOp() == producer.getOperation() ||
        isDefinedBefore(operand, producer))
      continue;
    auto transfer = operand.getDefiningOp<TransferOp>();
    if (!transfer || transfer->getBlock() != block ||
        !isDefinedBefore(transfer.getTensor(), producer))
      return failure();
    if (seen.insert(transfer).second)
      toMoveBefore.push_back(transfer);
  }
  llvm::sort(toMoveBefore, [](Operation *lhs, Operation *rhs) {
    return lhs->isBeforeInBlock(rhs);
  });
  for (Operation *transfer : toMoveBefore)
    rewriter.moveOpBefore(transfer, producer);
  options.placement = MergePlacement::kAtProducer;
  return mergeFragments(producer, consumer, rewriter, options);
}

namespace {

/// The merge traversal of one block, deciding on groups of fragments that
/// stand for their not yet built merge and building each group once at the
/// end. A group is placed where its anchor (one of its fragments) is; a
/// pairwise merge "at the consumer" keeps the consumer's anchor, "at the
/// producer" the producer's. Ops do not move until the end, so positions are
/// the original ones, with every fragment of a group at its anchor's.
///
/// Why it is near-linear: fragments are visited in reverse order, and a visit
/// only grows the group of the visited fragment (the current group) by
/// absorbing groups placed after it. Each group keeps the fragments using its
/// results in a min-heap by position, filled once from the use lists when its
/// fragment is visited and merged smaller into larger when groups merge (so
/// an entry moves O(log n) times), and the first position of any other op
/// using its results (non-fragment ops never move). Consumer selection and
/// the placement at the consumer read the heap's top: entries of the group
/// itself are dropped there for good, and an entry whose user has moved is
/// re-keyed. Users only move later (a merge at the consumer), which makes a
/// key too small, found and fixed at the top, except when a merge at the
/// producer moves a consumer group earlier: that merge already walks the
/// consumer's operands, and marks the heaps of their producers to be
/// re-keyed in full before their next use. No decision rescans a group.
class MergeTraversal {
public:
  MergeTraversal(Block &block, const FragmentMergeTraversalOptions &options,
                 RewriterBase &rewriter)
      : block(block), options(options), rewriter(rewriter) {}

  bool run() {
    SmallVector<FragmentOp> fragments;
    for (auto [index, op] : llvm::enumerate(block)) {
      positionOf[&op] = index;
      if (auto fragment = dyn_cast<FragmentOp>(op)) {
        unsigned group = groups.size();
        groupOf[fragment] = group;
        groups.push_back(Group(fragment, group));
        byMesh[fragment.getMeshNameAttr()][index] = group;
        fragments.push_back(fragment);
      }
    }
    bool changed = false;
    for (FragmentOp fragment : llvm::reverse(fragments)) {
      if (options.eraseUnusedPureFragments && isOpTriviallyDead(fragment)) {
        byMesh[fragment.getMeshNameAttr()].erase(positionOf.at(fragment));
        // Its producers are not visited yet: their boundaries, read from the
        // IR when first needed, will not count its uses.
        rewriter.eraseOp(fragment);
        changed = true;
        continue;
      }
      unsigned current = find(groupOf.at(fragment));
      collectUsers(current, fragment);
      while (std::optional<unsigned> consumer = selectConsumer(current)) {
        std::optional<MergePlacement> placement =
            findPlacement(current, *consumer);
        if (!placement)
          break;
        current = merge(current, *consumer, *placement);
        changed = true;
      }
    }
    if (options.stats) {
      options.stats->steps += steps;
      options.stats->fragments += fragments.size();
      options.stats->merges += merges;
    }
    build();
    return changed;
  }

private:
  /// A fragment of the block using a result of a group, at the position its
  /// group had when the entry was keyed.
  struct UserEntry {
    unsigned position;
    Operation *user;
  };
  /// Orders a heap with the smallest position on top.
  static bool laterUser(const UserEntry &lhs, const UserEntry &rhs) {
    return lhs.position > rhs.position;
  }

  struct Group {
    Group(FragmentOp fragment, unsigned index)
        : anchor(fragment), first(fragment), last(fragment),
          summary(fragment), parent(index) {}

    /// The fragment whose position the merged fragment takes.
    Operation *anchor;
    /// The fragments in merge order, as a list through `nextInGroup`.
    Operation *first, *last;
    FragmentSummary summary;
    /// The values crossing the boundary of the group, to tell trivial
    /// producers: read from the IR when the group first merges (see
    /// `boundaryOf`), then merged with the other group's.
    std::optional<RunBoundary> boundary;
    /// Union-find parent, and the number of fragments.
    unsigned parent, size = 1;
    /// Fragments using a result of the group (a heap by `laterUser`); see
    /// the class comment for when keys may be stale.
    SmallVector<UserEntry, 2> fragmentUsers;
    /// The smallest position of an op other than a fragment of the block
    /// using a result of the group (or holding such a use).
    unsigned firstOtherUser = std::numeric_limits<unsigned>::max();
    /// Whether `fragmentUsers` may hold keys larger than their user's
    /// position (a merge at the producer moved the user earlier).
    bool rekeyUsers = false;
    /// Whether its fragment was visited (its users collected).
    bool visited = false;
    /// An operand definition that kept the group from merging at a
    /// producer, if any.
    Operation *blockingDefinition = nullptr;
  };

  unsigned find(unsigned group) {
    while (groups[group].parent != group) {
      groups[group].parent = groups[groups[group].parent].parent;
      group = groups[group].parent;
    }
    return group;
  }

  /// The group of `op` if it is a fragment of the block.
  std::optional<unsigned> groupOfOp(Operation *op) {
    auto it = groupOf.find(op);
    if (it == groupOf.end())
      return std::nullopt;
    return find(it->second);
  }

  /// The position of `op` (an op of the block) once the groups are built.
  unsigned position(Operation *op) {
    if (std::optional<unsigned> group = groupOfOp(op))
      return positionOf.at(groups[*group].anchor);
    return positionOf.at(op);
  }
  unsigned groupPosition(unsigned group) {
    return positionOf.at(groups[group].anchor);
  }

  /// Calls `fn` on the fragments of `group` in merge order until it returns
  /// true; returns whether it did.
  template <typename Fn> bool anyFragment(unsigned group, Fn fn) {
    for (Operation *op = groups[group].first; op;
         op = nextInGroup.lookup(op)) {
      if (fn(cast<FragmentOp>(op)))
        return true;
      if (op == groups[group].last)
        break;
    }
    return false;
  }

  /// Calls `fn` with the op of the block defining each operand of `group`'s
  /// fragments (operands defined outside the block are skipped) until it
  /// returns true; returns whether it did.
  template <typename Fn>
  bool anyOperandDefinition(unsigned group, Fn fn) {
    return anyFragment(group, [&](FragmentOp fragment) {
      for (Value operand : fragment->getOperands()) {
        ++steps;
        Operation *def = operand.getDefiningOp();
        if (!def)
          continue;
        if (Operation *ancestor = block.findAncestorOpInBlock(*def);
            ancestor && fn(ancestor))
          return true;
      }
      return false;
    });
  }

  /// Fills the user heap of the group of `fragment`, which holds only it.
  /// Every group after it is final until the current group absorbs it, so
  /// the keys are exact.
  void collectUsers(unsigned group, FragmentOp fragment) {
    Group &g = groups[group];
    g.visited = true;
    for (Operation *user : fragment->getUsers()) {
      ++steps;
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor)
        continue;
      if (groupOf.contains(ancestor))
        g.fragmentUsers.push_back({position(ancestor), ancestor});
      else
        g.firstOtherUser = std::min(g.firstOtherUser, positionOf.at(ancestor));
    }
    std::make_heap(g.fragmentUsers.begin(), g.fragmentUsers.end(), laterUser);
  }

  void pushUser(SmallVectorImpl<UserEntry> &heap, UserEntry entry) {
    ++steps;
    heap.push_back(entry);
    std::push_heap(heap.begin(), heap.end(), laterUser);
  }
  UserEntry popUser(SmallVectorImpl<UserEntry> &heap) {
    ++steps;
    std::pop_heap(heap.begin(), heap.end(), laterUser);
    return heap.pop_back_val();
  }

  /// Re-keys every user of `group` and drops its own fragments.
  void rekeyUsers(unsigned group) {
    Group &g = groups[group];
    SmallVector<UserEntry, 2> &heap = g.fragmentUsers;
    llvm::erase_if(heap, [&](UserEntry &entry) {
      ++steps;
      unsigned userGroup = find(groupOf.at(entry.user));
      entry.position = groupPosition(userGroup);
      return userGroup == group;
    });
    std::make_heap(heap.begin(), heap.end(), laterUser);
    g.rekeyUsers = false;
  }

  /// The closest fragment using a result of `group` outside it, with its
  /// exact position, if any.
  std::optional<UserEntry> closestUser(unsigned group) {
    if (groups[group].rekeyUsers)
      rekeyUsers(group);
    SmallVector<UserEntry, 2> &heap = groups[group].fragmentUsers;
    while (!heap.empty()) {
      UserEntry top = heap.front();
      unsigned userGroup = find(groupOf.at(top.user));
      if (userGroup == group) {
        popUser(heap);
        continue;
      }
      unsigned exact = groupPosition(userGroup);
      if (exact == top.position)
        return top;
      popUser(heap);
      pushUser(heap, {exact, top.user});
    }
    return std::nullopt;
  }

  /// The first group in position order using a result of `producer` that
  /// `accept` takes.
  template <typename Fn>
  std::optional<unsigned> firstConsumerWhere(unsigned producer, Fn accept) {
    SmallVector<UserEntry> setAside;
    std::optional<unsigned> found;
    while (std::optional<UserEntry> user = closestUser(producer)) {
      unsigned consumer = find(groupOf.at(user->user));
      if (accept(consumer)) {
        found = consumer;
        break;
      }
      // The consumer's entries all have its position, and will stay in one
      // group: one is set aside, the others are dropped for good.
      setAside.push_back(popUser(groups[producer].fragmentUsers));
      while (std::optional<UserEntry> same = closestUser(producer)) {
        if (same->position != user->position)
          break;
        popUser(groups[producer].fragmentUsers);
      }
    }
    for (UserEntry entry : setAside)
      pushUser(groups[producer].fragmentUsers, entry);
    return found;
  }

  /// Whether a fragment of `consumer` uses a result of `producer`: its first
  /// user at or after the consumer's position is in the consumer. Users
  /// before it are on other meshes (through tokens at most: mesh tensors are
  /// used on their mesh) and set aside once per group.
  bool isConsumerOf(unsigned consumer, unsigned producer) {
    unsigned consumerPosition = groupPosition(consumer);
    std::optional<unsigned> first =
        firstConsumerWhere(producer, [&](unsigned group) {
          return groupPosition(group) >= consumerPosition;
        });
    return first == consumer;
  }

  std::optional<unsigned> selectConsumer(unsigned producer) {
    const FragmentSummary &summary = groups[producer].summary;
    // A token result may be used by a fragment of another mesh, which no
    // merge may join.
    auto allowed = [&](unsigned consumer) {
      const FragmentSummary &other = groups[consumer].summary;
      return other.getMeshName() == summary.getMeshName() &&
             options.allowMerging(summary, other);
    };
    switch (options.selection) {
    case ConsumerSelection::kClosestConsumer: {
      std::optional<unsigned> closest =
          firstConsumerWhere(producer, [](unsigned) { return true; });
      if (closest && allowed(*closest))
        return closest;
      return std::nullopt;
    }
    case ConsumerSelection::kClosestMergeableConsumer:
      return firstConsumerWhere(producer, allowed);
    case ConsumerSelection::kNextOnSameMesh:
    case ConsumerSelection::kNextOnSameMeshIfConsumer: {
      auto &onMesh = byMesh[summary.getMeshName()];
      auto next = onMesh.upper_bound(groupPosition(producer));
      if (next == onMesh.end() || !allowed(next->second))
        return std::nullopt;
      if (options.selection == ConsumerSelection::kNextOnSameMeshIfConsumer &&
          !isConsumerOf(next->second, producer))
        return std::nullopt;
      return next->second;
    }
    }
    return std::nullopt;
  }

  /// `findMergePlacement` on the groups as if they were built.
  std::optional<MergePlacement> findPlacement(unsigned producer,
                                              unsigned consumer) {
    // At the consumer: no other user of the producer comes before it. The
    // consumer's fragments are exactly the users at its position.
    unsigned consumerPosition = groupPosition(consumer);
    if (groups[producer].firstOtherUser > consumerPosition) {
      std::optional<UserEntry> closest = closestUser(producer);
      if (!closest || closest->position >= consumerPosition)
        return MergePlacement::kAtConsumer;
    }
    // At the producer: every operand of the consumer not produced by the two
    // is defined before the producer. The definition that last kept the
    // consumer from moving there is tried first: it usually still does, and
    // a producer refused by the same group visit after visit costs O(1).
    unsigned producerPosition = groupPosition(producer);
    auto blocks = [&](Operation *def) {
      std::optional<unsigned> defGroup = groupOfOp(def);
      return defGroup != consumer && defGroup != producer &&
             position(def) >= producerPosition;
    };
    Operation *&blocking = groups[consumer].blockingDefinition;
    if (blocking && blocks(blocking))
      return std::nullopt;
    blocking = nullptr;
    if (!anyOperandDefinition(consumer, [&](Operation *def) {
          if (!blocks(def))
            return false;
          blocking = def;
          return true;
        }))
      return MergePlacement::kAtProducer;
    return std::nullopt;
  }

  /// The boundary of `group`. A group that has not merged yet is one
  /// fragment whose users are all in the IR (fragments erased as unused
  /// were after it: they are gone), so its boundary is read from the IR;
  /// O(operands + uses) once per fragment.
  RunBoundary &boundaryOf(unsigned group) {
    Group &g = groups[group];
    if (!g.boundary) {
      assert(g.size == 1 && "a merged group has its boundary");
      g.boundary = RunBoundary::of(cast<FragmentOp>(g.first));
    }
    return *g.boundary;
  }

  unsigned merge(unsigned producer, unsigned consumer,
                 MergePlacement placement) {
    ++merges;
    {
      Group &p = groups[producer];
      Group &c = groups[consumer];
      RunBoundary &producerBoundary = boundaryOf(producer);
      RunBoundary &consumerBoundary = boundaryOf(consumer);
      if (std::optional<std::pair<Value, OpOperand *>> trivial =
              findTrivialProducer(
                  producerBoundary,
                  p.size == 1 ? cast<FragmentOp>(p.first) : FragmentOp(),
                  cast<FragmentOp>(p.last), consumerBoundary,
                  /*consumerIsOneFragment=*/c.size == 1)) {
        trivialProducerRuns.push_back({p.first, p.last});
        trivialMerges.substitutes[trivial->first] = trivial->second;
      }
      steps += mergeBoundaries(producerBoundary, consumerBoundary,
                               [&](Value value) {
                                 Operation *def = value.getDefiningOp();
                                 return def && groupOfOp(def) == producer;
                               });
    }
    if (placement == MergePlacement::kAtProducer) {
      // The consumer's fragments move earlier: heaps holding them as users
      // may now have keys larger than their positions.
      anyOperandDefinition(consumer, [&](Operation *def) {
        std::optional<unsigned> defGroup = groupOfOp(def);
        if (defGroup && *defGroup != producer && *defGroup != consumer &&
            groups[*defGroup].visited)
          groups[*defGroup].rekeyUsers = true;
        return false;
      });
    }
    if (groups[consumer].rekeyUsers)
      rekeyUsers(consumer);
    Group &p = groups[producer];
    Group &c = groups[consumer];
    auto &onMesh = byMesh[p.summary.getMeshName()];
    onMesh.erase(positionOf.at(p.anchor));
    onMesh.erase(positionOf.at(c.anchor));
    // The larger group becomes the root, so finds stay short; the larger
    // user heap absorbs the smaller.
    unsigned root = p.size >= c.size ? producer : consumer;
    unsigned child = root == producer ? consumer : producer;
    Group &r = groups[root];
    Group &ch = groups[child];
    Operation *anchor =
        placement == MergePlacement::kAtConsumer ? c.anchor : p.anchor;
    FragmentSummary summary = FragmentSummary::merge(p.summary, c.summary);
    nextInGroup[p.last] = c.first;
    Operation *first = p.first, *last = c.last;
    if (r.fragmentUsers.size() < ch.fragmentUsers.size())
      std::swap(r.fragmentUsers, ch.fragmentUsers);
    for (UserEntry entry : ch.fragmentUsers)
      pushUser(r.fragmentUsers, entry);
    ch.fragmentUsers.clear();
    r.firstOtherUser = std::min(r.firstOtherUser, ch.firstOtherUser);
    r.anchor = anchor;
    r.first = first;
    r.last = last;
    r.summary = summary;
    if (root != producer)
      std::swap(r.boundary, groups[producer].boundary);
    ch.boundary.reset();
    r.size += ch.size;
    r.visited = true;
    ch.parent = root;
    onMesh[positionOf.at(anchor)] = root;
    return root;
  }

  /// Builds every group of two or more fragments. Groups do not overlap, so
  /// each is built on its own; the IR is whole again once all are.
  void build() {
    // A run merged as a trivial producer is a contiguous part of its group's
    // fragments in merge order: mark its first and last fragments, then
    // collect the fragments in between while listing each group.
    llvm::DenseMap<Operation *, unsigned> runsStarting, runsEnding;
    for (auto [first, last] : trivialProducerRuns) {
      ++runsStarting[first];
      ++runsEnding[last];
    }
    resolveSubstituteChains(trivialMerges.substitutes);
    for (unsigned group = 0; group < groups.size(); ++group) {
      if (find(group) != group || groups[group].size < 2)
        continue;
      SmallVector<FragmentOp> fragments;
      unsigned openRuns = 0;
      anyFragment(group, [&](FragmentOp fragment) {
        fragments.push_back(fragment);
        openRuns += runsStarting.lookup(fragment);
        if (openRuns > 0)
          trivialMerges.producers.insert(fragment);
        openRuns -= runsEnding.lookup(fragment);
        return false;
      });
      mergeFragmentSequence(fragments, groups[group].summary,
                            groups[group].anchor, fragments.size() - 1,
                            rewriter, trivialMerges);
    }
  }

  Block &block;
  const FragmentMergeTraversalOptions &options;
  RewriterBase &rewriter;
  llvm::DenseMap<Operation *, unsigned> positionOf;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  llvm::DenseMap<Operation *, Operation *> nextInGroup;
  SmallVector<Group, 0> groups;
  /// The groups of each mesh by position.
  llvm::DenseMap<StringAttr, std::map<unsigned, unsigned>> byMesh;
  /// The trivial-producer merges decided: each producer group as its first
  /// and last fragments, and the substitutes of their results.
  SmallVector<std::pair<Operation *, Operation *>> trivialProducerRuns;
  TrivialProducerMerges trivialMerges;
  uint64_t steps = 0, merges = 0;
};

} // namespace

bool mlir::mpmd::mergeFragmentsInBlock(
    Block &block, const FragmentMergeTraversalOptions &options,
    RewriterBase &rewriter) {
  return MergeTraversal(block, options, rewriter).run();
}

bool mlir::mpmd::mergeFragmentsInFunction(
    func::FuncOp function, const FragmentMergeTraversalOptions &options,
    RewriterBase &rewriter) {
  SmallVector<Block *> blocks = getBlocksWithFragments(function);
  bool changed = false;
  for (Block *block : blocks)
    changed |= mergeFragmentsInBlock(*block, options, rewriter);
  return changed;
}
