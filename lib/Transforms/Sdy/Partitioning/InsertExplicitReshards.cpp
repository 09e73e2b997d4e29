//===- InsertExplicitReshards.cpp - -sdy-insert-explicit-reshards ---------===//
//
// Visits every op of a function, nested ops first, and makes it run on
// compatible shardings (sdy-notes 5.1); see the pass description.
//
//===----------------------------------------------------------------------===//

#include "ExplicitReshards.h"

#include "../Propagation/DataFlowEdges.h"
#include "../Propagation/ShardingUtils.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallSet.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace mlir::sdy {
#define GEN_PASS_DEF_INSERTEXPLICITRESHARDSPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

using AxisList = SmallVector<AxisRefAttr>;

int64_t getRank(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() ? shaped.getRank() : 0;
}

/// `sharding` with `dims` and `unreduced` (sorted and merged in mesh order,
/// of the same reduction kind).
TensorShardingAttr withDimsAndUnreduced(TensorShardingAttr sharding,
                                        ArrayRef<DimensionShardingAttr> dims,
                                        ArrayRef<AxisRefAttr> unreduced,
                                        MeshAttr mesh) {
  return TensorShardingAttr::get(sharding.getContext(), sharding.getMeshOrRef(),
                                 dims, sharding.getReplicatedAxes(),
                                 sortAndMergeAxes(unreduced, mesh),
                                 sharding.getUnreducedKind());
}

/// A closed dimension sharding over `axes`.
DimensionShardingAttr getClosedDim(MLIRContext *context,
                                   ArrayRef<AxisRefAttr> axes) {
  return DimensionShardingAttr::get(context, axes, /*isClosed=*/true,
                                    /*priority=*/std::nullopt);
}

//===----------------------------------------------------------------------===//
// Unreduced axes
//===----------------------------------------------------------------------===//

/// A value and the sharding it has.
struct ShardedValue {
  Value value;
  TensorShardingAttr sharding;
};

/// All-reduces `current` over those of its unreduced axes not in `kept`.
ShardedValue allReduceAxesNotIn(OpBuilder &builder, Location loc,
                                ShardedValue current,
                                ArrayRef<AxisRefAttr> kept, MeshAttr mesh) {
  ArrayRef<AxisRefAttr> unreduced = current.sharding.getUnreducedAxes();
  AxisList reduced = getAxesNotIn(unreduced, kept, mesh);
  if (reduced.empty())
    return current;
  TensorShardingAttr out =
      withDimsAndUnreduced(current.sharding, current.sharding.getDimShardings(),
                           getAxesNotIn(unreduced, reduced, mesh), mesh);
  auto allReduce =
      AllReduceOp::create(builder, loc, current.value,
                          AxisRefListAttr::get(builder.getContext(),
                                               sortAndMergeAxes(reduced, mesh)),
                          out, current.sharding.getUnreducedKind());
  return {allReduce, out};
}

/// Makes the axes `added` (not yet unreduced) unreduced axes of `current`
/// (sdy-notes 5.1 step 2b): axes sharding a dimension move there with
/// `sdy.sharded_to_unreduced`, after a reshard that puts them at the minor
/// end of their dimension (and gathers axes only partly among `added`);
/// the others come from `sdy.replicated_to_unreduced`.
ShardedValue addUnreducedAxes(OpBuilder &builder, Location loc,
                              ShardedValue current, ArrayRef<AxisRefAttr> added,
                              MeshAttr mesh) {
  MLIRContext *context = builder.getContext();
  TensorShardingAttr sharding = current.sharding;
  AxisList sharded;
  SmallVector<DimensionShardingAttr> prepared, remaining;
  SmallVector<AxisRefListAttr> movedPerDim;
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    AxisList kept, moved;
    for (AxisRefAttr axis : dim.getAxes()) {
      if (llvm::is_contained(added, axis))
        moved.push_back(axis);
      else if (llvm::none_of(added, [&](AxisRefAttr other) {
                 return overlaps(axis, other, mesh);
               }))
        kept.push_back(axis);
    }
    llvm::append_range(sharded, moved);
    remaining.push_back(getClosedDim(context, kept));
    movedPerDim.push_back(AxisRefListAttr::get(context, moved));
    llvm::append_range(kept, moved);
    prepared.push_back(getClosedDim(context, kept));
  }
  if (!llvm::equal(prepared, sharding.getDimShardings(),
                   [](DimensionShardingAttr a, DimensionShardingAttr b) {
                     return a.getAxes() == b.getAxes();
                   })) {
    sharding = withDimsAndUnreduced(sharding, prepared,
                                    sharding.getUnreducedAxes(), mesh);
    current = {ReshardOp::create(builder, loc, current.value, sharding),
               sharding};
  }
  if (!sharded.empty()) {
    AxisList unreduced(sharding.getUnreducedAxes());
    llvm::append_range(unreduced, sharded);
    sharding = withDimsAndUnreduced(sharding, remaining, unreduced, mesh);
    current = {ShardedToUnreducedOp::create(
                   builder, loc, current.value,
                   ListOfAxisRefListsAttr::get(context, movedPerDim), sharding),
               sharding};
  }
  AxisList replicated = getAxesNotIn(added, sharded, mesh);
  if (!replicated.empty()) {
    AxisList unreduced(sharding.getUnreducedAxes());
    llvm::append_range(unreduced, replicated);
    sharding = withDimsAndUnreduced(sharding, sharding.getDimShardings(),
                                    unreduced, mesh);
    current = {
        ReplicatedToUnreducedOp::create(
            builder, loc, current.value,
            AxisRefListAttr::get(context, sortAndMergeAxes(replicated, mesh)),
            sharding),
        sharding};
  }
  return current;
}

/// Makes the value `use` passes on agree with `target` (null: unsharded),
/// right after the value is defined (sdy-notes 5.1 step 2): unreduced axes
/// `target` lacks are all-reduced, those it adds are made unreduced, and
/// with `reshardToTarget` what still differs is resharded.
void reconcileWithTarget(OpOperand &use, TensorShardingAttr target,
                         bool reshardToTarget) {
  Value source = use.get();
  if (!isa<RankedTensorType>(source.getType()))
    return;
  Operation *scope = use.getOwner();
  TensorShardingAttr sharding = getPartitionSharding(source);
  TensorShardingAttr reference = sharding ? sharding : target;
  if (!reference)
    return;
  MeshAttr mesh = reference.getMesh(scope);
  if (!mesh)
    return;
  OpBuilder builder(scope->getContext());
  if (Operation *definition = source.getDefiningOp())
    builder.setInsertionPointAfter(definition);
  else
    builder.setInsertionPointToStart(cast<BlockArgument>(source).getOwner());
  Location loc = scope->getLoc();
  ShardedValue current{source, sharding};
  // Unreduced axes are only compared between shardings on meshes with the
  // same axes (device order aside); a move to or from a single device or
  // another mesh is left to the reshard.
  MeshAttr targetMesh = target ? target.getMesh(scope) : mesh;
  bool sameAxes = targetMesh && !isMaximalMesh(mesh) &&
                  mesh.getAxes() == targetMesh.getAxes();
  if (sameAxes) {
    ArrayRef<AxisRefAttr> targetUnreduced;
    if (target)
      targetUnreduced = target.getUnreducedAxes();
    // Partial values of another kind than the target's are combined
    // completely first: a max cannot stay pending under a sum.
    bool sameKind =
        !current.sharding || !target ||
        current.sharding.getUnreducedKind() == target.getUnreducedKind();
    if (current.sharding)
      current = allReduceAxesNotIn(
          builder, loc, current,
          sameKind ? targetUnreduced : ArrayRef<AxisRefAttr>(), mesh);
    AxisList added =
        getAxesNotIn(targetUnreduced,
                     current.sharding ? current.sharding.getUnreducedAxes()
                                      : ArrayRef<AxisRefAttr>(),
                     mesh);
    if (!added.empty()) {
      if (!current.sharding)
        current.sharding = getFullyClosedSharding(target.getMeshOrRef(),
                                                  getRank(source.getType()));
      current = addUnreducedAxes(builder, loc, current, added, mesh);
    }
  }
  // A value without a sharding is replicated: a sharded target slices it.
  if (reshardToTarget && !current.sharding && target && sameAxes &&
      !target.isFullyReplicated())
    current.sharding = getFullyClosedSharding(target.getMeshOrRef(),
                                              getRank(source.getType()));
  if (reshardToTarget && current.sharding &&
      !areEquivalent(current.sharding, target, scope)) {
    TensorShardingAttr sharding =
        target ? target
               : getFullyClosedSharding(current.sharding.getMeshOrRef(),
                                        getRank(source.getType()));
    current = {ReshardOp::create(builder, loc, current.value, sharding),
               sharding};
  }
  if (current.value != source)
    use.set(current.value);
}

//===----------------------------------------------------------------------===//
// Common axes per factor (the full version)
//===----------------------------------------------------------------------===//

/// Kind precedence of a factor when candidates tie on size:
/// pass-through > reduction > permutation > need-replication.
int64_t getKindPrecedence(OpShardingRuleAttr rule, int64_t factor) {
  if (rule.isNeedReplicationFactor(factor))
    return 0;
  if (rule.isPermutationFactor(factor))
    return 1;
  if (rule.isReductionFactor(factor))
    return 2;
  return 3;
}

TensorMappingAttr getMapping(OpShardingRuleAttr rule, int64_t tensor) {
  int64_t numOperands = rule.getOperandMappings().size();
  return tensor < numOperands ? rule.getOperandMappings()[tensor]
                              : rule.getResultMappings()[tensor - numOperands];
}

/// Axes (overflow axes included) of every factor of `tensor`.
AxisList getAllAxes(const TensorFactorShardings &tensor) {
  AxisList axes;
  for (const std::optional<FactorSharding> &factor : tensor.factors)
    if (factor) {
      llvm::append_range(axes, factor->axes);
      llvm::append_range(axes, factor->overflowAxes);
    }
  return axes;
}

/// The longest prefix of `axes` that overlaps none of `taken`; the first
/// overlapping axis contributes its free major part, if any.
AxisList getPrefixAvoiding(ArrayRef<AxisRefAttr> axes,
                           ArrayRef<AxisRefAttr> taken, MeshAttr mesh) {
  AxisList prefix;
  for (AxisRefAttr axis : axes) {
    std::optional<AxisRefAttr> free =
        getPrefixNotOverlapping(axis, taken, mesh);
    if (!free)
      break;
    prefix.push_back(*free);
    if (*free != axis)
      break;
  }
  return prefix;
}

/// One set of axes per factor for all tensors of an op.
struct CommonAxes {
  SmallVector<AxisList> perFactor;
  /// The op's shardings are already compatible: keep them as they are.
  bool compatible = false;
};

class CommonAxesSolver {
public:
  explicit CommonAxesSolver(const OpFactorView &view)
      : projection(view.projection), rule(view.rule), mesh(view.mesh.mesh),
        numFactors(rule.getNumFactors()),
        numTensors(projection.getNumTensors()),
        tensorSizes(view.getTensorSizes()) {}

  CommonAxes solve() {
    if (std::optional<SmallVector<AxisList>> axes = getCompatibleAxes())
      return {std::move(*axes), /*compatible=*/true};
    if (std::optional<SmallVector<AxisList>> axes = solveUnary())
      return {std::move(*axes), /*compatible=*/false};
    SmallVector<AxisList> axes = solveGreedy();
    moveNeedReplicationAxesToBatchingFactors(axes);
    return {std::move(axes), /*compatible=*/false};
  }

private:
  /// Every factor sharded alike in every tensor, need-replication factors
  /// unsharded, no axis on two factors.
  std::optional<SmallVector<AxisList>> getCompatibleAxes() const {
    SmallVector<std::optional<AxisList>> seen(numFactors);
    for (int64_t tensor : llvm::seq<int64_t>(0, numTensors)) {
      for (auto [factor, sharding] :
           llvm::enumerate(projection.getTensor(tensor).factors)) {
        if (!sharding)
          continue;
        AxisList axes(sharding->axes);
        llvm::append_range(axes, sharding->overflowAxes);
        if (!seen[factor])
          seen[factor] = std::move(axes);
        else if (*seen[factor] != axes)
          return std::nullopt;
      }
    }
    SmallVector<AxisList> perFactor(numFactors);
    AxisList used;
    for (int64_t factor : llvm::seq<int64_t>(0, numFactors)) {
      if (!seen[factor])
        continue;
      if (rule.isNeedReplicationFactor(factor) && !seen[factor]->empty())
        return std::nullopt;
      for (AxisRefAttr axis : *seen[factor]) {
        if (llvm::any_of(used, [&](AxisRefAttr other) {
              return overlaps(axis, other, mesh);
            }))
          return std::nullopt;
        used.push_back(axis);
      }
      perFactor[factor] = *seen[factor];
    }
    return perFactor;
  }

  bool isNonScalar(int64_t tensor) const {
    return getMapping(rule, tensor).getRank() > 0;
  }

  /// Two non-scalar tensors, no need-replication factor and no compound
  /// dimension: the larger tensor wins, the other only adds factors the
  /// winner does not have, up to its first axis the winner uses.
  std::optional<SmallVector<AxisList>> solveUnary() const {
    SmallVector<int64_t> nonScalar = llvm::to_vector(
        llvm::make_filter_range(llvm::seq<int64_t>(0, numTensors),
                                [&](int64_t t) { return isNonScalar(t); }));
    if (nonScalar.size() != 2 || !rule.getNeedReplicationFactors().empty())
      return std::nullopt;
    for (int64_t tensor : nonScalar)
      for (DimMappingAttr dim : getMapping(rule, tensor).getDimMappings())
        if (dim.getFactorIndices().size() > 1)
          return std::nullopt;
    auto key = [&](int64_t tensor) {
      const TensorFactorShardings &factors = projection.getTensor(tensor);
      bool shardsPermutation = false;
      for (auto [factor, sharding] : llvm::enumerate(factors.factors))
        shardsPermutation |= sharding && !sharding->axes.empty() &&
                             rule.isPermutationFactor(factor);
      return std::make_tuple(!shardsPermutation, tensorSizes[tensor],
                             getTotalSize(getAllAxes(factors), mesh));
    };
    // Ties go to the first tensor, the operand.
    int64_t winner =
        key(nonScalar[1]) > key(nonScalar[0]) ? nonScalar[1] : nonScalar[0];
    int64_t loser = winner == nonScalar[0] ? nonScalar[1] : nonScalar[0];
    const TensorFactorShardings &winning = projection.getTensor(winner);
    const TensorFactorShardings &losing = projection.getTensor(loser);
    AxisList taken = getAllAxes(winning);
    SmallVector<AxisList> perFactor(numFactors);
    for (int64_t factor : llvm::seq<int64_t>(0, numFactors)) {
      if (winning.factors[factor]) {
        perFactor[factor] = winning.factors[factor]->axes;
        continue;
      }
      if (!losing.factors[factor])
        continue;
      for (AxisRefAttr axis : losing.factors[factor]->axes) {
        if (llvm::any_of(taken, [&](AxisRefAttr other) {
              return overlaps(axis, other, mesh);
            }))
          break;
        perFactor[factor].push_back(axis);
      }
    }
    return perFactor;
  }

  struct Candidate {
    int64_t factor;
    AxisList axes;
    bool operator==(const Candidate &other) const {
      return factor == other.factor && axes == other.axes;
    }
  };

  /// Position of an axis in mesh order, for the last tie-break.
  std::tuple<unsigned, int64_t, int64_t> getAxisKey(AxisRefAttr axis) const {
    return {mesh.getAxisIndex(axis.getName()).value_or(~0u), getPreSize(axis),
            axis.getSize(mesh)};
  }

  /// Whether `a` scores below `b`.
  bool scoresBelow(const Candidate &a, const Candidate &b,
                   ArrayRef<AxisList> assigned) const {
    auto score = [&](const Candidate &candidate) {
      int64_t agreeing = 0;
      for (int64_t tensor : llvm::seq<int64_t>(0, numTensors)) {
        const std::optional<FactorSharding> &sharding =
            projection.getTensor(tensor).factors[candidate.factor];
        if (sharding && (sharding->axes == candidate.axes ||
                         isStrictPrefix(candidate.axes, sharding->axes, mesh)))
          agreeing = mpmd::checkedAdd(agreeing, tensorSizes[tensor])
                         .value_or(INT64_MAX);
      }
      int64_t added = getTotalSize(candidate.axes, mesh) /
                      getTotalSize(assigned[candidate.factor], mesh);
      return std::make_tuple(agreeing,
                             getKindPrecedence(rule, candidate.factor), added,
                             candidate.factor);
    };
    auto scoreA = score(a), scoreB = score(b);
    if (scoreA != scoreB)
      return scoreA < scoreB;
    return std::lexicographical_compare(a.axes.begin(), a.axes.end(),
                                        b.axes.begin(), b.axes.end(),
                                        [&](AxisRefAttr x, AxisRefAttr y) {
                                          return getAxisKey(x) < getAxisKey(y);
                                        });
  }

  /// Greedy choice of (factor, axes) candidates (sdy-notes 5.1).
  SmallVector<AxisList> solveGreedy() const {
    // Factor f depends on g when g is just before f in some dimension:
    // f can only be sharded once g is sharded fully.
    SmallVector<llvm::SmallSet<int64_t, 2>> dependencies(numFactors);
    for (int64_t tensor : llvm::seq<int64_t>(0, numTensors))
      for (DimMappingAttr dim : getMapping(rule, tensor).getDimMappings()) {
        ArrayRef<int64_t> factors = dim.getFactorIndices();
        for (size_t i = 1; i < factors.size(); ++i)
          dependencies[factors[i]].insert(factors[i - 1]);
      }
    SmallVector<Candidate> candidates;
    for (int64_t tensor : llvm::seq<int64_t>(0, numTensors))
      for (auto [factor, sharding] :
           llvm::enumerate(projection.getTensor(tensor).factors)) {
        if (!sharding)
          continue;
        for (size_t length = 1; length <= sharding->axes.size(); ++length) {
          Candidate candidate{static_cast<int64_t>(factor),
                              AxisList(sharding->axes.begin(),
                                       sharding->axes.begin() + length)};
          if (!llvm::is_contained(candidates, candidate))
            candidates.push_back(std::move(candidate));
        }
      }

    SmallVector<AxisList> assigned(numFactors);
    ArrayRef<int64_t> factorSizes = rule.getFactorSizes();
    auto isValid = [&](const Candidate &candidate) {
      return llvm::all_of(dependencies[candidate.factor], [&](int64_t before) {
        return getTotalSize(assigned[before], mesh) == factorSizes[before];
      });
    };
    while (true) {
      const Candidate *best = nullptr;
      for (const Candidate &candidate : candidates)
        if (isValid(candidate) &&
            (!best || scoresBelow(*best, candidate, assigned)))
          best = &candidate;
      if (!best)
        break;
      Candidate picked = *best;
      assigned[picked.factor] = picked.axes;
      SmallVector<Candidate> next;
      for (const Candidate &candidate : candidates) {
        Candidate kept = candidate;
        if (candidate.factor != picked.factor)
          kept.axes = getPrefixAvoiding(candidate.axes, picked.axes, mesh);
        if (isStrictPrefix(assigned[kept.factor], kept.axes, mesh) &&
            !llvm::is_contained(next, kept))
          next.push_back(std::move(kept));
      }
      candidates = std::move(next);
    }
    return assigned;
  }

  /// Need-replication factors lose their axes; when such a factor is in
  /// every non-scalar tensor, its axes go to the batching factors
  /// (pass-through factors in every non-scalar tensor), in factor order,
  /// while they divide what is left of the factor.
  void
  moveNeedReplicationAxesToBatchingFactors(SmallVector<AxisList> &axes) const {
    ArrayRef<int64_t> needReplication = rule.getNeedReplicationFactors();
    if (needReplication.empty())
      return;
    auto isInEveryNonScalarTensor = [&](int64_t factor) {
      return llvm::all_of(llvm::seq<int64_t>(0, numTensors), [&](int64_t t) {
        return !isNonScalar(t) ||
               projection.getTensor(t).factors[factor].has_value();
      });
    };
    SmallVector<int64_t> batching;
    for (int64_t factor : llvm::seq<int64_t>(0, numFactors))
      if (rule.isPassThroughFactor(factor) && isInEveryNonScalarTensor(factor))
        batching.push_back(factor);
    ArrayRef<int64_t> factorSizes = rule.getFactorSizes();
    for (int64_t factor : needReplication) {
      AxisList freed = std::move(axes[factor]);
      axes[factor].clear();
      if (!isInEveryNonScalarTensor(factor))
        continue;
      auto next = freed.begin();
      for (int64_t target : batching) {
        while (next != freed.end()) {
          int64_t sharded = getTotalSize(axes[target], mesh);
          int64_t size = next->getSize(mesh);
          if (factorSizes[target] % sharded != 0 ||
              (factorSizes[target] / sharded) % size != 0)
            break;
          axes[target].push_back(*next++);
        }
      }
    }
  }

  const ShardingProjection &projection;
  OpShardingRuleAttr rule;
  MeshAttr mesh;
  int64_t numFactors;
  int64_t numTensors;
  SmallVector<int64_t> tensorSizes;
};

/// `projection` with every factor of every tensor sharded by `axes`.
ShardingProjection withCommonAxes(const ShardingProjection &projection,
                                  ArrayRef<AxisList> axes) {
  ShardingProjection updated = projection;
  for (int64_t tensor : llvm::seq<int64_t>(0, updated.getNumTensors()))
    for (auto [factor, sharding] :
         llvm::enumerate(updated.getTensor(tensor).factors))
      if (sharding) {
        sharding->axes = axes[factor];
        sharding->overflowAxes.clear();
      }
  return updated;
}

//===----------------------------------------------------------------------===//
// Reshapes with overflow axes
//===----------------------------------------------------------------------===//

/// Distributes `axes`, in order, over the factors of a tensor mapped by
/// `mapping`, in dimension order: each axis (split when only part of it
/// fits) goes to the first factor from the current one on that has room
/// and a common divisor with it; an axis no factor takes, and all after it,
/// overflow the last factor.
TensorFactorShardings distributeAxes(ArrayRef<AxisRefAttr> axes,
                                     TensorMappingAttr mapping,
                                     const TensorFactorShardings &original,
                                     ArrayRef<int64_t> factorSizes,
                                     MeshAttr mesh) {
  TensorFactorShardings result;
  result.factors.resize(factorSizes.size());
  result.replicatedAxes = original.replicatedAxes;
  result.unreducedAxes = original.unreducedAxes;
  SmallVector<int64_t> order;
  for (DimMappingAttr dim : mapping.getDimMappings()) {
    ArrayRef<int64_t> factors = dim.getFactorIndices();
    for (auto [position, factor] : llvm::enumerate(factors)) {
      FactorSharding &sharding = result.factors[factor].emplace();
      sharding.isClosed = true;
      sharding.isMinorMost = position + 1 == factors.size();
      order.push_back(factor);
    }
  }
  if (order.empty())
    return result;
  SmallVector<int64_t> room(factorSizes);
  AxisList pending(llvm::reverse(axes));
  size_t cursor = 0;
  while (!pending.empty()) {
    AxisRefAttr axis = pending.back();
    int64_t size = axis.getSize(mesh);
    size_t taker = cursor;
    while (taker < order.size() && std::gcd(room[order[taker]], size) == 1)
      ++taker;
    if (taker == order.size()) {
      llvm::append_range(result.factors[order.back()]->overflowAxes,
                         llvm::reverse(pending));
      break;
    }
    cursor = taker;
    int64_t factor = order[taker];
    int64_t common = std::gcd(room[factor], size);
    pending.pop_back();
    if (common < size) {
      result.factors[factor]->axes.push_back(getPrefix(axis, common, mesh));
      pending.push_back(getAxisRef(mesh, axis.getName(),
                                   getPreSize(axis) * common, size / common));
    } else {
      result.factors[factor]->axes.push_back(axis);
    }
    room[factor] /= common;
  }
  return result;
}

/// The largest common prefix of two axis lists; an axis that is a strict
/// prefix of the other side's counts.
AxisList getCommonPrefix(ArrayRef<AxisRefAttr> a, ArrayRef<AxisRefAttr> b,
                         MeshAttr mesh) {
  AxisList prefix;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (x == y) {
      prefix.push_back(x);
      continue;
    }
    if (isStrictPrefix(x, y, mesh))
      prefix.push_back(x);
    else if (isStrictPrefix(y, x, mesh))
      prefix.push_back(y);
    break;
  }
  return prefix;
}

/// The factor shardings of a reshape some of whose tensors have overflow
/// axes (sdy-notes 5.1 "reshape with overflow axes").
ShardingProjection redistributeReshape(const OpFactorView &view) {
  const ShardingProjection &projection = view.projection;
  MeshAttr mesh = view.mesh.mesh;
  OpShardingRuleAttr rule = view.rule;
  ArrayRef<int64_t> factorSizes = rule.getFactorSizes();
  const TensorFactorShardings &operand = projection.operands[0];
  const TensorFactorShardings &result = projection.results[0];
  TensorMappingAttr operandMapping = rule.getOperandMappings()[0];
  TensorMappingAttr resultMapping = rule.getResultMappings()[0];
  bool operandWins = getTotalSize(getAllAxes(operand), mesh) >=
                     getTotalSize(getAllAxes(result), mesh);
  const TensorFactorShardings &source = operandWins ? operand : result;
  TensorMappingAttr sourceMapping =
      operandWins ? operandMapping : resultMapping;
  AxisList axes;
  for (DimMappingAttr dim : sourceMapping.getDimMappings())
    for (int64_t factor : dim.getFactorIndices()) {
      llvm::append_range(axes, source.factors[factor]->axes);
      llvm::append_range(axes, source.factors[factor]->overflowAxes);
    }
  // What each side can express of the distribution: back to dimension
  // shardings and projected again.
  auto rebuild = [&](const TensorFactorShardings &original,
                     TensorMappingAttr mapping) {
    TensorFactorShardings distributed =
        distributeAxes(axes, mapping, original, factorSizes, mesh);
    TensorShardingAttr sharding =
        unprojectTensor(distributed, mapping, factorSizes, mesh,
                        view.mesh.meshOrRef, /*previous=*/nullptr);
    return projectTensor(sharding, mapping, factorSizes, mesh,
                         /*closedIfMissing=*/true);
  };
  TensorFactorShardings newOperand = rebuild(operand, operandMapping);
  TensorFactorShardings newResult = rebuild(result, resultMapping);
  for (int64_t factor : llvm::seq<int64_t>(0, rule.getNumFactors())) {
    std::optional<FactorSharding> &a = newOperand.factors[factor];
    std::optional<FactorSharding> &b = newResult.factors[factor];
    // A factor on one side only cannot keep axes the other side lacks.
    AxisList common;
    if (a && b)
      common = getCommonPrefix(a->axes, b->axes, mesh);
    for (std::optional<FactorSharding> *side : {&a, &b})
      if (*side) {
        (*side)->axes = common;
        (*side)->overflowAxes.clear();
      }
  }
  ShardingProjection updated = projection;
  updated.operands[0] = std::move(newOperand);
  updated.results[0] = std::move(newResult);
  return updated;
}

bool hasOverflowAxes(const ShardingProjection &projection) {
  for (int64_t tensor : llvm::seq<int64_t>(0, projection.getNumTensors()))
    for (const std::optional<FactorSharding> &sharding :
         projection.getTensor(tensor).factors)
      if (sharding && !sharding->overflowAxes.empty())
        return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Dot optimisation (without the full version)
//===----------------------------------------------------------------------===//

/// When one batching or non-contracting factor of a dot is sharded in the
/// result by exactly the contracting axes, but by other axes in its
/// operand, gives the result the operand's axes (a reshard of the smaller
/// result after the dot then replaces a reduce-scatter).
void optimizeDot(const OpFactorView &view, ShardingProjection &updated) {
  const ShardingProjection &projection = view.projection;
  if (projection.operands.size() != 2 || projection.results.size() != 1)
    return;
  MeshAttr mesh = view.mesh.mesh;
  OpShardingRuleAttr rule = view.rule;
  const TensorFactorShardings &lhs = projection.operands[0];
  const TensorFactorShardings &rhs = projection.operands[1];
  const TensorFactorShardings &result = projection.results[0];
  SmallVector<int64_t> tensorSizes = view.getTensorSizes();
  AxisList contractingAxes, nonContractingAxes;
  std::optional<int64_t> differing;
  int64_t differingOperand = 0;
  for (int64_t factor : llvm::seq<int64_t>(0, rule.getNumFactors())) {
    const std::optional<FactorSharding> &inLhs = lhs.factors[factor];
    const std::optional<FactorSharding> &inRhs = rhs.factors[factor];
    const std::optional<FactorSharding> &inResult = result.factors[factor];
    if (inLhs && inRhs && inLhs->axes != inRhs->axes)
      return;
    if (rule.isReductionFactor(factor)) {
      if (inLhs)
        llvm::append_range(contractingAxes, inLhs->axes);
      continue;
    }
    if (!inResult || (!inLhs && !inRhs))
      continue;
    int64_t operand = inLhs ? 0 : 1;
    const FactorSharding &operandSharding = inLhs ? *inLhs : *inRhs;
    for (AxisRefAttr axis : operandSharding.axes) {
      if (llvm::any_of(nonContractingAxes, [&](AxisRefAttr other) {
            return overlaps(axis, other, mesh);
          }))
        return;
      nonContractingAxes.push_back(axis);
    }
    if (inResult->axes == operandSharding.axes)
      continue;
    if (differing)
      return;
    differing = factor;
    differingOperand = operand;
  }
  if (!differing)
    return;
  const FactorSharding &operandSharding =
      *projection.operands[differingOperand].factors[*differing];
  if (operandSharding.axes.empty() ||
      tensorSizes[2] > tensorSizes[differingOperand] ||
      result.factors[*differing]->axes != contractingAxes)
    return;
  updated.results[0].factors[*differing]->axes = operandSharding.axes;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The first `sdy.mesh` of `module` with axes: where values that leave a
/// single device are replicated.
FlatSymbolRefAttr getGlobalMesh(ModuleOp module) {
  for (auto mesh : module.getOps<MeshOp>())
    if (!mesh.getMesh().getAxes().empty())
      return FlatSymbolRefAttr::get(mesh.getSymNameAttr());
  return nullptr;
}

class InsertExplicitReshardsPass
    : public impl::InsertExplicitReshardsPassBase<InsertExplicitReshardsPass> {
  using InsertExplicitReshardsPassBase::InsertExplicitReshardsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (failed(checkSignature(function)))
      return signalPassFailure();
    SmallVector<Operation *> ops;
    function.walk([&](Operation *op) {
      if (op != function && !op->hasTrait<OpTrait::IsTerminator>())
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(processOp(op)))
        return signalPassFailure();
    for (Block &block : function.getBody())
      if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
        for (OpOperand &use : ret->getOpOperands())
          reconcileWithTarget(
              use,
              function.getResultAttrOfType<TensorShardingAttr>(
                  use.getOperandNumber(), SdyDialect::kShardingAttrName),
              enableFullVersion);
  }

  LogicalResult checkSignature(func::FuncOp function) {
    auto check = [&](TensorShardingAttr sharding, StringRef what,
                     unsigned index) -> LogicalResult {
      if (!sharding)
        return success();
      MeshAttr mesh = sharding.getMesh(function);
      if (!mesh || !isMaximalMesh(mesh))
        return success();
      return function.emitError()
             << what << " " << index << " of @" << function.getSymName()
             << " is on the single-device mesh " << sharding.getMeshOrRef()
             << "; only ops may run on one device, function inputs and "
                "outputs must be on a mesh with axes";
    };
    for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
      if (failed(check(function.getArgAttrOfType<TensorShardingAttr>(
                           i, SdyDialect::kShardingAttrName),
                       "argument", i)))
        return failure();
    for (unsigned i = 0, e = function.getNumResults(); i < e; ++i)
      if (failed(check(function.getResultAttrOfType<TensorShardingAttr>(
                           i, SdyDialect::kShardingAttrName),
                       "result", i)))
        return failure();
    return success();
  }

  static bool hasUnreducedAxes(Value value) {
    TensorShardingAttr sharding = getSharding(value);
    return sharding && !sharding.getUnreducedAxes().empty();
  }

  LogicalResult processOp(Operation *op) {
    if (auto reshard = dyn_cast<ReshardOp>(op)) {
      if (failed(allReduceUnreducedOperands(op)))
        return failure();
      replaceUnreducedReshard(reshard);
      return success();
    }
    if (isa<CollectiveOpInterface>(op))
      return success();
    if (isDataFlowOp(op) || isa<ManualComputationOp>(op)) {
      reconcileDataFlowEdges(op);
      return success();
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      reconcileCallOperands(call);
      return success();
    }
    if (failed(allReduceUnreducedOperands(op)))
      return failure();
    if (llvm::any_of(op->getResults(), [&](Value result) {
          TensorShardingAttr sharding = getSharding(result);
          MeshAttr mesh = sharding ? sharding.getMesh(op) : nullptr;
          return mesh && isMaximalMesh(mesh);
        }))
      return moveToSingleDevice(op);

    // Without the full version only dots, concatenations, ragged dots and
    // ops with an unreduced result can change (sdy-notes 5.1 steps 8-9):
    // the rest skip building their factor view, most of the pass' cost on
    // the export pipeline's default path.
    if (!enableFullVersion &&
        !isa<hlo::DotOp, hlo::DotGeneralOp, hlo::ConcatenateOp>(op) &&
        op->getName().getStringRef() != "mhlo.ragged_dot" &&
        (op->getNumResults() == 0 || !hasUnreducedAxes(op->getResult(0))))
      return success();
    std::optional<OpFactorView> view = OpFactorView::build(op);
    if (!view)
      return success();
    MeshAttr mesh = view->mesh.mesh;
    OpShardingRuleAttr rule = view->rule;
    bool full =
        enableFullVersion ||
        op->getName().getStringRef() == "mhlo.ragged_dot" ||
        (isa<hlo::ConcatenateOp>(op) &&
         llvm::any_of(view->operandShardings, [&](TensorShardingAttr sharding) {
           return !areEquivalent(sharding, view->resultShardings[0], op);
         }));
    ShardingProjection updated = view->projection;
    AxisList reductionAxes;
    if (full) {
      if (isa<hlo::ReshapeOp>(op) && hasOverflowAxes(view->projection)) {
        updated = redistributeReshape(*view);
      } else {
        CommonAxes common = CommonAxesSolver(*view).solve();
        if (!common.compatible)
          updated = withCommonAxes(view->projection, common.perFactor);
        for (int64_t factor : rule.getReductionFactors())
          llvm::append_range(reductionAxes, common.perFactor[factor]);
      }
    } else {
      if (isa<hlo::DotOp, hlo::DotGeneralOp>(op))
        optimizeDot(*view, updated);
      reductionAxes = getAgreedReductionAxes(*view);
    }
    ArrayRef<AxisRefAttr> resultUnreduced;
    TensorShardingAttr firstResult;
    if (!view->resultShardings.empty())
      firstResult = view->resultShardings[0];
    if (firstResult)
      resultUnreduced = firstResult.getUnreducedAxes();
    AxisList allReduceAxes = sortAndMergeAxes(
        getAxesNotIn(reductionAxes, resultUnreduced, mesh), mesh);
    // The partial results of the sharded reduction factors are combined the
    // way the op combines elements; an op whose body no all-reduce can
    // express (an argmax over value/index pairs, a product) must not see
    // its reduced dimensions sharded.
    ReductionKind kind = ReductionKind::Sum;
    if (!allReduceAxes.empty() || !resultUnreduced.empty()) {
      std::optional<ReductionKind> opKind = getReductionKindOfOp(op);
      if (!opKind && !allReduceAxes.empty())
        return op->emitOpError()
               << "reduces dimensions sharded along "
               << formatAxes(allReduceAxes)
               << ", but its body is not one add, maximum or minimum of its "
                  "two arguments, so no all-reduce can combine the partial "
                  "results; replicate the reduced dimensions first";
      if (opKind)
        kind = *opKind;
      if (opKind && !resultUnreduced.empty() &&
          firstResult.getUnreducedKind() != *opKind)
        return op->emitOpError()
               << "makes partial results of kind "
               << stringifyReductionKind(*opKind)
               << " but result 0 is unreduced with kind "
               << stringifyReductionKind(firstResult.getUnreducedKind())
               << " along " << formatAxes(resultUnreduced);
    }
    applyFactorShardings(*view, updated, allReduceAxes, kind);
    return success();
  }

  /// Without the full version, a result with unreduced axes is all-reduced
  /// over the other axes the operands (which must agree) shard reduction
  /// factors with.
  static AxisList getAgreedReductionAxes(const OpFactorView &view) {
    if (view.resultShardings.empty() || !view.resultShardings[0] ||
        view.resultShardings[0].getUnreducedAxes().empty())
      return {};
    AxisList axes;
    for (int64_t factor : view.rule.getReductionFactors()) {
      std::optional<AxisList> agreed;
      for (const TensorFactorShardings &operand : view.projection.operands) {
        const std::optional<FactorSharding> &sharding = operand.factors[factor];
        if (!sharding)
          continue;
        if (agreed && *agreed != sharding->axes)
          return {};
        agreed = sharding->axes;
      }
      if (agreed)
        llvm::append_range(axes, *agreed);
    }
    return axes;
  }

  /// Step 4: operands with unreduced axes the results do not carry are
  /// all-reduced right before `op`.
  LogicalResult allReduceUnreducedOperands(Operation *op) {
    ArrayRef<AxisRefAttr> resultUnreduced;
    ReductionKind resultKind = ReductionKind::Sum;
    for (auto [index, result] : llvm::enumerate(op->getResults())) {
      TensorShardingAttr sharding = getSharding(result);
      ArrayRef<AxisRefAttr> unreduced;
      ReductionKind kind = ReductionKind::Sum;
      if (sharding) {
        unreduced = sharding.getUnreducedAxes();
        kind = sharding.getUnreducedKind();
      }
      if (index == 0) {
        resultUnreduced = unreduced;
        resultKind = kind;
      } else if (unreduced != resultUnreduced || kind != resultKind) {
        return op->emitOpError()
               << "result " << index
               << " has other unreduced axes than result 0; the partitioner "
                  "needs every result of an op to be unreduced alike";
      }
    }
    OpBuilder builder(op);
    // A value used several times is all-reduced once.
    DenseMap<Value, Value> reducedValues;
    for (OpOperand &use : op->getOpOperands()) {
      if (Value reduced = reducedValues.lookup(use.get())) {
        use.set(reduced);
        continue;
      }
      TensorShardingAttr sharding = getPartitionSharding(use.get());
      if (!sharding || sharding.getUnreducedAxes().empty())
        continue;
      if (op->getNumResults() == 0)
        return op->emitOpError()
               << "has no result to carry the unreduced axes of operand "
               << use.getOperandNumber() << " (sharding " << sharding
               << "); all-reduce it first";
      MeshAttr mesh = sharding.getMesh(op);
      if (!mesh)
        continue;
      // Partial values of another kind than the results' are combined
      // completely: the op's results cannot carry them.
      ShardedValue reduced = allReduceAxesNotIn(
          builder, op->getLoc(), {use.get(), sharding},
          sharding.getUnreducedKind() == resultKind ? resultUnreduced
                                                    : ArrayRef<AxisRefAttr>(),
          mesh);
      if (reduced.value != use.get()) {
        reducedValues[use.get()] = reduced.value;
        use.set(reduced.value);
      }
    }
    return success();
  }

  /// Step 3: a reshard that adds unreduced axes gets them from the
  /// to-unreduced ops instead; it stays only for what else it changes.
  void replaceUnreducedReshard(ReshardOp reshard) {
    TensorShardingAttr target = reshard.getSharding();
    MeshAttr mesh = target.getMesh(reshard);
    if (!mesh || isMaximalMesh(mesh))
      return;
    TensorShardingAttr sharding = getPartitionSharding(reshard.getInput());
    AxisList added = getAxesNotIn(
        target.getUnreducedAxes(),
        sharding ? sharding.getUnreducedAxes() : ArrayRef<AxisRefAttr>(), mesh);
    if (added.empty())
      return;
    if (!sharding)
      sharding = getFullyClosedSharding(target.getMeshOrRef(),
                                        reshard.getType().getRank());
    if (sharding.getMesh(reshard) != mesh)
      return;
    OpBuilder builder(reshard);
    ShardedValue current = addUnreducedAxes(
        builder, reshard.getLoc(), {reshard.getInput(), sharding}, added, mesh);
    if (areEquivalent(current.sharding, target, reshard)) {
      reshard.replaceAllUsesWith(current.value);
      reshard.erase();
      return;
    }
    reshard.getInputMutable().assign(current.value);
  }

  void reconcileDataFlowEdges(Operation *op) {
    SmallVector<std::pair<OpOperand *, TensorShardingAttr>> sources;
    if (auto manual = dyn_cast<ManualComputationOp>(op)) {
      // Results see their body values from inside (no manual axes),
      // block arguments their operands from outside.
      Operation *terminator = manual.getBody().front().getTerminator();
      for (auto [index, sharding] :
           llvm::enumerate(manual.getOutShardings().getShardings()))
        sources.push_back({&terminator->getOpOperand(index),
                           stripManualAxes(sharding, manual.getManualAxes())});
      for (auto [index, sharding] :
           llvm::enumerate(manual.getInShardings().getShardings()))
        sources.push_back({&op->getOpOperand(index), sharding});
    } else {
      // Results first, then block arguments.
      SmallVector<Value> edgeOwners = getEdgeOwners(op);
      SmallVector<Value> owners;
      llvm::copy_if(edgeOwners, std::back_inserter(owners),
                    [](Value owner) { return isa<OpResult>(owner); });
      llvm::copy_if(edgeOwners, std::back_inserter(owners),
                    [](Value owner) { return isa<BlockArgument>(owner); });
      for (Value owner : owners) {
        TensorShardingAttr target = getEdgeOwnerSharding(owner);
        for (Value source : getEdgeSources(owner))
          for (OpOperand &use : source.getUses()) {
            Operation *user = use.getOwner();
            bool byOp =
                user == op || (user->hasTrait<OpTrait::IsTerminator>() &&
                               user->getParentOp() == op);
            if (byOp && getEdgeOwnerFromSource(use) == owner &&
                !llvm::is_contained(sources, std::make_pair(&use, target)))
              sources.push_back({&use, target});
          }
      }
    }
    for (auto [use, target] : sources)
      reconcileWithTarget(*use, target, enableFullVersion);
  }

  void reconcileCallOperands(func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    // For callee arguments without a sharding: replicated on the mesh all
    // sharded operands share, if there is one.
    Attribute commonMesh;
    bool meshesAgree = true;
    for (Value operand : call.getOperands()) {
      TensorShardingAttr sharding = getPartitionSharding(operand);
      MeshAttr mesh = sharding ? sharding.getMesh(call) : nullptr;
      if (!mesh || isEmptyMesh(mesh) || isMaximalMesh(mesh))
        continue;
      if (commonMesh && commonMesh != sharding.getMeshOrRef())
        meshesAgree = false;
      commonMesh = sharding.getMeshOrRef();
    }
    for (OpOperand &use : call->getOpOperands()) {
      TensorShardingAttr target;
      if (callee)
        target = callee.getArgAttrOfType<TensorShardingAttr>(
            use.getOperandNumber(), SdyDialect::kShardingAttrName);
      if (!target) {
        if (!commonMesh || !meshesAgree)
          continue;
        target =
            getFullyClosedSharding(commonMesh, getRank(use.get().getType()));
      }
      reconcileWithTarget(use, target, /*reshardToTarget=*/true);
    }
  }

  /// Step 5 (sdy-notes 5.6): `op` runs on the one device its results name.
  LogicalResult moveToSingleDevice(Operation *op) {
    TensorShardingAttr deviceSharding;
    MeshAttr device;
    for (Value result : op->getResults()) {
      TensorShardingAttr sharding = getSharding(result);
      MeshAttr mesh = sharding ? sharding.getMesh(op) : nullptr;
      if (!mesh || !isMaximalMesh(mesh))
        continue;
      if (device && device.getDeviceIds() != mesh.getDeviceIds())
        return op->emitOpError() << "has results on different single devices ("
                                 << deviceSharding.getMeshOrRef() << " and "
                                 << sharding.getMeshOrRef()
                                 << "); an op runs on at most one device";
      if (!device) {
        device = mesh;
        deviceSharding = TensorShardingAttr::get(
            op->getContext(), sharding.getMeshOrRef(), {}, {}, {});
      }
    }
    FlatSymbolRefAttr global = getGlobalMesh(op->getParentOfType<ModuleOp>());
    OpBuilder builder(op);
    for (OpOperand &use : op->getOpOperands()) {
      Value operand = use.get();
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      TensorShardingAttr sharding = getPartitionSharding(operand);
      if (sharding && sharding.getMesh(op) == device)
        continue;
      Value value = operand;
      if (global && sharding && !sharding.isFullyReplicated())
        value =
            ReshardOp::create(builder, op->getLoc(), value,
                              getFullyClosedSharding(global, type.getRank()));
      use.set(ReshardOp::create(builder, op->getLoc(), value, deviceSharding));
    }
    SmallVector<TensorShardingAttr> original, onDevice;
    for (Value result : op->getResults()) {
      original.push_back(getSharding(result));
      if (isa<RankedTensorType>(result.getType()))
        onDevice.push_back(deviceSharding);
      else
        onDevice.push_back(TensorShardingAttr::get(
            op->getContext(),
            global ? Attribute(global) : deviceSharding.getMeshOrRef(), {}, {},
            {}));
    }
    op->setAttr(SdyDialect::kShardingAttrName,
                TensorShardingPerValueAttr::get(op->getContext(), onDevice));
    if (!global)
      return success();
    builder.setInsertionPointAfter(op);
    for (auto [result, old] : llvm::zip(op->getResults(), original)) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      TensorShardingAttr replicated =
          getFullyClosedSharding(global, type.getRank());
      auto first = ReshardOp::create(builder, op->getLoc(), result, replicated);
      Value value = first;
      MeshAttr oldMesh = old ? old.getMesh(op) : nullptr;
      if (oldMesh && !isMaximalMesh(oldMesh) &&
          !areEquivalent(old, replicated, op))
        value = ReshardOp::create(builder, op->getLoc(), value, old);
      result.replaceAllUsesExcept(value, first);
    }
    return success();
  }
};

} // namespace
} // namespace mlir::sdy
