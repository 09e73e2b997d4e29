//===- ExplicitReshards.h - Making ops run on compatible shardings -*- C++
//-*-===//
//
// What -sdy-insert-explicit-reshards and -sdy-resolve-permutation-factors
// share (sdy-notes 5.1 steps 6 to 9, 5.4): the factor view of an op's
// shardings on its mesh, and the rewrite that makes the op run with chosen
// factor shardings by resharding its operands before it and its results
// back after it, all-reducing partial results on the way.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_EXPLICITRESHARDS_H
#define MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_EXPLICITRESHARDS_H

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/ShardingProjection.h"

#include <optional>

namespace mlir::sdy {

/// The sharding `value` has while partitioning: `getSharding`, and for a
/// block argument of a region op the sharding of the edge it is a target of
/// (a `while` result) or, inside a manual computation, its in-sharding
/// without the manual axes. Null when unsharded.
TensorShardingAttr getPartitionSharding(Value value);

/// Whether `a` and `b` place the same data on the same devices: same mesh
/// (device order included), same axes on every dimension, same unreduced
/// axes; open/closed, priorities and replicated axes do not matter. A null
/// sharding is fully replicated. O(rank + axes).
bool areEquivalent(TensorShardingAttr a, TensorShardingAttr b,
                   Operation *scope);

/// `sharding` with every dimension closed, no priorities and no replicated
/// axes: the form of the shardings this phase writes.
TensorShardingAttr getClosedForm(TensorShardingAttr sharding);

/// The axes of `axes` not covered by one of `removed`.
SmallVector<AxisRefAttr> getAxesNotIn(ArrayRef<AxisRefAttr> axes,
                                      ArrayRef<AxisRefAttr> removed,
                                      MeshAttr mesh);

/// The mesh an op's tensors are compared on, as sharding attributes name it.
struct OpMesh {
  MeshAttr mesh;
  Attribute meshOrRef;
};

/// The shardings of one op with a (non-custom) sharding rule, projected on
/// factors on the op's mesh (sdy-notes 5.1 steps 6 and 7).
struct OpFactorView {
  Operation *op = nullptr;
  OpShardingRuleAttr rule;
  OpMesh mesh;
  /// The current shardings (null: none).
  SmallVector<TensorShardingAttr> operandShardings;
  SmallVector<TensorShardingAttr> resultShardings;
  /// The projection, missing shardings taken as closed and unsharded.
  ShardingProjection projection;

  /// The view of `op`, or nullopt when it has no rule or a custom one, when
  /// its tensors have no common mesh (ignoring device order), or when that
  /// mesh is maximal. Of the meshes differing only in device order, the one
  /// most non-replicated shardings use is taken. O(tensors x rank).
  static std::optional<OpFactorView> build(Operation *op);

  /// Element count of every operand then result (0 for non-tensors).
  SmallVector<int64_t> getTensorSizes() const;
};

/// Makes `view.op` run with the factor shardings `updated` (sdy-notes 5.1
/// step 8): each operand whose factor axes changed, or whose sharding is on
/// another device order of the mesh, is resharded right before the op; each
/// changed result gets its new sharding and is resharded back to the old
/// one (closed replicated if it had none) for its users. With
/// `allReduceAxes` (sorted) non-empty, every result is first all-reduced
/// over them with `allReduceKind` (step 9). O(tensors x rank + users of the
/// results).
void applyFactorShardings(const OpFactorView &view,
                          const ShardingProjection &updated,
                          ArrayRef<AxisRefAttr> allReduceAxes,
                          ReductionKind allReduceKind);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_EXPLICITRESHARDS_H
