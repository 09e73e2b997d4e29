//===- MpmdAttrs.td - mpmd attributes ---------------------*- tablegen -*-===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDATTRS_TD
#define MPMD_DIALECT_MPMD_IR_MPMDATTRS_TD

include "mpmd/Dialect/Mpmd/IR/MpmdBase.td"
include "mpmd/Dialect/Mpmd/IR/MpmdEnums.td"

def Mpmd_NamedMesh : Mpmd_Attr<"NamedMesh", "named_mesh"> {
  let summary = "A named SPMD mesh: `<\"m1\" : <[\"x\"=2]>>`.";
  let parameters = (ins StringRefParameter<"mesh name">:$name,
                        "::mlir::sdy::MeshAttr":$mesh);
  let hasCustomAssemblyFormat = 1;
}

def Mpmd_Topology : Mpmd_Attr<"Topology", "topology"> {
  let summary = "The ordered named meshes a program runs on.";
  let description = [{
    `#mpmd.topology<<"m1" : <["x"=2]>>, <"m2" : <["x"=2]>>>`. The order
    matters: pipeline schedules use a mesh's position as its stage index.
  }];
  let parameters = (ins ArrayRefParameter<"NamedMeshAttr">:$meshes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The mesh called `name`, or null.
    ::mlir::sdy::MeshAttr getMesh(::llvm::StringRef name) const;
    /// Position of the mesh called `name` in the topology, or nullopt.
    std::optional<unsigned> getMeshIndex(::llvm::StringRef name) const;
  }];
}

def Mpmd_UserOrigin : Mpmd_Attr<"UserOrigin", "user_origin"> {
  let summary = "The named computation a fragment came from, with its transpose count.";
  let description = [{
    `#mpmd.user_origin<"layer1"(1)>`: the backward (transpose count 1) of
    `layer1`. A transpose count of 0 prints as the bare name; inside ops the
    short form `"layer1"(1)` is used.
  }];
  let parameters = (ins StringRefParameter<"computation name">:$user_name,
                        "int64_t":$transpose_count);
  let hasCustomAssemblyFormat = 1;
}

def Mpmd_Origin : Mpmd_Attr<"Origin", "origin"> {
  let summary = "Debug label of what assigned a value to a mesh (e.g. `user_in`).";
  let parameters = (ins StringRefParameter<"origin label">:$origin_label);
  let assemblyFormat = "`<` $origin_label `>`";
}

def Mpmd_MeshWithOrigins : Mpmd_Attr<"MeshWithOrigins", "mesh_with_origins"> {
  let summary = "A mesh plus the origins that put a value there: `\"m3\"[\"user_in\"]`.";
  let parameters = (ins StringRefParameter<"mesh name">:$main_mesh,
                        OptionalArrayRefParameter<"OriginAttr">:$origins);
  let hasCustomAssemblyFormat = 1;
}

def Mpmd_MeshesWithOrigins : Mpmd_Attr<"MeshesWithOrigins", "meshes_with_origins"> {
  let summary = "A set of meshes with origins, for the use_set/src_set analyses.";
  let parameters = (ins OptionalArrayRefParameter<"MeshWithOriginsAttr">:$meshes);
  let hasCustomAssemblyFormat = 1;
}

def Mpmd_Reduction : EnumAttr<Mpmd_Dialect, Mpmd_ReductionType, "reduction"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // MPMD_DIALECT_MPMD_IR_MPMDATTRS_TD
