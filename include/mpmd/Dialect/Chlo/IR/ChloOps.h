//===- ChloOps.h - The chlo dialect and its operations ----------*- C++ -*-===//
//
// Our subset of StableHLO's client HLO (`chlo`) dialect: the ops JAX emits.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_CHLO_IR_CHLOOPS_H
#define MPMD_DIALECT_CHLO_IR_CHLOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mpmd/Dialect/Chlo/IR/ChloDialect.h.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Chlo/IR/ChloOps.h.inc"

#endif // MPMD_DIALECT_CHLO_IR_CHLOOPS_H
