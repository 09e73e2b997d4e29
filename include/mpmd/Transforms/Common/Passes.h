//===- Passes.h - Common passes -------------------------------*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_COMMON_PASSES_H
#define MPMD_TRANSFORMS_COMMON_PASSES_H

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Transforms/Common/PassOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mpmd {

#define GEN_PASS_DECL
#include "mpmd/Transforms/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mpmd/Transforms/Common/Passes.h.inc"

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_COMMON_PASSES_H
