//===- MergeFragments.h - Merging fragments, and the merge traversal -*- C++ -*-===//
//
// The shared machinery of the fragment-merging passes (merge of inferred
// fragments, absorb, scheduling units, rule-based merge, remat, fwd/bwd):
//
// * `mergeFragments(producer, consumer, rewriter)` fuses two fragments of one
//   mesh and one block into one fragment;
// * `findMergePlacement` / `tryMergeFragments` decide where the merged
//   fragment can go without breaking dominance;
// * `mergeFragmentsInBlock` / `mergeFragmentsInFunction` run the upstream
//   merge-base traversal with a caller-given policy.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_COMMON_MERGEFRAGMENTS_H
#define MPMD_TRANSFORMS_COMMON_MERGEFRAGMENTS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstdint>
#include <optional>

namespace mlir::mpmd {

/// Where the merged fragment is created.
enum class MergePlacement {
  /// Right before the consumer (where the consumer was).
  kAtConsumer,
  /// Right before the producer (where the producer was).
  kAtProducer,
};

struct MergeFragmentsOptions {
  MergePlacement placement = MergePlacement::kAtConsumer;
  /// Whose body block the merged fragment reuses; the other body's ops are
  /// spliced into it. Only the cost differs: O(ops of the other body). Keep
  /// the body of the fragment that accumulates merges.
  bool keepProducerBody = false;
};

/// The union of two origin lists in order of first appearance (`lhs` first),
/// without duplicates.
ArrayAttr mergeOrigins(ArrayAttr lhs, ArrayAttr rhs);

/// What merge decisions look at, for a fragment or for a merge of fragments
/// that is not built yet: mesh, whether it is a user fragment, the single
/// transpose count of its origin, stage and the discardable attributes other
/// than `arg_attrs`, `res_attrs` and `mpmd.control_operand_start_idx` (which
/// depend on the merged operands and results). The origin itself is not
/// kept: the merged fragment's origin is the ordered union of the merged
/// fragments' origins (`mergeFragmentSequence`), so a summary merge costs
/// O(attributes), not O(origins), and folding a long sequence stays linear.
class FragmentSummary {
public:
  explicit FragmentSummary(FragmentOp fragment);

  /// The summary of the fragment that merges `producer` with `consumer`:
  /// a user fragment if either side is, the transpose count both sides agree
  /// on (see `getSingleTransposeCount`), the producer's stage if set, else
  /// the consumer's, and attributes:
  /// * `call_counter`: kept if only one side has it or both agree; if they
  ///   differ, the user fragment's when exactly one side is a user fragment,
  ///   otherwise dropped;
  /// * `mpmd.inferred_by`: the ordered union when both sides are inferred
  ///   fragments, dropped otherwise (the merge is a user fragment);
  /// * any other attribute: kept; when both sides have it with different
  ///   values, the user fragment's value if exactly one side is a user
  ///   fragment, else the consumer's.
  static FragmentSummary merge(const FragmentSummary &producer,
                               const FragmentSummary &consumer);

  StringAttr getMeshName() const { return meshName; }
  IntegerAttr getStageId() const { return stageId; }
  /// True if the origin is not empty.
  bool isUserFragment() const { return userFragment; }
  /// `getSingleTransposeCount` of the merged origin.
  std::optional<int64_t> getSingleTransposeCount() const {
    if (transposeCounts == TransposeCounts::kSingle)
      return transposeCount;
    return std::nullopt;
  }
  DictionaryAttr getAttributes() const { return attributes; }
  Attribute getAttr(StringRef name) const { return attributes.get(name); }
  bool hasAttr(StringRef name) const { return static_cast<bool>(getAttr(name)); }

private:
  /// What the origin entries say about transpose counts: no entry, all user
  /// origins with one count, or anything else.
  enum class TransposeCounts { kNone, kSingle, kMixed };

  FragmentSummary(StringAttr meshName, bool userFragment,
                  TransposeCounts transposeCounts, int64_t transposeCount,
                  IntegerAttr stageId, DictionaryAttr attributes)
      : meshName(meshName), userFragment(userFragment),
        transposeCounts(transposeCounts), transposeCount(transposeCount),
        stageId(stageId), attributes(attributes) {}

  StringAttr meshName;
  bool userFragment;
  TransposeCounts transposeCounts;
  int64_t transposeCount;
  IntegerAttr stageId;
  DictionaryAttr attributes;
};

/// How merges of trivial producers list the operands of the merged fragment.
///
/// A producer is *trivial* when it has one operand (a data operand), one
/// result, and that result has exactly one use, in the consumer. Merging it
/// keeps the consumer's operand list with the producer's operand in the place
/// of the result (upstream Shardy:MPMD's rule); any other merge lists the
/// producer's operands first. A merge of a sequence that went through such
/// merges is described by:
struct TrivialProducerMerges {
  /// The fragments that were (part of) a trivial producer: their operands do
  /// not place an operand in the list.
  llvm::SmallPtrSet<Operation *, 4> producers;
  /// For each result of a trivial producer, the use of the value that took
  /// its place in its consumer's operand list: the producer's operand, read
  /// when the merge is built (building other merges may replace it). Never a
  /// use of a key: chains are resolved.
  llvm::DenseMap<Value, OpOperand *> substitutes;

  bool empty() const { return producers.empty(); }
};

/// The description of merging `producer` into `consumer` (two fragments of
/// the IR): empty unless `producer` is trivial for `consumer`.
TrivialProducerMerges getTrivialProducerMerge(FragmentOp producer,
                                              FragmentOp consumer);

/// How a sequence of fragments is merged pair by pair.
enum class MergeFold {
  /// Each fragment is the consumer of the merge of those before it.
  kEachIntoEarlierOnes,
  /// Each fragment, last but one first, is the producer of the merge of those
  /// after it.
  kEachIntoLaterOnes,
};

/// The trivial-producer merges of merging `fragments` (in order, a fragment
/// using only results of fragments before it) pair by pair as `fold` says.
/// O(operands + uses) of the fragments, up to a log factor.
TrivialProducerMerges getTrivialProducerMerges(ArrayRef<FragmentOp> fragments,
                                               MergeFold fold);

/// Merges `producer` and `consumer` into one fragment and returns it; both are
/// erased.
///
/// Preconditions (programming errors, asserted): distinct fragments on the
/// same mesh in the same block, `producer` before `consumer`, and the chosen
/// placement valid (see `canMergeAt`). The consumer need not use the
/// producer (sideways merges).
///
/// Semantics:
/// * operands: for a trivial producer (`TrivialProducerMerges`), the
///   consumer's operands with the producer's operand in the place of its
///   result; otherwise the producer's data operands, then the consumer's data
///   operands that are not producer results; deduplicated (first occurrence
///   kept); then the control operands of both likewise (those not pointing at
///   the partner fragment and not already data operands), with
///   `mpmd.control_operand_start_idx` updated;
/// * body: the producer's body, then the consumer's; consumer block arguments
///   fed by producer results are rewired to the values the producer returns;
/// * results: the producer results used by something other than the consumer
///   (in their order), then all consumer results; producer results only used
///   by the consumer (or unused) are dropped;
/// * origin: `mergeOrigins(producer, consumer)`;
/// * stage and other attributes: `FragmentSummary::merge`;
/// * in/out shardings and arg/res attrs follow their operands/results (a side
///   lacking them contributes fully open shardings / empty dictionaries).
FragmentOp mergeFragments(FragmentOp producer, FragmentOp consumer,
                          RewriterBase &rewriter,
                          MergeFragmentsOptions options = {});

/// Merges `fragments` into one fragment created right before
/// `insertionPoint`, with stage and attributes from `summary`, and returns
/// it; the fragments are erased. The result is the merge of the sequence
/// folded pair by pair (any bracketing gives the same operands, results,
/// origin and body; only the attributes depend on it, hence `summary`):
/// * origin: the union of the fragments' origins in order of first
///   appearance;
/// * operands: the data operands of all fragments, in order, not defined by
///   one of them, deduplicated; then their control operands likewise,
///   minus those that are data operands. With `trivialMerges`, the operands
///   of its producers are skipped and a use of one of its substituted results
///   lists the substitute (when not defined by a fragment of the sequence);
/// * results: the results of each fragment but the last that are used by
///   something outside the sequence, in order; then all results of the last;
/// * body: the bodies in order; block arguments fed by a merged fragment are
///   rewired to the value it returns. The body block of
///   `fragments[keptBodyIndex]` is reused (only the cost differs).
/// Preconditions (asserted where cheap): at least two fragments, one mesh,
/// one block; a fragment only uses results of fragments listed before it;
/// the merged fragment is valid at `insertionPoint` (dominance).
FragmentOp mergeFragmentSequence(ArrayRef<FragmentOp> fragments,
                                 const FragmentSummary &summary,
                                 Operation *insertionPoint,
                                 unsigned keptBodyIndex,
                                 RewriterBase &rewriter,
                                 const TrivialProducerMerges &trivialMerges =
                                     TrivialProducerMerges());

/// True if the merged fragment can be created at `placement`:
/// * kAtConsumer: no user of a producer result other than the consumer lies
///   between the two (block order, users nested in ops included);
/// * kAtProducer: every operand of the consumer that is not a producer result
///   is defined before the producer.
bool canMergeAt(FragmentOp producer, FragmentOp consumer,
                MergePlacement placement);

/// kAtConsumer if possible, else kAtProducer if possible, else nullopt.
std::optional<MergePlacement> findMergePlacement(FragmentOp producer,
                                                 FragmentOp consumer);

/// Like `findMergePlacement` followed by `mergeFragments`, returning failure
/// (and changing nothing) when no placement works. With
/// `allowMovingTransfers`, transfers that block a placement are moved out of
/// the way when that is valid: for kAtConsumer, transfers of producer results
/// between the two whose users all come after the consumer move to right
/// after the consumer; for kAtProducer, transfers between the two that feed
/// the consumer and whose operand is defined before the producer move to
/// right before the producer.
FailureOr<FragmentOp> tryMergeFragments(FragmentOp producer,
                                        FragmentOp consumer,
                                        RewriterBase &rewriter,
                                        bool allowMovingTransfers = false,
                                        bool keepProducerBody = false);

/// How the merge traversal picks the consumer of a producer.
enum class ConsumerSelection {
  /// The closest fragment using a producer result, if merging is allowed.
  kClosestConsumer,
  /// The closest fragment using a producer result for which merging is
  /// allowed.
  kClosestMergeableConsumer,
  /// The next fragment on the same mesh (data dependency or not), if merging
  /// is allowed.
  kNextOnSameMesh,
  /// The next fragment on the same mesh, if it uses a producer result and
  /// merging is allowed.
  kNextOnSameMeshIfConsumer,
};

/// The work of a merge traversal beyond one pass over the block, for tests
/// that check it grows linearly with the program.
struct MergeTraversalStats {
  /// Users looked at, heap entries pushed, popped or re-keyed, and operands
  /// looked at by placement and consumer checks.
  uint64_t steps = 0;
  /// Fragments visited and merges decided.
  uint64_t fragments = 0, merges = 0;
};

struct FragmentMergeTraversalOptions {
  ConsumerSelection selection = ConsumerSelection::kClosestConsumer;
  /// Whether `producer` may be merged with `consumer` (either may stand for
  /// several fragments already chosen to be merged). Required.
  function_ref<bool(const FragmentSummary &producer,
                    const FragmentSummary &consumer)>
      allowMerging;
  /// Erase fragments without uses and without side effects when visited.
  bool eraseUnusedPureFragments = true;
  /// Where to add the traversal's work, if set.
  MergeTraversalStats *stats = nullptr;
};

/// The merge-base traversal: visits the fragments of `block` in reverse
/// order; an unused pure fragment is erased; otherwise the fragment is
/// merged with its selected consumer (at `findMergePlacement`) as long as
/// one is found and placeable, the merged fragment taking its place.
/// Returns true if anything changed.
///
/// The result is that of merging pair by pair, but the merged fragments are
/// built once, at the end: decisions are taken on groups of fragments that
/// stand for their merge, each group keeping its users in a heap by
/// position that merges smaller into larger, and the values crossing its
/// boundary (operands and results used outside, with use counts, merged
/// smaller into larger) to tell which merges are of a trivial producer (see
/// `TrivialProducerMerges`). Cost: O((n + u) log u) for n fragments with u
/// uses, plus the operands of the consumer group for each
/// merge placed at the producer, each refused placement and each
/// `kNextOnSameMeshIfConsumer` check, and with `kClosestMergeableConsumer`
/// the users of the consumers refused before the chosen one (building each
/// pairwise merge, or rescanning a group's users per decision, is quadratic
/// for long chains).
bool mergeFragmentsInBlock(Block &block,
                           const FragmentMergeTraversalOptions &options,
                           RewriterBase &rewriter);

/// `mergeFragmentsInBlock` on every block of `function` that holds fragments
/// (the body and the bodies of `mpmd.for` ops).
bool mergeFragmentsInFunction(func::FuncOp function,
                              const FragmentMergeTraversalOptions &options,
                              RewriterBase &rewriter);

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_COMMON_MERGEFRAGMENTS_H
