//===- OpShardingRuleRegistry.h - Built-in op sharding rules ----*- C++ -*-===//
//
// The one place that knows how each op can be partitioned: the built-in
// `#sdy.op_sharding_rule` of every StableHLO op of our dialect (and of
// `sdy.sharding_constraint`), as Shardy's registry defines them.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_OPSHARDINGRULEREGISTRY_H
#define MPMD_TRANSFORMS_SDY_PROPAGATION_OPSHARDINGRULEREGISTRY_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

namespace mlir::sdy {

/// The built-in sharding rule of `op`, or null when it has none: ops that
/// shardings cross in other ways (constants, data-flow ops such as
/// `stablehlo.while`, calls, terminators, sdy and mpmd ops), ops with a
/// tensor that is not statically shaped, and ops the registry does not know.
/// The latter get a warning, once per process for each op name (or custom
/// call target). With `conservativePropagation`, factors that could carry
/// non-divisible shardings (windows, slices, padding, concatenation) are
/// blocked or left out.
OpShardingRuleAttr createOpShardingRule(Operation *op,
                                        bool conservativePropagation = false);

/// The `sdy.sharding_rule` of `op` if it has one, else its built-in rule,
/// which is stored on `op` when `storeOnOp` is set.
OpShardingRuleAttr getOrCreateOpShardingRule(Operation *op,
                                             bool conservativePropagation,
                                             bool storeOnOp);

/// Whether `op` is one of the element-wise ops whose rule maps dimension d
/// of every non-scalar tensor to factor d (`sdy.sharding_constraint`
/// included; collectives left out).
bool isElementwiseOp(Operation *op);

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_OPSHARDINGRULEREGISTRY_H
