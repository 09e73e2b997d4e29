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
    takes it as its `out_shardings` entry or its `sdy.sharding`. Without a
    user sharding the existing one stays. Other entries of a created
    `in_shardings`/`out_shardings` list are fully open.
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
    `stablehlo.send`/`recv`). A fragment's `in_shardings` must agree with its
    operands' types: a difference is an error naming the operand (a reshard
    would be needed). A transfer within one mesh whose operand and result
    shardings differ is an error. The function type follows.
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

#endif // MPMD_TRANSFORMS_SHARDINGPROPAGATION_PASSES_TD
