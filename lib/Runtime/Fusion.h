//===- Fusion.h - Elementwise chains computed in one pass --------*- C++ -*-===//
//
// Private to lib/Runtime: before a block first runs, the interpreter finds
// its chains of elementwise ops (unary and binary kernels of one dtype and
// shape, with the broadcast_in_dims and splat constants that feed them) and
// computes each chain at its last op with one `fusedElementwise` call: one
// pass over memory instead of one per op, no buffer for the values inside
// the chain, and broadcasts read in place. Every element still goes
// through the same operations in the same order, so results are
// bit-identical to running the ops one by one. A transpose feeding a
// dot_general is read by the dot in place, and a dot_general whose only
// user is an `add` adds its product into the add's other operand (gemm
// with beta = 1, see `dotGeneralAccumulate`).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_FUSION_H
#define MPMD_LIB_RUNTIME_FUSION_H

#include "mpmd/Runtime/Kernels.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace mlir::mpmd::runtime {

/// A chain computed at the place of its root (its last op).
struct FusedChain {
  Operation *root;
  /// What the chain reads, with the strides `FusedInput` takes: row-major
  /// strides of the root's shape for a value of that shape, the operand's
  /// strides placed on the broadcast dimensions for a fused
  /// broadcast_in_dim, zeros for a splat constant.
  std::vector<Value> inputs;
  std::vector<std::vector<int64_t>> inputStrides;
  std::vector<FusedOperation> operations;
};

/// A dot_general that reads the operand of a transpose instead of its
/// result: `dims` name that operand's dimensions, so BLAS takes the
/// transposed layout with its transpose flag (or dotGeneral transposes
/// once, as it would have anyway) and the transpose never runs.
struct FoldedDot {
  Value lhs, rhs;
  DotDimensions dims;
};

/// An `add` of a dot_general's result (its only use) and another value,
/// `addend`, computed as `addend` += lhs·rhs: in `addend`'s buffer when it
/// dies at the add and the dot does not read it, else in a copy of it. The
/// dot does not run by itself.
struct AccumulatingDot {
  Operation *dot;
  Value addend;
};

class FusionPlan {
public:
  /// The chains and folded transposes of `block` (its own ops; nested
  /// blocks get their own plan). A transpose folds into the dot_general
  /// that is its only user when the dot's free dimensions keep their
  /// order (the result's layout stays the same).
  /// An op joins the chain of a later op when every use of its result is in
  /// that chain; a chain is kept when it saves a pass over memory (two or
  /// more kernels, or a broadcast or splat read in place). Greedy from the
  /// last op backwards, O((ops + uses) log ops).
  /// An f32/f64 `add` with an operand that a dot_general of the same type
  /// computes for it alone is an accumulating dot (taken before chains).
  static FusionPlan build(Block &block);

  /// How `op` (a dot_general) reads a folded transpose, or null.
  const FoldedDot *getFoldedDot(Operation *op) const {
    auto found = foldedDots.find(op);
    return found == foldedDots.end() ? nullptr : found->second.get();
  }
  /// The dot_general `op` (an add) accumulates, or null.
  const AccumulatingDot *getAccumulatingDot(Operation *op) const {
    auto found = accumulatingDots.find(op);
    return found == accumulatingDots.end() ? nullptr : &found->second;
  }
  /// The chain `op` is the root of, or null.
  const FusedChain *getChain(Operation *op) const {
    auto found = chains.find(op);
    return found == chains.end() ? nullptr : found->second.get();
  }
  /// True for an op computed inside a later op's chain, a transpose a
  /// dot_general reads through, or an accumulating dot: it does not run.
  bool isFusedAway(Operation *op) const { return rootOf.count(op); }
  /// The op at whose place `op` runs: its chain's root, or itself.
  Operation *getRunningOp(Operation *op) const {
    auto found = rootOf.find(op);
    return found == rootOf.end() ? op : found->second;
  }

private:
  llvm::DenseMap<Operation *, std::unique_ptr<FusedChain>> chains;
  llvm::DenseMap<Operation *, std::unique_ptr<FoldedDot>> foldedDots;
  llvm::DenseMap<Operation *, AccumulatingDot> accumulatingDots;
  llvm::DenseMap<Operation *, Operation *> rootOf;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_LIB_RUNTIME_FUSION_H
