//===- DataFlowEdges.h - Data-flow edges of region ops ---------*- C++ -*-===//
//
// Shardings cross `stablehlo.while`, `stablehlo.case`,
// `stablehlo.optimization_barrier`, `sdy.named_computation`,
// `sdy.manual_computation` and ops implementing
// `ShardableDataFlowOpInterface` (MPMD fragments and loops) only through
// data-flow edges (sdy-notes 2.2, 3.2, 3.8): an *owner* (a result, or a
// block argument of a named or manual computation or interface op) has
// an edge whose *sources* are the values flowing into it (operand i, the
// i-th operand of the returns of the body or branches) and whose *targets*
// are the owner and the values that receive the same data (while
// `cond`/`body` argument i). `-sdy-add-data-flow-edges` puts an
// `sdy.data_flow_edge` on each owner; during propagation that op holds the
// sharding of all targets. A manual computation's edges hold the sharding
// in their owner's view: a block argument's without the manual axes (the
// body's view), a result's with them.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_DATAFLOWEDGES_H
#define MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_DATAFLOWEDGES_H

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/Sdy/IR/SdyShardingInterfaces.h"

#include "mlir/IR/Operation.h"

namespace mlir::sdy {

/// Whether shardings cross `op` only through data-flow edges.
bool isDataFlowOp(Operation *op);

/// The block arguments then results of the data-flow op `op` that own an
/// edge (the statically shaped ones; tokens have no sharding).
SmallVector<Value> getEdgeOwners(Operation *op);

/// The values that flow into the edge owned by `owner`.
SmallVector<Value> getEdgeSources(Value owner);

/// The targets of the edge owned by `owner` other than `owner` itself.
SmallVector<Value> getNonOwnerTargets(Value owner);

/// The owner of the edge `target` is a target of, or null.
Value getEdgeOwnerFromTarget(Value target);

/// The owner of the edge `use` is a source of, or null.
Value getEdgeOwnerFromSource(OpOperand &use);

/// The manual computation whose block argument or result `owner` is, or
/// null.
ManualComputationOp getManualComputationOfOwner(Value owner);

/// The `sdy.data_flow_edge` placed on `owner`, or null.
DataFlowEdgeOp getDataFlowEdge(Value owner);

/// Puts an `sdy.data_flow_edge` on every edge owner of the data-flow op
/// `op` that has none yet (block arguments: at the start of their block;
/// results: right after `op`, in owner order), carrying the owner's
/// sharding, and routes all other uses of the owner through it.
/// O(owners + their uses).
void insertDataFlowEdges(Operation *op);

/// The sharding the op of `owner` stores for it, or null.
TensorShardingAttr getEdgeOwnerSharding(Value owner);

/// Stores the edge shardings `shardings` (one per owner of
/// `getEdgeOwners(op)`, null for none) on `op`; nothing when all are null.
void setEdgeOwnerShardings(Operation *op,
                           ArrayRef<TensorShardingAttr> shardings);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_DATAFLOWEDGES_H
