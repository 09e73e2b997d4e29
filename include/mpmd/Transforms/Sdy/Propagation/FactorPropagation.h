//===- FactorPropagation.h - Moving axes between factor shardings -*- C++ -*-===//
//
// One propagation step at one op works on the op's sharding projection: a
// strategy decides, factor by factor, which axes every operand and result
// gets (sdy-notes 3.4 basic, 3.5 aggressive). Factor kinds (reduction,
// need-replication, permutation) do not change what propagates; they only
// tell the explicit-reshard passes what communication the sharding costs.
// Blocked factors never propagate.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_FACTORPROPAGATION_H
#define MPMD_TRANSFORMS_SDY_PROPAGATION_FACTORPROPAGATION_H

#include "mpmd/Transforms/Sdy/Propagation/ShardingProjection.h"

#include "llvm/ADT/BitVector.h"

namespace mlir::sdy {

enum class PropagationStrategy {
  /// Only axes every operand and result agrees on.
  kBasic,
  /// Per tensor, the axes of the largest tensor holding them.
  kAggressive,
};

struct FactorPropagationOptions {
  PropagationStrategy strategy = PropagationStrategy::kBasic;
  /// No sub-axes are created.
  bool conservative = false;
};

/// Propagates the factor shardings of `projection` under `rule`, where
/// `getDirection(factor)` says which way each factor may move (operands are
/// updated only for BACKWARD or BOTH, results only for FORWARD or BOTH).
/// Returns one bit per tensor, operands first, set where the tensor changed.
llvm::BitVector
propagateFactorShardings(ShardingProjection &projection,
                         OpShardingRuleAttr rule, MeshAttr mesh,
                         function_ref<PropagationDirection(int64_t)> getDirection,
                         const FactorPropagationOptions &options);

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_FACTORPROPAGATION_H
