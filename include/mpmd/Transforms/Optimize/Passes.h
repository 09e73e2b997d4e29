//===- Passes.h - Optimize passes ------------------------------*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_OPTIMIZE_PASSES_H
#define MPMD_TRANSFORMS_OPTIMIZE_PASSES_H

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Transforms/Optimize/FragmentRules.h"
#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mpmd {

#define GEN_PASS_DECL
#include "mpmd/Transforms/Optimize/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mpmd/Transforms/Optimize/Passes.h.inc"

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_OPTIMIZE_PASSES_H
