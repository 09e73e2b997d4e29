//===- InterpreterOps.h - The interpreter dialect and its ops ---*- C++ -*-===//
//
// Ops of StableHLO's reference interpreter: interpreter.run_parallel,
// interpreter.print and interpreter.probe.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_INTERPRETER_IR_INTERPRETEROPS_H
#define MPMD_DIALECT_INTERPRETER_IR_INTERPRETEROPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "mpmd/Dialect/Interpreter/IR/InterpreterDialect.h.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.h.inc"

#endif // MPMD_DIALECT_INTERPRETER_IR_INTERPRETEROPS_H
