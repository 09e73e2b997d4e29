//===- SdyAttrs.td - sdy attributes -----------------------*- tablegen -*-===//
//
// Meshes and tensor shardings. All attributes use hand-written printers and
// parsers: upstream's text (`"x"=2`, `{"x", ?}p1`, `"x":(1)2`) is not
// expressible with declarative formats.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_SDYATTRS_TD
#define MPMD_DIALECT_SDY_IR_SDYATTRS_TD

include "mpmd/Dialect/Sdy/IR/SdyBase.td"
include "mlir/IR/EnumAttr.td"

def Sdy_MeshAxis : Sdy_Attr<"MeshAxis", "mesh_axis"> {
  let summary = "A named mesh axis with a size: `\"x\"=4`.";
  let parameters = (ins StringRefParameter<"axis name">:$name,
                        "int64_t":$size);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_Mesh : Sdy_Attr<"Mesh", "mesh"> {
  let summary = "A mesh of devices: ordered named axes and optional device ids.";
  let description = [{
    `<["data"=4, "model"=2]>`, `<[]>`, `<["a"=2], device_ids=[1, 0 ]>`.
    Device ids default to iota over the product of the axis sizes (row-major,
    first axis most major); explicit iota ids are dropped when printed. The
    older `<"x"=2>` form (without brackets) is accepted on input.
  }];
  let parameters = (ins OptionalArrayRefParameter<"MeshAxisAttr">:$axes,
                        OptionalArrayRefParameter<"int64_t">:$device_ids);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of devices of the mesh (product of the axis sizes).
    int64_t getTotalSize() const;
    /// Size of the axis called `name`, or nullopt if the mesh has no such axis.
    std::optional<int64_t> getAxisSize(::llvm::StringRef name) const;
    /// Position of the axis called `name` in the mesh, or nullopt.
    std::optional<unsigned> getAxisIndex(::llvm::StringRef name) const;
  }];
}

def Sdy_SubAxisInfo : Sdy_Attr<"SubAxisInfo", "sub_axis_info"> {
  let summary = "A sub-axis `(pre_size)size` of a mesh axis.";
  let parameters = (ins "int64_t":$pre_size, "int64_t":$size);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_AxisRef : Sdy_Attr<"AxisRef", "axis_ref"> {
  let summary = "A reference to a full mesh axis `\"x\"` or a sub-axis `\"x\":(2)4`.";
  let parameters = (ins StringRefParameter<"axis name">:$name,
                        OptionalParameter<"SubAxisInfoAttr">:$sub_axis_info);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Number of devices along this (sub-)axis of `mesh`; 0 if unknown.
    int64_t getSize(MeshAttr mesh) const;
  }];
}

def Sdy_AxisRefList : Sdy_Attr<"AxisRefList", "axis_ref_list"> {
  let summary = "A list of axis refs `{\"x\", \"y\"}`.";
  let parameters = (ins OptionalArrayRefParameter<"AxisRefAttr">:$value);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_ListOfAxisRefLists : Sdy_Attr<"ListOfAxisRefLists", "list_of_axis_ref_lists"> {
  let summary = "One axis-ref list per tensor dimension: `[{\"b\"}, {}]`.";
  let parameters = (ins OptionalArrayRefParameter<"AxisRefListAttr">:$value);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_ManualAxes : Sdy_Attr<"ManualAxes", "manual_axes"> {
  let summary = "The manual axes of a manual computation: `{\"x\", \"y\"}`.";
  let parameters = (ins OptionalArrayRefParameter<"StringAttr">:$value);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_DimensionSharding : Sdy_Attr<"DimensionSharding", "dimension_sharding"> {
  let summary = "How one tensor dimension is sharded: `{\"x\", \"y\"}`, `{\"x\", ?}`, `{?}p1`.";
  let parameters = (ins OptionalArrayRefParameter<"AxisRefAttr">:$axes,
                        "bool":$is_closed,
                        OptionalParameter<"std::optional<int64_t>">:$priority);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Product of the sizes of the axes sharding this dimension.
    int64_t getShardedSize(MeshAttr mesh) const;
  }];
}

def Sdy_TensorSharding : Sdy_Attr<"TensorSharding", "sharding"> {
  let summary = "How a tensor is sharded over a mesh.";
  let description = [{
    For example `#sdy.sharding<@mesh, [{"x"}, {?} ], replicated={"y"}>`.
    The mesh is a symbol reference to an `sdy.mesh` op or an inlined
    `mesh<[...]>`.
  }];
  let parameters = (ins "Attribute":$mesh_or_ref,
                        OptionalArrayRefParameter<"DimensionShardingAttr">:$dim_shardings,
                        OptionalArrayRefParameter<"AxisRefAttr">:$replicated_axes,
                        OptionalArrayRefParameter<"AxisRefAttr">:$unreduced_axes,
                        "ReductionKind":$unreduced_kind);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  // The kind is sum whenever there are no unreduced axes, so that shardings
  // that differ only in a meaningless kind compare equal.
  let skipDefaultBuilders = 1;
  let builders = [
    AttrBuilder<(ins "::mlir::Attribute":$meshOrRef,
                     "::llvm::ArrayRef<DimensionShardingAttr>":$dimShardings,
                     "::llvm::ArrayRef<AxisRefAttr>":$replicatedAxes,
                     "::llvm::ArrayRef<AxisRefAttr>":$unreducedAxes,
                     CArg<"ReductionKind", "ReductionKind::Sum">:$unreducedKind), [{
      return $_get($_ctxt, meshOrRef, dimShardings, replicatedAxes,
                   unreducedAxes,
                   unreducedAxes.empty() ? ReductionKind::Sum : unreducedKind);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Name of the referenced mesh symbol, or empty for an inlined mesh.
    ::llvm::StringRef getMeshName() const;
    /// The mesh: the inlined one, or the `sdy.mesh` symbol resolved from `op`.
    MeshAttr getMesh(::mlir::Operation *op) const;
    /// True if no dimension is sharded and no axis is unreduced.
    bool isFullyReplicated() const;
    /// Checks axis names, rank and (optionally) divisibility against `mesh`
    /// for a value of `type`.
    ::llvm::LogicalResult verifyForMesh(
        MeshAttr mesh, ::mlir::Type type,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        bool checkDivisibility) const;
    /// The per-device shape of a tensor of `globalShape` under this sharding
    /// (dimensions rounded up when not divisible).
    ::llvm::SmallVector<int64_t> getLocalShape(
        MeshAttr mesh, ::llvm::ArrayRef<int64_t> globalShape) const;
    /// A fully open, unsharded sharding of rank `rank` on `meshOrRef`.
    static TensorShardingAttr getFullyOpen(::mlir::MLIRContext *ctx,
                                           ::mlir::Attribute meshOrRef,
                                           int64_t rank);
  }];
}

def Sdy_TensorShardingPerValue : Sdy_Attr<"TensorShardingPerValue", "sharding_per_value"> {
  let summary = "One sharding per value: `#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>`.";
  let parameters = (ins OptionalArrayRefParameter<"TensorShardingAttr">:$shardings);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_AllToAllParam : Sdy_Attr<"AllToAllParam", "all_to_all_param"> {
  let summary = "Axes moved by an all-to-all from one dimension to another: `{\"b\"}: 0->2`.";
  let parameters = (ins OptionalArrayRefParameter<"AxisRefAttr">:$axes,
                        "int64_t":$src_dim, "int64_t":$tgt_dim);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_AllToAllParamList : Sdy_Attr<"AllToAllParamList", "all_to_all_param_list"> {
  let summary = "A list of all-to-all params: `[{\"b\"}: 0->2, {\"c\"}: 1->3]`.";
  let parameters = (ins OptionalArrayRefParameter<"AllToAllParamAttr">:$value);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_ReductionKind : I32EnumAttr<"ReductionKind",
    "How the partial values of unreduced axes combine", [
      I32EnumAttrCase<"Sum", 0, "sum">,
      I32EnumAttrCase<"Max", 1, "max">,
      I32EnumAttrCase<"Min", 2, "min">]> {
  let cppNamespace = "::mlir::sdy";
}

def Sdy_PropagationDirection : I32EnumAttr<"PropagationDirection",
    "Direction in which sharding propagation may cross a barrier", [
      I32EnumAttrCase<"NONE", 0>,
      I32EnumAttrCase<"FORWARD", 1>,
      I32EnumAttrCase<"BACKWARD", 2>,
      I32EnumAttrCase<"BOTH", 3>]> {
  let cppNamespace = "::mlir::sdy";
}

//===----------------------------------------------------------------------===//
// Op sharding rules
//===----------------------------------------------------------------------===//

def Sdy_DimMapping : Sdy_Attr<"DimMapping", "dim_mapping"> {
  let summary = "The factors one tensor dimension is made of, major to minor: `ij`.";
  let description = [{
    Factors are written as symbols: `i` .. `z` for factors 0 .. 17, then
    `z_1`, `z_2`, ... A dimension of several factors concatenates them
    (`kz_1`). An empty mapping is written `*` and is never valid in a rule.
  }];
  let parameters = (ins OptionalArrayRefParameter<"int64_t">:$factor_indices);
  let hasCustomAssemblyFormat = 1;
}

def Sdy_TensorMapping : Sdy_Attr<"TensorMapping", "tensor_mapping"> {
  let summary = "The factors of every dimension of one tensor: `[i, jk]`.";
  let parameters = (ins OptionalArrayRefParameter<"DimMappingAttr">:$dim_mappings);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDimMappings().size(); }
  }];
}

def Sdy_OpShardingRule : Sdy_Attr<"OpShardingRule", "op_sharding_rule"> {
  let summary = "How an op can be partitioned, as a mapping of tensor dimensions to factors.";
  let description = [{
    `#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>`:
    one tensor mapping per operand and per result, the size of every factor
    in index order (left out when there are none), then the factors of each
    kind: `reduction`, `need_replication`, `permutation` (the kinds are
    disjoint; other factors pass through) and `blocked_propagation`
    (orthogonal to the kind), and `, custom` for a rule a user wrote.
    Attached to ops as `sdy.sharding_rule`.
  }];
  let parameters = (ins
      OptionalArrayRefParameter<"int64_t">:$factor_sizes,
      OptionalArrayRefParameter<"TensorMappingAttr">:$operand_mappings,
      OptionalArrayRefParameter<"TensorMappingAttr">:$result_mappings,
      OptionalArrayRefParameter<"int64_t">:$reduction_factors,
      OptionalArrayRefParameter<"int64_t">:$need_replication_factors,
      OptionalArrayRefParameter<"int64_t">:$permutation_factors,
      OptionalArrayRefParameter<"int64_t">:$blocked_propagation_factors,
      "bool":$is_custom_rule);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getNumFactors() const { return getFactorSizes().size(); }
    bool isReductionFactor(int64_t factor) const;
    bool isNeedReplicationFactor(int64_t factor) const;
    bool isPermutationFactor(int64_t factor) const;
    bool isPassThroughFactor(int64_t factor) const;
    bool isBlockedPropagationFactor(int64_t factor) const;
    /// Checks the rule against the operands and results of `op`: one
    /// mapping per operand and result, statically shaped ranked tensors of
    /// the mapped rank, and compound dimensions whose factor sizes multiply
    /// to the dimension size. Errors are reported on `op`.
    ::llvm::LogicalResult verifyForOp(::mlir::Operation *op) const;
  }];
}

#endif // MPMD_DIALECT_SDY_IR_SDYATTRS_TD
