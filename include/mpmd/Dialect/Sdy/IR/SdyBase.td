//===- SdyBase.td - The sdy dialect definition ------------*- tablegen -*-===//
//
// Our own implementation of the subset of OpenXLA Shardy's `sdy` dialect that
// MPMD programs use: meshes, tensor shardings and the sharding/collective ops.
// Syntax follows upstream so that IR moves between the two unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_SDYBASE_TD
#define MPMD_DIALECT_SDY_IR_SDYBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Sdy_Dialect : Dialect {
  let name = "sdy";
  let cppNamespace = "::mlir::sdy";
  let summary = "Meshes, tensor shardings and sharding ops (Shardy subset).";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding shardings: a
    /// `#sdy.sharding` on function arguments/results, a
    /// `#sdy.sharding_per_value` on operations.
    static constexpr ::llvm::StringLiteral kShardingAttrName = "sdy.sharding";
    /// Name of the discardable attribute holding an op's
    /// `#sdy.op_sharding_rule`.
    static constexpr ::llvm::StringLiteral kShardingRuleAttrName =
        "sdy.sharding_rule";
    /// Debug labels of the canonicalization patterns, so that
    /// `-canonicalize="enable-patterns=sdy-collective"` (or a canonicalizer
    /// built with these as enabled labels) runs only that set; folders
    /// still run. `sdy-reshard`: reshard chains; `sdy-collective`: no-op and
    /// fusable collectives.
    static constexpr ::llvm::StringLiteral kReshardPatternLabel = "sdy-reshard";
    static constexpr ::llvm::StringLiteral kCollectivePatternLabel =
        "sdy-collective";

  private:
    // Defined next to the attribute storage classes, which only that file sees.
    void registerAttributes();
  public:
  }];
}

class Sdy_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sdy_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class Sdy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sdy_Dialect, mnemonic, traits>;

#endif // MPMD_DIALECT_SDY_IR_SDYBASE_TD
