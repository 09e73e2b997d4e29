//===- OptimizePipeline.cpp - -mpmd-optimize-pipeline ---------------------===//

#include "mpmd/Transforms/Optimize/Pipelines.h"

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Common/Pipelines.h"
#include "mpmd/Transforms/Optimize/Passes.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::mpmd {

void addOptimizePipeline(OpPassManager &pm, const OptimizeOptions &options) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  // Control dependencies keep the schedule for the rule-based merge; it
  // drops them.
  bool keepControlDependencies = !options.mergeRules.empty();
  if (!options.generatedSchedule.empty()) {
    GeneratedSchedulePassOptions schedule;
    schedule.scheduleName = options.generatedSchedule;
    funcPm.addPass(createGeneratedSchedulePass(schedule));
  } else if (!options.scheduleRules.empty()) {
    RuleBasedSchedulePassOptions schedule;
    schedule.rules.assign(options.scheduleRules.begin(),
                          options.scheduleRules.end());
    schedule.removeControlDependencies = !keepControlDependencies;
    funcPm.addPass(createRuleBasedSchedulePass(schedule));
  } else {
    PipelineSchedulerPassOptions schedule;
    schedule.mustHappenBefore = options.pipelineSchedule;
    schedule.removeControlDependencies = !keepControlDependencies;
    funcPm.addPass(createPipelineSchedulerPass(schedule));
  }
  if (!options.mergeRules.empty()) {
    RuleBasedMergePassOptions merge;
    merge.rules.assign(options.mergeRules.begin(), options.mergeRules.end());
    merge.removeControlDependencies = true;
    funcPm.addPass(createRuleBasedMergePass(merge));
  }
  // After scheduling, so that remat fragments never need scheduling.
  if (options.applyFragmentRemat)
    funcPm.addPass(createRematFragmentPass(
        RematFragmentPassOptions{options.mergeRematFragments}));
  funcPm.addPass(createVerifyStageMergingPass());
  if (options.mergeAfterScheduling)
    addMergeInferredFragmentsPasses(
        pm, options.absorbInferredFragmentsOnEntryPointFunction);
  if (options.mergeForwardWithBackward)
    pm.addNestedPass<func::FuncOp>(createMergeForwardWithBackwardPass());
}

namespace {

struct OptimizePipelineOptions
    : public PassPipelineOptions<OptimizePipelineOptions> {
  Option<PipelineSchedule> pipelineSchedule{
      *this, "pipeline-schedule",
      llvm::cl::desc("The built-in schedule (case-insensitive)."),
      llvm::cl::init(PipelineSchedule::k1F1B)};
  ListOption<FragmentScheduleRule> scheduleRules{
      *this, "schedule-rules",
      llvm::cl::desc("A user schedule, replacing the built-in one: "
                     "FragmentScheduleRule(ordered_fragments=[...]) per mesh.")};
  Option<std::string> generatedSchedule{
      *this, "generated-schedule",
      llvm::cl::desc("A schedule generated for the program's meshes, stages "
                     "and microbatches (Interleaved1F1B, ZB-V, DualPipeV, "
                     "...), replacing the built-in one.")};
  ListOption<FragmentMergeRule> mergeRules{
      *this, "merge-rules",
      llvm::cl::desc("FragmentMergeRule(sources=[...],target=...) applied "
                     "after scheduling.")};
  Option<bool> fragmentRemat{
      *this, "fragment-remat",
      llvm::cl::desc("Recompute forward fragments next to their backward "
                     "users."),
      llvm::cl::init(false)};
  Option<bool> mergeRematFragments{
      *this, "merge-remat-fragments",
      llvm::cl::desc("Merge each recomputed forward into its backward user."),
      llvm::cl::init(false)};
  Option<bool> mergeAfterScheduling{
      *this, "merge-after-scheduling",
      llvm::cl::desc("Merge inferred fragments here (the import left them)."),
      llvm::cl::init(false)};
  Option<bool> absorbOnEntryPoint{
      *this, "absorb-inferred-fragments-on-entry-point-function",
      llvm::cl::desc("With merge-after-scheduling, also absorb into user "
                     "fragments of the entry function."),
      llvm::cl::init(false)};
  Option<bool> mergeForwardWithBackward{
      *this, "merge-forward-with-backward",
      llvm::cl::desc("Fuse a forward with its backward when that is the next "
                     "fragment on the mesh."),
      llvm::cl::init(false)};
};

} // namespace

void registerOptimizePipeline() {
  PassPipelineRegistration<OptimizePipelineOptions>(
      "mpmd-optimize-pipeline",
      "Optimize: schedules the fragments of each mesh, merges them by rule, "
      "rematerialises, checks stage merging and merges inferred and "
      "forward/backward fragments.",
      [](OpPassManager &pm, const OptimizePipelineOptions &pipelineOptions) {
        OptimizeOptions options;
        options.pipelineSchedule = pipelineOptions.pipelineSchedule;
        options.scheduleRules.assign(pipelineOptions.scheduleRules.begin(),
                                     pipelineOptions.scheduleRules.end());
        options.generatedSchedule = pipelineOptions.generatedSchedule;
        options.mergeRules.assign(pipelineOptions.mergeRules.begin(),
                                  pipelineOptions.mergeRules.end());
        options.applyFragmentRemat = pipelineOptions.fragmentRemat;
        options.mergeRematFragments = pipelineOptions.mergeRematFragments;
        options.mergeAfterScheduling = pipelineOptions.mergeAfterScheduling;
        options.absorbInferredFragmentsOnEntryPointFunction =
            pipelineOptions.absorbOnEntryPoint;
        options.mergeForwardWithBackward =
            pipelineOptions.mergeForwardWithBackward;
        addOptimizePipeline(pm, options);
      });
}

} // namespace mlir::mpmd
