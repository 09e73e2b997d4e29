//===- MpmdOps.td - mpmd operations -----------------------*- tablegen -*-===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDOPS_TD
#define MPMD_DIALECT_MPMD_IR_MPMDOPS_TD

include "mpmd/Dialect/Mpmd/IR/MpmdTypes.td"
include "mpmd/Dialect/Sdy/IR/SdyAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Mpmd_MeshTensorValue : Type<CPred<"::llvm::isa<::mlir::mpmd::MeshTensorType>($_self)">,
                                "mesh tensor", "::mlir::mpmd::MeshTensorType">;
def Mpmd_TokenValue : Type<CPred<"::mlir::mpmd::isTokenType($_self)">, "token">;
def Mpmd_MeshTensorOrToken : AnyTypeOf<[Mpmd_MeshTensorValue, Mpmd_TokenValue]>;
def Mpmd_TensorOrToken : AnyTypeOf<[AnyRankedTensor, Mpmd_TokenValue]>;
def Mpmd_TensorOrMeshTensor : AnyTypeOf<[AnyRankedTensor, Mpmd_MeshTensorValue]>;
def Mpmd_UserOriginArray : TypedArrayAttrBase<Mpmd_UserOrigin, "array of user origins">;
def Mpmd_UI32Attr : TypedUnsignedIntegerAttrBase<UI32, "uint32_t",
                                                 "32-bit unsigned integer attribute">;

//===----------------------------------------------------------------------===//
// Terminator
//===----------------------------------------------------------------------===//

def Mpmd_ReturnOp : Mpmd_Op<"return", [Pure, Terminator,
    ParentOneOf<["NamedComputationOp", "FragmentOp", "ForOp"]>]> {
  let summary = "Terminator of named computations, fragments and for loops.";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

//===----------------------------------------------------------------------===//
// User labels (before import)
//===----------------------------------------------------------------------===//

def Mpmd_NamedComputationOp : Mpmd_Op<"named_computation", [
    SingleBlock, IsolatedFromAbove, RecursiveMemoryEffects,
    RecursivelySpeculatable,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "A computation the user labelled with a name (before import).";
  let description = [{
    ```mlir
    %1 = mpmd.named_computation<"f1"(1)> (%a) (%x: tensor<4xf32>) {
      mpmd.return %x : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    ```
    The name is assigned to a mesh by the user; `(1)` marks the backward
    (transposed) computation. Meshless: it only exists before import.
    The body is a piece of the enclosing `func.func`, so `func` is its
    default dialect: JAX's short `call @f(...)` form parses there as it does
    in the function.
  }];
  let arguments = (ins Variadic<Mpmd_TensorOrToken>:$tensors,
                       Mpmd_UserOrigin:$origin);
  let results = (outs Variadic<Mpmd_TensorOrToken>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Mpmd_NamedTensorOp : Mpmd_Op<"named_tensor", [Pure, SameOperandsAndResultType]> {
  let summary = "Names a tensor so that it can be assigned to a mesh.";
  let description = [{
    `%t = mpmd.named_tensor %x name="n1" : tensor<4x8xf32>`: an identity
    that only exists before import.
  }];
  let arguments = (ins AnyRankedTensor:$tensor, StrAttr:$name);
  let results = (outs AnyRankedTensor:$result);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Fragments and transfers
//===----------------------------------------------------------------------===//

def Mpmd_FragmentOp : Mpmd_Op<"fragment", [
    ParentOneOf<["::mlir::func::FuncOp", "ForOp"]>, SingleBlock,
    IsolatedFromAbove, RecursiveMemoryEffects]> {
  let summary = "An SPMD program assigned to one mesh.";
  let description = [{
    ```mlir
    %f:2 = mpmd.fragment<mesh="m1", origin=["f1", "f1"(1)], stage=2> (%a)
        {call_counter = 0 : ui32} (%x: tensor<4xf32>) {
      ...
    } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> (...)
    ```
    Operands and results are mesh tensors on `mesh`; the body works on their
    global tensor types. A user fragment has a non-empty `origin` (the named
    computations merged into it); an inferred fragment has `origin=[]`.
    `stage` is only defined for user fragments.
  }];
  let arguments = (ins Variadic<Mpmd_MeshTensorOrToken>:$inputs,
                       Mpmd_UserOriginArray:$origin,
                       StrAttr:$mesh_name,
                       OptionalAttr<I64Attr>:$stage_id,
                       OptionalAttr<Sdy_TensorShardingPerValue>:$in_shardings,
                       OptionalAttr<Sdy_TensorShardingPerValue>:$out_shardings);
  let results = (outs Variadic<Mpmd_MeshTensorOrToken>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// True for fragments of user named computations (non-empty origin).
    bool isUserFragment() { return !getOrigin().empty(); }
  }];
}

def Mpmd_FragmentCallOp : Mpmd_Op<"fragment_call", [
    HasParent<"::mlir::func::FuncOp">,
    DeclareOpInterfaceMethods<CallOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A call of an outlined fragment function on a mesh.";
  let description = [{
    `%c = mpmd.fragment_call<mesh="m1", origin=["f"(1), "g"]> @callee(%a)
    : (!t) -> !t`. The callee is a `func.func` over the global tensor types
    whose `mesh_shape` equals the mesh's shape in the topology.
  }];
  let arguments = (ins Variadic<Mpmd_MeshTensorOrToken>:$tensors,
                       Mpmd_UserOriginArray:$origin,
                       StrAttr:$mesh_name,
                       FlatSymbolRefAttr:$callee,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<Mpmd_MeshTensorOrToken>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Mpmd_TransferOp : Mpmd_Op<"transfer", [Pure,
    HasParent<"::mlir::func::FuncOp">]> {
  let summary = "Copies or reshards a distributed tensor between meshes or memory kinds.";
  let description = [{
    `%t = mpmd.transfer %a : (!mpmd.mesh_tensor<"m1", T>) -> !mpmd.mesh_tensor<"m2", T>`.
    Both sides have the same global type.
  }];
  let arguments = (ins Mpmd_MeshTensorValue:$tensor);
  let results = (outs Mpmd_MeshTensorValue:$result);
  let assemblyFormat = "attr-dict $tensor `:` functional-type($tensor, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// Same mesh and same memory kind on both sides.
    bool isIntraMesh();
  }];
}

def Mpmd_AssignOp : Mpmd_Op<"assign", [Pure,
    ParentOneOf<["::mlir::func::FuncOp", "ForOp"]>]> {
  let summary = "Import-time: a local tensor lives on a mesh.";
  let arguments = (ins AnyRankedTensor:$tensor, OptionalAttr<StrAttr>:$origin);
  let results = (outs Mpmd_MeshTensorValue:$result);
  let assemblyFormat = "attr-dict $tensor `:` functional-type($tensor, results)";
  let hasVerifier = 1;
}

def Mpmd_UnassignOp : Mpmd_Op<"unassign", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Import-time: the local tensor of a mesh tensor.";
  let arguments = (ins Mpmd_MeshTensorValue:$tensor, OptionalAttr<StrAttr>:$origin);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $tensor `:` functional-type($tensor, results)";
  // The operand's mesh must be in the function's topology: mesh inference
  // turns the unassign into a transfer from that mesh.
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Microbatching: calls and loops
//===----------------------------------------------------------------------===//

def Mpmd_CallOp : Mpmd_Op<"call", [
    DeclareOpInterfaceMethods<CallOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls an MPMD function (microbatch bodies, loop bodies).";
  let description = [{
    `%r = mpmd.call @f(%x) {call_counter = 0 : ui32} : (T) -> T`. Mesh
    inference treats the call like a region op; it is inlined after import.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Mpmd_TensorOrMeshTensor>:$tensors,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<Mpmd_TensorOrMeshTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $tensors `)` attr-dict `:` functional-type($tensors, results)
  }];
  let hasVerifier = 1;
}

def Mpmd_ForOp : Mpmd_Op<"for", [
    ParentOneOf<["::mlir::func::FuncOp", "ForOp"]>, SingleBlock,
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "A loop with a fixed trip count over tensors or mesh tensors.";
  let description = [{
    ```mlir
    %o:2 = mpmd.for (%a, %b) {iterations = 3 : ui32, unroll_factor = 3 : ui32}
        (%x: T, %y: T, %index: tensor<ui32>) {
      mpmd.return %p, %q : T, T
    } : T, T
    ```
    The last block argument is the iteration index. `arg_attrs` (one
    dictionary per loop-carried value) holds attributes of the loop-carried
    values; mesh inference keeps their `mpmd.use_set`/`mpmd.src_set` there.
  }];
  let arguments = (ins Variadic<Mpmd_TensorOrMeshTensor>:$tensors,
                       Mpmd_UI32Attr:$iterations,
                       OptionalAttr<Mpmd_UI32Attr>:$unroll_factor,
                       OptionalAttr<DictArrayAttr>:$arg_attrs);
  let results = (outs Variadic<Mpmd_TensorOrMeshTensor>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The `tensor<ui32>` iteration index block argument.
    ::mlir::BlockArgument getIndexArgument() {
      return getRegion().front().getArguments().back();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Cross-mesh broadcast and reduce hints
//===----------------------------------------------------------------------===//

def Mpmd_BroadcastOp : Mpmd_Op<"broadcast", [Pure, SameOperandsAndResultType]> {
  let summary = "The value may be transferred or replicated to every mesh using it.";
  let arguments = (ins AnyRankedTensor:$tensor);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $tensor `:` type($tensor)";
  let hasCanonicalizer = 1;
}

def Mpmd_ReduceOp : Mpmd_Op<"reduce", [Pure, SameOperandsAndResultType]> {
  let summary = "Reduces tensors that may live on different meshes.";
  let description = [{
    `%r = mpmd.reduce<add> %a, %b : (T, T) -> T`. `none` passes its single
    operand through.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$tensors,
                       DefaultValuedAttr<Mpmd_Reduction,
                           "::mlir::mpmd::ReductionType::kNone">:$reduction);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    `` custom<ReductionKind>($reduction) attr-dict $tensors `:`
    functional-type($tensors, results)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

#endif // MPMD_DIALECT_MPMD_IR_MPMDOPS_TD
