//===- FactorPropagation.cpp - Moving axes between factor shardings -------===//

#include "mpmd/Transforms/Sdy/Propagation/FactorPropagation.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::sdy {
namespace {

using AxisRestriction =
    function_ref<std::optional<AxisRefAttr>(AxisRefAttr axis, int64_t prev)>;

class FactorPropagator {
public:
  FactorPropagator(ShardingProjection &projection, OpShardingRuleAttr rule,
                   MeshAttr mesh, const FactorPropagationOptions &options)
      : projection(projection), rule(rule), mesh(mesh), options(options),
        updated(projection.getNumTensors()) {}

  llvm::BitVector run(function_ref<PropagationDirection(int64_t)> direction);

private:
  bool isOperand(int64_t tensor) const {
    return tensor < static_cast<int64_t>(projection.operands.size());
  }

  bool mayUpdate(int64_t tensor, PropagationDirection direction) const {
    if (direction == PropagationDirection::BOTH)
      return true;
    return direction == (isOperand(tensor) ? PropagationDirection::BACKWARD
                                           : PropagationDirection::FORWARD);
  }

  std::optional<FactorSharding> &getFactor(int64_t tensor, int64_t factor) {
    return projection.getTensor(tensor).factors[factor];
  }

  SmallVector<AxisRefAttr> getCompatibleMajorAxes(int64_t factor,
                                                  PropagationDirection dir);
  SmallVector<AxisRefAttr> truncate(ArrayRef<AxisRefAttr> candidate,
                                    AxisRestriction restrict) const;
  std::optional<AxisRefAttr> restrictWithinFactor(int64_t tensor,
                                                  int64_t factor,
                                                  AxisRefAttr axis,
                                                  int64_t prev);
  std::optional<AxisRefAttr> restrictByOtherFactors(int64_t tensor,
                                                    int64_t factor,
                                                    AxisRefAttr axis);
  void expand(int64_t tensor, int64_t factor, ArrayRef<AxisRefAttr> axes);
  /// Whether every tensor maps dimension d to factor d and nothing else.
  bool isElementwise() const;
  /// Product of the sizes of the factors `tensor` is mapped to.
  int64_t getTensorFactorSize(int64_t tensor);

  void propagateBasic(ArrayRef<PropagationDirection> directions);
  void propagateAggressive(ArrayRef<PropagationDirection> directions);

  ShardingProjection &projection;
  OpShardingRuleAttr rule;
  MeshAttr mesh;
  const FactorPropagationOptions &options;
  llvm::BitVector updated;
};

SmallVector<AxisRefAttr>
FactorPropagator::getCompatibleMajorAxes(int64_t factor,
                                         PropagationDirection dir) {
  SmallVector<AxisRefAttr> merged;
  bool canExpand = true;
  auto fold = [&](int64_t tensor) {
    const std::optional<FactorSharding> &sharding = getFactor(tensor, factor);
    if (!sharding)
      return;
    ArrayRef<AxisRefAttr> axes = sharding->axes;
    size_t index = 0;
    for (; index < merged.size() && index < axes.size(); ++index) {
      bool hasMoreAxes = index + 1 < axes.size();
      bool hasMoreMerged = index + 1 < merged.size();
      if (merged[index] == axes[index])
        continue;
      if (isStrictPrefix(axes[index], merged[index], mesh)) {
        if (!hasMoreAxes)
          continue;
        merged[index] = axes[index];
        merged.truncate(index + 1);
      } else if (isStrictPrefix(merged[index], axes[index], mesh)) {
        if (canExpand && !hasMoreMerged) {
          merged[index] = axes[index];
          continue;
        }
        merged.truncate(index + 1);
      } else {
        merged.truncate(index);
      }
      canExpand = false;
      return;
    }
    if (canExpand)
      merged.append(axes.begin() + index, axes.end());
  };
  int64_t numOperands = projection.operands.size();
  auto foldOperands = [&] {
    for (int64_t tensor = 0; tensor < numOperands; ++tensor)
      fold(tensor);
  };
  auto foldResults = [&] {
    for (int64_t tensor = numOperands; tensor < projection.getNumTensors();
         ++tensor)
      fold(tensor);
  };
  // With one direction, the receiving side may cut the axes of the
  // sending side but not add its own.
  if (dir == PropagationDirection::BACKWARD) {
    foldResults();
    canExpand = false;
    foldOperands();
  } else {
    foldOperands();
    canExpand &= dir == PropagationDirection::BOTH;
    foldResults();
  }
  return merged;
}

SmallVector<AxisRefAttr>
FactorPropagator::truncate(ArrayRef<AxisRefAttr> candidate,
                           AxisRestriction restrict) const {
  SmallVector<AxisRefAttr> kept;
  int64_t prev = 1;
  for (AxisRefAttr axis : candidate) {
    std::optional<AxisRefAttr> allowed = restrict(axis, prev);
    if (!allowed || (options.conservative && allowed->getSubAxisInfo()))
      break;
    kept.push_back(*allowed);
    if (*allowed != axis)
      break;
    prev *= axis.getSize(mesh);
  }
  return kept;
}

std::optional<AxisRefAttr>
FactorPropagator::restrictWithinFactor(int64_t tensor, int64_t factor,
                                       AxisRefAttr axis, int64_t prev) {
  const TensorFactorShardings &shardings = projection.getTensor(tensor);
  SmallVector<AxisRefAttr> unavailable(shardings.replicatedAxes);
  llvm::append_range(unavailable, shardings.unreducedAxes);
  std::optional<AxisRefAttr> free =
      getPrefixNotOverlapping(axis, unavailable, mesh);
  if (!free)
    return std::nullopt;
  const FactorSharding &sharding = *shardings.factors[factor];
  if (llvm::any_of(sharding.axes, [&](AxisRefAttr own) {
        return contains(own, *free, mesh);
      }))
    return free;
  // A tensor that cannot take the whole axis still agrees on the part of
  // it that it already has.
  auto ownPrefix = [&]() -> std::optional<AxisRefAttr> {
    if (!sharding.axes.empty() &&
        isStrictPrefix(sharding.axes.back(), *free, mesh))
      return sharding.axes.back();
    return std::nullopt;
  };
  if (sharding.isClosed || !sharding.overflowAxes.empty())
    return ownPrefix();
  if (sharding.isMinorMost)
    return free;
  int64_t factorSize = rule.getFactorSizes()[factor];
  if (factorSize % prev != 0)
    return ownPrefix();
  int64_t axisSize = free->getSize(mesh);
  int64_t common = std::gcd(factorSize / prev, axisSize);
  if (common == axisSize)
    return free;
  if (common > 1)
    return getPrefix(*free, common, mesh);
  return ownPrefix();
}

std::optional<AxisRefAttr>
FactorPropagator::restrictByOtherFactors(int64_t tensor, int64_t factor,
                                         AxisRefAttr axis) {
  return getPrefixNotOverlapping(
      axis, projection.getTensor(tensor).getAxesOfOtherFactors(factor), mesh);
}

void FactorPropagator::expand(int64_t tensor, int64_t factor,
                              ArrayRef<AxisRefAttr> axes) {
  std::optional<FactorSharding> &sharding = getFactor(tensor, factor);
  if (!isStrictPrefix(sharding->axes, axes, mesh))
    return;
  sharding->axes.assign(axes.begin(), axes.end());
  updated.set(tensor);
}

bool FactorPropagator::isElementwise() const {
  auto isIdentity = [](TensorMappingAttr mapping) {
    return llvm::all_of(llvm::enumerate(mapping.getDimMappings()),
                        [](auto dim) {
                          return dim.value().getFactorIndices() ==
                                 ArrayRef<int64_t>{
                                     static_cast<int64_t>(dim.index())};
                        });
  };
  return llvm::all_of(rule.getOperandMappings(), isIdentity) &&
         llvm::all_of(rule.getResultMappings(), isIdentity);
}

int64_t FactorPropagator::getTensorFactorSize(int64_t tensor) {
  int64_t size = 1;
  for (auto [factor, sharding] :
       llvm::enumerate(projection.getTensor(tensor).factors))
    if (sharding)
      size *= rule.getFactorSizes()[factor];
  return size;
}

void FactorPropagator::propagateBasic(
    ArrayRef<PropagationDirection> directions) {
  // Factor by factor on the updated projection, so that two factors of a
  // tensor never both take the same axis.
  for (auto [factor, direction] : llvm::enumerate(directions)) {
    if (direction == PropagationDirection::NONE)
      continue;
    SmallVector<AxisRefAttr> candidate =
        getCompatibleMajorAxes(factor, direction);
    SmallVector<AxisRefAttr> agreed =
        truncate(candidate, [&](AxisRefAttr axis, int64_t prev) {
          std::optional<AxisRefAttr> allowed = axis;
          for (int64_t tensor = 0;
               allowed && tensor < projection.getNumTensors(); ++tensor) {
            allowed = restrictByOtherFactors(tensor, factor, *allowed);
            if (allowed && getFactor(tensor, factor))
              allowed = restrictWithinFactor(tensor, factor, *allowed, prev);
          }
          return allowed;
        });
    for (int64_t tensor = 0; tensor < projection.getNumTensors(); ++tensor)
      if (getFactor(tensor, factor) && mayUpdate(tensor, direction))
        expand(tensor, factor, agreed);
  }
}

void FactorPropagator::propagateAggressive(
    ArrayRef<PropagationDirection> directions) {
  int64_t numFactors = directions.size();
  SmallVector<SmallVector<AxisRefAttr>> candidates(numFactors);
  for (auto [factor, direction] : llvm::enumerate(directions))
    if (direction != PropagationDirection::NONE)
      candidates[factor] = getCompatibleMajorAxes(factor, direction);
  if (llvm::all_of(candidates, [](auto &axes) { return axes.empty(); }))
    return;

  // The tensor that holds a factor's candidate axes and is largest speaks
  // for the factor; factors of larger sources go first.
  struct FactorSource {
    int64_t size = 0;
    int64_t tensor = -1;
  };
  SmallVector<FactorSource> sources(numFactors);
  for (int64_t factor = 0; factor < numFactors; ++factor) {
    ArrayRef<AxisRefAttr> candidate = candidates[factor];
    for (int64_t tensor = 0; tensor < projection.getNumTensors(); ++tensor) {
      const std::optional<FactorSharding> &sharding = getFactor(tensor, factor);
      if (!sharding || candidate.empty() ||
          ArrayRef(sharding->axes).take_front(candidate.size()) != candidate)
        continue;
      int64_t size = getTensorFactorSize(tensor);
      if (size > sources[factor].size)
        sources[factor] = {size, tensor};
    }
  }
  bool elementwise = isElementwise();
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, numFactors));
  // A total order: ties end at the factor index.
  llvm::sort(order, [&](int64_t lhs, int64_t rhs) {
    if (sources[lhs].size != sources[rhs].size)
      return sources[lhs].size > sources[rhs].size;
    if (elementwise) {
      int64_t lhsSize = getTotalSize(candidates[lhs], mesh);
      int64_t rhsSize = getTotalSize(candidates[rhs], mesh);
      if (lhsSize != rhsSize)
        return lhsSize > rhsSize;
    }
    if (sources[lhs].tensor != sources[rhs].tensor)
      return sources[lhs].tensor < sources[rhs].tensor;
    return lhs < rhs;
  });

  int64_t numOperands = projection.operands.size();
  SmallVector<int64_t> tensors = llvm::to_vector(
      llvm::seq<int64_t>(numOperands, projection.getNumTensors()));
  llvm::append_range(tensors, llvm::seq<int64_t>(0, numOperands));
  for (int64_t tensor : tensors) {
    for (int64_t factor : order) {
      std::optional<FactorSharding> &sharding = getFactor(tensor, factor);
      if (!sharding || candidates[factor].empty() ||
          !mayUpdate(tensor, directions[factor]))
        continue;
      SmallVector<AxisRefAttr> axes = truncate(
          candidates[factor], [&](AxisRefAttr axis, int64_t prev) {
            return restrictWithinFactor(tensor, factor, axis, prev);
          });
      if (!isStrictPrefix(sharding->axes, axes, mesh))
        continue;
      axes = truncate(axes, [&](AxisRefAttr axis, int64_t) {
        return restrictByOtherFactors(tensor, factor, axis);
      });
      // An operand of an elementwise op is not sharded further than a
      // result that could not take all the axes.
      if (elementwise && isOperand(tensor))
        for (int64_t result = numOperands; result < projection.getNumTensors();
             ++result)
          if (isStrictPrefix(getFactor(result, factor)->axes, axes, mesh)) {
            axes = getFactor(result, factor)->axes;
            break;
          }
      expand(tensor, factor, axes);
    }
  }
}

llvm::BitVector FactorPropagator::run(
    function_ref<PropagationDirection(int64_t)> direction) {
  SmallVector<PropagationDirection> directions;
  for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor)
    directions.push_back(rule.isBlockedPropagationFactor(factor)
                             ? PropagationDirection::NONE
                             : direction(factor));
  if (options.strategy == PropagationStrategy::kBasic)
    propagateBasic(directions);
  else
    propagateAggressive(directions);
  return updated;
}

} // namespace

llvm::BitVector propagateFactorShardings(
    ShardingProjection &projection, OpShardingRuleAttr rule, MeshAttr mesh,
    function_ref<PropagationDirection(int64_t)> getDirection,
    const FactorPropagationOptions &options) {
  return FactorPropagator(projection, rule, mesh, options).run(getDirection);
}

} // namespace mlir::sdy
