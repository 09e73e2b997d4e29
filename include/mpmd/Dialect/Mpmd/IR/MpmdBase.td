//===- MpmdBase.td - The mpmd dialect definition ----------*- tablegen -*-===//
//
// The MPMD dialect: named computations and tensors labelled by the user,
// SPMD fragments assigned to meshes, transfers between meshes, and the
// microbatching call/loop ops. Syntax follows OpenXLA Shardy:MPMD.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDBASE_TD
#define MPMD_DIALECT_MPMD_IR_MPMDBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Mpmd_Dialect : Dialect {
  let name = "mpmd";
  let cppNamespace = "::mlir::mpmd";
  let summary = "Multiple-program multiple-data partitioning of ML programs.";
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Function attribute holding the `#mpmd.topology` of an MPMD function.
    static constexpr ::llvm::StringLiteral kTopologyAttrName = "topology";
    /// Function attribute holding the `#sdy.mesh` of an SPMD function.
    static constexpr ::llvm::StringLiteral kMeshShapeAttrName = "mesh_shape";
    /// Argument/result attribute naming where a value lives: "device" or
    /// "pinned_host" (host offloading).
    static constexpr ::llvm::StringLiteral kMemoryKindAttrName =
        "mhlo.memory_kind";
    /// Discardable microbatch index on calls, fragments and fragment calls.
    static constexpr ::llvm::StringLiteral kCallCounterAttrName = "call_counter";
    /// Discardable attributes of the mesh-inference analysis.
    static constexpr ::llvm::StringLiteral kUseSetAttrName = "mpmd.use_set";
    static constexpr ::llvm::StringLiteral kSrcSetAttrName = "mpmd.src_set";

  private:
    // Defined next to the storage classes, which only those files see.
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

class Mpmd_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Mpmd_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class Mpmd_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Mpmd_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Mpmd_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mpmd_Dialect, mnemonic, traits>;

#endif // MPMD_DIALECT_MPMD_IR_MPMDBASE_TD
