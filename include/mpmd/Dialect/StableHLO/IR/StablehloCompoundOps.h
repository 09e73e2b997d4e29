//===- StablehloCompoundOps.h - batch norm, cholesky, tuples ----*- C++ -*-===//
//
// The ops of StablehloCompoundOps.td. Include this (not only
// StablehloOps.h) to use them; the dialect registers them either way.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOCOMPOUNDOPS_H
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOCOMPOUNDOPS_H

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/SymbolTable.h"

#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloCompoundOps.h.inc"

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOCOMPOUNDOPS_H
