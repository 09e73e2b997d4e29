//===- SdyShardingInterfaces.h - Ops in propagation -------------*- C++ -*-===//
//
// Kept apart from SdyOps.h: only propagation and the ops implementing them
// need these.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_SDYSHARDINGINTERFACES_H
#define MPMD_DIALECT_SDY_IR_SDYSHARDINGINTERFACES_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "mlir/IR/OpDefinition.h"

#include "mpmd/Dialect/Sdy/IR/SdyShardingInterfaces.h.inc"

#endif // MPMD_DIALECT_SDY_IR_SDYSHARDINGINTERFACES_H
