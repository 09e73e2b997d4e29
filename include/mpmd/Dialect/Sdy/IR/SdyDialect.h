//===- SdyDialect.h - The sdy dialect ---------------------------*- C++ -*-===//
//
// Meshes, tensor shardings and sharding ops: our implementation of the
// subset of OpenXLA Shardy's `sdy` dialect that MPMD programs use.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_SDYDIALECT_H
#define MPMD_DIALECT_SDY_IR_SDYDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h.inc"
#include "mpmd/Dialect/Sdy/IR/SdyEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mpmd/Dialect/Sdy/IR/SdyAttrs.h.inc"

#endif // MPMD_DIALECT_SDY_IR_SDYDIALECT_H
