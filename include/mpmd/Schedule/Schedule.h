//===- Schedule.h - Pipeline schedules as per-mesh action lists -*- C++ -*-===//
//
// A pipeline schedule, independent of how it was obtained (a built-in
// generator, or later a scheduled MPMD module): for each mesh (pipeline rank),
// the ordered list of the actions it runs. Plain C++ over abstract actions, so
// that it is fast and testable without MLIR.
//
// Model:
// * The model is cut into `S` stages, in forward order; `stageMesh[s]` is the
//   mesh that holds stage `s`. A mesh may hold several stages ("virtual
//   stages" or chunks); its local chunk index of stage `s` is the number of
//   its stages below `s`.
// * Each microbatch `mb` runs forward through stages 0..S-1 and backward
//   through S-1..0. Actions: `F(mb, s)` forward; `B(mb, s)` backward;
//   `W(mb, s)` the weight gradient, when it is split off `B(mb, s)` (zero
//   bubble schedules). Without a `W(mb, s)` action, `B(mb, s)` is the full
//   backward (input and weight gradients). The split is decided per
//   (microbatch, stage): DualPipeV splits only some backwards.
// * Data dependencies (what the simulator enforces):
//     F(mb, s) after F(mb, s-1)                       (s > 0)
//     B(mb, s) after F(mb, s) and after B(mb, s+1)    (s < S-1)
//     W(mb, s) after B(mb, s)
//   plus, on each mesh, the order of its list.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_SCHEDULE_SCHEDULE_H
#define MPMD_SCHEDULE_SCHEDULE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mpmd::schedule {

enum class ActionKind : uint8_t {
  /// F: the forward of one stage for one microbatch.
  kForward,
  /// B: the backward; only the input gradient when the schedule also has the
  /// matching W action, the full backward otherwise.
  kBackward,
  /// W: the weight gradient split off a backward.
  kWeightGradient,
};

/// 'F', 'B' or 'W'.
char getActionKindLetter(ActionKind kind);

struct Action {
  ActionKind kind;
  int64_t microbatch;
  /// The global stage index (0 .. S-1 in forward order), not the mesh-local
  /// chunk index.
  int64_t stage;

  static Action forward(int64_t microbatch, int64_t stage) {
    return {ActionKind::kForward, microbatch, stage};
  }
  static Action backward(int64_t microbatch, int64_t stage) {
    return {ActionKind::kBackward, microbatch, stage};
  }
  static Action weightGradient(int64_t microbatch, int64_t stage) {
    return {ActionKind::kWeightGradient, microbatch, stage};
  }

  friend bool operator==(const Action &, const Action &) = default;
};

/// The library's errors: a one-line message for the user.
llvm::Error makeScheduleError(const llvm::Twine &message);

/// A time or cost as printf's "%g" writes it ("1.5", "inf").
std::string formatTime(double value);

/// Prints `F(mb 3, stage 1)`.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Action &action);
/// `F(mb 3, stage 1)` as a string, for error messages.
std::string describe(const Action &action);

struct Schedule {
  /// The mesh of each stage, in forward order; its size is the stage count.
  std::vector<int64_t> stageMesh;
  /// Microbatch indices run over 0 .. numMicrobatches-1.
  int64_t numMicrobatches = 0;
  /// For each mesh, the actions it runs, in order.
  std::vector<std::vector<Action>> meshActions;

  int64_t getNumMeshes() const { return meshActions.size(); }
  int64_t getNumStages() const { return stageMesh.size(); }
  /// For each stage, its chunk index on its mesh (0 for the mesh's first
  /// stage). O(stages).
  std::vector<int64_t> getLocalChunks() const;
};

/// The looping (interleaved) layout: `meshes * stagesPerMesh` stages, stage
/// `s` on mesh `s mod meshes`.
std::vector<int64_t> getLoopingStageMeshes(int64_t meshes,
                                           int64_t stagesPerMesh);

/// The V-shape layout of ZB-V and DualPipeV: `2 * meshes` stages, stage `s` on
/// mesh `s` for `s < meshes` and on mesh `2 * meshes - 1 - s` otherwise, so
/// that mesh 0 holds the first and the last stage.
std::vector<int64_t> getVShapeStageMeshes(int64_t meshes);

} // namespace mlir::mpmd::schedule

#endif // MPMD_SCHEDULE_SCHEDULE_H
