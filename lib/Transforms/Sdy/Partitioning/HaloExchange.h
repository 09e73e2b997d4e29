//===- HaloExchange.h - Pad and slice by neighbour exchange -----*- C++ -*-===//
//
// The halo path of -sdy-resolve-permutation-factors (sdy-notes 5.4): a
// `stablehlo.pad` or `stablehlo.slice` with sharded dimensions whose output
// shards read other devices' input shards runs inside an
// `sdy.manual_computation`, each device fetching only the boundary
// elements it needs from its neighbours with `stablehlo.collective_permute`,
// instead of replicating the dimension.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_HALOEXCHANGE_H
#define MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_HALOEXCHANGE_H

#include "DeviceIds.h"

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace mlir::sdy {

struct OpFactorView;

/// Replaces the pad or slice of `view` by a halo exchange when its operand
/// and result are sharded alike on full axes of one mesh (no unreduced
/// axes) and the halo of every sharded dimension is smaller than what an
/// all-gather of that dimension would move; returns whether it did. The
/// device id is `replica_id` when `useReplicaId`, else `partition_id`.
/// O(S x (N + shards) + T) for S sharded dimensions, N devices of the mesh
/// and T ops built (T = O(rank + hops)).
bool rewriteWithHaloExchange(const OpFactorView &view, bool useReplicaId,
                             ChannelCounter &channels);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_HALOEXCHANGE_H
