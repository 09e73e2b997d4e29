//===- MpmdUtils.h - Queries and builders over MPMD programs ----*- C++ -*-===//
//
// Predicates on functions (MPMD, SPMD, entry point), mesh-name ordering,
// call counters and a fragment builder, shared by the verifiers and passes.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_MPMD_IR_MPMDUTILS_H
#define MPMD_DIALECT_MPMD_IR_MPMDUTILS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::mpmd {

/// An MPMD function carries a `topology`.
bool isMpmdFunction(func::FuncOp function);
/// An SPMD function carries a `mesh_shape`.
bool isSpmdFunction(func::FuncOp function);
/// MPMD or SPMD.
bool isDistributedFunction(func::FuncOp function);
/// A public distributed function: the program's entry point.
bool isEntryPointFunction(func::FuncOp function);
/// `@main`, or null.
func::FuncOp getMainFunction(ModuleOp module);

/// Meshes whose name ends in `/cpu` are host meshes; pipeline schedules skip
/// them.
bool isCpuMesh(StringRef meshName);
/// The order of meshes in transfer chains: names that both end in a number
/// compare by prefix then numerically (`m2` < `m10`), others
/// lexicographically.
bool isMeshNameBefore(StringRef lhs, StringRef rhs);

/// The `call_counter` (microbatch index) of an op, if it has one.
std::optional<uint32_t> getCallCounter(Operation *op);
void setCallCounter(Operation *op, uint32_t counter);

/// Sets attribute `name` of argument (result) i of `function` to
/// `valueOf(i)`, or removes it where that is null, rebuilding the argument
/// (result) attributes once: the per-index setters rebuild the whole array on
/// every call, which is quadratic in the number of arguments.
void setArgAttrs(func::FuncOp function, StringRef name,
                 function_ref<Attribute(unsigned)> valueOf);
void setResultAttrs(func::FuncOp function, StringRef name,
                    function_ref<Attribute(unsigned)> valueOf);
/// The same for the loop-carried values of `loop` (its `arg_attrs`, dropped
/// when every dictionary ends up empty).
void setArgAttrs(ForOp loop, StringRef name,
                 function_ref<Attribute(unsigned)> valueOf);
/// Attribute `name` of loop-carried value i of `loop`, or null.
Attribute getArgAttr(ForOp loop, unsigned i, StringRef name);

/// Builds a fragment on `meshName` taking `operands` (mesh tensors) and
/// producing `resultTypes`, whose body `buildBody(builder, blockArgs)` fills
/// in; it returns the values for the `mpmd.return`. Block arguments get the
/// operands' global types.
FragmentOp createFragment(
    OpBuilder &builder, Location loc, StringRef meshName, ArrayAttr origin,
    ValueRange operands, TypeRange resultTypes,
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange)> buildBody);

} // namespace mlir::mpmd

#endif // MPMD_DIALECT_MPMD_IR_MPMDUTILS_H
