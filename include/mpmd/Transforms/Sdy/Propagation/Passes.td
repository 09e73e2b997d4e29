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
    Every statically shaped result of a `stablehlo.while`, `stablehlo.case`,
    `stablehlo.optimization_barrier` or `sdy.named_computation` (nested ones
    too), and every block argument of a named computation, owns a data-flow
    edge: the values flowing into it (operand i, the i-th returned value of
    the body or of every branch) are its sources, the owner and the while
    block arguments receiving the same value its targets. The pass puts
    `sdy.data_flow_edge` right after the owner (block arguments: at the top
    of the body), carrying the owner's sharding if it has one, and routes
    all other uses of the owner through it, so that propagation keeps one
    sharding for all targets of the edge.
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
    op's `sdy.sharding` (a named computation's in/out shardings) becomes
    the edges' shardings (the others, tokens included, fully open on the
    same mesh).
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
  Option strategyOption =
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
                        "a basic run, then an aggressive one"))}]>;
  Option opPriorityOption =
    Option<"runOpPriorityPropagation", "run-op-priority-propagation", "bool",
           /*default=*/"true",
           "Run the five op-priority stages (else one run per strategy)">;
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
    Option<"debugPropagationEdgeSharding", "debug-propagation-edge-sharding",
           "bool", /*default=*/"false",
           "Accepted for compatibility; propagation edges are not recorded "
           "yet">,
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
    receiving it. An `sdy.propagation_barrier` is an identity that only
    goes its `allowed_direction`; the members of an `sdy.sharding_group`
    always share one sharding. Named computations are crossed through their
    data-flow edges. Ops without a rule, calls and manual computations are
    not crossed yet.
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
  let options = !listconcat(commonOptions, [strategyOption]);
}

def OpPriorityPropagatePass : PropagationPassBase<"sdy-op-priority-propagate"> {
  let summary = "Propagates in five stages, pass-through ops first (sdy-notes 3.6).";
  let description = [{
    Five runs of `-sdy-aggressive-propagate`'s fixed point, each with a
    direction per op and factor that is the union of the stages so far:
    (0) element-wise ops, reshape, transpose, data-flow edges and
    MoveToHost/MoveToDevice both ways, dynamic (update) slices forward, when
    no operand of rank > 0 has several uses; (1) the same ops whatever the
    uses; (2) the pass-through factors of every op (broadcast_in_dim only
    backward); (3) every factor (broadcast_in_dim only backward); (4)
    everything. `run-op-priority-propagation=false` runs the strategy once.
    Complexity: five times `-sdy-aggressive-propagate`.
  }];
  let options = !listconcat(commonOptions, [strategyOption, opPriorityOption]);
}

def UserPriorityPropagatePass
    : PropagationPassBase<"sdy-user-priority-propagate"> {
  let summary = "Propagates user shardings in order of their priorities (`p0`, `p1`, ...).";
  let description = [{
    Dimension shardings of priority 0 (or none) propagate first; every
    dimension of a higher priority is held back as a closed, empty dimension
    whose axes are replicated, then restored (without its priority) before
    the round of its priority, lowest first (sdy-notes 3.7). Each round is
    `-sdy-op-priority-propagate`. Priorities are dropped from the output.
    Shardings held by `sdy.data_flow_edge`s keep their priorities out of
    this, as upstream. Complexity: (distinct priorities + 1) op-priority
    propagations.
  }];
  let options = !listconcat(commonOptions, [strategyOption, opPriorityOption]);
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

def LiftInlinedMeshesPass
    : Pass<"sdy-lift-inlined-meshes", "::mlir::ModuleOp"> {
  let summary = "Turns inlined meshes of shardings into `sdy.mesh` symbols.";
  let description = [{
    First merges `sdy.mesh` ops with equal meshes (references to a later
    one go to the first). Then every sharding with an inlined `mesh<...>`
    refers to the `sdy.mesh` of that mesh, created after the last mesh (or
    at the top of the module) when there is none: `@maximal_mesh_<id>` for
    a single device, `@empty_mesh` for `<[]>`, else the first free name of
    `@mesh`, `@mesh_0`, `@mesh_1`, ...
    Complexity: O(ops + shardings + meshes).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def RemoveSizeOneAxesPass
    : Pass<"sdy-remove-size-one-axes", "::mlir::ModuleOp"> {
  let summary = "Removes axes of size 1 from every sharding.";
  let description = [{
    Axes of size 1 shard nothing; they are dropped from the dimensions,
    replicated and unreduced axes of every sharding (meshes and manual axes
    keep them). A dimension left closed and empty loses its priority. Does
    nothing when no mesh has an axis of size 1. Complexity: O(ops +
    shardings).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def PropagateShardingFromFuncToCallPass
    : Pass<"sdy-propagate-sharding-from-func-to-call", "::mlir::ModuleOp"> {
  let summary = "Gives calls without shardings their callee's result shardings.";
  let description = [{
    A `func.call` without any `sdy.sharding` gets the result shardings of
    its callee, if the callee has one (results without one are fully open
    on the same mesh). Calls with shardings keep them. Complexity: O(calls).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ConstantOrScalarSplitterPass
    : Pass<"sdy-constant-or-scalar-splitter", "::mlir::ModuleOp"> {
  let summary = "Gives every use of a constant expression or scalar broadcast its own copy.";
  let description = [{
    `stablehlo.constant` becomes `sdy.constant` (which is never merged), so
    that each use can be sharded its own way. Constant expressions
    (`sdy.constant`, `stablehlo.iota`, and broadcast_in_dim, reshape, slice
    and element-wise ops of constant expressions) and broadcasts of rank-0
    values are cloned, with the constant expressions they are made of,
    right before every op outside that set using them; rank-0 values are
    shared. `sdy.sharding_group`s of a cloned value are cloned with it.
    Originals left unused are erased. Complexity: O(ops + uses x size of
    the cloned expression).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ManualAxesCleanupPass
    : Pass<"sdy-manual-axes-cleanup", "::mlir::ModuleOp"> {
  let summary = "Sorts manual axes and lists the unused ones as replicated.";
  let description = [{
    For every `sdy.manual_computation`: the manual axes are sorted in mesh
    order; every in/out sharding lists the manual axes it does not use as
    replicated; shardings on the empty mesh move to the op's mesh. Error: a
    manual computation with manual axes, no operands or results and a
    non-empty body (it has no mesh). Complexity: O(ops + shardings x axes).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ApplyShardingConstraintsPass
    : Pass<"sdy-apply-sharding-constraints", "::mlir::ModuleOp"> {
  let summary = "Makes closed sharding constraints bind their input.";
  let description = [{
    A fully closed `sdy.sharding_constraint` (or in_sharding of a manual
    computation) gives its sharding to its input when the input can hold a
    sharding, has none, and no other constraint on it disagrees. An input
    that is the target of a data-flow edge keeps its sharding; the
    constraint moves right after it and replaces all its uses instead. A
    chain of two or more single-use constraints on an unsharded input
    becomes what later uses of the input in the same block (returns
    excepted) see. Complexity: O(ops + uses).
  }];
  let options = [
    Option<"debugShardingOrigins", "debug-sharding-origins", "bool",
           /*default=*/"false",
           "Accepted for compatibility; origins are not recorded yet">,
    Option<"debugPropagationEdgeSharding", "debug-propagation-edge-sharding",
           "bool", /*default=*/"false",
           "Accepted for compatibility; propagation edges are not recorded "
           "yet">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ShardingGroupImportPass
    : Pass<"sdy-sharding-group-import", "::mlir::ModuleOp"> {
  let summary = "Merges sharding groups that share a value and numbers them 0..N-1.";
  let description = [{
    Groups with a common member are one group; groups are renumbered
    densely in the order of their smallest original id, and a value is put
    in its group once. Errors: members of one group in different manual
    computations, or of different types. Complexity: O(groups x α).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}


def AddFuncDataFlowEdgesPass
    : Pass<"sdy-add-func-data-flow-edges", "::mlir::ModuleOp"> {
  let summary = "Inserts an `sdy.func_data_flow_edge` on every argument of a called function and every call result.";
  let description = [{
    Every statically shaped argument of a function other than the main one
    (the only function, else `@main`) gets an `sdy.func_data_flow_edge` at
    the top of the body, every statically shaped result of a `func.call`
    one right after the call; the edge carries the owner's sharding (as its
    `sdy.sharding`) and all other uses of the owner go through it. During
    propagation the edge of an argument is an identity with the matching
    operand of every call of the function, the edge of a call result one
    with the matching returned value of the callee, so functions called
    several times keep one body (upstream's `dedup-functions-fully` mode).
    `-sdy-sink-func-data-flow-edges` undoes it.
    Complexity: O(arguments + call results + their uses).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def FlattenCallGraphPass
    : Pass<"sdy-flatten-call-graph", "::mlir::ModuleOp"> {
  let summary = "Clones functions so that each is called from one place.";
  let description = [{
    Functions are visited in module order, then the clones as they are
    made. The first `func.call` of a function keeps it; every later one
    calls a private clone (named `<name>_<n>` when the name is taken) whose
    `sdy.original_func_name` names the function it was cloned from (or the
    one that function came from), and whose own calls are then cloned the
    same way. Afterwards every function with a body has at most one call;
    `-sdy-unflatten-call-graph` merges the clones that ended up alike.
    Declarations are not cloned. Error: a recursive call graph (cloning
    would never end).
    Complexity: O(size of the flattened module): every call site gets a
    copy of everything its callee reaches.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ImportFuncCallsPass
    : Pass<"sdy-import-func-calls", "::mlir::ModuleOp"> {
  let summary = "Turns every `func.call` into an `sdy.named_computation` holding the callee's body.";
  let description = [{
    `func.call @f(%x)` becomes `sdy.named_computation<"f">(%x)` named after
    the callee's `sdy.original_func_name` (else its name), with the
    callee's argument shardings as `in_shardings` and the call's
    `sdy.sharding` as `out_shardings`; the other discardable attributes of
    the call, and the callee's `execution_thread`, stay on it. The first
    call of a function takes its body (the function is erased), later ones
    get a copy of it, with one warning per run suggesting
    `-sdy-flatten-call-graph`. Calls of declarations stay calls. With
    `add-data-flow-edges-on-named-computations` (default), every named
    computation then gets its data-flow edges (owners that already have one
    are skipped), so propagation crosses it as if it were inlined.
    Complexity: O(ops of the module + copied bodies).
  }];
  let options = [
    Option<"addDataFlowEdgesOnNamedComputations",
           "add-data-flow-edges-on-named-computations", "bool",
           /*default=*/"true",
           "Put data-flow edges on every named computation afterwards">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def PreOrderFuncsPass : Pass<"sdy-pre-order-funcs", "::mlir::ModuleOp"> {
  let summary = "Orders the functions of the module in pre-order of the call graph.";
  let description = [{
    Depth-first from the functions no call reaches (in module order), each
    function before the functions it calls (in the order of the calls),
    every function once; functions reached only from a cycle follow in
    module order. The functions move to the end of the module in that
    order (meshes stay first), so that propagation, which visits the
    module top-down, sees callers before callees.
    Complexity: O(functions + calls).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

def ConstantOrScalarMergerPass
    : Pass<"sdy-constant-or-scalar-merger", "::mlir::func::FuncOp"> {
  let summary = "Merges equal constants and scalar broadcasts that propagation left alike.";
  let description = [{
    An `sdy.constant` or constant-like op with the same attributes (value
    and sharding included) and type as an earlier one in the same region is
    replaced by it; so is a broadcast_in_dim of a rank-0 value equal to an
    earlier one. Undoes `-sdy-constant-or-scalar-splitter` where the copies
    ended up sharded alike. Complexity: O(ops) expected (hashing).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def SinkFuncDataFlowEdgesPass
    : Pass<"sdy-sink-func-data-flow-edges", "::mlir::func::FuncOp"> {
  let summary = "Moves the sharding of every `sdy.func_data_flow_edge` to its input and erases the edge.";
  let description = [{
    The function argument or call result under the edge takes the edge's
    sharding; when the edge has none but the input had one, the input
    becomes fully open on its mesh (other results of a call without a
    sharding too). Then the edge is replaced by its input. The argument
    list and each call's result shardings are rewritten once.
    Complexity: O(edges + arguments + call results).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ExportNamedComputationsPass
    : Pass<"sdy-export-named-computations", "::mlir::ModuleOp"> {
  let summary = "Turns every `sdy.named_computation` into a `func.call` of a new private function.";
  let description = [{
    Innermost first. The computation's in/out shardings are those of the
    data-flow edges of its block arguments / results when one of them has
    a sharding (the others fully open), else the op's own; the edges are
    erased. A private function named after the computation (`<name>_<n>`
    when taken; `sdy.original_func_name` = the name) takes the body, with
    `sdy.return` turned into `func.return`, the in_shardings on its
    arguments and the op's `execution_thread`; the op becomes a
    `func.call` of it carrying the op's other discardable attributes and
    the out_shardings as `sdy.sharding`. Result shardings of the function
    are left to `-sdy-propagate-to-func-results`.
    Complexity: O(named computations + their operands, results and edges).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def PropagateToFuncResultsPass
    : Pass<"sdy-propagate-to-func-results", "::mlir::ModuleOp"> {
  let summary = "Gives the results of every function but the main one the shardings of its returned values.";
  let description = [{
    For every function with a body other than the main one (the only
    function, else `@main`), result i takes the sharding of the i-th
    operand of its `func.return`, or loses its `sdy.sharding` when that
    value has none. Complexity: O(results).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def UnflattenCallGraphPass
    : Pass<"sdy-unflatten-call-graph", "::mlir::ModuleOp"> {
  let summary = "Merges the functions cloned from one function that ended up alike.";
  let description = [{
    Functions with the same key call one of them: the key is the original
    name (`sdy.original_func_name`, else the name), the
    `sdy.func_manual_axes` and the argument and result shardings. With
    `dedup-functions-fully` the shardings are left out of the key and the
    function with the most calls (the first on ties) wins; otherwise the
    first in module order. Every call goes to the winner of its callee's
    key; `sdy.original_func_name` and `sdy.func_manual_axes` are removed
    from every function; functions left without calls stay for a later
    `symbol-dce`. Complexity: O(functions x signature + calls), keys being
    uniqued attributes hashed by pointer.
  }];
  let options = [
    Option<"dedupFunctionsFully", "dedup-functions-fully", "bool",
           /*default=*/"false",
           "Merge the clones of a function whatever their shardings, keeping "
           "the one with the most calls">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def InsertFuncCallReshardsPass
    : Pass<"sdy-insert-func-call-reshards", "::mlir::ModuleOp"> {
  let summary = "Reshards call results whose sharding differs from the callee's result sharding.";
  let description = [{
    For every `func.call` result whose sharding does not lay out the value
    like the callee's result sharding (mesh, axes per dimension, unreduced
    axes; an absent sharding is replicated, a callee result without one is
    fully closed replicated on the call's mesh), an `sdy.reshard` to what
    the call's users expect (the call's sharding, else fully closed
    replicated) follows the call and takes over the users; then the call's
    `sdy.sharding` becomes the callee's result shardings.
    Complexity: O(calls + call results).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def VerifyUnreducedAxesPass
    : Pass<"sdy-verify-unreduced-axes", "::mlir::func::FuncOp"> {
  let summary = "Checks that no op drops or invents unreduced axes.";
  let description = [{
    Errors, one per offending op (all are reported): an op whose result
    lacks an unreduced axis of one of its operands (reshards and sharding
    constraints reduce explicitly and may; `sdy.all_reduce` and
    `sdy.reduce_scatter` may drop the axes they reduce; operands produced
    by a reshard or constraint are not checked); a `stablehlo.reduce` whose
    body is not one `stablehlo.add` giving its result unreduced axes its
    operands do not have (only sum-unreduced axes exist here); a
    `func.call` whose operands or results disagree with the callee's
    argument or result shardings on unreduced axes; an `sdy.all_reduce` or
    `sdy.reduce_scatter` whose operand has no sharding.
    Complexity: O(ops x operands x unreduced axes), plus O(functions) per
    call for the callee lookup.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def RemoveShardingGroupsPass
    : Pass<"sdy-remove-sharding-groups", "::mlir::ModuleOp"> {
  let summary = "Erases every `sdy.sharding_group`.";
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ShardingConstraintToReshardPass
    : Pass<"sdy-sharding-constraint-to-reshard", "::mlir::func::FuncOp"> {
  let summary = "Turns every `sdy.sharding_constraint` into an `sdy.reshard`.";
  let description = [{
    Same operand, sharding and discardable attributes. Complexity: O(ops).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def UpdateNonDivisibleInputOutputShardingsPass
    : Pass<"sdy-update-non-divisible-input-output-shardings",
           "::mlir::ModuleOp"> {
  let summary = "Shrinks function, call and manual-computation shardings to divisible ones.";
  let description = [{
    In the argument and result shardings of functions, the result shardings
    of calls and the in/out shardings of manual computations, a dimension
    whose size its axes do not divide keeps the longest prefix of axes that
    does: axis by axis, with `g` = gcd(axis size, what is left of the
    dimension), stop at g = 1, take the whole axis at g = axis size, else
    take its major sub-axis of size g and stop. Changed dimensions lose
    their priority. Complexity: O(shardings x axes).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def RemoveSubAxesInInputOutputShardingsPass
    : Pass<"sdy-remove-sub-axes-in-input-output-shardings",
           "::mlir::ModuleOp"> {
  let summary = "Cuts the open dimensions of the main function's shardings at their first sub-axis.";
  let description = [{
    Main function (the only one, else `@main`) arguments and results only;
    closed dimensions are left alone. Complexity: O(arguments + results).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def CloseShardingsPass : Pass<"sdy-close-shardings", "::mlir::ModuleOp"> {
  let summary = "Closes every dimension of every sharding and drops replicated axes.";
  let description = [{
    Priorities and unreduced axes stay. Complexity: O(ops + shardings).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def DropShardingRulesPass
    : Pass<"sdy-drop-sharding-rules", "::mlir::func::FuncOp"> {
  let summary = "Removes every `sdy.sharding_rule` that is not custom.";
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def RemovePropagationDebugInfoPass
    : Pass<"sdy-remove-propagation-debug-info", "::mlir::ModuleOp"> {
  let summary = "Removes the attributes propagation's debug options record.";
  let description = [{
    `sdy.sharding_origins`, `sdy.propagation_edges` and their
    `sdy.block_arg_*` / `sdy.result_*` variants, on ops and on function
    arguments and results. Complexity: O(ops).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def InlineMeshesPass : Pass<"sdy-inline-meshes", "::mlir::ModuleOp"> {
  let summary = "Replaces every mesh symbol in shardings by the mesh itself and erases the `sdy.mesh` ops.";
  let description = [{
    The inverse of `-sdy-lift-inlined-meshes`. Complexity: O(ops +
    shardings).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ExplicitGatherScatterBatchingPass
    : Pass<"sdy-explicit-gather-scatter-batching", "::mlir::func::FuncOp"> {
  let summary = "Turns iota-indexed implicit batch dimensions of gather/scatter into batching dimensions.";
  let description = [{
    A `stablehlo.gather` (`stablehlo.scatter`) without batching dimensions
    whose operand dimension 0 and indices dimension 0 have the same size,
    whose index vector (not dimension 0 of the indices, more than one
    component) indexes operand dimension 0 with a component that is an iota
    along indices dimension 0, and whose operand dimension 0 is collapsed
    (inserted), reads element i of dimension 0 for batch i: that is an
    explicit batching dimension. The pass makes it one
    (`operand_batching_dims = [0]`, `start_indices_batching_dims = [0]`;
    `input_batching_dims` / `scatter_indices_batching_dims` for scatter),
    drops the component from the start index map and from the indices, and
    takes operand dimension 0 out of the collapsed (inserted) dimensions, so
    that propagation sees a batch factor shared by operand, indices and
    result. The indices must be a `stablehlo.concatenate` along the index
    vector dimension with the iota as one input of size 1 (the input is
    dropped); the iota is seen through `broadcast_in_dim`, `reshape`s that
    only add or drop size-1 dimensions, and integer `convert`s. Indices the
    rewrite leaves unused are erased.
    Complexity: O(ops x rank).
  }];
}

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_PASSES_TD
