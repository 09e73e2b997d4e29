//===- ExportUtils.h - Attribute names and naming of the export phase -*- C++ -*-===//
//
// The argument/result attributes the export passes read and write on
// fragments (`arg_attrs` / `res_attrs`) and on functions, and the naming of
// the functions that `-mpmd-lower-to-fragment-calls` outlines.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_EXPORT_EXPORTUTILS_H
#define MPMD_TRANSFORMS_EXPORT_EXPORTUTILS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::mpmd {

/// Output index a (donated) input buffer is reused for (i32).
inline constexpr StringLiteral kAliasingOutputAttrName = "tf.aliasing_output";
/// The input buffer may be freed/reused by the callee (bool).
inline constexpr StringLiteral kBufferDonorAttrName = "jax.buffer_donor";
/// `"default"`, `"auto"` or an explicit layout such as `"{0,1}"`.
inline constexpr StringLiteral kLayoutModeAttrName = "mhlo.layout_mode";
inline constexpr StringLiteral kLayoutModeDefault = "default";
inline constexpr StringLiteral kLayoutModeAuto = "auto";
/// Bytes of device memory held by other live values while a fragment runs
/// (i64), on fragments and outlined functions.
inline constexpr StringLiteral kReservedHbmBytesAttrName = "reserved_hbm_bytes";
/// On a fragment function that -mpmd-partition-fragment-bodies turned into
/// the program of one device of its mesh (unit).
inline constexpr StringLiteral kSpmdPartitionedAttrName =
    "mpmd.spmd_partitioned";

/// Attribute `name` of operand (result) `index` in the fragment's `arg_attrs`
/// (`res_attrs`), or null.
Attribute getFragmentArgAttr(FragmentOp fragment, unsigned index,
                             StringRef name);
Attribute getFragmentResAttr(FragmentOp fragment, unsigned index,
                             StringRef name);

/// What becomes of a per-value attribute array whose entries are all empty.
/// The marking passes of the export pipeline (offloading, layouts) keep it:
/// the outlined functions and upstream's IR always carry both arrays.
enum class EmptyAttrArrays { kDrop, kKeep };

/// Sets attribute `name` of operand (result) i of the fragment's `arg_attrs`
/// (`res_attrs`) to `valueOf(i)`, or removes it where that is null,
/// rebuilding the array once (O(signature)).
void setFragmentArgAttrs(FragmentOp fragment, StringRef name,
                         function_ref<Attribute(unsigned)> valueOf,
                         EmptyAttrArrays empty = EmptyAttrArrays::kDrop);
void setFragmentResAttrs(FragmentOp fragment, StringRef name,
                         function_ref<Attribute(unsigned)> valueOf,
                         EmptyAttrArrays empty = EmptyAttrArrays::kDrop);

/// True if a value of this type lives in host memory: a mesh tensor with
/// `memory_kind="pinned_host"`.
bool isOnHost(Type type);

/// True if `memoryKind` (an `mhlo.memory_kind` value, or null) is
/// `"pinned_host"`.
bool isHostMemoryKind(Attribute memoryKind);

/// The last use of each value used in `block`, by ops of the block (uses in
/// nested regions count as uses by their top-level op). O(ops + operands).
llvm::DenseMap<Value, OpOperand *> getLastUses(Block &block);

/// True if the user gave argument `index` of `function` away:
/// `jax.buffer_donor = true` or a `tf.aliasing_output`.
bool isDonatedArgument(func::FuncOp function, unsigned index);

/// Moves `op` right before the first op of its block that uses one of its
/// results (a use nested in an op counts as that op); nothing if unused.
/// O(uses).
void moveBeforeFirstUser(Operation *op);

/// The name of a fragment by its origins: origin names in order, joined by
/// `.`, a transpose count n > 0 written `(n)` after the name's stem when the
/// origins mix transpose counts (otherwise the phase suffix of the function
/// name says it: `["bar"(1)]` gives `bar`), and runs
/// of names `<stem>_<k>` with consecutive k (same stem and transpose count)
/// compressed to `<stem>_<first>:<last>`:
/// `["f_1", "f_2", "f_3", "loss", "f_1"(1), "f_2"(1), "f_3"(1)]` gives
/// `f_1:3.loss.f(1)_1:3`. O(number of origins).
std::string getOriginSummary(ArrayRef<UserOriginAttr> origins);

/// The call-site suffix of a function called with these call counters (in
/// program order; nullopt for a call without a counter): `_call<n>` for a
/// single call, `_calls<a>to<b>` for counters a, a+1, ..., b,
/// `_calls<a>from<b>` for counters a, a-1, ..., b, and "" otherwise.
std::string
getCallSiteSuffix(ArrayRef<std::optional<uint32_t>> callCounters);

/// The phase suffix of a function whose fragments have origins with these
/// transpose counts: `_fwd` (0), `_bwd` (1), `_transpose<n>` (n >= 2), in
/// increasing order, each once.
std::string getPhaseSuffix(ArrayRef<int64_t> transposeCounts);

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_EXPORT_EXPORTUTILS_H
