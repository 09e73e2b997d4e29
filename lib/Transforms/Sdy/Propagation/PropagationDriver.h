//===- PropagationDriver.h - One fixed-point propagation run ----*- C++ -*-===//
//
// Shared by the `-sdy-*-propagate` passes. The basic and aggressive passes
// run the fixed point once per strategy; op-priority propagation runs it once
// per stage with a direction function, and user-priority propagation runs
// op-priority propagation once per user priority (sdy-notes 3.1).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_PROPAGATIONDRIVER_H
#define MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_PROPAGATIONDRIVER_H

#include "mpmd/Transforms/Sdy/Propagation/FactorPropagation.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::sdy {

/// Which way factor `factor` of `op`'s rule may move shardings.
using OpDirectionFn =
    function_ref<PropagationDirection(Operation *op, int64_t factor)>;

/// Stores `sharding` where `value` keeps it. Returns false for values that
/// cannot carry one (block arguments of region ops, results of ops that
/// shardings only cross through data-flow edges).
bool setSharding(Value value, TensorShardingAttr sharding);

/// The value whose sharding stands for `value` during propagation: the
/// `sdy.data_flow_edge` of the edge `value` is a target of, if there is one,
/// so that all targets of an edge share one sharding.
Value getShardableValue(Value value);

/// The strategies one propagation runs for the `propagation-strategy`
/// option, in order.
SmallVector<PropagationStrategy>
getStrategyRuns(PropagationStrategyOption option);

/// `union(a, b)`: BOTH for FORWARD and BACKWARD, else the larger of the two
/// in the order NONE < FORWARD < BACKWARD < BOTH (sdy-notes 3.1).
PropagationDirection unionOf(PropagationDirection a, PropagationDirection b);
/// `intersection(a, b)`: NONE for FORWARD and BACKWARD, else the smaller.
PropagationDirection intersectionOf(PropagationDirection a,
                                    PropagationDirection b);

/// Checks that propagation supports `module` (static shapes, no tuples) and
/// makes the members of every sharding group agree: when the members that
/// have a sharding agree, all get it; otherwise a warning, and every member
/// is replaced by a fully open `sdy.sharding_constraint` of it.
LogicalResult prepareForPropagation(ModuleOp module);

/// One fixed-point run (sdy-notes 3.2) with `options`, where `direction`
/// (null: BOTH everywhere) restricts every factor of every op except
/// `sdy.propagation_barrier`, which always uses its own direction.
void runPropagation(ModuleOp module, const FactorPropagationOptions &options,
                    OpDirectionFn direction = nullptr);

/// Removes every `sdy.sharding_rule` that is not custom.
void dropNonCustomShardingRules(Operation *root);

/// Runs one propagation with `options` over `module` for each strategy of
/// `strategies` in turn, then drops the non-custom sharding rules unless
/// `keepShardingRules`. Fails, with an error, on modules propagation does
/// not support.
LogicalResult propagateShardings(ModuleOp module,
                                 ArrayRef<PropagationStrategy> strategies,
                                 bool conservativePropagation,
                                 bool keepShardingRules);

/// Op-priority propagation (sdy-notes 3.6): five runs of every strategy of
/// `strategies`, each allowing more op kinds and directions, all
/// intersected with `outer` (null: BOTH). With `runOpPriority` false, one
/// run per strategy with `outer`.
void propagateWithOpPriorities(ModuleOp module,
                               ArrayRef<PropagationStrategy> strategies,
                               bool conservativePropagation, bool runOpPriority,
                               OpDirectionFn outer = nullptr);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_PROPAGATIONDRIVER_H
