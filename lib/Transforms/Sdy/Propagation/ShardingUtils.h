//===- ShardingUtils.h - Walking and rewriting shardings --------*- C++ -*-===//
//
// Helpers the import, propagation and export passes share: visiting every
// sharding a module holds, wherever it is stored, and axis-list utilities.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_SHARDINGUTILS_H
#define MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_SHARDINGUTILS_H

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::sdy {

/// Calls `update(sharding, holder)` on every sharding held by `root` and the
/// ops nested in it: function argument and result `sdy.sharding`s, op
/// `sdy.sharding`s (one per result), the shardings of
/// `sdy.sharding_constraint`, `sdy.reshard`, `sdy.data_flow_edge`, the
/// `out_sharding` of collectives and the in/out shardings of manual and
/// named computations. A non-null result different from `sharding` replaces
/// it. O(ops + shardings).
void updateShardings(
    Operation *root,
    function_ref<TensorShardingAttr(TensorShardingAttr, Operation *holder)>
        update);

using SignatureShardingUpdateFn =
    function_ref<TensorShardingAttr(TensorShardingAttr, Type)>;

/// Calls `update(sharding, type)` on the `sdy.sharding` of every argument
/// and result of `function`; a non-null, different result replaces it. The
/// argument and result attribute lists are each set once (setting one
/// attribute rebuilds the whole list, which would make functions with many
/// arguments quadratic). O(arguments + results).
void updateSignatureShardings(func::FuncOp function,
                              SignatureShardingUpdateFn update);

/// Sets the `sdy.sharding` of every function argument of `shardings`, each
/// function's argument attribute list once. O(shardings + arguments of the
/// functions involved).
void setArgumentShardings(
    ArrayRef<std::pair<BlockArgument, TensorShardingAttr>> shardings);

/// `axes` sorted by mesh axis, then by pre-size, with contiguous sub-axes of
/// one axis merged: the order of `replicated` and `unreduced` lists.
SmallVector<AxisRefAttr> sortAndMergeAxes(ArrayRef<AxisRefAttr> axes,
                                          MeshAttr mesh);

/// `sharding` without the axes of `manualAxes` (dimensions, replicated and
/// unreduced): the view from inside a manual computation's body, whose
/// values are sharded over the remaining (free) axes. O(axes).
TensorShardingAttr stripManualAxes(TensorShardingAttr sharding,
                                   ManualAxesAttr manualAxes);

/// The global view of `local`, a sharding seen from inside a manual
/// computation: the manual axes `reference` (the manual computation's
/// in/out sharding of the same value) has on each dimension go first, as a
/// manual sharding requires, and its manual replicated and unreduced axes
/// are added. The inverse of stripManualAxes on the free axes. O(axes).
TensorShardingAttr addManualAxes(TensorShardingAttr local,
                                 TensorShardingAttr reference,
                                 ManualAxesAttr manualAxes, MeshAttr mesh);

/// `sharding` with its dimensions replaced by `dims` (same mesh, replicated
/// and unreduced axes).
TensorShardingAttr withDimShardings(TensorShardingAttr sharding,
                                    ArrayRef<DimensionShardingAttr> dims);

/// One sharding per value of `types`: `shardings` (parallel to `types`)
/// with the null entries fully open on the mesh of the first non-null one;
/// null when all are null. O(values).
TensorShardingPerValueAttr
fillWithFullyOpen(ArrayRef<TensorShardingAttr> shardings, TypeRange types,
                  MLIRContext *context);

/// The functions of `module` no `func.call` in it calls: where shardings of
/// results enter and leave propagation.
SmallVector<func::FuncOp> getUncalledFunctions(ModuleOp module);

/// The main function of `module`: its only function, else `@main`, else
/// null.
func::FuncOp getMainFunction(ModuleOp module);

/// The attribute a function cloned for one call site
/// (`-sdy-flatten-call-graph`) or outlined from a named computation
/// (`-sdy-export-named-computations`) keeps the name of its origin in.
inline constexpr StringLiteral kOriginalFuncNameAttr = "sdy.original_func_name";
/// The manual axes a function body runs under, part of the key
/// `-sdy-unflatten-call-graph` merges functions by.
inline constexpr StringLiteral kFuncManualAxesAttr = "sdy.func_manual_axes";

/// The name `function` was cloned or outlined from
/// (`sdy.original_func_name`), else its own name.
StringRef getOriginalFuncName(func::FuncOp function);

/// How a reduction body combines partial results: a single block whose only
/// op applies `stablehlo.add` (sum), `maximum` or `or` of i1 (max), or
/// `minimum` or `and` of i1 (min) to its two arguments and returns it.
/// Nullopt for anything else (a variadic argmax body, a multiply, ...),
/// whose partial results no all-reduce can combine. O(1).
std::optional<ReductionKind> getBodyReductionKind(Region &body);

/// How `op` combines the partial results of its reduction factors: by its
/// body when it has one region (reduce, reduce_window, scatter), else a sum
/// (contractions). O(1).
std::optional<ReductionKind> getReductionKindOfOp(Operation *op);

/// Whether `mesh` is `<[]>` (no axes, no device ids).
inline bool isEmptyMesh(MeshAttr mesh) {
  return mesh.getAxes().empty() && mesh.getDeviceIds().empty();
}

/// Whether `mesh` is a single device `<[], device_ids=[d]>`.
inline bool isMaximalMesh(MeshAttr mesh) {
  return mesh.getAxes().empty() && !mesh.getDeviceIds().empty();
}

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PROPAGATION_SHARDINGUTILS_H
