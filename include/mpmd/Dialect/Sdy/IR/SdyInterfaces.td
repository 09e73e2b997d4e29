//===- SdyInterfaces.td - sdy op interfaces ---------------*- tablegen -*-===//

#ifndef MPMD_DIALECT_SDY_IR_SDYINTERFACES_TD
#define MPMD_DIALECT_SDY_IR_SDYINTERFACES_TD

include "mlir/IR/OpBase.td"

def Sdy_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let description = [{
    An sdy collective (`all_gather`, `all_slice`, `all_reduce`,
    `reduce_scatter`, `all_to_all`, `collective_permute`,
    `replicated_to_unreduced`, `sharded_to_unreduced`): it keeps the
    global type of its one operand and changes only its sharding, to
    `out_sharding`.
  }];
  let cppNamespace = "::mlir::sdy";
  let methods = [
    InterfaceMethod<"The operand whose sharding changes.",
      "::mlir::TypedValue<::mlir::RankedTensorType>", "getTensor">,
    InterfaceMethod<"The sharding of the result.",
      "::mlir::sdy::TensorShardingAttr", "getOutSharding">,
  ];
}

#endif // MPMD_DIALECT_SDY_IR_SDYINTERFACES_TD
