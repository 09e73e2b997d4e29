//===- Passes.h - sdy propagation passes ------------------------*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_H
#define MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdy {

/// Values of the `propagation-strategy` option of the propagation passes.
enum class PropagationStrategyOption {
  kBasic,
  kAggressive,
  kBasicThenAggressive,
};

#define GEN_PASS_DECL
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_H
