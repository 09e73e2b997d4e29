//===- DataFlowEdges.h - Data-flow edges of while, case, barrier -*- C++ -*-===//
//-*-===//
//
// Shardings cross `stablehlo.while`, `stablehlo.case`,
// `stablehlo.optimization_barrier` and `sdy.named_computation` only through
// data-flow edges (sdy-notes 2.2, 3.2, 3.8): every statically shaped result
// (and block argument of a named computation) *owns* an edge whose
// *sources* are the values flowing into it (operand i, the i-th operand of
// the returns of the body or branches) and whose *targets* are the owner and
// the block arguments that receive the same value (while `cond`/`body`
// argument i). `-sdy-add-data-flow-edges` puts an `sdy.data_flow_edge` after
// each owner; during propagation that op holds the sharding of all targets.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_DATAFLOWEDGES_H
#define MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_DATAFLOWEDGES_H

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Operation.h"

namespace mlir::sdy {

/// Whether shardings cross `op` only through data-flow edges.
bool isDataFlowOp(Operation *op);

/// The block arguments (named computations) and results of the data-flow op
/// `op` that own an edge (the statically shaped ones; tokens have no
/// sharding), block arguments first.
SmallVector<Value> getEdgeOwners(Operation *op);

/// The values that flow into the edge owned by `owner`.
SmallVector<Value> getEdgeSources(Value owner);

/// The targets of the edge owned by `owner` other than `owner` itself.
SmallVector<Value> getNonOwnerTargets(Value owner);

/// The owner of the edge `target` is a target of, or null.
Value getEdgeOwnerFromTarget(Value target);

/// The owner of the edge `use` is a source of, or null.
Value getEdgeOwnerFromSource(OpOperand &use);

/// The `sdy.data_flow_edge` placed on `owner`, or null.
DataFlowEdgeOp getDataFlowEdge(Value owner);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_DATAFLOWEDGES_H
