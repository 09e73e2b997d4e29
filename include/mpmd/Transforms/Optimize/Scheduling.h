//===- Scheduling.h - Reordering fragments: sorts, control deps -*- C++ -*-===//
//
// The machinery of the scheduling and rule passes:
// * a topological sort of a block that keeps the original order where it
//   can and can also follow a required order of groups of ops;
// * control dependencies: extra fragment operands (from
//   `mpmd.control_operand_start_idx` on) that pin an order between fragments
//   for later passes, added and removed here;
// * dependency paths between ops of a block.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_OPTIMIZE_SCHEDULING_H
#define MPMD_TRANSFORMS_OPTIMIZE_SCHEDULING_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "mlir/IR/Block.h"

namespace mlir::mpmd {

/// Groups of ops of one block, to run group by group: an op of group g + 1
/// may only run once every op of group g has. Ops of one group are not
/// ordered among themselves.
using GroupSequence = SmallVector<SmallVector<Operation *>>;

struct BlockSortResult {
  /// False if the ops' dependencies form a cycle: the ops that could not be
  /// sorted are then left after the sorted ones, in their original order.
  bool complete = true;
  /// Ops that had to run before an earlier group of their sequence had
  /// finished, because that group depends on them (data beats sequence). In
  /// the order they were released.
  SmallVector<Operation *> sequenceConflicts;
};

/// Reorders the ops of `block` (its terminator stays last) so that every op
/// comes after the ops of the block it depends on: the producers of its
/// operands and of the operands of the ops nested in it (control operands
/// included), and, within each of `sequences`, after the ops of the earlier
/// groups. The order is that of repeated sweeps over the original order, each
/// placing every op whose dependencies are placed when it is visited (the
/// order of MLIR's `sortTopologically` and thus upstream's), so an already
/// valid block without sequences is left unchanged. When only sequence
/// constraints block progress (a sequence contradicts the data flow), the
/// earliest op held back only by its sequence is released and reported.
///
/// Kahn's algorithm with a priority queue on (sweep, original index), an
/// op's sweep being the one after the latest sweep that unblocked it, or the
/// same one when it comes later in the original order: O((n + e) log n) for
/// n ops and e operand uses (nested ones included); each op is moved once.
BlockSortResult sortBlockTopologically(Block &block,
                                       ArrayRef<GroupSequence> sequences = {});

/// Makes `to` depend on `from` (fragments of one block and mesh) by passing
/// `from`'s first result as a control operand (with an unused block argument,
/// an open sharding if `to` has `in_shardings` and an empty dictionary if it
/// has `arg_attrs`). Returns false, changing nothing, if `from` has no
/// results or `to` already uses one of them.
bool addControlDependency(FragmentOp from, FragmentOp to);

/// Removes the control operands of every fragment in `function` (their
/// block arguments must be unused) and `mpmd.control_operand_start_idx`.
/// O(fragments + their operands).
void removeControlDependencies(func::FuncOp function);

/// The ops of `source`'s block leading from `source` to `target` through
/// uses (each op on the path uses a result of the previous one, possibly in
/// a nested op): `[source, ..., target]`, or empty if `target` does not
/// depend on `source`. A DFS: O(ops and uses reachable from `source`).
SmallVector<Operation *> findDependencyPath(Operation *source,
                                            Operation *target);

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_OPTIMIZE_SCHEDULING_H
