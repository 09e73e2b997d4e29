//===- ImportUtils.h - Helpers shared by the import passes ------*- C++ -*-===//

#ifndef MPMD_LIB_TRANSFORMS_IMPORT_IMPORTUTILS_H
#define MPMD_LIB_TRANSFORMS_IMPORT_IMPORTUTILS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mpmd {

/// A cheap op that is better recomputed than communicated: no operands, one
/// result, no regions and no side effects (e.g. a constant).
bool isNegligibleOp(Operation *op);

/// The `mpmd.call` sites of the functions of `module` that are referenced
/// only by `mpmd.call` ops, in module order. One walk over the module.
llvm::MapVector<func::FuncOp, SmallVector<CallOp>>
getFunctionsCalledOnlyByMpmdCalls(ModuleOp module);

/// Drops the entries at the set bits of `erase` from the array attribute
/// `name` of `op` (an `arg_attrs`/`res_attrs` list); nothing if it has none.
void eraseArrayEntries(Operation *op, StringRef name,
                       const llvm::BitVector &erase);

} // namespace mlir::mpmd

#endif // MPMD_LIB_TRANSFORMS_IMPORT_IMPORTUTILS_H
