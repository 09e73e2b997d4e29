//===- PropagationDriver.h - One fixed-point propagation run ----*- C++ -*-===//
//
// Shared by the `-sdy-*-propagate` passes, which differ only in the factor
// propagation strategy (sdy-notes 3.2).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_PROPAGATIONDRIVER_H
#define MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_PROPAGATIONDRIVER_H

#include "mpmd/Transforms/Sdy/Propagation/FactorPropagation.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::sdy {

/// Runs one propagation with `options` over `module` for each strategy of
/// `strategies` in turn, then drops the non-custom sharding rules unless
/// `keepShardingRules`. Fails, with an error, on modules propagation does
/// not support.
LogicalResult propagateShardings(ModuleOp module,
                                 ArrayRef<PropagationStrategy> strategies,
                                 bool conservativePropagation,
                                 bool keepShardingRules);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_PROPAGATIONDRIVER_H
