//===- ShardingProjection.h - Dimension shardings as factors ----*- C++ -*-===//
//
// Propagation reasons about the factors of an op's sharding rule, not about
// tensor dimensions: a projection turns the dimension shardings of every
// operand and result into factor shardings and back (sdy-notes 1.4). The
// axis arithmetic on (sub-)axes that both directions and the propagation
// strategies need lives here too.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_SHARDINGPROJECTION_H
#define MPMD_TRANSFORMS_SDY_PROPAGATION_SHARDINGPROJECTION_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::sdy {

//===----------------------------------------------------------------------===//
// (Sub-)axis arithmetic. A sub-axis "x":(m)k covers the devices of axis "x"
// whose index, in the mixed radix [m, k, n/(m*k)], has middle digit varying:
// the interval [m, m*k) of "pre-sizes". Full axes cover [1, n).
//===----------------------------------------------------------------------===//

/// The pre-size of `axis`: 1 for a full axis.
int64_t getPreSize(AxisRefAttr axis);

/// The (sub-)axis of `name` covering [preSize, preSize*size); the full axis
/// when that is all of it.
AxisRefAttr getAxisRef(MeshAttr mesh, StringRef name, int64_t preSize,
                       int64_t size);

/// Whether `a` and `b` share devices of one mesh axis.
bool overlaps(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

/// Whether every device index of `inner` is one of `outer`.
bool contains(AxisRefAttr outer, AxisRefAttr inner, MeshAttr mesh);

/// Whether `prefix` is the major part of `axis` and smaller than it:
/// "x":(1)2 of "x" (size 4), "x":(2)2 of "x":(2)4.
bool isStrictPrefix(AxisRefAttr prefix, AxisRefAttr axis, MeshAttr mesh);

/// The major part of `axis` of `size` devices.
AxisRefAttr getPrefix(AxisRefAttr axis, int64_t size, MeshAttr mesh);

/// `major` and `minor` as one (sub-)axis when they are contiguous pieces of
/// the same axis, e.g. "y":(1)2 and "y":(2)2 of "y" (size 4) give "y".
std::optional<AxisRefAttr> mergeContiguous(AxisRefAttr major,
                                           AxisRefAttr minor, MeshAttr mesh);

/// The largest major part of `axis` that overlaps none of `others`, or
/// nullopt when even its first devices are taken.
std::optional<AxisRefAttr>
getPrefixNotOverlapping(AxisRefAttr axis, ArrayRef<AxisRefAttr> others,
                        MeshAttr mesh);

/// Product of the sizes of `axes`.
int64_t getTotalSize(ArrayRef<AxisRefAttr> axes, MeshAttr mesh);

/// Whether `axes` is a proper prefix of `longer`, where the last axis of
/// `axes` may itself be a strict prefix of the matching axis of `longer`.
bool isStrictPrefix(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> longer,
                    MeshAttr mesh);

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
