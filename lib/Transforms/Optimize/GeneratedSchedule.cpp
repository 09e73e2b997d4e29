//===- GeneratedSchedule.cpp - -mpmd-generated-schedule -------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Schedule/Generators.h"
#include "mpmd/Schedule/ModuleSchedule.h"
#include "mpmd/Transforms/Optimize/Passes.h"
#include "mpmd/Transforms/Optimize/Scheduling.h"

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace mlir::mpmd {
#define GEN_PASS_DEF_GENERATEDSCHEDULEPASS
#include "mpmd/Transforms/Optimize/Passes.h.inc"

namespace {

using schedule::Action;
using schedule::ActionKind;
using schedule::Schedule;

class GeneratedSchedulePass
    : public impl::GeneratedSchedulePassBase<GeneratedSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    TopologyAttr topology = getTopology(function);
    if (!topology)
      return;
    std::optional<schedule::ScheduleKind> kind =
        schedule::parseScheduleKind(scheduleName);
    if (!kind) {
      function.emitError() << "unknown generated schedule '" << scheduleName
                           << "'; expected one of "
                           << schedule::getScheduleNameList();
      return signalPassFailure();
    }
    FailureOr<FunctionSchedule> program =
        getFunctionSchedule(function, topology);
    if (failed(program))
      return signalPassFailure();
    FailureOr<Schedule> generated = generate(*kind, *program, function);
    if (failed(generated) ||
        failed(checkLayout(*generated, program->schedule, function)))
      return signalPassFailure();

    // The backwards whose weight gradient the schedule runs separately.
    std::set<std::pair<int64_t, int64_t>> splitInSchedule;
    for (const std::vector<Action> &actions : generated->meshActions)
      for (const Action &action : actions)
        if (action.kind == ActionKind::kWeightGradient)
          splitInSchedule.insert({action.microbatch, action.stage});
    bool programSplitsBackwards = llvm::any_of(
        program->fragmentOf, [](const auto &entry) {
          return std::get<0>(entry.first) == ActionKind::kWeightGradient;
        });
    SmallVector<GroupSequence> sequences;
    for (const std::vector<Action> &actions : generated->meshActions) {
      GroupSequence &sequence = sequences.emplace_back();
      llvm::SmallPtrSet<Operation *, 16> placed;
      auto place = [&](ActionKind kind, const Action &action) -> bool {
        auto it = program->fragmentOf.find(
            {kind, action.microbatch, action.stage});
        if (it == program->fragmentOf.end())
          return false;
        // A forward merged with its backward is one fragment, placed once.
        if (placed.insert(it->second).second)
          sequence.push_back({it->second});
        return true;
      };
      for (const Action &action : actions) {
        // A backward the program did not split (it sends nothing to another
        // mesh) ran whole at its backward's turn.
        if (action.kind == ActionKind::kWeightGradient &&
            programSplitsBackwards &&
            program->fragmentOf.count(
                {ActionKind::kBackward, action.microbatch, action.stage}) &&
            !program->fragmentOf.count(
                {ActionKind::kWeightGradient, action.microbatch, action.stage}))
          continue;
        if (!place(action.kind, action)) {
          function.emitError()
              << "schedule " << schedule::getScheduleName(*kind) << " runs "
              << schedule::describe(action)
              << ", which the program does not have"
              << (action.kind == ActionKind::kWeightGradient
                      ? " (split backward fragments with "
                        "-mpmd-split-bwd-fragments, or the import option "
                        "split-bwd-fragments)"
                      : "");
          return signalPassFailure();
        }
        // A weight gradient the schedule does not split runs right after
        // its backward.
        if (action.kind == ActionKind::kBackward &&
            !splitInSchedule.count({action.microbatch, action.stage}))
          place(ActionKind::kWeightGradient, action);
      }
    }
    BlockSortResult sorted =
        sortBlockTopologically(function.getBody().front(), sequences);
    for (Operation *op : sorted.sequenceConflicts)
      op->emitWarning() << "the data flow runs this fragment before its "
                           "turn in schedule "
                        << schedule::getScheduleName(*kind);
  }

  /// The schedule for the program's meshes, stages per mesh and microbatches.
  FailureOr<Schedule> generate(schedule::ScheduleKind kind,
                               const FunctionSchedule &program,
                               func::FuncOp function) {
    schedule::ScheduleParams params;
    params.meshes = program.schedule.getNumMeshes();
    params.microbatches = program.schedule.numMicrobatches;
    int64_t stages = program.schedule.getNumStages();
    if (stages % params.meshes != 0) {
      function.emitError() << "the program has " << stages
                           << " stages over " << params.meshes
                           << " meshes; a generated schedule needs the same "
                              "number of stages on every mesh";
      return failure();
    }
    params.stagesPerMesh = stages / params.meshes;
    llvm::Expected<Schedule> generated = schedule::buildSchedule(kind, params);
    if (!generated) {
      function.emitError() << llvm::toString(generated.takeError());
      return failure();
    }
    return std::move(*generated);
  }

  LogicalResult checkLayout(const Schedule &generated, const Schedule &program,
                            func::FuncOp function) {
    TopologyAttr topology = getTopology(function);
    for (auto [stage, meshes] : llvm::enumerate(
             llvm::zip(generated.stageMesh, program.stageMesh))) {
      auto [wanted, actual] = meshes;
      if (wanted == actual)
        continue;
      return function.emitError()
             << "the schedule places stage " << stage << " on mesh \""
             << topology.getMeshes()[wanted].getName()
             << "\", but the program has it on mesh \""
             << topology.getMeshes()[actual].getName()
             << "\" (stages are numbered in the order of their stage ids)";
    }
    return success();
  }
};

} // namespace
} // namespace mlir::mpmd
