//===- DataFlowEdges.cpp - Data-flow edges of region and barrier ops ------===//

#include "DataFlowEdges.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

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

} // namespace

bool isDataFlowOp(Operation *op) {
  // `stablehlo.if` is left out, as upstream leaves it out (frameworks emit
  // `case`); its results stay opaque to propagation.
  return isa<hlo::WhileOp, hlo::CaseOp, hlo::OptimizationBarrierOp,
             NamedComputationOp>(op);
}

SmallVector<Value> getEdgeOwners(Operation *op) {
  SmallVector<Value> owners;
  if (!isDataFlowOp(op))
    return owners;
  if (auto named = dyn_cast<NamedComputationOp>(op))
    for (BlockArgument arg : named.getBody().getArguments())
      if (isStaticTensor(arg.getType()))
        owners.push_back(arg);
  for (OpResult result : op->getResults())
    if (isStaticTensor(result.getType()))
      owners.push_back(result);
  return owners;
}

SmallVector<Value> getEdgeSources(Value owner) {
  if (auto arg = dyn_cast<BlockArgument>(owner))
    return {arg.getOwner()->getParentOp()->getOperand(arg.getArgNumber())};
  auto result = cast<OpResult>(owner);
  unsigned index = result.getResultNumber();
  SmallVector<Value> sources;
  Operation *op = result.getOwner();
  if (isa<NamedComputationOp>(op)) {
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
  auto loop = owner.getDefiningOp<hlo::WhileOp>();
  if (!loop)
    return {};
  unsigned index = cast<OpResult>(owner).getResultNumber();
  return {loop.getCond().getArgument(index), loop.getBody().getArgument(index)};
}

Value getEdgeOwnerFromTarget(Value target) {
  Value owner;
  if (auto arg = dyn_cast<BlockArgument>(target)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<hlo::WhileOp>(parent))
      owner = loop->getResult(arg.getArgNumber());
    else if (isa<NamedComputationOp>(parent))
      owner = arg;
  } else if (isDataFlowOp(target.getDefiningOp())) {
    owner = target;
  }
  if (!owner || !isStaticTensor(owner.getType()))
    return {};
  return owner;
}

Value getEdgeOwnerFromSource(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  Value owner;
  if (isa<hlo::WhileOp, hlo::OptimizationBarrierOp>(user)) {
    owner = user->getResult(index);
  } else if (auto named = dyn_cast<NamedComputationOp>(user)) {
    owner = named.getBody().getArgument(index);
  } else if (isa<ReturnOp>(user) &&
             isa<NamedComputationOp>(user->getParentOp())) {
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

DataFlowEdgeOp getDataFlowEdge(Value owner) {
  for (Operation *user : owner.getUsers())
    if (auto edge = dyn_cast<DataFlowEdgeOp>(user))
      return edge;
  return {};
}

} // namespace mlir::sdy
