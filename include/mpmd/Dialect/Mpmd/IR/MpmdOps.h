//===- MpmdOps.h - mpmd operations ------------------------------*- C++ -*-===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDOPS_H
#define MPMD_DIALECT_MPMD_IR_MPMDOPS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h.inc"

#endif // MPMD_DIALECT_MPMD_IR_MPMDOPS_H
