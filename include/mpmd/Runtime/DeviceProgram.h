//===- DeviceProgram.h - An MPMD program as per-mesh step lists -*- C++ -*-===//
//
// What the MPMD executor runs, without MLIR: values living on meshes, steps
// (a fragment on a mesh, or a transfer between meshes) and, per mesh, the
// order in which its devices run their steps. Every device of a mesh runs the
// mesh's list: SPMD, each device on its own shard of every value (a value's
// bytes here are those one device holds; a replicated value's are its global
// size). Which box of the value a device holds is the executor's business
// (ShardLayout.h); this model only needs sizes and who sends to whom.
//
// Execution model (the executor implements it; `simulate` replays it):
// * a device runs its fragments one at a time in its mesh's order, each once
//   all its operands are on the device;
// * a transfer is asynchronous: the destination device *issues* the receive
//   when it reaches the transfer in its order (never waiting), and a copy
//   engine of the destination device copies each piece of its shard once the
//   receive is issued and the piece's source device holds the value. The
//   transfer's pieces say which source device sends what to which
//   destination device (by default, device `d` receives the whole value from
//   device `d mod n` of the source mesh of n devices); the value is on the
//   destination device once every piece landed;
// * a value on a device is freed after its last use there (fragment operand
//   or transfer source); program outputs stay.
//
// Keeping this separate from MLIR lets the progress check, the memory check
// and the replay be tested on hand-built programs (e.g. orders that deadlock,
// which a verified SSA module cannot express).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_DEVICEPROGRAM_H
#define MPMD_RUNTIME_DEVICEPROGRAM_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

struct DeviceProgram {
  struct Mesh {
    std::string name;
    int64_t numDevices = 1;
  };
  struct Value {
    /// The mesh it lives on.
    int64_t mesh = 0;
    /// Bytes one device holds: its shard's (all devices of a mesh hold
    /// shards of the same shape).
    int64_t bytes = 0;
    /// For messages, e.g. "%3" or "input 1".
    std::string name;
  };
  enum class StepKind { kFragment, kTransfer };
  /// `bytes` of a transfer's value that `sourceDevice` of the source mesh
  /// sends to `device` of the destination mesh.
  struct TransferPiece {
    int64_t sourceDevice = 0;
    int64_t device = 0;
    int64_t bytes = 0;
  };
  struct Step {
    StepKind kind = StepKind::kFragment;
    /// A fragment's mesh; a transfer's destination mesh.
    int64_t mesh = 0;
    /// Value ids; a transfer has exactly one operand and one result.
    std::vector<int64_t> operands;
    std::vector<int64_t> results;
    /// Per operand: the fragment may reuse the operand's buffer when this is
    /// its last use (donation). Empty means none.
    std::vector<bool> donatable;
    /// For traces and messages, e.g. "layer_1(1) mb 3".
    std::string name;
    /// A transfer's pieces, by receiving device (increasing), each pair of
    /// devices at most once. Empty: device d of the destination mesh
    /// receives the whole value from device d mod n of the source mesh.
    std::vector<TransferPiece> pieces;
    /// One letter for text timelines: 'F' forward, 'B' backward, 'o' other
    /// fragments (inferred, optimizer), 'T' transfers.
    char letter = 'o';
  };

  std::vector<Mesh> meshes;
  std::vector<Value> values;
  /// In program order: the static memory check walks them in this order.
  std::vector<Step> steps;
  /// Per mesh: the step ids its devices run, in order (the fragments on the
  /// mesh and the transfers into it).
  std::vector<std::vector<int64_t>> meshOrder;
  /// Values present on their mesh's devices before the first step.
  std::vector<int64_t> inputs;
  /// Values read back after the last step (assembled from their shards).
  std::vector<int64_t> outputs;

  int64_t getNumDevices() const;
  /// "m1:0": device 0 of mesh m1.
  std::string describeDevice(int64_t mesh, int64_t device) const;
  /// The source mesh of a transfer step (the mesh of its operand).
  int64_t getSourceMesh(const Step &step) const {
    return values[step.operands.front()].mesh;
  }
  /// The devices of a transfer's source mesh that send to `device` of its
  /// destination mesh, increasing. O(log pieces + result).
  llvm::SmallVector<int64_t, 4> getSourceDevices(const Step &step,
                                                 int64_t device) const;
  /// The bytes a transfer moves into `device` of its destination mesh.
  int64_t getReceivedBytes(const Step &step, int64_t device) const;
};

/// Checks the program's structure: ids in range, every value produced once
/// (or an input) on its own mesh, operands of a step on the step's mesh (a
/// transfer's on any mesh), every step in its mesh's order exactly once,
/// transfer pieces on existing devices, sorted, each pair once, covering
/// every receiving device. O(steps + operands + values + pieces).
llvm::Error verifyStructure(const DeviceProgram &program);

/// Start and end of a step on one device, in the simulation's or a run's
/// time unit. For a transfer the device is the receiving one and the times
/// are those of the copy.
struct StepTiming {
  int64_t step = 0;
  int64_t mesh = 0;
  int64_t device = 0;
  double start = 0;
  double end = 0;
};

struct SimulatedRun {
  /// End of the last step.
  double makespan = 0;
  std::vector<StepTiming> timings;
};

/// Replays the execution model with the given durations (of a fragment on a
/// device, of a transfer's copy into a device): every step as early as its
/// device order and operands allow; copy engines are not a bottleneck.
/// Fails, naming the cycle of waiting devices, when the meshes' orders cannot
/// all run to the end (a device waits for a value that would only be made
/// after it goes on). The structure must be valid. O(steps x devices +
/// operands).
llvm::Expected<SimulatedRun>
simulate(const DeviceProgram &program,
         const std::function<double(int64_t step, int64_t mesh,
                                    int64_t device)> &duration);

/// The progress proof the executor runs before starting: `simulate` with
/// unit durations.
llvm::Error verifyProgress(const DeviceProgram &program);

/// Per-device live bytes walking each mesh's order: inputs are live from the
/// start; a step's results become live when it runs (a donated last-use
/// operand's bytes are released first); a value dies after its last use on
/// its mesh and once its mesh knows that every copy from it landed. A
/// transfer's copy lands whenever the receiver and the source allow, so the
/// sender knows it only through a chain of waits from a fragment reading
/// the copy back to itself (happens-before: vector clocks over meshes; with
/// meshes of different device counts the sender is never sure, and keeps
/// what it sends; so does a sender whose pieces go to other lanes than its
/// own). The peak is thus a bound for every timing of a run, not
/// only for program order. With `deviceMemoryBytes`, fails at the first step
/// (in program order) that would exceed it, naming the step, the device and
/// its largest live buffers. Returns the peak per mesh (all devices of a
/// mesh hold the same values). The program must make progress
/// (verifyProgress). O((steps x devices + operands) x meshes).
llvm::Expected<std::vector<int64_t>>
checkMemory(const DeviceProgram &program,
            std::optional<int64_t> deviceMemoryBytes);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_DEVICEPROGRAM_H
