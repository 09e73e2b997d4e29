//===- SdyShardingInterfaces.td - How ops take part in propagation -*- tablegen -*-===//
//
// Upstream's two interfaces through which ops of other dialects (MPMD's
// fragments, loops and transfers) take part in sharding propagation.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_SDYSHARDINGINTERFACES_TD
#define MPMD_DIALECT_SDY_IR_SDYSHARDINGINTERFACES_TD

include "mlir/IR/OpBase.td"

def Sdy_ShardableDataFlowOpInterface
    : OpInterface<"ShardableDataFlowOpInterface"> {
  let description = [{
    An op that shardings cross only through data-flow edges (sdy-notes
    2.2): some of its block arguments and results *own* an edge, whose
    *sources* are the values flowing into it and whose *targets* are the
    owner and the other values that hold the same data (a loop's block
    argument for its result). The op stores one sharding per owner.
    `-sdy-add-data-flow-edges` puts an `sdy.data_flow_edge` on every owner,
    propagation moves shardings between the sources and the edge, and
    `-sdy-sink-data-flow-edges` stores the edges' shardings back, all of an
    op's at once (an op with n owners costs O(n), not O(n^2)).
  }];
  let cppNamespace = "::mlir::sdy";
  let methods = [
    InterfaceMethod<"The block arguments that own an edge.",
      "::llvm::SmallVector<::mlir::BlockArgument>",
      "getBlockArgumentEdgeOwners">,
    InterfaceMethod<"The results that own an edge.",
      "::llvm::SmallVector<::mlir::OpResult>", "getOpResultEdgeOwners">,
    InterfaceMethod<"The values flowing into the edge of `owner`.",
      "::llvm::SmallVector<::mlir::Value>", "getEdgeSources",
      (ins "::mlir::Value":$owner)>,
    InterfaceMethod<"The targets of the edge of `owner` other than `owner`.",
      "::llvm::SmallVector<::mlir::Value>", "getNonEdgeOwnerTargets",
      (ins "::mlir::Value":$owner)>,
    InterfaceMethod<[{The owner of the edge `target` (a block argument or
      result of this op) is a target of, or null.}],
      "::mlir::Value", "getEdgeOwnerFromTarget", (ins "::mlir::Value":$target)>,
    InterfaceMethod<[{The owner of the edge `source` (a use by this op or by
      the terminator of its region) is a source of, or null.}],
      "::mlir::Value", "getEdgeOwnerFromSource",
      (ins "::mlir::OpOperand &":$source)>,
    InterfaceMethod<"The sharding stored for `owner`, or null.",
      "::mlir::sdy::TensorShardingAttr", "getEdgeOwnerSharding",
      (ins "::mlir::Value":$owner)>,
    InterfaceMethod<[{Stores the shardings of the block-argument owners
      (`shardings` parallel to `getBlockArgumentEdgeOwners()`; a null entry
      keeps what is stored, or leaves it fully open), in one update.}],
      "void", "setBlockArgumentEdgeOwnerShardings",
      (ins "::llvm::ArrayRef<::mlir::sdy::TensorShardingAttr>":$shardings)>,
    InterfaceMethod<[{The same for the result owners
      (`getOpResultEdgeOwners()`).}],
      "void", "setOpResultEdgeOwnerShardings",
      (ins "::llvm::ArrayRef<::mlir::sdy::TensorShardingAttr>":$shardings)>,
  ];
}

def Sdy_ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let description = [{
    An op of another dialect that tells propagation how its operand and
    result dimensions relate.
  }];
  let cppNamespace = "::mlir::sdy";
  let methods = [
    InterfaceMethod<"The op's rule, or null when shardings do not cross it.",
      "::mlir::sdy::OpShardingRuleAttr", "getShardingRule">,
  ];
}

#endif // MPMD_DIALECT_SDY_IR_SDYSHARDINGINTERFACES_TD
