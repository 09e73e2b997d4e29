//===- Fusion.h - Elementwise chains computed in one pass --------*- C++ -*-===//
//
// Private to lib/Runtime: before a block first runs, the interpreter finds
// its chains of elementwise ops (unary and binary kernels of one dtype and
// shape, with the broadcast_in_dims and splat constants that feed them) and
// computes each chain at its last op with one `fusedElementwise` call: one
// pass over memory instead of one per op, no buffer for the values inside
// the chain, and broadcasts read in place. Every element still goes
// through the same operations in the same order, so results are
// bit-identical to running the ops one by one.
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

class FusionPlan {
public:
  /// The chains of `block` (its own ops; nested blocks get their own plan).
  /// An op joins the chain of a later op when every use of its result is in
  /// that chain; a chain is kept when it saves a pass over memory (two or
  /// more kernels, or a broadcast or splat read in place). Greedy from the
  /// last op backwards, O((ops + uses) log ops).
  static FusionPlan build(Block &block);

  /// The chain `op` is the root of, or null.
  const FusedChain *getChain(Operation *op) const {
    auto found = chains.find(op);
    return found == chains.end() ? nullptr : found->second.get();
  }
  /// True for an op computed inside a later op's chain: it does not run.
  bool isFusedAway(Operation *op) const { return rootOf.count(op); }
  /// The op at whose place `op` runs: its chain's root, or itself.
  Operation *getRunningOp(Operation *op) const {
    auto found = rootOf.find(op);
    return found == rootOf.end() ? op : found->second;
  }

private:
  llvm::DenseMap<Operation *, std::unique_ptr<FusedChain>> chains;
  llvm::DenseMap<Operation *, Operation *> rootOf;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_LIB_RUNTIME_FUSION_H
