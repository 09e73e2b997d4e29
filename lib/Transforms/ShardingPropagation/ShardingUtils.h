//===- ShardingUtils.h - Shardings of mesh tensors after propagation -*- C++ -*-===//
//
// After propagation a sharding says where each value is, no longer where it
// may go: open dimensions and priorities mean nothing more, and a sharding
// without axes is replication. The passes that move shardings into mesh
// tensor types and that extract reshards compare and store them in that
// canonical form.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SHARDINGPROPAGATION_SHARDINGUTILS_H
#define MPMD_LIB_TRANSFORMS_SHARDINGPROPAGATION_SHARDINGUTILS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

namespace mlir::mpmd {

/// `sharding` with dimensions closed and priorities and explicitly
/// replicated axes dropped; null when nothing is sharded or unreduced
/// (replicated) or `sharding` is null.
sdy::TensorShardingAttr canonicalizeSharding(sdy::TensorShardingAttr sharding);

/// The canonical sharding of a mesh tensor type (null: replicated or not a
/// mesh tensor).
sdy::TensorShardingAttr getTypeSharding(Type type);

/// `type` with `sharding` (canonicalized); non mesh tensors stay.
Type withSharding(Type type, sdy::TensorShardingAttr sharding);

} // namespace mlir::mpmd

#endif // MPMD_LIB_TRANSFORMS_SHARDINGPROPAGATION_SHARDINGUTILS_H
