//===- Passes.h - sdy partitioner passes ------------------------*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_H
#define MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdy {

#define GEN_PASS_DECL
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PARTITIONING_PASSES_H
