//===- Schedule.cpp - Pipeline schedules as per-mesh action lists ---------===//

#include "mpmd/Schedule/Schedule.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"

namespace mlir::mpmd::schedule {

llvm::Error makeScheduleError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

char getActionKindLetter(ActionKind kind) {
  switch (kind) {
  case ActionKind::kForward:
    return 'F';
  case ActionKind::kBackward:
    return 'B';
  case ActionKind::kWeightGradient:
    return 'W';
  }
  llvm_unreachable("unknown action kind");
}

std::string formatTime(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Action &action) {
  return os << getActionKindLetter(action.kind) << "(mb " << action.microbatch
            << ", stage " << action.stage << ")";
}

std::string describe(const Action &action) {
  std::string text;
  llvm::raw_string_ostream(text) << action;
  return text;
}

std::vector<int64_t> Schedule::getLocalChunks() const {
  std::vector<int64_t> chunkOfStage(getNumStages());
  std::vector<int64_t> stagesSeen(getNumMeshes(), 0);
  for (int64_t stage = 0; stage < getNumStages(); ++stage)
    chunkOfStage[stage] = stagesSeen[stageMesh[stage]]++;
  return chunkOfStage;
}

std::vector<int64_t> getLoopingStageMeshes(int64_t meshes,
                                           int64_t stagesPerMesh) {
  std::vector<int64_t> stageMesh(meshes * stagesPerMesh);
  for (int64_t stage = 0; stage < meshes * stagesPerMesh; ++stage)
    stageMesh[stage] = stage % meshes;
  return stageMesh;
}

std::vector<int64_t> getVShapeStageMeshes(int64_t meshes) {
  std::vector<int64_t> stageMesh(2 * meshes);
  for (int64_t stage = 0; stage < 2 * meshes; ++stage)
    stageMesh[stage] = stage < meshes ? stage : 2 * meshes - 1 - stage;
  return stageMesh;
}

} // namespace mlir::mpmd::schedule
