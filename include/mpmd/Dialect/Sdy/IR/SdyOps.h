//===- SdyOps.h - sdy operations --------------------------------*- C++ -*-===//

#ifndef MPMD_DIALECT_SDY_IR_SDYOPS_H
#define MPMD_DIALECT_SDY_IR_SDYOPS_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include "mpmd/Dialect/Sdy/IR/SdyInterfaces.h.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Sdy/IR/SdyOps.h.inc"

namespace mlir::sdy {

/// The sharding `value` is known to have, or null: a function argument's
/// `sdy.sharding`, the sharding of a `sharding_constraint`/`reshard`/
/// `data_flow_edge`, a collective's `out_sharding`, an out sharding of a
/// `manual_computation`/`named_computation`, or the defining op's
/// `sdy.sharding` entry for this result.
TensorShardingAttr getSharding(Value value);

/// `getSharding(value)`, or, when that is null and `value` is produced by an
/// `sdy.propagation_barrier`, the sharding of the barrier's input (a barrier
/// only steers propagation; the data it passes on is sharded as its input).
TensorShardingAttr getShardingThroughBarriers(Value value);

} // namespace mlir::sdy

#endif // MPMD_DIALECT_SDY_IR_SDYOPS_H
