//===- ResolvePermutationFactors.cpp - -sdy-resolve-permutation-factors ---===//
//
// Permutation factors (slice, pad, reverse, windows, ...) and non-divisible
// reshape groups move data between devices when sharded. This pass runs
// such ops with those factors replicated, resharding around them with the
// machinery of -sdy-insert-explicit-reshards (sdy-notes 5.4), except for
// slice and pad dimensions that need no communication.
//
//===----------------------------------------------------------------------===//

#include "ExplicitReshards.h"
#include "HaloExchange.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_RESOLVEPERMUTATIONFACTORSPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The one dimension of the op's operand `factor` is mapped to (slice and
/// pad map every permutation factor to dimension d of operand and result).
std::optional<int64_t> getOperandDim(OpShardingRuleAttr rule, int64_t factor) {
  for (auto [dim, mapping] :
       llvm::enumerate(rule.getOperandMappings()[0].getDimMappings()))
    if (mapping.getFactorIndices() == ArrayRef<int64_t>{factor})
      return dim;
  return std::nullopt;
}

/// Whether dimension `dim` of `slice`, split in `shards` shards, keeps on
/// each device exactly what that device already holds: the slice starts at
/// 0 with stride 1 and the shard size does not change.
bool isCommunicationFree(hlo::SliceOp slice, int64_t dim, int64_t shards) {
  int64_t size = slice.getOperand().getType().getDimSize(dim);
  int64_t start = slice.getStartIndices()[dim];
  int64_t limit = slice.getLimitIndices()[dim];
  return start == 0 && slice.getStrides()[dim] == 1 &&
         ceilDiv(size, shards) == ceilDiv(limit, shards);
}

/// Whether, for dimension `dim` of `pad` split in `shards` shards, every
/// output shard reads only from the input shard of the same index, at the
/// same place: with low padding, devices would pad their shards by
/// different amounts, which -sdy-convert-global-to-local cannot express.
bool isCommunicationFree(hlo::PadOp pad, int64_t dim, int64_t shards) {
  if (pad.getInteriorPadding()[dim] != 0 || pad.getEdgePaddingLow()[dim] != 0)
    return false;
  int64_t in = pad.getOperand().getType().getDimSize(dim);
  int64_t out = pad.getType().getDimSize(dim);
  int64_t inShard = ceilDiv(in, shards), outShard = ceilDiv(out, shards);
  for (int64_t shard = 0; shard < shards; ++shard) {
    // Input positions output shard `shard` reads, clamped to the input.
    int64_t first = shard * outShard;
    int64_t last = std::min<int64_t>((shard + 1) * outShard, in);
    if (first < last &&
        (first < shard * inShard || last > (shard + 1) * inShard))
      return false;
  }
  return true;
}

/// Whether the factor `factor` of `view`, sharded by `axes`, can stay
/// sharded.
bool keepsSharding(const OpFactorView &view, int64_t factor,
                   ArrayRef<AxisRefAttr> axes) {
  std::optional<int64_t> dim = getOperandDim(view.rule, factor);
  if (!dim)
    return false;
  int64_t shards = getTotalSize(axes, view.mesh.mesh);
  if (auto slice = dyn_cast<hlo::SliceOp>(view.op))
    return isCommunicationFree(slice, *dim, shards);
  if (auto pad = dyn_cast<hlo::PadOp>(view.op))
    return isCommunicationFree(pad, *dim, shards);
  return false;
}

/// The axes of `factor` in the first tensor of `projection` that has it.
ArrayRef<AxisRefAttr> getFactorAxes(const ShardingProjection &projection,
                                    int64_t factor) {
  for (int64_t tensor : llvm::seq<int64_t>(0, projection.getNumTensors()))
    if (const std::optional<FactorSharding> &sharding =
            projection.getTensor(tensor).factors[factor])
      if (!sharding->axes.empty())
        return sharding->axes;
  return {};
}

/// Empties `factors` in every tensor of `projection`; whether any had axes.
bool replicateFactors(ShardingProjection &projection,
                      ArrayRef<int64_t> factors) {
  bool changed = false;
  for (int64_t tensor : llvm::seq<int64_t>(0, projection.getNumTensors()))
    for (int64_t factor : factors)
      if (std::optional<FactorSharding> &sharding =
              projection.getTensor(tensor).factors[factor]) {
        changed |= !sharding->axes.empty() || !sharding->overflowAxes.empty();
        sharding->axes.clear();
        sharding->overflowAxes.clear();
      }
  return changed;
}

/// The factors of a reshape that split or merge dimensions, when one of
/// them is sharded non-divisibly (or has overflow axes) in some tensor;
/// empty when the reshape is fine as it is.
SmallVector<int64_t> getNonDivisibleReshapeFactors(const OpFactorView &view) {
  OpShardingRuleAttr rule = view.rule;
  int64_t numFactors = rule.getNumFactors();
  // A factor passes through when it is a whole dimension on both sides.
  SmallVector<int64_t> wholeDims(numFactors, 0);
  for (TensorMappingAttr mapping :
       {rule.getOperandMappings()[0], rule.getResultMappings()[0]})
    for (DimMappingAttr dim : mapping.getDimMappings())
      if (dim.getFactorIndices().size() == 1)
        ++wholeDims[dim.getFactorIndices()[0]];
  SmallVector<int64_t> grouped;
  bool nonDivisible = false;
  for (int64_t factor : llvm::seq<int64_t>(0, numFactors)) {
    if (wholeDims[factor] == 2)
      continue;
    grouped.push_back(factor);
    for (int64_t tensor : {0, 1}) {
      const std::optional<FactorSharding> &sharding =
          view.projection.getTensor(tensor).factors[factor];
      if (sharding && (!sharding->overflowAxes.empty() ||
                       rule.getFactorSizes()[factor] %
                               getTotalSize(sharding->axes, view.mesh.mesh) !=
                           0))
        nonDivisible = true;
    }
  }
  return nonDivisible ? grouped : SmallVector<int64_t>();
}

class ResolvePermutationFactorsPass
    : public impl::ResolvePermutationFactorsPassBase<
          ResolvePermutationFactorsPass> {
  using ResolvePermutationFactorsPassBase::ResolvePermutationFactorsPassBase;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<hlo::StablehloDialect>(op->getDialect()) &&
          !op->hasTrait<OpTrait::IsTerminator>())
        ops.push_back(op);
    });
    ChannelCounter channels(getOperation());
    for (Operation *op : ops)
      resolve(op, channels);
  }

  void resolve(Operation *op, ChannelCounter &channels) {
    std::optional<OpFactorView> view = OpFactorView::build(op);
    if (!view)
      return;
    ShardingProjection updated = view->projection;
    bool changed = false;
    if (isa<hlo::ReshapeOp>(op)) {
      changed = replicateFactors(updated, getNonDivisibleReshapeFactors(*view));
    } else {
      SmallVector<int64_t> replicated;
      for (int64_t factor : view->rule.getPermutationFactors()) {
        ArrayRef<AxisRefAttr> axes = getFactorAxes(view->projection, factor);
        if (!axes.empty() && !keepsSharding(*view, factor, axes))
          replicated.push_back(factor);
      }
      if (!replicated.empty() && enableHaloExchange &&
          rewriteWithHaloExchange(*view, /*useReplicaId=*/replicaCount > 1,
                                  channels))
        return;
      changed = replicateFactors(updated, replicated);
    }
    if (changed)
      applyFactorShardings(*view, updated, /*allReduceAxes=*/{},
                           ReductionKind::Sum);
  }
};

} // namespace
} // namespace mlir::sdy
