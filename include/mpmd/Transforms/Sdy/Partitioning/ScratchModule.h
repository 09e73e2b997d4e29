//===- ScratchModule.h - Partitioning part of a program ---------*- C++ -*-===//
//
// Passes that run the partitioner on part of a program (one function, one
// op) do so in a scratch module: a dynamic pipeline must run on an op
// nested under the pass' own, and the partitioner passes resolve mesh
// symbols in the module they run on.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PARTITIONING_SCRATCHMODULE_H
#define MPMD_TRANSFORMS_SDY_PARTITIONING_SCRATCHMODULE_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::sdy {

/// A new module at the end of `module`'s body holding copies of its
/// `sdy.mesh` symbols; the caller erases it when done. O(meshes).
ModuleOp createScratchModule(ModuleOp module, Location loc);

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PARTITIONING_SCRATCHMODULE_H
