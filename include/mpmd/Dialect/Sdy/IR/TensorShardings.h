//===- TensorShardings.h - Shardings the passes build -----------*- C++ -*-===//
//
// Shardings several passes construct from scratch. Kept out of the
// generated attribute header so that adding one rebuilds only its users.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_TENSORSHARDINGS_H
#define MPMD_DIALECT_SDY_IR_TENSORSHARDINGS_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

namespace mlir::sdy {

/// Every dimension closed and unsharded, rank `rank`, on `meshOrRef` (a
/// mesh symbol or an inlined mesh): replicated, and no propagation may
/// shard it.
TensorShardingAttr getFullyClosedSharding(Attribute meshOrRef, int64_t rank);

} // namespace mlir::sdy

#endif // MPMD_DIALECT_SDY_IR_TENSORSHARDINGS_H
