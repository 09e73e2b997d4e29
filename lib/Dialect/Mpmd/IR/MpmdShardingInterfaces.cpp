//===- MpmdShardingInterfaces.cpp - How shardings cross MPMD ops ----------===//
//
// The sdy interfaces that let the propagation engine run over a whole MPMD
// program, as upstream's MPMD ops implement them:
// * a fragment is a data-flow op: each block argument owns an edge from the
//   operand it receives, each result an edge from the value its body
//   returns; the shardings live in `in_shardings` / `out_shardings`;
// * an `mpmd.for` is a data-flow op like `stablehlo.while`: result i owns
//   the edge from operand i and the body's returned value i, with block
//   argument i as a second target; shardings live in `sdy.sharding`;
// * a transfer is pointwise between meshes of the same shape, and opaque
//   between meshes of different shapes (no rule).
// They are external models, attached when the dialect loads, so that the
// ops' definitions do not depend on propagation.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdShardingInterfaces.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Sdy/IR/SdyShardingInterfaces.h"

namespace mlir::mpmd {

namespace {

constexpr StringLiteral kShardingAttrName = sdy::SdyDialect::kShardingAttrName;

/// Statically shaped tensors and mesh tensors carry shardings; tokens and
/// dynamic shapes do not.
bool isShardable(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && !isa<UnrankedTensorType>(type) && shaped.hasStaticShape();
}

int64_t getRank(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() ? shaped.getRank() : 0;
}

/// `existing` (one entry per type of `types`, or null) with the entries of
/// `updates` (index, sharding) replaced; entries that were missing are
/// fully open on the mesh of the first update. O(types + updates).
sdy::TensorShardingPerValueAttr
withShardings(sdy::TensorShardingPerValueAttr existing, TypeRange types,
              ArrayRef<std::pair<unsigned, sdy::TensorShardingAttr>> updates) {
  if (updates.empty())
    return existing;
  sdy::TensorShardingAttr first = updates.front().second;
  MLIRContext *ctx = first.getContext();
  SmallVector<sdy::TensorShardingAttr> entries;
  if (existing && existing.getShardings().size() == types.size())
    llvm::append_range(entries, existing.getShardings());
  else
    for (Type type : types)
      entries.push_back(sdy::TensorShardingAttr::getFullyOpen(
          ctx, first.getMeshOrRef(), getRank(type)));
  for (auto [index, sharding] : updates)
    entries[index] = sharding;
  return sdy::TensorShardingPerValueAttr::get(ctx, entries);
}

/// (index of each owner, its sharding) for the non-null `shardings`.
template <typename OwnerRange>
SmallVector<std::pair<unsigned, sdy::TensorShardingAttr>>
getUpdates(const OwnerRange &owners,
           ArrayRef<sdy::TensorShardingAttr> shardings,
           function_ref<unsigned(Value)> indexOf) {
  SmallVector<std::pair<unsigned, sdy::TensorShardingAttr>> updates;
  for (auto [owner, sharding] : llvm::zip(owners, shardings))
    if (sharding)
      updates.emplace_back(indexOf(owner), sharding);
  return updates;
}

unsigned getArgNumber(Value value) {
  return cast<BlockArgument>(value).getArgNumber();
}

unsigned getResultNumber(Value value) {
  return cast<OpResult>(value).getResultNumber();
}

sdy::TensorShardingAttr getEntry(sdy::TensorShardingPerValueAttr shardings,
                                 unsigned index) {
  if (!shardings || index >= shardings.getShardings().size())
    return nullptr;
  return shardings.getShardings()[index];
}

/// The result of `op` whose index is `index`, if it owns an edge.
Value getOwningResult(Operation *op, unsigned index) {
  if (index >= op->getNumResults() ||
      !isShardable(op->getResult(index).getType()))
    return nullptr;
  return op->getResult(index);
}

/// `mpmd.fragment`: block arguments and results own edges.
struct FragmentDataFlowModel
    : sdy::ShardableDataFlowOpInterface::ExternalModel<FragmentDataFlowModel,
                                                       FragmentOp> {
  SmallVector<BlockArgument> getBlockArgumentEdgeOwners(Operation *op) const {
    SmallVector<BlockArgument> owners;
    for (BlockArgument arg : op->getRegion(0).front().getArguments())
      if (isShardable(arg.getType()))
        owners.push_back(arg);
    return owners;
  }

  SmallVector<OpResult> getOpResultEdgeOwners(Operation *op) const {
    SmallVector<OpResult> owners;
    for (OpResult result : op->getResults())
      if (isShardable(result.getType()))
        owners.push_back(result);
    return owners;
  }

  SmallVector<Value> getEdgeSources(Operation *op, Value owner) const {
    if (auto arg = dyn_cast<BlockArgument>(owner))
      return {op->getOperand(arg.getArgNumber())};
    unsigned index = cast<OpResult>(owner).getResultNumber();
    return {op->getRegion(0).front().getTerminator()->getOperand(index)};
  }

  SmallVector<Value> getNonEdgeOwnerTargets(Operation *, Value) const {
    return {};
  }

  Value getEdgeOwnerFromTarget(Operation *op, Value target) const {
    if (!isShardable(target.getType()))
      return nullptr;
    if (auto arg = dyn_cast<BlockArgument>(target))
      return arg.getOwner()->getParentOp() == op ? target : nullptr;
    return target.getDefiningOp() == op ? target : nullptr;
  }

  Value getEdgeOwnerFromSource(Operation *op, OpOperand &source) const {
    unsigned index = source.getOperandNumber();
    Block &body = op->getRegion(0).front();
    if (source.getOwner() == op) {
      BlockArgument arg = body.getArgument(index);
      return isShardable(arg.getType()) ? arg : nullptr;
    }
    if (source.getOwner() == body.getTerminator())
      return getOwningResult(op, index);
    return nullptr;
  }

  sdy::TensorShardingAttr getEdgeOwnerSharding(Operation *op,
                                               Value owner) const {
    auto fragment = cast<FragmentOp>(op);
    if (auto arg = dyn_cast<BlockArgument>(owner))
      return getEntry(fragment.getInShardingsAttr(), arg.getArgNumber());
    return getEntry(fragment.getOutShardingsAttr(),
                    cast<OpResult>(owner).getResultNumber());
  }

  void setBlockArgumentEdgeOwnerShardings(
      Operation *op, ArrayRef<sdy::TensorShardingAttr> shardings) const {
    auto fragment = cast<FragmentOp>(op);
    fragment.setInShardingsAttr(withShardings(
        fragment.getInShardingsAttr(), op->getOperandTypes(),
        getUpdates(getBlockArgumentEdgeOwners(op), shardings, getArgNumber)));
  }

  void setOpResultEdgeOwnerShardings(
      Operation *op, ArrayRef<sdy::TensorShardingAttr> shardings) const {
    auto fragment = cast<FragmentOp>(op);
    fragment.setOutShardingsAttr(withShardings(
        fragment.getOutShardingsAttr(), op->getResultTypes(),
        getUpdates(getOpResultEdgeOwners(op), shardings, getResultNumber)));
  }
};

/// `mpmd.for`: results own edges, like `stablehlo.while`'s.
struct ForDataFlowModel
    : sdy::ShardableDataFlowOpInterface::ExternalModel<ForDataFlowModel,
                                                       ForOp> {
  SmallVector<BlockArgument> getBlockArgumentEdgeOwners(Operation *) const {
    return {};
  }

  SmallVector<OpResult> getOpResultEdgeOwners(Operation *op) const {
    SmallVector<OpResult> owners;
    for (OpResult result : op->getResults())
      if (isShardable(result.getType()))
        owners.push_back(result);
    return owners;
  }

  SmallVector<Value> getEdgeSources(Operation *op, Value owner) const {
    unsigned index = cast<OpResult>(owner).getResultNumber();
    return {op->getOperand(index),
            op->getRegion(0).front().getTerminator()->getOperand(index)};
  }

  SmallVector<Value> getNonEdgeOwnerTargets(Operation *op, Value owner) const {
    return {op->getRegion(0).front().getArgument(
        cast<OpResult>(owner).getResultNumber())};
  }

  Value getEdgeOwnerFromTarget(Operation *op, Value target) const {
    if (auto arg = dyn_cast<BlockArgument>(target)) {
      // The index argument is no loop-carried value.
      if (arg.getOwner()->getParentOp() != op ||
          arg == cast<ForOp>(op).getIndexArgument())
        return nullptr;
      return getOwningResult(op, arg.getArgNumber());
    }
    if (target.getDefiningOp() != op)
      return nullptr;
    return getOwningResult(op, cast<OpResult>(target).getResultNumber());
  }

  Value getEdgeOwnerFromSource(Operation *op, OpOperand &source) const {
    if (source.getOwner() == op ||
        source.getOwner() == op->getRegion(0).front().getTerminator())
      return getOwningResult(op, source.getOperandNumber());
    return nullptr;
  }

  sdy::TensorShardingAttr getEdgeOwnerSharding(Operation *op,
                                               Value owner) const {
    return getEntry(
        op->getAttrOfType<sdy::TensorShardingPerValueAttr>(kShardingAttrName),
        cast<OpResult>(owner).getResultNumber());
  }

  void
  setBlockArgumentEdgeOwnerShardings(Operation *,
                                     ArrayRef<sdy::TensorShardingAttr>) const {}

  void setOpResultEdgeOwnerShardings(
      Operation *op, ArrayRef<sdy::TensorShardingAttr> shardings) const {
    sdy::TensorShardingPerValueAttr updated = withShardings(
        op->getAttrOfType<sdy::TensorShardingPerValueAttr>(kShardingAttrName),
        op->getResultTypes(),
        getUpdates(getOpResultEdgeOwners(op), shardings, getResultNumber));
    if (updated)
      op->setAttr(kShardingAttrName, updated);
  }
};

/// `mpmd.transfer`: pointwise between meshes of one shape.
struct TransferShardingRuleModel
    : sdy::ShardingRuleOpInterface::ExternalModel<TransferShardingRuleModel,
                                                  TransferOp> {
  sdy::OpShardingRuleAttr getShardingRule(Operation *op) const {
    auto transfer = cast<TransferOp>(op);
    auto source = cast<MeshTensorType>(transfer.getTensor().getType());
    auto target = cast<MeshTensorType>(transfer.getType());
    if (source.getMeshName() != target.getMeshName()) {
      // Meshes of different shapes do not share axes.
      TopologyAttr topology = getTopology(op);
      if (!topology)
        return nullptr;
      sdy::MeshAttr sourceMesh, targetMesh;
      for (NamedMeshAttr mesh : topology.getMeshes()) {
        if (mesh.getName() == source.getMeshName())
          sourceMesh = mesh.getMesh();
        if (mesh.getName() == target.getMeshName())
          targetMesh = mesh.getMesh();
      }
      if (!sourceMesh || sourceMesh != targetMesh)
        return nullptr;
    }
    // Pointwise: dimension d of the operand and of the result is factor d.
    MLIRContext *ctx = op->getContext();
    ArrayRef<int64_t> shape = source.getRankedTensorType().getShape();
    SmallVector<sdy::DimMappingAttr> dims;
    for (int64_t dim : llvm::seq<int64_t>(0, shape.size()))
      dims.push_back(sdy::DimMappingAttr::get(ctx, {dim}));
    auto mapping = sdy::TensorMappingAttr::get(ctx, dims);
    return sdy::OpShardingRuleAttr::get(ctx, shape, {mapping}, {mapping}, {},
                                        {}, {}, {}, /*isCustomRule=*/false);
  }
};

} // namespace

void registerShardingInterfaceModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MpmdDialect *) {
    FragmentOp::attachInterface<FragmentDataFlowModel>(*ctx);
    ForOp::attachInterface<ForDataFlowModel>(*ctx);
    TransferOp::attachInterface<TransferShardingRuleModel>(*ctx);
  });
}

} // namespace mlir::mpmd
