//===- CollectiveInserter.h - sdy collectives for one reshard ---*- C++ -*-===//
//
// The core of -sdy-reshard-to-collectives: the sequence of sdy.all_slice,
// sdy.collective_permute, sdy.all_to_all and sdy.all_gather that turns a
// tensor sharded one way into the same tensor sharded another way.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_COLLECTIVEINSERTER_H
#define MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_COLLECTIVEINSERTER_H

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {

/// Emits at `builder`'s insertion point the collectives that reshard
/// `input`, sharded `in` (null: replicated), to `out`, and returns the
/// resharded value (`input` itself when nothing has to move). `out` is on a
/// mesh with the axes of `in`'s mesh (its device order may differ), which
/// `scope` resolves. Each collective's `out_sharding` is the closed sharding
/// the value has after it, with the unreduced axes of `out`.
///
/// The shardings are cut into (sub-)axis pieces that are pairwise equal or
/// disjoint; then at most two rounds of: all-slice (free axes, no
/// communication), collective-permute (same shard counts, axes moved or
/// device order changed), all-to-all (a suffix of axes moved to another
/// dimension, exact landings first), all-gather (trailing axes the output
/// does not use). If axes are still out of place after two rounds (only
/// with non-power-of-two axes), everything not yet in place is gathered
/// and the output's axes sliced.
///
/// Complexity: O(R * A^2) for rank R and A (sub-)axes in `in` and `out`.
Value insertCollectives(OpBuilder &builder, Location loc, Value input,
                        TensorShardingAttr in, TensorShardingAttr out,
                        Operation *scope);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_COLLECTIVEINSERTER_H
