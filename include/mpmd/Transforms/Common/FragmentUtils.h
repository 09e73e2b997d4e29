//===- FragmentUtils.h - Fragment surgery shared by the passes --*- C++ -*-===//
//
// Names of the discardable attributes that passes put on fragments, and
// helpers to query the fragments around a fragment and to rebuild a fragment
// with fewer operands or results.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_COMMON_FRAGMENTUTILS_H
#define MPMD_TRANSFORMS_COMMON_FRAGMENTUTILS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "llvm/ADT/BitVector.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::mpmd {

/// Discardable attributes of fragments (see the upstream notes §1.5).
inline constexpr StringLiteral kInferredByAttrName = "mpmd.inferred_by";
inline constexpr StringLiteral kSplitKeepTransferredAttrName =
    "split_keep_transferred";
inline constexpr StringLiteral kSplitDropTransferredAttrName =
    "split_drop_transferred";
inline constexpr StringLiteral kRematAttrName = "remat";
/// On fragment calls (i64): the stage of the fragment the call replaced
/// (fragments hold it as their `stage` property).
inline constexpr StringLiteral kStageIdAttrName = "stage_id";
inline constexpr StringLiteral kUnrollCounterAttrName = "unroll_counter";
inline constexpr StringLiteral kControlOperandStartIdxAttrName =
    "mpmd.control_operand_start_idx";
inline constexpr StringLiteral kArgAttrsAttrName = "arg_attrs";
inline constexpr StringLiteral kResAttrsAttrName = "res_attrs";

/// The transpose count shared by every origin of `origin` (a fragment's
/// origin list), or nullopt if the list is empty or mixes transpose counts.
std::optional<int64_t> getSingleTransposeCount(ArrayAttr origin);
inline std::optional<int64_t> getSingleTransposeCount(FragmentOp fragment) {
  return getSingleTransposeCount(fragment.getOriginAttr());
}

/// A scheduling unit is what the pipeline schedules order: a user fragment
/// with a `call_counter` and a single transpose count, 0 (forward) or 1
/// (backward).
bool isSchedulingUnit(FragmentOp fragment);

/// The number of data operands of `fragment`: the operands before
/// `mpmd.control_operand_start_idx` (all operands without the attribute).
unsigned getNumDataOperands(FragmentOp fragment);

/// The `mpmd.inferred_by` names of `fragment` (empty if none).
SmallVector<StringRef> getInferredBy(FragmentOp fragment);
/// Adds `name` to `mpmd.inferred_by` of `fragment` unless already there.
void addInferredBy(FragmentOp fragment, StringRef name);

/// Fragments that use a result of `fragment`, in the same block, in block
/// order, each once.
SmallVector<FragmentOp> getFragmentConsumers(FragmentOp fragment);
/// The first fragment (in block order) using a result of `fragment`, or null.
FragmentOp getClosestFragmentConsumer(FragmentOp fragment);
/// The last fragment (in block order) defining an operand of `fragment`, or
/// null.
FragmentOp getClosestFragmentProducer(FragmentOp fragment);
/// True if some operand of `fragment` is a result of a fragment of its block.
bool hasFragmentProducer(FragmentOp fragment);
/// The next fragment after `fragment` in its block on the same mesh, or
/// null. O(distance).
FragmentOp getNextFragmentOnMesh(FragmentOp fragment);

/// The blocks of `function` that can hold fragments: its body blocks and the
/// bodies of its (nested) `mpmd.for` ops, outer blocks first. Fragment bodies
/// are not visited.
SmallVector<Block *> getBlocksWithFragments(func::FuncOp function);

/// Shardings for `values`, each taken from the first of `sources` (a value
/// range paired with the sharding attribute of its values, e.g. a fragment's
/// results and `out_shardings`) that has it; fully open on the mesh of an
/// existing sharding otherwise. Null when no source has shardings. Sources
/// whose attribute does not match their range in size are ignored.
/// O(Σ source sizes + values).
sdy::TensorShardingPerValueAttr shardingsForValues(
    MLIRContext *ctx, ArrayRef<Value> values,
    ArrayRef<std::pair<ValueRange, sdy::TensorShardingPerValueAttr>> sources);

/// Same for `arg_attrs`/`res_attrs` dictionaries (empty by default). Null when
/// no entry is a non-empty dictionary.
ArrayAttr dictionariesForValues(
    MLIRContext *ctx, ArrayRef<Value> values,
    ArrayRef<std::pair<ValueRange, ArrayAttr>> sources);

/// Rebuilds `fragment` without the operands set in `erasedOperands` and the
/// results set in `erasedResults` (bit vectors sized like the operand and
/// result lists), moving its body. The erased block arguments and results
/// must have no uses. `in_shardings`, `out_shardings`, `arg_attrs`,
/// `res_attrs` and `mpmd.control_operand_start_idx` are updated; other
/// attributes are kept. Returns the new fragment (or `fragment` itself when
/// nothing is erased).
FragmentOp eraseFragmentOperandsAndResults(FragmentOp fragment,
                                           const llvm::BitVector &erasedOperands,
                                           const llvm::BitVector &erasedResults,
                                           RewriterBase &rewriter);

/// What `dedupFragment` does with a repeated operand or result once its uses
/// are redirected to the first one.
enum class DedupMode {
  /// Erase it.
  kErase,
  /// Leave it, unused, for a later clean-up (`-mpmd-fragment-dce`), as
  /// upstream's `-mpmd-fragment-dedup` does. Repeated control operands are
  /// erased all the same: they have no uses to redirect.
  kRedirectUses,
};

/// Passes an operand passed several times once, and collapses results that
/// return the same value with the same type, `out_shardings` and
/// `res_attrs` entries onto the first (control operands are deduplicated
/// among themselves and dropped when they repeat a data operand). Returns
/// the fragment that replaces `fragment`. O(signature).
FragmentOp dedupFragment(FragmentOp fragment, RewriterBase &rewriter,
                         DedupMode mode = DedupMode::kErase);

/// Removes the unused results of `fragment`, the trivially dead ops of its
/// body (nested regions included), then its unused data operands; erases it
/// if it ends up unused and without side effects. Returns the fragment that
/// replaces `fragment`, or null if it was erased. O(body + signature).
FragmentOp eraseDeadFragmentParts(FragmentOp fragment, RewriterBase &rewriter);

/// Appends `operand` to the operands of `fragment` (after any control
/// operands) with a block argument of type `bodyType`, which it returns; a
/// fully open sharding / an empty dictionary is appended to `in_shardings` /
/// `arg_attrs` where the fragment has them. O(signature).
BlockArgument appendFragmentOperand(FragmentOp fragment, Value operand,
                                    Type bodyType);

/// Rebuilds `fragment` with one more result, of type `resultType`, that
/// returns `returned` (a value of its body), moving its body; a fully open
/// sharding / an empty dictionary is appended to `out_shardings` /
/// `res_attrs` where the fragment has them. Returns the new fragment.
FragmentOp appendFragmentResult(FragmentOp fragment, Value returned,
                                Type resultType, RewriterBase &rewriter);

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_COMMON_FRAGMENTUTILS_H
