//===- ShardingProjection.h - Dimension shardings as factors ----*- C++ -*-===//
//
// Propagation reasons about the factors of an op's sharding rule, not about
// tensor dimensions: a projection turns the dimension shardings of every
// operand and result into factor shardings and back (sdy-notes 1.4). The
// (sub-)axis arithmetic it uses is in mpmd/Dialect/Sdy/IR/AxisRefUtils.h.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_SHARDINGPROJECTION_H
#define MPMD_TRANSFORMS_SDY_PROPAGATION_SHARDINGPROJECTION_H

#include "mpmd/Dialect/Sdy/IR/AxisRefUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::sdy {

//===----------------------------------------------------------------------===//
// Projection
//===----------------------------------------------------------------------===//

/// The sharding of one factor in one tensor.
struct FactorSharding {
  /// Axes sharding the factor, major to minor.
  SmallVector<AxisRefAttr> axes;
  /// Axes of the dimension left over after a factor they do not divide;
  /// they keep their place on the dimension but cannot be extended.
  SmallVector<AxisRefAttr> overflowAxes;
  bool isClosed = false;
  /// The last factor of its dimension, which may be sharded non-divisibly.
  bool isMinorMost = false;
};

/// The factor shardings of one tensor, indexed by factor; factors the tensor
/// is not mapped to are nullopt.
struct TensorFactorShardings {
  SmallVector<std::optional<FactorSharding>> factors;
  SmallVector<AxisRefAttr> replicatedAxes;
  SmallVector<AxisRefAttr> unreducedAxes;
  ReductionKind unreducedKind = ReductionKind::Sum;

  /// All axes of the factors other than `factor`, overflow axes included.
  SmallVector<AxisRefAttr> getAxesOfOtherFactors(int64_t factor) const;

  /// Whether every factor has the same axes (overflow axes included) in
  /// `other`; open/closed flags do not matter.
  bool hasSameFactorAxes(const TensorFactorShardings &other) const;
};

/// Projects `sharding` (null: no sharding, so every factor is empty and open,
/// or closed with `closedIfMissing`) of a tensor mapped by `mapping` under a
/// rule with `factorSizes`.
TensorFactorShardings projectTensor(TensorShardingAttr sharding,
                                    TensorMappingAttr mapping,
                                    ArrayRef<int64_t> factorSizes,
                                    MeshAttr mesh,
                                    bool closedIfMissing = false);

/// The dimension shardings of `factors` on mesh `meshOrRef`. Dimension
/// priorities are taken from `previous` (may be null).
TensorShardingAttr unprojectTensor(const TensorFactorShardings &factors,
                                   TensorMappingAttr mapping,
                                   ArrayRef<int64_t> factorSizes, MeshAttr mesh,
                                   Attribute meshOrRef,
                                   TensorShardingAttr previous);

/// The factor shardings of every operand and result of an op.
struct ShardingProjection {
  std::vector<TensorFactorShardings> operands;
  std::vector<TensorFactorShardings> results;

  /// Missing shardings project to empty factors, open unless
  /// `closedIfMissing`.
  static ShardingProjection build(ArrayRef<TensorShardingAttr> operands,
                                  ArrayRef<TensorShardingAttr> results,
                                  OpShardingRuleAttr rule, MeshAttr mesh,
                                  bool closedIfMissing = false);

  int64_t getNumTensors() const { return operands.size() + results.size(); }
  /// Operands first, then results.
  const TensorFactorShardings &getTensor(int64_t index) const {
    return const_cast<ShardingProjection *>(this)->getTensor(index);
  }
  TensorFactorShardings &getTensor(int64_t index) {
    return index < static_cast<int64_t>(operands.size())
               ? operands[index]
               : results[index - operands.size()];
  }
};

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_SHARDINGPROJECTION_H
