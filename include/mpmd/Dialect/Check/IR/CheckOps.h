//===- CheckOps.h - The check dialect and its operations --------*- C++ -*-===//
//
// Assertion ops of executable tests (StableHLO interpreter test style).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_CHECK_IR_CHECKOPS_H
#define MPMD_DIALECT_CHECK_IR_CHECKOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "mpmd/Dialect/Check/IR/CheckDialect.h.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Check/IR/CheckOps.h.inc"

#endif // MPMD_DIALECT_CHECK_IR_CHECKOPS_H
