//===- MpmdDialect.h - The mpmd dialect, its attributes and types -*- C++ -*-===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDDIALECT_H
#define MPMD_DIALECT_MPMD_IR_MPMDDIALECT_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h.inc"
#include "mpmd/Dialect/Mpmd/IR/MpmdEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mpmd/Dialect/Mpmd/IR/MpmdAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mpmd/Dialect/Mpmd/IR/MpmdTypes.h.inc"

namespace mlir::mpmd {

/// The `#mpmd.topology` of the function enclosing `op` (or of `op` itself if
/// it is a function); null if there is none.
TopologyAttr getTopology(Operation *op);

/// True for `!stablehlo.token`, which fragments and named computations carry
/// alongside tensors.
bool isTokenType(Type type);

} // namespace mlir::mpmd

#endif // MPMD_DIALECT_MPMD_IR_MPMDDIALECT_H
