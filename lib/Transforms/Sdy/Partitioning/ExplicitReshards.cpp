//===- ExplicitReshards.cpp - Making ops run on compatible shardings ------===//

#include "ExplicitReshards.h"

#include "../Propagation/DataFlowEdges.h"
#include "../Propagation/ShardingUtils.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {

TensorShardingAttr getPartitionSharding(Value value) {
  if (TensorShardingAttr sharding = getSharding(value))
    return sharding;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return nullptr;
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto manual = dyn_cast_or_null<ManualComputationOp>(parent))
    return stripManualAxes(
        manual.getInShardings().getShardings()[arg.getArgNumber()],
        manual.getManualAxes());
  if (Value owner = getEdgeOwnerFromTarget(arg))
    return getEdgeOwnerSharding(owner);
  return nullptr;
}

bool areEquivalent(TensorShardingAttr a, TensorShardingAttr b,
                   Operation *scope) {
  if (!a || !b) {
    TensorShardingAttr present = a ? a : b;
    return !present || present.isFullyReplicated();
  }
  if (a.getMesh(scope) != b.getMesh(scope) ||
      a.getUnreducedAxes() != b.getUnreducedAxes() ||
      a.getUnreducedKind() != b.getUnreducedKind() ||
      a.getDimShardings().size() != b.getDimShardings().size())
    return false;
  return llvm::equal(a.getDimShardings(), b.getDimShardings(),
                     [](DimensionShardingAttr x, DimensionShardingAttr y) {
                       return x.getAxes() == y.getAxes();
                     });
}

TensorShardingAttr getClosedForm(TensorShardingAttr sharding) {
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    dims.push_back(DimensionShardingAttr::get(sharding.getContext(),
                                              dim.getAxes(), /*isClosed=*/true,
                                              /*priority=*/std::nullopt));
  return TensorShardingAttr::get(sharding.getContext(), sharding.getMeshOrRef(),
                                 dims, {}, sharding.getUnreducedAxes(),
                                 sharding.getUnreducedKind());
}

SmallVector<AxisRefAttr> getAxesNotIn(ArrayRef<AxisRefAttr> axes,
                                      ArrayRef<AxisRefAttr> removed,
                                      MeshAttr mesh) {
  return llvm::to_vector(llvm::make_filter_range(axes, [&](AxisRefAttr axis) {
    return llvm::none_of(removed, [&](AxisRefAttr other) {
      return contains(other, axis, mesh);
    });
  }));
}

namespace {

int64_t getRank(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() ? shaped.getRank() : 0;
}

/// Whether two meshes have the same axes, whatever their device order.
bool haveSameAxes(MeshAttr a, MeshAttr b) { return a.getAxes() == b.getAxes(); }

} // namespace

std::optional<OpFactorView> OpFactorView::build(Operation *op) {
  OpShardingRuleAttr rule = getOrCreateOpShardingRule(
      op, /*conservativePropagation=*/false, /*storeOnOp=*/false);
  if (!rule || rule.getIsCustomRule() ||
      rule.getOperandMappings().size() != op->getNumOperands() ||
      rule.getResultMappings().size() != op->getNumResults())
    return std::nullopt;
  OpFactorView view;
  view.op = op;
  view.rule = rule;
  for (Value operand : op->getOperands())
    view.operandShardings.push_back(getPartitionSharding(operand));
  for (Value result : op->getResults())
    view.resultShardings.push_back(getSharding(result));

  // The common mesh ignoring device order; among its device orders, the
  // one most non-replicated shardings use (the first on ties).
  MeshAttr common;
  SmallVector<std::pair<TensorShardingAttr, int64_t>> orders;
  for (TensorShardingAttr sharding : llvm::concat<TensorShardingAttr>(
           view.operandShardings, view.resultShardings)) {
    if (!sharding)
      continue;
    MeshAttr mesh = sharding.getMesh(op);
    if (!mesh || isEmptyMesh(mesh))
      continue;
    if (common && !haveSameAxes(common, mesh))
      return std::nullopt;
    if (!common)
      common = mesh;
    bool counts = !sharding.isFullyReplicated();
    auto *it = llvm::find_if(orders, [&](const auto &entry) {
      return entry.first.getMesh(op) == mesh;
    });
    if (it == orders.end())
      orders.push_back({sharding, counts});
    else
      it->second += counts;
  }
  if (!common || isMaximalMesh(common))
    return std::nullopt;
  const auto *best = llvm::max_element(
      orders, [](const auto &a, const auto &b) { return a.second < b.second; });
  view.mesh = {best->first.getMesh(op), best->first.getMeshOrRef()};
  view.projection =
      ShardingProjection::build(view.operandShardings, view.resultShardings,
                                rule, view.mesh.mesh, /*closedIfMissing=*/true);
  return view;
}

SmallVector<int64_t> OpFactorView::getTensorSizes() const {
  SmallVector<int64_t> sizes;
  auto add = [&](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    std::optional<int64_t> size;
    if (type && type.hasStaticShape())
      size = mpmd::checkedProduct(type.getShape());
    // A tensor too large to count weighs the most.
    sizes.push_back(type ? size.value_or(INT64_MAX) : 0);
  };
  llvm::for_each(op->getOperands(), add);
  llvm::for_each(op->getResults(), add);
  return sizes;
}

namespace {

/// The sharding `factors` project back to, in the closed form.
TensorShardingAttr unproject(const OpFactorView &view,
                             const TensorFactorShardings &factors,
                             TensorMappingAttr mapping) {
  return getClosedForm(unprojectTensor(factors, mapping,
                                       view.rule.getFactorSizes(),
                                       view.mesh.mesh, view.mesh.meshOrRef,
                                       /*previous=*/nullptr));
}

/// Whether a tensor sharded by `sharding` must move to reach the op's mesh
/// (a different device order), which only matters when it is sharded.
bool needsDeviceOrderChange(const OpFactorView &view,
                            TensorShardingAttr sharding) {
  return sharding && !sharding.isFullyReplicated() &&
         sharding.getMesh(view.op) != view.mesh.mesh;
}

} // namespace

void applyFactorShardings(const OpFactorView &view,
                          const ShardingProjection &updated,
                          ArrayRef<AxisRefAttr> allReduceAxes,
                          ReductionKind allReduceKind) {
  Operation *op = view.op;
  MLIRContext *context = op->getContext();
  OpBuilder builder(op);
  for (auto [index, operand] : llvm::enumerate(op->getOpOperands())) {
    TensorShardingAttr old = view.operandShardings[index];
    if (updated.operands[index].hasSameFactorAxes(
            view.projection.operands[index]) &&
        !needsDeviceOrderChange(view, old))
      continue;
    TensorShardingAttr sharding = unproject(
        view, updated.operands[index], view.rule.getOperandMappings()[index]);
    if (areEquivalent(old, sharding, op))
      continue;
    auto reshard =
        ReshardOp::create(builder, op->getLoc(), operand.get(), sharding);
    operand.set(reshard);
  }

  int64_t numResults = op->getNumResults();
  SmallVector<TensorShardingAttr> newShardings(numResults);
  SmallVector<bool> changed(numResults, false);
  bool anyChanged = false;
  for (int64_t index : llvm::seq<int64_t>(0, numResults)) {
    TensorShardingAttr old = view.resultShardings[index];
    changed[index] = !updated.results[index].hasSameFactorAxes(
                         view.projection.results[index]) ||
                     needsDeviceOrderChange(view, old);
    newShardings[index] =
        changed[index] ? unproject(view, updated.results[index],
                                   view.rule.getResultMappings()[index])
                       : (old ? old
                              : getFullyClosedSharding(
                                    view.mesh.meshOrRef,
                                    getRank(op->getResult(index).getType())));
    if (changed[index] && areEquivalent(old, newShardings[index], op)) {
      changed[index] = false;
      if (old)
        newShardings[index] = old;
    }
    anyChanged |= changed[index];
  }
  if (!anyChanged && allReduceAxes.empty())
    return;
  if (anyChanged || llvm::any_of(view.resultShardings,
                                 [](TensorShardingAttr s) { return !s; }))
    op->setAttr(SdyDialect::kShardingAttrName,
                TensorShardingPerValueAttr::get(context, newShardings));

  builder.setInsertionPointAfter(op);
  auto reductionAxes = AxisRefListAttr::get(context, allReduceAxes);
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    Value value = result;
    Operation *first = nullptr;
    if (!allReduceAxes.empty()) {
      first = AllReduceOp::create(builder, op->getLoc(), value, reductionAxes,
                                  newShardings[index], allReduceKind);
      value = first->getResult(0);
    }
    if (changed[index]) {
      TensorShardingAttr old = view.resultShardings[index];
      Operation *reshard = ReshardOp::create(
          builder, op->getLoc(), value,
          old ? old
              : getFullyClosedSharding(view.mesh.meshOrRef,
                                       getRank(result.getType())));
      first = first ? first : reshard;
      value = reshard->getResult(0);
    }
    if (first)
      result.replaceAllUsesExcept(value, first);
  }
}

} // namespace mlir::sdy
