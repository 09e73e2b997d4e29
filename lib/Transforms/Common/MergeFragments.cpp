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

int64_t getRank(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(getBodyType(type));
      shaped && shaped.hasRank())
    return shaped.getRank();
  return 0;
}

/// Shardings for `values`, each taken from the first of `sources` (a value
/// range paired with its sharding attribute) that has it; fully open on the
/// mesh of an existing sharding otherwise. Null when no source has shardings.
sdy::TensorShardingPerValueAttr mergeShardings(
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

/// Same for `arg_attrs`/`res_attrs` dictionaries (empty by default). Null when
/// no entry is a non-empty dictionary.
ArrayAttr mergeDictionaries(MLIRContext *ctx, ArrayRef<Value> values,
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

NamedAttrList mlir::mpmd::mergeFragmentAttributes(FragmentOp producer,
                                                  FragmentOp consumer) {
  MLIRContext *ctx = producer->getContext();
  bool producerIsUser = producer.isUserFragment();
  bool consumerIsUser = consumer.isUserFragment();
  NamedAttrList merged;
  // Other attributes: union; on conflict the only user fragment's value, or
  // else the consumer's.
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
  for (NamedAttribute attr : producer->getDiscardableAttrs())
    names.insert(attr.getName());
  for (NamedAttribute attr : consumer->getDiscardableAttrs())
    names.insert(attr.getName());
  for (StringAttr name : names) {
    if (isMergeSpecificAttribute(name.getValue()))
      continue;
    Attribute producerValue = producer->getDiscardableAttr(name);
    Attribute consumerValue = consumer->getDiscardableAttr(name);
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
  return merged;
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

FragmentOp mlir::mpmd::mergeFragments(FragmentOp producer, FragmentOp consumer,
                                      RewriterBase &rewriter,
                                      MergeFragmentsOptions options) {
  assert(producer != consumer && "cannot merge a fragment with itself");
  assert(producer->getBlock() == consumer->getBlock() &&
         producer->isBeforeInBlock(consumer) &&
         "the producer must come before the consumer in the same block");
  assert(producer.getMeshName() == consumer.getMeshName() &&
         "cannot merge fragments of different meshes");
  assert(canMergeAt(producer, consumer, options.placement) &&
         "invalid merge placement");
  MLIRContext *ctx = producer->getContext();
  Operation *producerOp = producer.getOperation();
  auto isProducerResult = [&](Value value) {
    return value.getDefiningOp() == producerOp;
  };

  // Operands: data operands of both, then control operands of both.
  unsigned producerData = getNumDataOperands(producer);
  unsigned consumerData = getNumDataOperands(consumer);
  llvm::SetVector<Value> data;
  data.insert(producer->operand_begin(),
              producer->operand_begin() + producerData);
  for (Value operand : consumer->getOperands().take_front(consumerData))
    if (!isProducerResult(operand))
      data.insert(operand);
  llvm::SetVector<Value> control;
  for (Value operand : producer->getOperands().drop_front(producerData))
    if (!data.contains(operand) && operand.getDefiningOp() != consumer)
      control.insert(operand);
  for (Value operand : consumer->getOperands().drop_front(consumerData))
    if (!data.contains(operand) && !isProducerResult(operand))
      control.insert(operand);
  SmallVector<Value> operands(data.begin(), data.end());
  operands.append(control.begin(), control.end());
  llvm::DenseMap<Value, unsigned> operandIndex;
  for (auto [index, operand] : llvm::enumerate(operands))
    operandIndex.try_emplace(operand, index);

  // Results: producer results with users other than the consumer, then the
  // consumer's.
  SmallVector<unsigned> keptProducerResults;
  for (OpResult result : producer->getResults())
    if (llvm::any_of(result.getUsers(), [&](Operation *user) {
          return user != consumer.getOperation();
        }))
      keptProducerResults.push_back(result.getResultNumber());
  SmallVector<Value> oldResults;
  SmallVector<Type> resultTypes;
  for (unsigned index : keptProducerResults)
    oldResults.push_back(producer->getResult(index));
  llvm::append_range(oldResults, consumer->getResults());
  for (Value result : oldResults)
    resultTypes.push_back(result.getType());

  // The merged op.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(options.placement == MergePlacement::kAtConsumer
                                 ? consumer.getOperation()
                                 : producerOp);
  IntegerAttr stage = producer.getStageIdAttr() ? producer.getStageIdAttr()
                                                : consumer.getStageIdAttr();
  auto merged = FragmentOp::create(
      rewriter, rewriter.getFusedLoc({producer.getLoc(), consumer.getLoc()}),
      resultTypes, operands,
      mergeOrigins(producer.getOriginAttr(), consumer.getOriginAttr()),
      consumer.getMeshNameAttr(), stage,
      mergeShardings(ctx, operands,
                     {{producer->getOperands(), producer.getInShardingsAttr()},
                      {consumer->getOperands(), consumer.getInShardingsAttr()}}),
      mergeShardings(ctx, oldResults,
                     {{producer->getResults(), producer.getOutShardingsAttr()},
                      {consumer->getResults(),
                       consumer.getOutShardingsAttr()}}));
  NamedAttrList attrs = mergeFragmentAttributes(producer, consumer);
  if (ArrayAttr argAttrs = mergeDictionaries(
          ctx, operands,
          {{producer->getOperands(),
            producer->getAttrOfType<ArrayAttr>(kArgAttrsAttrName)},
           {consumer->getOperands(),
            consumer->getAttrOfType<ArrayAttr>(kArgAttrsAttrName)}}))
    attrs.set(kArgAttrsAttrName, argAttrs);
  if (ArrayAttr resAttrs = mergeDictionaries(
          ctx, oldResults,
          {{producer->getResults(),
            producer->getAttrOfType<ArrayAttr>(kResAttrsAttrName)},
           {consumer->getResults(),
            consumer->getAttrOfType<ArrayAttr>(kResAttrsAttrName)}}))
    attrs.set(kResAttrsAttrName, resAttrs);
  if (!control.empty())
    attrs.set(kControlOperandStartIdxAttrName,
              rewriter.getI64IntegerAttr(data.size()));
  for (NamedAttribute attr : attrs)
    merged->setAttr(attr.getName(), attr.getValue());

  // The body: reuse one block, give it the merged arguments, splice the other
  // body in.
  FragmentOp kept = options.keepProducerBody ? producer : consumer;
  FragmentOp spliced = options.keepProducerBody ? consumer : producer;
  rewriter.inlineRegionBefore(kept.getRegion(), merged.getRegion(),
                              merged.getRegion().end());
  Block &body = merged.getRegion().front();
  Block &splicedBody = spliced.getRegion().front();
  unsigned numOldArgs = body.getNumArguments();
  SmallVector<Value> newArgs;
  for (Value operand : operands)
    newArgs.push_back(
        body.addArgument(getBodyType(operand.getType()), operand.getLoc()));
  Operation *producerTerminator = options.keepProducerBody
                                      ? body.getTerminator()
                                      : splicedBody.getTerminator();
  // What each block argument of `fragment` becomes.
  auto argReplacements = [&](FragmentOp fragment) {
    SmallVector<Value> replacements;
    for (Value operand : fragment->getOperands()) {
      if (isProducerResult(operand))
        replacements.push_back(producerTerminator->getOperand(
            cast<OpResult>(operand).getResultNumber()));
      else
        replacements.push_back(newArgs[operandIndex.at(operand)]);
    }
    return replacements;
  };
  SmallVector<Value> keptReplacements = argReplacements(kept);
  for (unsigned i = 0; i < numOldArgs; ++i)
    rewriter.replaceAllUsesWith(body.getArgument(i), keptReplacements[i]);
  body.eraseArguments(0, numOldArgs);
  Operation *consumerTerminator;
  if (options.keepProducerBody) {
    consumerTerminator = splicedBody.getTerminator();
    rewriter.inlineBlockBefore(&splicedBody, producerTerminator,
                               argReplacements(spliced));
  } else {
    consumerTerminator = body.getTerminator();
    rewriter.inlineBlockBefore(&splicedBody, &body, body.begin(),
                               argReplacements(spliced));
  }
  SmallVector<Value> returned;
  for (unsigned index : keptProducerResults)
    returned.push_back(producerTerminator->getOperand(index));
  llvm::append_range(returned, consumerTerminator->getOperands());
  Operation *finalTerminator =
      options.keepProducerBody ? producerTerminator : consumerTerminator;
  Operation *otherTerminator =
      options.keepProducerBody ? consumerTerminator : producerTerminator;
  rewriter.modifyOpInPlace(finalTerminator,
                           [&] { finalTerminator->setOperands(returned); });
  rewriter.eraseOp(otherTerminator);

  // Uses.
  for (auto [oldResult, newResult] :
       llvm::zip(oldResults, merged->getResults()))
    rewriter.replaceAllUsesWith(oldResult, newResult);
  rewriter.eraseOp(consumer);
  rewriter.eraseOp(producer);
  return merged;
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

FragmentOp selectConsumer(FragmentOp producer,
                          const FragmentMergeTraversalOptions &options) {
  switch (options.selection) {
  case ConsumerSelection::kClosestConsumer: {
    FragmentOp consumer = getClosestFragmentConsumer(producer);
    return consumer && options.allowMerging(producer, consumer) ? consumer
                                                                : nullptr;
  }
  case ConsumerSelection::kClosestMergeableConsumer:
    for (FragmentOp consumer : getFragmentConsumers(producer))
      if (options.allowMerging(producer, consumer))
        return consumer;
    return nullptr;
  case ConsumerSelection::kNextOnSameMesh: {
    FragmentOp next = getNextFragmentOnMesh(producer);
    return next && options.allowMerging(producer, next) ? next : nullptr;
  }
  }
  return nullptr;
}

} // namespace

bool mlir::mpmd::mergeFragmentsInBlock(
    Block &block, const FragmentMergeTraversalOptions &options,
    RewriterBase &rewriter) {
  // Merges only involve the visited fragment and later ones, so the earlier
  // fragments of this snapshot stay valid.
  SmallVector<FragmentOp> fragments(block.getOps<FragmentOp>());
  bool changed = false;
  for (FragmentOp fragment : llvm::reverse(fragments)) {
    if (options.eraseUnusedPureFragments && isOpTriviallyDead(fragment)) {
      rewriter.eraseOp(fragment);
      changed = true;
      continue;
    }
    FragmentOp current = fragment;
    while (FragmentOp consumer = selectConsumer(current, options)) {
      std::optional<MergePlacement> placement =
          findMergePlacement(current, consumer);
      if (!placement)
        break;
      MergeFragmentsOptions mergeOptions;
      mergeOptions.placement = *placement;
      current = mergeFragments(current, consumer, rewriter, mergeOptions);
      changed = true;
    }
  }
  return changed;
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
