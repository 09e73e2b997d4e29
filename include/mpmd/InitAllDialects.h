//===- InitAllDialects.h - Register every dialect mpmd tools use -*- C++ -*-===//

#ifndef MPMD_INITALLDIALECTS_H
#define MPMD_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::mpmd {

/// Adds our dialects (mpmd, sdy, stablehlo, chlo, check, interpreter) and the upstream
/// ones mpmd programs use (func, arith, tensor) to `registry`, with the
/// interfaces (e.g. inlining of func.call) the generic passes rely on.
void registerAllDialects(DialectRegistry &registry);

/// Registers the upstream generic passes mpmd-opt offers (canonicalize, cse,
/// inline, symbol-dce) and all of mpmd's passes and pipelines.
void registerAllPasses();

} // namespace mlir::mpmd

#endif // MPMD_INITALLDIALECTS_H
