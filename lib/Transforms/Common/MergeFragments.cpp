//===- MergeFragments.cpp - Merging fragments, and the merge traversal ----===//

#include "mpmd/Transforms/Common/MergeFragments.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"

#include <cassert>
#include <map>

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

} // namespace

FragmentSummary::FragmentSummary(FragmentOp fragment)
    : meshName(fragment.getMeshNameAttr()), origin(fragment.getOriginAttr()),
      stageId(fragment.getStageIdAttr()) {
  NamedAttrList attrs;
  for (NamedAttribute attr : fragment->getDiscardableAttrs())
    if (!isMergeSpecificAttribute(attr.getName().getValue()))
      attrs.push_back(attr);
  attributes = attrs.getDictionary(fragment->getContext());
}

FragmentSummary FragmentSummary::merge(const FragmentSummary &producer,
                                       const FragmentSummary &consumer) {
  MLIRContext *ctx = producer.origin.getContext();
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
  return FragmentSummary(
      consumer.meshName, mergeOrigins(producer.origin, consumer.origin),
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
    Operation *insertionPoint, unsigned keptBodyIndex, RewriterBase &rewriter) {
  assert(fragments.size() >= 2 && keptBodyIndex < fragments.size() &&
         "expected at least two fragments and a kept body among them");
  MLIRContext *ctx = summary.getOrigin().getContext();
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
  llvm::SetVector<Value> data;
  for (FragmentOp fragment : fragments)
    for (Value operand :
         fragment->getOperands().take_front(getNumDataOperands(fragment)))
      if (!isMemberResult(operand))
        data.insert(operand);
  llvm::SetVector<Value> control;
  for (FragmentOp fragment : fragments)
    for (Value operand :
         fragment->getOperands().drop_front(getNumDataOperands(fragment)))
      if (!data.contains(operand) && !isMemberResult(operand))
        control.insert(operand);
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
      summary.getOrigin(), summary.getMeshName(), summary.getStageId(),
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
                               options.keepProducerBody ? 0 : 1, rewriter);
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
        groups.push_back(Group{fragment, fragment, fragment,
                               FragmentSummary(fragment), group, 1});
        byMesh[fragment.getMeshNameAttr()][index] = group;
        fragments.push_back(fragment);
      }
    }
    bool changed = false;
    for (FragmentOp fragment : llvm::reverse(fragments)) {
      if (options.eraseUnusedPureFragments && isOpTriviallyDead(fragment)) {
        byMesh[fragment.getMeshNameAttr()].erase(positionOf.at(fragment));
        rewriter.eraseOp(fragment);
        changed = true;
        continue;
      }
      unsigned current = find(groupOf.at(fragment));
      while (std::optional<unsigned> consumer = selectConsumer(current)) {
        std::optional<MergePlacement> placement =
            findPlacement(current, *consumer);
        if (!placement)
          break;
        current = merge(current, *consumer, *placement);
        changed = true;
      }
    }
    build();
    return changed;
  }

private:
  struct Group {
    /// The fragment whose position the merged fragment takes.
    Operation *anchor;
    /// The fragments in merge order, as a list through `nextInGroup`.
    Operation *first, *last;
    FragmentSummary summary;
    /// Union-find parent, and the number of fragments.
    unsigned parent, size;
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

  template <typename Fn> void forEachFragment(unsigned group, Fn fn) {
    for (Operation *op = groups[group].first; op;
         op = nextInGroup.lookup(op)) {
      fn(cast<FragmentOp>(op));
      if (op == groups[group].last)
        break;
    }
  }

  /// Calls `fn` with the op of the block holding each user of `group` outside
  /// it (users outside the block are skipped).
  template <typename Fn> void forEachExternalUser(unsigned group, Fn fn) {
    forEachFragment(group, [&](FragmentOp fragment) {
      for (Operation *user : fragment->getUsers()) {
        Operation *ancestor = block.findAncestorOpInBlock(*user);
        if (ancestor && groupOfOp(ancestor) != group)
          fn(ancestor);
      }
    });
  }

  /// The groups with a fragment using a result of `group`, by position.
  SmallVector<unsigned> consumers(unsigned group) {
    SmallVector<unsigned> result;
    llvm::SmallDenseSet<unsigned, 8> seen;
    forEachFragment(group, [&](FragmentOp fragment) {
      for (Operation *user : fragment->getUsers()) {
        if (!isa<FragmentOp>(user) || user->getBlock() != &block)
          continue;
        unsigned consumer = *groupOfOp(user);
        if (consumer != group && seen.insert(consumer).second)
          result.push_back(consumer);
      }
    });
    llvm::sort(result, [&](unsigned lhs, unsigned rhs) {
      return groupPosition(lhs) < groupPosition(rhs);
    });
    return result;
  }

  std::optional<unsigned> selectConsumer(unsigned producer) {
    const FragmentSummary &summary = groups[producer].summary;
    auto allowed = [&](unsigned consumer) {
      return options.allowMerging(summary, groups[consumer].summary);
    };
    switch (options.selection) {
    case ConsumerSelection::kClosestConsumer: {
      SmallVector<unsigned> all = consumers(producer);
      if (!all.empty() && allowed(all.front()))
        return all.front();
      return std::nullopt;
    }
    case ConsumerSelection::kClosestMergeableConsumer:
      for (unsigned consumer : consumers(producer))
        if (allowed(consumer))
          return consumer;
      return std::nullopt;
    case ConsumerSelection::kNextOnSameMesh:
    case ConsumerSelection::kNextOnSameMeshIfConsumer: {
      auto &onMesh = byMesh[summary.getMeshName()];
      auto next = onMesh.upper_bound(groupPosition(producer));
      if (next == onMesh.end() || !allowed(next->second))
        return std::nullopt;
      if (options.selection == ConsumerSelection::kNextOnSameMeshIfConsumer &&
          !llvm::is_contained(consumers(producer), next->second))
        return std::nullopt;
      return next->second;
    }
    }
    return std::nullopt;
  }

  /// `findMergePlacement` on the groups as if they were built.
  std::optional<MergePlacement> findPlacement(unsigned producer,
                                              unsigned consumer) {
    unsigned consumerPosition = groupPosition(consumer);
    bool atConsumer = true;
    forEachExternalUser(producer, [&](Operation *user) {
      if (groupOfOp(user) != consumer && position(user) < consumerPosition)
        atConsumer = false;
    });
    if (atConsumer)
      return MergePlacement::kAtConsumer;
    unsigned producerPosition = groupPosition(producer);
    bool atProducer = true;
    forEachFragment(consumer, [&](FragmentOp fragment) {
      for (Value operand : fragment->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def)
          continue;
        Operation *ancestor = block.findAncestorOpInBlock(*def);
        if (!ancestor)
          continue;
        std::optional<unsigned> defGroup = groupOfOp(ancestor);
        if (defGroup == consumer || defGroup == producer)
          continue;
        if (position(ancestor) >= producerPosition)
          atProducer = false;
      }
    });
    if (atProducer)
      return MergePlacement::kAtProducer;
    return std::nullopt;
  }

  unsigned merge(unsigned producer, unsigned consumer,
                 MergePlacement placement) {
    Group &p = groups[producer];
    Group &c = groups[consumer];
    auto &onMesh = byMesh[p.summary.getMeshName()];
    onMesh.erase(positionOf.at(p.anchor));
    onMesh.erase(positionOf.at(c.anchor));
    // The larger group becomes the root, so finds stay short.
    unsigned root = p.size >= c.size ? producer : consumer;
    unsigned child = root == producer ? consumer : producer;
    Group merged{placement == MergePlacement::kAtConsumer ? c.anchor
                                                          : p.anchor,
                 p.first, c.last, FragmentSummary::merge(p.summary, c.summary),
                 root, p.size + c.size};
    nextInGroup[p.last] = c.first;
    groups[root] = merged;
    groups[child].parent = root;
    onMesh[positionOf.at(merged.anchor)] = root;
    return root;
  }

  /// Builds every group of two or more fragments. Groups do not overlap, so
  /// each is built on its own; the IR is whole again once all are.
  void build() {
    for (unsigned group = 0; group < groups.size(); ++group) {
      if (find(group) != group || groups[group].size < 2)
        continue;
      SmallVector<FragmentOp> fragments;
      forEachFragment(group,
                      [&](FragmentOp fragment) { fragments.push_back(fragment); });
      mergeFragmentSequence(fragments, groups[group].summary,
                            groups[group].anchor, fragments.size() - 1,
                            rewriter);
    }
  }

  Block &block;
  const FragmentMergeTraversalOptions &options;
  RewriterBase &rewriter;
  llvm::DenseMap<Operation *, unsigned> positionOf;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  llvm::DenseMap<Operation *, Operation *> nextInGroup;
  SmallVector<Group> groups;
  /// The groups of each mesh by position.
  llvm::DenseMap<StringAttr, std::map<unsigned, unsigned>> byMesh;
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
