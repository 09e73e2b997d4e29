//===- InterpreterCollectives.h - The interpreter's parallel ops -*- C++
//-*-===//
//
// Private to the interpreter: StableHLO's collectives, replica_id and
// partition_id on the process grid of a ProcessContext, and
// interpreter.run_parallel, which makes such grids.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_INTERPRETERCOLLECTIVES_H
#define MPMD_LIB_RUNTIME_INTERPRETERCOLLECTIVES_H

#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/ShardLayout.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

/// The shards of a value of global `shape` that `sharding` splits over
/// `mesh`: each dimension by its (sub-)axes, major to minor, counting only
/// the axes `splitsBy` accepts (every axis when null); indexed by device id.
/// Fails for an axis the mesh lacks or a layout ShardLayout rejects.
/// O(devices x dimensions).
llvm::Expected<ShardLayout>
createShardLayout(sdy::TensorShardingAttr sharding, sdy::MeshAttr mesh,
                  const Shape &shape,
                  llvm::function_ref<bool(StringRef)> splitsBy = nullptr);

/// Folds two same-shaped tensors element by element with a reduction body
/// (`computation` of all_reduce / reduce_scatter).
using Combiner = llvm::function_ref<FailureOr<Tensor>(
    Region &computation, const Tensor &lhs, const Tensor &rhs)>;

/// The reduction of a body that is one add, multiply, maximum, minimum, and
/// or or of its two block arguments (either order) feeding the return.
std::optional<ReduceKind> matchReduceCombiner(Region &body);

/// Whether `op` is one of the ops runCollective runs.
bool isProcessOp(Operation &op);

/// Runs a collective, replica_id or partition_id as process
/// `process.self`; the collective blocks until the other members of its
/// group reach it. Fails after an error diagnostic at `op`.
FailureOr<std::vector<Tensor>> runProcessOp(Operation &op,
                                            const std::vector<Tensor> &operands,
                                            const ProcessContext &process,
                                            Combiner combine);

/// Runs stablehlo.send (its inputs go to the back of its channel's queue)
/// or stablehlo.recv (takes the payload at the front, waiting for one) as
/// participant `self` of `channels`; a transfer from or to the host fails.
/// A recv that can never get a payload fails as a deadlock, naming where
/// every participant waits. Fails after an error diagnostic at `op`.
/// O(payload bytes) (a send copies: see the .cpp file comment).
FailureOr<std::vector<Tensor>>
runTransferOp(Operation &op, const std::vector<Tensor> &operands,
              InProcessRendezvous &channels, int64_t self);

/// The groups (grid indices, in the collective's order) that collective
/// `op` meets in on `grid`, groups of one process left out; empty for
/// replica_id and partition_id. What a transport that prepares its groups
/// ahead (MPI) needs. Fails after an error diagnostic at `op` when its
/// groups do not fit the grid. O(processes) per op.
FailureOr<std::vector<std::vector<int64_t>>>
getCollectiveGroups(Operation &op, const ProcessGrid &grid);

/// Runs every process of `op`'s grid on its own thread with its own
/// Interpreter over `module` and returns their results, replica-major. The
/// first process that fails stops the others; its diagnostics are reported
/// (those of the processes it stopped are not). The first failed check of
/// the processes (in process order) goes to `firstCheckFailure` unless it
/// already holds one. The processes run with `options` and share the
/// infeed `op` lists (each function of it run once, before the processes).
FailureOr<std::vector<Tensor>>
runParallel(interpreter::RunParallelOp op, std::vector<Tensor> inputs,
            ModuleOp module, const InterpreterOptions &options,
            const ProcessContext &caller,
            std::optional<std::string> &firstCheckFailure);

/// Runs an `sdy.manual_computation` on global values (the unpartitioned
/// program, e.g. the reference `mpmd run --validate` and
/// `%partition-and-run` compare with): its body runs as partition d of a
/// 1 x N grid for each device id d of its mesh, on the operands' parts the
/// manual axes give that device (free axes leave them whole), with its
/// collectives meeting as under run_parallel; each shard of a result comes
/// from the holding device of lowest id. Fails after an error
/// at `op` when the caller is one of several processes (its values are
/// per device). The devices run with `options` and read the caller's
/// infeed.
/// O(N x operand and result bytes) plus the body's work on N threads.
FailureOr<std::vector<Tensor>>
runManualComputation(sdy::ManualComputationOp op, std::vector<Tensor> operands,
                     ModuleOp module, const InterpreterOptions &options,
                     const ProcessContext &caller,
                     std::optional<std::string> &firstCheckFailure);

} // namespace mlir::mpmd::runtime

#endif // MPMD_LIB_RUNTIME_INTERPRETERCOLLECTIVES_H
