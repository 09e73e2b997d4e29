//===- Passes.td - Sharding-propagation passes ------------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/ShardingPropagation, named after its
// flag: `-mpmd-enforce-user-shardings` lives in EnforceUserShardings.cpp.
//
// Automatic SPMD propagation inside meshes is not implemented yet: a value
// without a user or propagated sharding is replicated over its mesh. These
// passes carry the shardings that exist (the user's on @main's inputs and
// outputs, those on fragments and transfers) into the mesh tensor types.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_TD
#define MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def EnforceUserShardingsPass
    : Pass<"mpmd-enforce-user-shardings", "::mlir::func::FuncOp"> {
  let summary = "Makes the fragments and transfers next to @main's inputs and outputs use the user's shardings.";
  let description = [{
    In entry-point functions: a fragment operand that is an input with a
    user `sdy.sharding` takes it as its `in_shardings` entry; a fragment
    result or a transfer returned as an output with a user `sdy.sharding`
    takes it as its `out_shardings` entry or its `sdy.sharding`, and the
    other fragments using that output take it as their `in_shardings`
    entry. Without a user sharding the existing one stays. Other entries of
    a created `in_shardings`/`out_shardings` list are fully open. As
    upstream, each dimension of a user sharding is cut before its first
    sub-axis and then closed, with one warning for inputs and one for
    outputs.
    Complexity: O(uses of the inputs + outputs + signatures touched).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect", "::mlir::sdy::SdyDialect"];
}

def ConvertSdyShardingsToMpmdTypesPass
    : Pass<"mpmd-convert-sdy-shardings-to-mpmd-types", "::mlir::func::FuncOp"> {
  let summary = "Moves the shardings of inputs, fragments and transfers into the mesh tensor types.";
  let description = [{
    In MPMD functions: an input's `sdy.sharding`, a fragment's
    `out_shardings` and a transfer's `sdy.sharding` become the `sharding=` of
    the mesh tensor type of the input or result (a sharding without axes
    means replicated and is dropped), and the attributes go, with the
    `sdy.sharding` of outputs and of ops in fragment bodies (except
    `stablehlo.send`/`recv`). As upstream, an operand a fragment's
    `in_shardings` asks another sharding of is retyped with it (the last
    consumer wins), and afterwards a transfer whose operand and result
    shardings differ on one sdy mesh is reported with an error that does
    not fail the pass. An output whose `sdy.sharding` its value does not
    have is an error. The function type follows.
    Complexity: O(ops + operands).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect", "::mlir::sdy::SdyDialect"];
}

def ConvertSdyConstantsPass
    : Pass<"mpmd-convert-sdy-constants", "::mlir::func::FuncOp"> {
  let summary = "Turns sdy.constant into stablehlo.constant.";
  let description = [{
    After propagation an `sdy.constant` (a constant that propagation must
    not fold) is an ordinary constant. Complexity: O(ops).
  }];
  let dependentDialects = ["::mlir::stablehlo::StablehloDialect"];
}

def PopulateUnreducedOutShardingPass
    : Pass<"mpmd-populate-unreduced-out-sharding", "::mlir::func::FuncOp"> {
  let summary = "Copies the unreduced axes of sharding constraints on values a fragment returns into its out_shardings.";
  let description = [{
    In MPMD functions, for each fragment result whose returned value is an
    `sdy.sharding_constraint` with `unreduced` axes: the result's
    `out_shardings` entry keeps its dimension shardings and takes the
    constraint's unreduced axes (without an entry, the constraint's
    sharding is used; other results of a created list are fully open).
    Propagation does not carry unreduced axes to fragment results, so the
    fragment would otherwise reduce before returning. An entry that already
    has other unreduced axes is an error.
    Complexity: O(Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect", "::mlir::sdy::SdyDialect"];
}

def ExtractReshardsFromInterMeshTransfersPass
    : Pass<"mpmd-extract-reshards-from-inter-mesh-transfers", "::mlir::func::FuncOp"> {
  let summary = "Moves the resharding of transfers whose operand and result shardings differ into identity fragments.";
  let description = [{
    In MPMD functions, the sharding of a transfer's operand (a function
    argument's `sdy.sharding`, a fragment's `out_shardings` entry, a
    transfer's `sdy.sharding`, else its type) and of its result (its
    `sdy.sharding`, else its type) are compared after canonicalization
    (open and closed unsharded dimensions alike). Where they differ:
    * a transfer within one mesh and memory kind becomes an identity
      fragment on that mesh producing the result's sharding;
    * otherwise, in a homogeneous topology (all meshes of one shape), an
      identity fragment is inserted at the consumer (the transfer then
      keeps the operand's sharding) when a shard of the operand is no
      larger than one of the result, and at the producer (the transfer then
      carries the result's sharding) when it is larger, so the smaller
      shards cross between meshes. Nothing is done in heterogeneous
      topologies, whose local sizes are not comparable.
    The fragments have no origin, `mpmd.inferred_by = ["extract_reshards"]`,
    and carry the new sharding in their result type; the function type
    follows.
    Complexity: O(T + function signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect", "::mlir::sdy::SdyDialect"];
}

def SimplifyProgramPass
    : Pass<"mpmd-simplify-program", "::mlir::func::FuncOp"> {
  let summary = "Removes the redundant operands and results of fragments and loops.";
  let description = [{
    In MPMD functions (innermost `mpmd.for` bodies first):
    * a loop result whose iteration returns its carried value unchanged is
      replaced by the loop operand;
    * a fragment result returning a block argument whose operand has the
      result's type is replaced by that operand (the fragment
      canonicalization);
    * fragments are deduplicated (`-mpmd-fragment-dedup`) and cleaned up
      (`-mpmd-fragment-dce`): repeated operands and results, unused results,
      dead body ops and unused operands go; unused side-effect-free
      fragments and unused transfers are erased.
    Complexity: O(N + Σ signature).
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_TD
