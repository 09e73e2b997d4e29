//===- Interpreter.h - Runs stablehlo functions on the kernels --*- C++ -*-===//
//
// A tensor-level interpreter: it walks a func.func once per call and runs
// each op as one whole-tensor kernel (see Kernels.h), so the per-op
// dispatch cost (a map lookup and a switch) is paid once per op, never per
// element. `check.*` ops are assertions: a failed one is recorded (the first
// per run is kept) and execution goes on. An op, dtype or attribute the
// interpreter does not support is an error at that op's location. A value
// is dropped right after its last use in its block, so its buffer returns to
// the pool while the function still runs.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_INTERPRETER_H
#define MPMD_RUNTIME_INTERPRETER_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Runtime/ProcessGroups.h"
#include "mpmd/Runtime/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

/// The runtime dtype of an MLIR element type, or an error at `loc`.
FailureOr<DType> getDType(Type elementType, Location loc);
/// The dtype and shape of a value of `type`, or an error at `loc` when it is
/// not a statically shaped ranked tensor of a supported dtype.
FailureOr<TensorSpec> getTensorSpec(Type type, Location loc);
/// The specs of `function`'s arguments; failure after an error diagnostic
/// at an argument of an unsupported type.
FailureOr<std::vector<TensorSpec>> getArgumentSpecs(func::FuncOp function);
/// A tensor holding the values of a dense elements attribute.
FailureOr<Tensor> tensorFromAttr(ElementsAttr attr, Location loc);

struct InterpreterOptions {
  /// Compute chains of elementwise ops in one pass each (bit-identical
  /// results; see lib/Runtime/Fusion.h). Off: every op runs on its own.
  bool fuseElementwise = true;
  /// Where interpreter.probe writes its .npy files and
  /// check.expect_serialized_eq reads them; empty: both fail, naming it.
  std::string probeDirectory;
};

class CollectiveBackend;
class InProcessRendezvous;

/// The values stablehlo.infeed takes, first in first out, shared by the
/// processes of a parallel run (interpreter.run_parallel's `infeed`).
/// Thread-safe.
class InfeedQueue {
public:
  explicit InfeedQueue(std::vector<Tensor> values);
  /// The next value; nullopt once all are taken.
  std::optional<Tensor> pop();

private:
  std::mutex mutex;
  std::vector<Tensor> values;
  size_t next = 0;
};

/// Where the functions an Interpreter runs sit in a parallel run.
struct ProcessContext {
  ProcessGrid grid;
  ProcessId self;
  /// Where the collectives of the grid's processes meet; null for a grid
  /// of one process. At most one of `rendezvous` (interpreter.run_parallel:
  /// any reduction body) and `collectives` (the executor's Transport:
  /// reductions that are one ReduceKind) is set.
  InProcessRendezvous *rendezvous = nullptr;
  CollectiveBackend *collectives = nullptr;
  /// What stablehlo.infeed reads; null: nothing (an infeed fails).
  InfeedQueue *infeed = nullptr;
};

class Interpreter {
public:
  /// `module` holds the callees of func.call ops.
  explicit Interpreter(ModuleOp module, InterpreterOptions options = {});
  ~Interpreter();

  /// Runs `function` on `arguments` (one per function argument, of its
  /// type). Fails, after an error diagnostic, on anything unsupported. An
  /// argument the caller moved in (and holds no other reference to) is
  /// freed as soon as the body no longer needs it.
  FailureOr<std::vector<Tensor>> run(func::FuncOp function,
                                     std::vector<Tensor> arguments);
  /// Runs the single block of `region` (e.g. an mpmd.fragment's body) on
  /// `arguments` and returns the operands of its terminator.
  FailureOr<std::vector<Tensor>> runRegion(Region &region,
                                           std::vector<Tensor> arguments);

  /// Called after each mpmd.named_computation the interpreter runs, with
  /// the CPU seconds its thread spent in it: how `mpmd profile` times the
  /// unpartitioned program.
  using NamedComputationObserver =
      std::function<void(mpmd::NamedComputationOp computation, double seconds)>;
  void setNamedComputationObserver(NamedComputationObserver observer) {
    namedComputationObserver = std::move(observer);
  }

  /// Called after each kernel of a function body that runs outside every
  /// mpmd.named_computation (not for calls, whose callees' ops are
  /// reported), with its ops and the CPU seconds its thread spent in it: one
  /// op, or a fused chain, its root last after the ops fused into it that
  /// the block skipped since the previous kernel. How `mpmd profile` times
  /// the work around the layers (gradient sums, optimizer).
  using OpObserver =
      std::function<void(llvm::ArrayRef<Operation *> ops, double seconds)>;
  void setOpObserver(OpObserver observer) { opObserver = std::move(observer); }

  /// The first check that failed since the last reset, with its values.
  const std::optional<std::string> &getFirstCheckFailure() const {
    return firstCheckFailure;
  }
  void resetCheckFailures() { firstCheckFailure.reset(); }
  /// Starts an independent run of the same functions (the executor keeps an
  /// interpreter per device across steps): rng ops draw the streams of a
  /// fresh interpreter again and check failures are forgotten, while the
  /// prepared blocks and the constants stay.
  void resetRunState() {
    rngRuns = 0;
    firstCheckFailure.reset();
  }

  const InterpreterOptions &getOptions() const { return options; }

  /// Runs what follows as process `process.self` of a parallel run.
  void setProcess(const ProcessContext &context) { process = context; }
  const ProcessContext &getProcess() const { return process; }

private:
  class Frame;
  /// How a block runs, prepared before it first runs (lib/Runtime): its
  /// fused elementwise chains and, per op, the values defined in the block
  /// whose last use is that op.
  struct BlockPlan;
  /// Computed once per block, O((ops + uses) log ops).
  const BlockPlan &getBlockPlan(Block &block);
  /// The send/recv channels of a program that runs on its own (outside a
  /// parallel run), made when first used.
  InProcessRendezvous &getOwnChannels();

  ModuleOp module;
  InterpreterOptions options;
  // Behind a pointer: a nested block's entry may be added (and the map
  // rehashed) while an outer block's entry is in use.
  llvm::DenseMap<Block *, std::unique_ptr<BlockPlan>> blockPlans;
  std::optional<std::string> firstCheckFailure;
  NamedComputationObserver namedComputationObserver;
  OpObserver opObserver;
  /// The tensor of each stablehlo.constant run so far.
  llvm::DenseMap<Operation *, Tensor> constants;
  /// Per op on quantized tensors that the spec computes as
  /// dequantize_op_quantize: a block holding the op's clone on the
  /// expressed (float) types, its operands the block's arguments. Built
  /// when the op first runs.
  llvm::DenseMap<Operation *, std::unique_ptr<Block>> dequantizedOps;
  ProcessContext process;
  /// How many stablehlo.rng ops have run (each draws its own stream).
  uint64_t rngRuns = 0;
  /// Per probe id, how many times interpreter.probe wrote it.
  llvm::StringMap<int64_t> probeRuns;
  /// See getOwnChannels; emptied when an outermost run starts.
  std::unique_ptr<InProcessRendezvous> ownChannels;
  /// How many runRegion calls are under way (calls nest).
  int runDepth = 0;
  friend class Frame;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_INTERPRETER_H
