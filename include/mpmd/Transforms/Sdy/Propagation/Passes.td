//===- Passes.td - sdy propagation passes -----------------*- tablegen -*-===//
//
// Shardy's sharding-propagation passes, and the import/export passes that
// only prepare or finish propagation, under upstream's `-sdy-...` flags and
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

def AddDataFlowEdgesPass
    : Pass<"sdy-add-data-flow-edges", "::mlir::func::FuncOp"> {
  let summary = "Inserts an `sdy.data_flow_edge` after every data-flow edge owner.";
  let description = [{
    Every statically shaped result of a `stablehlo.while`, `stablehlo.case`
    or `stablehlo.optimization_barrier` (nested ones too) owns a data-flow
    edge: the values flowing into it (operand i, the i-th returned value of
    the body or of every branch) are its sources, the result and the while
    block arguments receiving the same value its targets. The pass puts
    `sdy.data_flow_edge` right after the owner, carrying the owner's
    sharding if it has one, and routes all other uses of the owner through
    it, so that propagation keeps one sharding for all targets of the edge.
    `-sdy-sink-data-flow-edges` undoes it.
    Complexity: O(ops + uses of the owners).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def SinkDataFlowEdgesPass
    : Pass<"sdy-sink-data-flow-edges", "::mlir::func::FuncOp"> {
  let summary = "Moves the sharding of every `sdy.data_flow_edge` to its owner and erases the edge.";
  let description = [{
    For every data-flow op whose edges carry at least one sharding, the
    op's `sdy.sharding` becomes the edges' shardings, one per result
    (results without one, tokens included, fully open on the same mesh).
    Then every `sdy.data_flow_edge` is replaced by its input.
    Complexity: O(ops + uses of the edges).
  }];
  let options = [
    Option<"sinkDebugShardingOrigins", "sink-debug-sharding-origins", "bool",
           /*default=*/"false",
           "Accepted for compatibility; origins are not recorded yet">,
    Option<"sinkDebugPropagationEdgeSharding",
           "sink-debug-propagation-edge-sharding", "bool",
           /*default=*/"false",
           "Accepted for compatibility; edge shardings are not recorded yet">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

class PropagationPassBase<string flag> : Pass<flag, "::mlir::ModuleOp"> {
  list<Option> commonOptions = [
    Option<"keepShardingRules", "keep-sharding-rules", "bool",
           /*default=*/"false",
           "Keep the op sharding rules propagation found or created">,
    Option<"moduleDumpDirectory", "module-dump-directory", "std::string",
           /*default=*/"\"\"",
           "Accepted for compatibility; modules are not dumped yet">,
    Option<"conservativePropagation", "conservative-propagation", "bool",
           /*default=*/"false",
           "Propagate no sub-axes and use rules without the factors that "
           "can carry non-divisible shardings">,
    Option<"debugShardingOrigins", "debug-sharding-origins", "bool",
           /*default=*/"false",
           "Accepted for compatibility; origins are not recorded yet">,
    Option<"debugEdgeSourceSharding", "debug-edge-source-sharding", "bool",
           /*default=*/"false",
           "Accepted for compatibility; edge sources are not recorded yet">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def BasicPropagatePass : PropagationPassBase<"sdy-basic-propagate"> {
  let summary = "Propagates the shardings all operands and results of an op agree on.";
  let description = [{
    One fixed-point run (sdy-notes 3.2): the result shardings of the main
    function (the only function, else `@main`) seed the returned values,
    then a worklist visits every op of the module top-down; an op whose
    rule (`sdy.sharding_rule`, else the registry) lets axes move to an
    operand or result updates that value's `sdy.sharding` and re-queues the
    value's defining op and users. Finally the returned values' shardings
    become the function's result shardings. Per op, a factor gets only the
    axes every tensor mapped to it can take (sdy-notes 3.4): conflicts and
    closed dimensions block the factor for all. An `sdy.data_flow_edge`
    (`-sdy-add-data-flow-edges`) is an identity between the values flowing
    into a while, case or optimization_barrier result and the edge, which
    holds the sharding of the result and of the while block arguments
    receiving it. Ops without a rule, calls, manual and named computations
    are not crossed yet.
    Complexity: shardings only grow, so each value changes at most
    (axes of the mesh) times per dimension; each change re-queues its
    definition and users. A step costs O(factors x tensors x axes) of its
    op, so a run is O(sum over values of changes x uses x step cost), and
    O(ops) steps when nothing changes.
  }];
  let options = commonOptions;
}

def AggressivePropagatePass : PropagationPassBase<"sdy-aggressive-propagate"> {
  let summary = "Propagates shardings, resolving conflicts in favour of the larger tensor.";
  let description = [{
    The driver of `-sdy-basic-propagate` with the aggressive factor strategy
    (sdy-notes 3.5): per op, every factor's axes come from the largest
    tensor holding them, factors of larger tensors go first, and each
    operand and result takes what its own constraints and its other factors
    leave. `propagation-strategy=basic-then-aggressive` runs basic to a
    fixed point first. Complexity as for `-sdy-basic-propagate`, once per
    strategy run.
  }];
  let options = !listconcat(commonOptions, [
    Option<"propagationStrategy", "propagation-strategy",
           "PropagationStrategyOption",
           /*default=*/"PropagationStrategyOption::kAggressive",
           "Factor propagation strategy",
           [{::llvm::cl::values(
             clEnumValN(PropagationStrategyOption::kBasic, "basic",
                        "only axes all tensors agree on"),
             clEnumValN(PropagationStrategyOption::kAggressive, "aggressive",
                        "resolve conflicts per tensor"),
             clEnumValN(PropagationStrategyOption::kBasicThenAggressive,
                        "basic-then-aggressive",
                        "a basic run, then an aggressive one"))}]>,
  ]);
}

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_TD
