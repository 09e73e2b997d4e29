//===- Passes.h - Sharding-propagation passes -------------------------------*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_H
#define MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_H

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mpmd {

#define GEN_PASS_DECL
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_H
