//===- ShardingProjection.cpp - Dimension shardings as factors ------------===//

#include "mpmd/Transforms/Sdy/Propagation/ShardingProjection.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::sdy {

SmallVector<AxisRefAttr>
TensorFactorShardings::getAxesOfOtherFactors(int64_t factor) const {
  SmallVector<AxisRefAttr> axes;
  for (auto [index, sharding] : llvm::enumerate(factors)) {
    if (!sharding || static_cast<int64_t>(index) == factor)
      continue;
    llvm::append_range(axes, sharding->axes);
    llvm::append_range(axes, sharding->overflowAxes);
  }
  return axes;
}

bool TensorFactorShardings::hasSameFactorAxes(
    const TensorFactorShardings &other) const {
  return llvm::equal(factors, other.factors,
                     [](const std::optional<FactorSharding> &a,
                        const std::optional<FactorSharding> &b) {
                       if (!a || !b)
                         return !a && !b;
                       return a->axes == b->axes &&
                              a->overflowAxes == b->overflowAxes;
                     });
}

TensorFactorShardings projectTensor(TensorShardingAttr sharding,
                                    TensorMappingAttr mapping,
                                    ArrayRef<int64_t> factorSizes,
                                    MeshAttr mesh, bool closedIfMissing) {
  TensorFactorShardings result;
  result.factors.resize(factorSizes.size());
  if (sharding) {
    llvm::append_range(result.replicatedAxes, sharding.getReplicatedAxes());
    llvm::append_range(result.unreducedAxes, sharding.getUnreducedAxes());
    result.unreducedKind = sharding.getUnreducedKind();
  }
  for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
    ArrayRef<int64_t> dimFactors = dimMapping.getFactorIndices();
    bool isClosed = closedIfMissing;
    SmallVector<AxisRefAttr> remaining;
    if (sharding) {
      DimensionShardingAttr dimSharding = sharding.getDimShardings()[dim];
      isClosed = dimSharding.getIsClosed();
      // Reversed so that the next axis to consume is at the back.
      llvm::append_range(remaining, llvm::reverse(dimSharding.getAxes()));
    }
    bool overflowed = false;
    for (auto [position, factor] : llvm::enumerate(dimFactors)) {
      FactorSharding &factorSharding = result.factors[factor].emplace();
      factorSharding.isClosed = isClosed || overflowed;
      factorSharding.isMinorMost = position + 1 == dimFactors.size();
      if (overflowed)
        continue;
      if (factorSharding.isMinorMost) {
        llvm::append_range(factorSharding.axes, llvm::reverse(remaining));
        break;
      }
      int64_t unsharded = factorSizes[factor];
      while (!remaining.empty()) {
        AxisRefAttr axis = remaining.back();
        int64_t axisSize = axis.getSize(mesh);
        int64_t common = std::gcd(unsharded, axisSize);
        if (axisSize != 1 && common == 1)
          break;
        remaining.pop_back();
        if (axisSize > common) {
          // Only the major part of the axis fits; the rest shards the
          // next factor.
          factorSharding.axes.push_back(getPrefix(axis, common, mesh));
          remaining.push_back(getAxisRef(mesh, axis.getName(),
                                         getPreSize(axis) * common,
                                         axisSize / common));
        } else {
          factorSharding.axes.push_back(axis);
        }
        unsharded /= common;
      }
      if (unsharded > 1 && !remaining.empty()) {
        llvm::append_range(factorSharding.overflowAxes,
                           llvm::reverse(remaining));
        remaining.clear();
        overflowed = true;
      }
    }
  }
  return result;
}

TensorShardingAttr unprojectTensor(const TensorFactorShardings &factors,
                                   TensorMappingAttr mapping,
                                   ArrayRef<int64_t> factorSizes, MeshAttr mesh,
                                   Attribute meshOrRef,
                                   TensorShardingAttr previous) {
  MLIRContext *context = mesh.getContext();
  SmallVector<DimensionShardingAttr> dims;
  for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
    SmallVector<AxisRefAttr> axes;
    auto append = [&](AxisRefAttr axis) {
      if (!axes.empty())
        if (std::optional<AxisRefAttr> merged =
                mergeContiguous(axes.back(), axis, mesh)) {
          axes.back() = *merged;
          return;
        }
      axes.push_back(axis);
    };
    bool isClosed = false;
    bool stopped = false;
    for (int64_t factor : dimMapping.getFactorIndices()) {
      const FactorSharding &sharding = *factors.factors[factor];
      isClosed |= sharding.isClosed;
      if (stopped)
        continue;
      llvm::for_each(sharding.axes, append);
      llvm::for_each(sharding.overflowAxes, append);
      // Axes of a later factor after a partly sharded one would need a
      // strided view, which a dimension sharding cannot express.
      stopped = !sharding.overflowAxes.empty() ||
                getTotalSize(sharding.axes, mesh) != factorSizes[factor];
    }
    std::optional<int64_t> priority;
    if (previous)
      priority = previous.getDimShardings()[dim].getPriority();
    dims.push_back(DimensionShardingAttr::get(context, axes, isClosed,
                                              priority));
  }
  return TensorShardingAttr::get(context, meshOrRef, dims,
                                 factors.replicatedAxes, factors.unreducedAxes,
                                 factors.unreducedKind);
}

ShardingProjection ShardingProjection::build(
    ArrayRef<TensorShardingAttr> operands, ArrayRef<TensorShardingAttr> results,
    OpShardingRuleAttr rule, MeshAttr mesh, bool closedIfMissing) {
  ShardingProjection projection;
  for (auto [sharding, mapping] :
       llvm::zip_equal(operands, rule.getOperandMappings()))
    projection.operands.push_back(
        projectTensor(sharding, mapping, rule.getFactorSizes(), mesh,
                      closedIfMissing));
  for (auto [sharding, mapping] :
       llvm::zip_equal(results, rule.getResultMappings()))
    projection.results.push_back(
        projectTensor(sharding, mapping, rule.getFactorSizes(), mesh,
                      closedIfMissing));
  return projection;
}

} // namespace mlir::sdy
