//===- Passes.td - sdy propagation passes -----------------*- tablegen -*-===//
//
// Shardy's sharding-propagation passes under upstream's `-sdy-...` flags and
// options, one pass per file in lib/Transforms/Sdy/Propagation named after
// its flag.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_TD
#define MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def PopulateOpShardingRulesPass
    : Pass<"sdy-populate-op-sharding-rules", "::mlir::func::FuncOp"> {
  let summary = "Attaches the built-in sharding rule of every op as `sdy.sharding_rule`.";
  let description = [{
    Every op of the function that has a built-in `#sdy.op_sharding_rule`
    (OpShardingRuleRegistry.h) and no `sdy.sharding_rule` yet gets it, so
    that the rules can be printed and checked. Existing rules, custom or
    not, stay. Ops the registry does not know get a warning, once per
    process for each op name or custom call target. Propagation creates the
    same rules when it needs them.
    Complexity: O(ops), each rule linear in the ranks of its op's tensors.
  }];
  let options = [
    Option<"conservativePropagation", "conservative-propagation", "bool",
           /*default=*/"false",
           "Leave out or block the factors that can propagate non-divisible "
           "sharding axes (windows, slices, padding, concatenation)">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_TD
