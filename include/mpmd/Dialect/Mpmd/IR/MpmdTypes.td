//===- MpmdTypes.td - mpmd types --------------------------*- tablegen -*-===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDTYPES_TD
#define MPMD_DIALECT_MPMD_IR_MPMDTYPES_TD

include "mpmd/Dialect/Mpmd/IR/MpmdAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/BuiltinTypes.td"

def Mpmd_MeshTensor : Mpmd_Type<"MeshTensor", "mesh_tensor",
    [DeclareTypeInterfaceMethods<ShapedTypeInterface, ["cloneWith"]>,
     ValueSemantics]> {
  let summary = "A distributed tensor living on a named mesh.";
  let description = [{
    `!mpmd.mesh_tensor<"m1", tensor<12x16xf32>, sharding=<@mesh, [{"x"}, {?} ]>,
    memory_kind="pinned_host">`. The tensor type is the global type; no
    sharding means fully replicated over the mesh. Valid memory kinds are
    `device` and `pinned_host`.
  }];
  let parameters = (ins
      StringRefParameter<"mesh name">:$mesh_name,
      "::mlir::RankedTensorType":$ranked_tensor_type,
      OptionalParameter<"::mlir::sdy::TensorShardingAttr">:$sharding,
      OptionalParameter<"::mlir::StringAttr">:$memory_kind);
  let builders = [
    TypeBuilder<(ins "::llvm::StringRef":$meshName,
                     "::mlir::RankedTensorType":$rankedTensorType), [{
      return $_get($_ctxt, meshName, rankedTensorType,
                   ::mlir::sdy::TensorShardingAttr(), ::mlir::StringAttr());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kMemoryKindDevice = "device";
    static constexpr ::llvm::StringLiteral kMemoryKindPinnedHost = "pinned_host";

    /// True when the value lives in host memory (`memory_kind="pinned_host"`).
    bool isOnHost() const;
    /// The per-device shard type on `mesh`.
    ::mlir::RankedTensorType getLocalTensorType(::mlir::sdy::MeshAttr mesh) const;
    /// The per-device shard type, with the mesh resolved from the topology of
    /// `op`'s function; null when the mesh cannot be found.
    ::mlir::RankedTensorType getLocalTensorType(::mlir::Operation *op) const;
    /// Checks that the mesh exists in `op`'s topology and that the sharding is
    /// valid (axes, rank, divisibility) for it.
    ::llvm::LogicalResult verifyForTopology(::mlir::Operation *op) const;
    /// True when there is no sharding or it shards nothing.
    bool isFullyReplicated() const;
  }];
}

#endif // MPMD_DIALECT_MPMD_IR_MPMDTYPES_TD
