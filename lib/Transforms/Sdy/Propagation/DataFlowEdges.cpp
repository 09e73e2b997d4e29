//===- DataFlowEdges.cpp - Data-flow edges of region and barrier ops ------===//

#include "DataFlowEdges.h"

#include "ShardingUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
namespace {

namespace hlo = ::mlir::stablehlo;

bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// The value the terminator of `region` passes on at `index`.
Value getReturned(Region &region, unsigned index) {
  return region.front().getTerminator()->getOperand(index);
}

bool isStablehloDataFlowOp(Operation *op) {
  // `stablehlo.if` is left out, as upstream leaves it out (frameworks emit
  // `case`); its results stay opaque to propagation.
  return isa<hlo::WhileOp, hlo::CaseOp, hlo::OptimizationBarrierOp,
             NamedComputationOp, ManualComputationOp>(op);
}

/// Whether the block arguments of `op` own edges (their operands flow in).
bool hasArgumentEdges(Operation *op) {
  return isa_and_nonnull<NamedComputationOp, ManualComputationOp>(op);
}

/// The op a block argument or result belongs to.
Operation *getOwningOp(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner()->getParentOp();
  return value.getDefiningOp();
}

} // namespace

bool isDataFlowOp(Operation *op) {
  return op &&
         (isStablehloDataFlowOp(op) || isa<ShardableDataFlowOpInterface>(op));
}

SmallVector<Value> getEdgeOwners(Operation *op) {
  SmallVector<Value> owners;
  if (auto dataFlow = dyn_cast<ShardableDataFlowOpInterface>(op)) {
    llvm::append_range(owners, dataFlow.getBlockArgumentEdgeOwners());
    llvm::append_range(owners, dataFlow.getOpResultEdgeOwners());
    return owners;
  }
  if (!isStablehloDataFlowOp(op))
    return owners;
  if (hasArgumentEdges(op))
    for (BlockArgument arg : op->getRegion(0).getArguments())
      if (isStaticTensor(arg.getType()))
        owners.push_back(arg);
  for (OpResult result : op->getResults())
    if (isStaticTensor(result.getType()))
      owners.push_back(result);
  return owners;
}

SmallVector<Value> getEdgeSources(Value owner) {
  Operation *op = getOwningOp(owner);
  if (auto dataFlow = dyn_cast<ShardableDataFlowOpInterface>(op))
    return dataFlow.getEdgeSources(owner);
  // A named or manual computation's block argument receives its operand.
  if (auto arg = dyn_cast<BlockArgument>(owner))
    return {op->getOperand(arg.getArgNumber())};
  unsigned index = cast<OpResult>(owner).getResultNumber();
  SmallVector<Value> sources;
  if (isa<NamedComputationOp, ManualComputationOp>(op)) {
    sources.push_back(getReturned(op->getRegion(0), index));
  } else if (auto loop = dyn_cast<hlo::WhileOp>(op)) {
    sources.push_back(loop->getOperand(index));
    sources.push_back(getReturned(loop.getBody(), index));
  } else if (auto caseOp = dyn_cast<hlo::CaseOp>(op)) {
    for (Region &branch : caseOp.getBranches())
      sources.push_back(getReturned(branch, index));
  } else if (isa<hlo::OptimizationBarrierOp>(op)) {
    sources.push_back(op->getOperand(index));
  }
  return sources;
}

SmallVector<Value> getNonOwnerTargets(Value owner) {
  Operation *op = getOwningOp(owner);
  if (auto dataFlow = dyn_cast<ShardableDataFlowOpInterface>(op))
    return dataFlow.getNonEdgeOwnerTargets(owner);
  auto loop = dyn_cast<hlo::WhileOp>(op);
  if (!loop)
    return {};
  unsigned index = cast<OpResult>(owner).getResultNumber();
  return {loop.getCond().getArgument(index), loop.getBody().getArgument(index)};
}

Value getEdgeOwnerFromTarget(Value target) {
  Operation *op = getOwningOp(target);
  if (auto dataFlow = dyn_cast_or_null<ShardableDataFlowOpInterface>(op))
    return dataFlow.getEdgeOwnerFromTarget(target);
  Value owner;
  if (auto arg = dyn_cast<BlockArgument>(target)) {
    if (auto loop = dyn_cast_or_null<hlo::WhileOp>(op))
      owner = loop->getResult(arg.getArgNumber());
    else if (hasArgumentEdges(op))
      owner = arg;
  } else if (op && isStablehloDataFlowOp(op)) {
    owner = target;
  }
  if (!owner || !isStaticTensor(owner.getType()))
    return {};
  return owner;
}

Value getEdgeOwnerFromSource(OpOperand &use) {
  Operation *user = use.getOwner();
  // A use by an op, or by the terminator of one of its regions.
  Operation *candidate =
      user->hasTrait<OpTrait::IsTerminator>() ? user->getParentOp() : user;
  if (auto dataFlow = dyn_cast_or_null<ShardableDataFlowOpInterface>(candidate))
    return dataFlow.getEdgeOwnerFromSource(use);
  unsigned index = use.getOperandNumber();
  Value owner;
  if (isa<hlo::WhileOp, hlo::OptimizationBarrierOp>(user)) {
    owner = user->getResult(index);
  } else if (hasArgumentEdges(user)) {
    owner = user->getRegion(0).getArgument(index);
  } else if (isa<ReturnOp>(user) &&
             isa<NamedComputationOp, ManualComputationOp>(
                 user->getParentOp())) {
    owner = user->getParentOp()->getResult(index);
  } else if (isa<hlo::ReturnOp>(user)) {
    Operation *parent = user->getParentOp();
    // The returns of a while's `cond` yield the predicate, not a value.
    auto loop = dyn_cast<hlo::WhileOp>(parent);
    if ((loop && user->getParentRegion() == &loop.getBody()) ||
        isa<hlo::CaseOp>(parent))
      owner = parent->getResult(index);
  }
  if (!owner || !isStaticTensor(owner.getType()))
    return {};
  return owner;
}

ManualComputationOp getManualComputationOfOwner(Value owner) {
  return dyn_cast_or_null<ManualComputationOp>(getOwningOp(owner));
}

DataFlowEdgeOp getDataFlowEdge(Value owner) {
  for (Operation *user : owner.getUsers())
    if (auto edge = dyn_cast<DataFlowEdgeOp>(user))
      return edge;
  return {};
}

void insertDataFlowEdges(Operation *op) {
  OpBuilder builder(op->getContext());
  Block *argumentBlock = nullptr;
  Operation *lastResultEdge = op;
  for (Value owner : getEdgeOwners(op)) {
    if (getDataFlowEdge(owner))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(owner)) {
      // The edges of a block's arguments start it, in argument order.
      if (arg.getOwner() != argumentBlock) {
        argumentBlock = arg.getOwner();
        builder.setInsertionPointToStart(argumentBlock);
      }
    } else {
      builder.setInsertionPointAfter(lastResultEdge);
    }
    auto edge = DataFlowEdgeOp::create(builder, owner.getLoc(), owner,
                                       getEdgeOwnerSharding(owner));
    if (isa<OpResult>(owner))
      lastResultEdge = edge;
    owner.replaceAllUsesExcept(edge.getResult(), edge);
  }
}

TensorShardingAttr getEdgeOwnerSharding(Value owner) {
  Operation *op = getOwningOp(owner);
  if (auto dataFlow = dyn_cast<ShardableDataFlowOpInterface>(op))
    return dataFlow.getEdgeOwnerSharding(owner);
  // A named computation's block argument: its in_shardings entry; a
  // manual computation's: its in_shardings entry as the body sees it.
  if (auto arg = dyn_cast<BlockArgument>(owner)) {
    if (auto manual = dyn_cast<ManualComputationOp>(op))
      return stripManualAxes(
          manual.getInShardings().getShardings()[arg.getArgNumber()],
          manual.getManualAxes());
    auto named = dyn_cast<NamedComputationOp>(op);
    if (TensorShardingPerValueAttr in =
            named ? named.getInShardingsAttr() : nullptr)
      return in.getShardings()[arg.getArgNumber()];
    return nullptr;
  }
  return getSharding(owner);
}

void setEdgeOwnerShardings(Operation *op,
                           ArrayRef<TensorShardingAttr> shardings) {
  SmallVector<Value> owners = getEdgeOwners(op);
  if (auto dataFlow = dyn_cast<ShardableDataFlowOpInterface>(op)) {
    // Block-argument owners come first (getEdgeOwners).
    size_t numArgs = dataFlow.getBlockArgumentEdgeOwners().size();
    if (llvm::any_of(shardings.take_front(numArgs),
                     [](TensorShardingAttr s) { return s; }))
      dataFlow.setBlockArgumentEdgeOwnerShardings(
          shardings.take_front(numArgs));
    if (llvm::any_of(shardings.drop_front(numArgs),
                     [](TensorShardingAttr s) { return s; }))
      dataFlow.setOpResultEdgeOwnerShardings(shardings.drop_front(numArgs));
    return;
  }
  if (auto manual = dyn_cast<ManualComputationOp>(op)) {
    // Block-argument edges hold the body's view: the manual axes of the
    // in_shardings go back on; result edges hold the global view.
    MLIRContext *context = op->getContext();
    SmallVector<TensorShardingAttr> in(manual.getInShardings().getShardings());
    SmallVector<TensorShardingAttr> out(
        manual.getOutShardings().getShardings());
    for (auto [owner, sharding] : llvm::zip(owners, shardings)) {
      if (!sharding)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(owner)) {
        TensorShardingAttr &global = in[arg.getArgNumber()];
        global = addManualAxes(sharding, global, manual.getManualAxes(),
                               global.getMesh(op));
      } else {
        out[cast<OpResult>(owner).getResultNumber()] = sharding;
      }
    }
    manual.setInShardingsAttr(TensorShardingPerValueAttr::get(context, in));
    manual.setOutShardingsAttr(TensorShardingPerValueAttr::get(context, out));
    return;
  }
  // A StableHLO op keeps one `sdy.sharding` entry per result; results
  // without an edge sharding (tokens among them) are fully open.
  Attribute meshOrRef;
  SmallVector<TensorShardingAttr> perResult(op->getNumResults());
  for (auto [owner, sharding] : llvm::zip(owners, shardings)) {
    perResult[cast<OpResult>(owner).getResultNumber()] = sharding;
    if (sharding && !meshOrRef)
      meshOrRef = sharding.getMeshOrRef();
  }
  if (!meshOrRef)
    return;
  for (auto [result, sharding] : llvm::zip(op->getResults(), perResult)) {
    if (sharding)
      continue;
    auto type = dyn_cast<ShapedType>(result.getType());
    sharding = TensorShardingAttr::getFullyOpen(
        op->getContext(), meshOrRef,
        type && type.hasRank() ? type.getRank() : 0);
  }
  op->setAttr(SdyDialect::kShardingAttrName,
              TensorShardingPerValueAttr::get(op->getContext(), perResult));
}

} // namespace mlir::sdy
