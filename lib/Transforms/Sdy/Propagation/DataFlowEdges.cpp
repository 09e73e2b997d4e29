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
  return isa<hlo::WhileOp, hlo::CaseOp, hlo::OptimizationBarrierOp>(op);
}

SmallVector<OpResult> getEdgeOwners(Operation *op) {
  SmallVector<OpResult> owners;
  if (!isDataFlowOp(op))
    return owners;
  for (OpResult result : op->getResults())
    if (isStaticTensor(result.getType()))
      owners.push_back(result);
  return owners;
}

SmallVector<Value> getEdgeSources(OpResult owner) {
  unsigned index = owner.getResultNumber();
  SmallVector<Value> sources;
  Operation *op = owner.getOwner();
  if (auto loop = dyn_cast<hlo::WhileOp>(op)) {
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

SmallVector<Value> getNonOwnerTargets(OpResult owner) {
  auto loop = dyn_cast<hlo::WhileOp>(owner.getOwner());
  if (!loop)
    return {};
  unsigned index = owner.getResultNumber();
  return {loop.getCond().getArgument(index), loop.getBody().getArgument(index)};
}

OpResult getEdgeOwnerFromTarget(Value target) {
  OpResult owner;
  if (auto arg = dyn_cast<BlockArgument>(target)) {
    if (auto loop = dyn_cast<hlo::WhileOp>(arg.getOwner()->getParentOp()))
      owner = loop->getResult(arg.getArgNumber());
  } else if (isDataFlowOp(target.getDefiningOp())) {
    owner = cast<OpResult>(target);
  }
  if (!owner || !isStaticTensor(owner.getType()))
    return {};
  return owner;
}

OpResult getEdgeOwnerFromSource(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  OpResult owner;
  if (isa<hlo::WhileOp, hlo::OptimizationBarrierOp>(user)) {
    owner = user->getResult(index);
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
