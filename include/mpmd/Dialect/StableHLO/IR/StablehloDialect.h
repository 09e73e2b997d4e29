//===- StablehloDialect.h - The stablehlo dialect ---------------*- C++ -*-===//
//
// Our implementation of the subset of OpenXLA StableHLO that JAX training
// steps use: the dialect, its enums, attributes and the token type.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLODIALECT_H
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLODIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h.inc"
#include "mpmd/Dialect/StableHLO/IR/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloTypes.h.inc"

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLODIALECT_H
