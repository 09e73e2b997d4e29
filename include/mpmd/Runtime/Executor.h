//===- Executor.h - Runs MPMD programs on virtual CPU devices ----*- C++ -*-===//
//
// The MPMD executor: the topology of an MPMD module's @main becomes virtual
// devices, one worker thread each, plus one copy-engine thread per device
// for incoming transfers. Each device runs its mesh's fragment calls (and
// fragments) in program order on its own interpreter; transfers copy a value
// from the source devices to the destination devices asynchronously, so
// that neither side stops for them (see DeviceProgram.h for the exact
// model), or, for a whole value between two devices of this process, hand
// the sender's buffer over. Each device accounts for the bytes it holds; a buffer is dropped
// right after its last use on the device, and a donated operand
// (`jax.buffer_donor` or `tf.aliasing_output` on the callee argument) at its
// last use is handed to the fragment, which drops it as soon as its body no
// longer needs it.
//
// Meshes run SPMD: each device holds only its shard of a value, the box of
// the global tensor that the value's sharding (its mesh tensor type) gives
// it (ShardLayout.h), and runs its fragment bodies as partition d of the
// mesh's 1 x N grid: partition_id is d and the bodies' StableHLO
// collectives go over the mesh's devices through the Transport
// (CollectiveBackend.h). A fragment whose body has local types (each
// argument and result the shape of one device's shard) runs on the shards;
// one whose body has the global types runs replicated, and the values it
// reads or writes are then held whole by every device. `run` cuts the
// global inputs into shards and assembles the outputs from them; a transfer
// moves to each destination device only the pieces of its shard, each from
// one source device holding it.
//
// Every tensor that moves between devices goes through a Transport
// (Transport.h): by default a ThreadsTransport of the run's own (every
// device in this process); with an MpiTransport, this process runs only its
// rank's devices and exchanges transfers with the other ranks.
//
// Before running: the structure and progress checks of DeviceProgram.h and,
// with a device-memory cap, the static memory check, so that a program that
// would deadlock or run out of memory is refused before it starts.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_EXECUTOR_H
#define MPMD_RUNTIME_EXECUTOR_H

#include "mpmd/Runtime/DeviceProgram.h"
#include "mpmd/Runtime/ShardLayout.h"
#include "mpmd/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include "mlir/IR/Region.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace mlir::mpmd::runtime {

class Interpreter;
class Transport;

/// The most virtual devices the executor runs: each takes a worker and a
/// copy-engine thread, so a topology of thousands of devices is almost
/// always a mistake that would exhaust the machine's threads.
inline constexpr int64_t kMaxVirtualDevices = 1024;
/// kMaxVirtualDevices, lowered to what the process's thread limit
/// (RLIMIT_NPROC) allows; `Executable::create` refuses larger topologies.
int64_t getMaxVirtualDevices();

struct ExecutorOptions {
  /// Per-device memory cap in bytes; none: unlimited.
  std::optional<int64_t> deviceMemoryBytes;
  /// Whether each device thread is pinned to a core of its own (only when
  /// every device runs in this process and the process may use a CPU for
  /// each; a thread lets go of its core once the run stops spinning).
  /// None: when, at the start of the run, no thread of another process is
  /// runnable (a pinned thread cannot move off a core that another process
  /// holds).
  std::optional<bool> pinDeviceThreads;
  /// Tests only: called right before each fragment or copy of a step runs,
  /// on the device or copy-engine thread that runs it (so concurrently), to
  /// inject delays that reorder what the threads do.
  std::function<void(int64_t step)> beforeStepForTesting;
  /// Tests only: called right before each fragment runs, on its device
  /// thread; an error fails the fragment with it (fault injection).
  std::function<llvm::Error(int64_t step, int64_t mesh, int64_t device)>
      faultForTesting;
  /// Moves tensors between devices; none: a ThreadsTransport of the run's
  /// own. With a transport whose devices are not all local, only the local
  /// devices run here.
  Transport *transport = nullptr;
  /// Bound on the run (one step of the program), in seconds; past it the
  /// run fails naming where each device waits. None: unbounded.
  std::optional<double> timeoutSeconds;
  /// Called with the error when the timeout expires, before the run waits
  /// for device threads still inside a fragment (a kernel cannot be
  /// interrupted): a tool may end the process there, so that the step is
  /// bounded. None: the run fails once those threads return.
  std::function<void(const std::string &message)> onTimeout;
};

/// One executed step on one device, in microseconds since the run started.
/// For a transfer, `mesh`/`device` receive (from the first piece landing to
/// the last) and `sourceMesh`/`sourceDevice` send (the first of the source
/// devices of its pieces).
struct ExecutedStep {
  int64_t step = 0;
  int64_t mesh = 0, device = 0;
  int64_t sourceMesh = 0, sourceDevice = 0;
  double startUs = 0, endUs = 0;
  /// A transfer: the bytes it moved into the device.
  int64_t bytes = 0;
};

struct DeviceUsage {
  int64_t mesh = 0, device = 0;
  /// Most bytes the device held at once (measured, with the real timing of
  /// transfers).
  int64_t peakBytes = 0;
  /// Time spent running fragments.
  double busyUs = 0;
  /// The core the device's thread was pinned to at its start
  /// (ExecutorOptions::pinDeviceThreads); -1: not pinned.
  int pinnedCpu = -1;
};

/// With a transport whose devices are not all local: outputs of meshes
/// whose device 0 runs elsewhere are empty tensors, and `executed` and
/// `devices` list the local devices only (the process of a mesh's device 0
/// receives the shards of its outputs that other processes hold).
struct RunResult {
  std::vector<Tensor> outputs;
  /// From the start of the first step to the end of the last.
  double stepUs = 0;
  std::vector<ExecutedStep> executed;
  std::vector<DeviceUsage> devices;
  /// Bytes moved by transfers, over all receiving devices (each its
  /// pieces; a handover counts the value's bytes without copying them).
  int64_t transferredBytes = 0;
  /// When the run started, in microseconds since the Unix epoch: what lines
  /// up the traces of several processes.
  int64_t startUnixMicros = 0;
  /// How waiting device threads waited: whether they spun before parking
  /// (ExecutorOptions, docs/runtime.md "Waiting") and, when the run stopped
  /// spinning part-way, when and why (empty: spun to the end or never).
  bool spun = false;
  double spinStoppedUs = 0;
  std::string spinStopReason;
  /// Times a pinned device thread lost its core while no other process was
  /// runnable (the hypervisor's, on a virtual machine): the run kept
  /// spinning and pinning through them.
  int64_t hostPreemptions = 0;
};

/// An MPMD module ready to run: its @main turned into a DeviceProgram, the
/// function of every fragment call resolved.
class Executable {
public:
  /// Reads `module`'s @main (an MPMD function with a topology whose body
  /// holds fragment calls, fragments, transfers and the return), lays out
  /// every value over its mesh and checks it can make progress; failure
  /// after an error diagnostic (also for a sharding that does not divide a
  /// dimension, unreduced axes, or a fragment body whose types are neither
  /// all global nor all local). The module must outlive the executable.
  static FailureOr<std::unique_ptr<Executable>> create(ModuleOp module);
  ~Executable();

  const DeviceProgram &getProgram() const { return program; }
  ModuleOp getModule() const { return module; }
  /// The op that runs `step`: a fragment call, a fragment or a transfer.
  Operation *getStepOp(int64_t step) const { return stepOps[step]; }
  const std::vector<TensorSpec> &getInputSpecs() const { return inputSpecs; }
  /// How the devices of its mesh hold value `value` of the program.
  const ShardLayout &getLayout(int64_t value) const { return layouts[value]; }
  /// Whether fragment `step` runs on shards (its body has local types).
  bool runsOnShards(int64_t step) const { return stepOnShards[step]; }
  const std::vector<TensorSpec> &getOutputSpecs() const { return outputSpecs; }
  /// The groups of global devices (Transport.h numbering, in the
  /// collective's member order) that the collectives of the fragment bodies
  /// meet in, each once, in program order: what a transport that prepares
  /// its groups ahead (MPI) needs.
  const std::vector<std::vector<int64_t>> &getCollectiveGroups() const {
    return collectiveGroups;
  }

  /// An error unless `inputs` has one tensor per @main argument, of its
  /// dtype and global shape (what `run` checks first). With a `transport`,
  /// only the inputs of meshes with a device local to it are read, so only
  /// those are checked.
  llvm::Error checkInputs(llvm::ArrayRef<Tensor> inputs,
                          const Transport *transport = nullptr) const;

  /// Runs the program once on `inputs` (one per @main argument, of its
  /// dtype and global shape; with a transport, those of meshes without a
  /// local device may be empty tensors). Errors: inputs that do not match, the memory
  /// cap, a fragment the interpreter cannot run (after its diagnostic).
  llvm::Expected<RunResult> run(std::vector<Tensor> inputs,
                                const ExecutorOptions &options) const;

private:
  Executable() = default;
  class Run;
  /// Decides which fragments run on shards, the layout of every value, the
  /// bytes a device holds of it and the pieces of every transfer, from the
  /// layouts the values' shardings give and the types of each fragment
  /// step's body (arguments, then results). O(values x devices x rank +
  /// transfers x devices x shards x rank).
  LogicalResult layOutValues(std::vector<ShardLayout> typedLayouts,
                             llvm::ArrayRef<SmallVector<Type>> bodyTypes);

  ModuleOp module;
  DeviceProgram program;
  std::vector<Operation *> stepOps;
  /// Per step: the body a fragment step runs (the callee's or the
  /// fragment's); null for a transfer.
  std::vector<Region *> stepBodies;
  std::vector<TensorSpec> inputSpecs, outputSpecs;
  /// Per value of the program: its dtype and global shape.
  std::vector<TensorSpec> valueSpecs;
  /// Per value: the shards its mesh's devices hold.
  std::vector<ShardLayout> layouts;
  /// Per value held whole (read or written by a fragment with global types)
  /// whose sharding splits it: the shards fragments on shards read, cut out
  /// of the whole value at the fragment.
  std::vector<std::optional<ShardLayout>> operandShards;
  /// Per step: a fragment on shards.
  std::vector<bool> stepOnShards;
  /// Per step: a transfer's pieces, by receiving device.
  std::vector<std::vector<RelayoutPiece>> stepPieces;
  std::vector<std::vector<int64_t>> collectiveGroups;

  /// A device's interpreter for one run: one kept from an earlier run when
  /// there is one, so that each fragment body is prepared (its fusion plan,
  /// its constants) once per device, not once per step. O(1).
  std::unique_ptr<Interpreter> takeInterpreter(int64_t device) const;
  void giveBackInterpreter(int64_t device,
                           std::unique_ptr<Interpreter> interpreter) const;
  /// Per global device: interpreters no run holds (more than one only after
  /// concurrent runs).
  mutable std::mutex interpretersMutex;
  mutable std::vector<std::vector<std::unique_ptr<Interpreter>>>
      idleInterpreters;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_EXECUTOR_H
