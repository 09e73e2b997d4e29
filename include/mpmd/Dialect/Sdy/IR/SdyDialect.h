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

namespace mlir::sdy {

/// Verifies `sharding` for a value of `type`: its mesh (resolved from `op`)
/// must exist and the sharding must be valid for it (axis names, rank, no
/// axis used twice). Errors are reported on `op` as
/// "<what> has an invalid sharding <sharding>: <reason>".
LogicalResult verifyShardingOfValue(Operation *op, TensorShardingAttr sharding,
                                    Type type, const Twine &what);

/// `[<@mesh, [{"x"}]>, <@mesh, []>]`: the shardings of a sharding_per_value
/// without the `#sdy.sharding` prefix, as op in/out shardings are written.
ParseResult parseStrippedTensorShardingPerValueAttr(
    AsmParser &parser, TensorShardingPerValueAttr &result);
void printStrippedTensorShardingPerValueAttr(
    AsmPrinter &printer, TensorShardingPerValueAttr shardings);

} // namespace mlir::sdy

#endif // MPMD_DIALECT_SDY_IR_SDYDIALECT_H
