//===- ImportPipeline.cpp - -mpmd-import-pipeline -------------------------===//

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Common/Pipelines.h"
#include "mpmd/Transforms/Import/Passes.h"
#include "mpmd/Transforms/Import/Pipelines.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::mpmd {

void addImportPipeline(OpPassManager &pm, const ImportOptions &options) {
  if (options.callsToNamedComputations)
    pm.addPass(createCallsToNamedComputationsPass(
        CallsToNamedComputationsPassOptions{options.nameToMeshAssignment}));
  // Inline func.call (mpmd.call is never inlined by the generic inliner) and
  // clean up. Our chlo ops stay as they are: mesh inference places them like
  // any other meshless op.
  pm.addPass(createInlinerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());

  pm.addPass(createCopyTopologyFromMainPass());
  if (options.enableHeterogeneousMeshes)
    pm.addPass(createGenerateSdyMeshesFromTopologyPass());
  pm.addNestedPass<func::FuncOp>(createUnrollForLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createFromUnrollToCallCounterPass());
  pm.addPass(createSinkNegligibleOpsIntoCallOpPass());
  pm.addNestedPass<func::FuncOp>(createInsertNamelessCloneOfNegligibleOpsPass());
  pm.addNestedPass<func::FuncOp>(createSimplifyNamedComputationsPass());
  pm.addPass(createMapInputOutputToMeshPass(MapInputOutputToMeshPassOptions{
      options.inputAssignment, options.outputAssignment}));
  pm.addNestedPass<func::FuncOp>(createInlineNestedUserExposedOpsPass(
      InlineNestedUserExposedOpsPassOptions{options.nameToMeshAssignment}));
  pm.addNestedPass<func::FuncOp>(createValidateNamedOpsInMpmdFuncPass());
  pm.addNestedPass<func::FuncOp>(createMapNamedOpsToMpmdOpsPass(
      MapNamedOpsToMpmdOpsPassOptions{options.nameToMeshAssignment}));
  pm.addPass(createIntroduceTransfersPass());
  pm.addPass(createEraseUnusedCalleeBlockArgumentsPass());

  addInferMeshPipeline(pm, options.inferMeshOptions);

  if (!options.mergeAfterScheduling)
    addMergeInferredFragmentsPasses(
        pm, options.absorbInferredFragmentsOnEntryPointFunction);
  {
    EnforceInputOutputEquishardingPassOptions equisharding;
    equisharding.constraints.assign(
        options.inferMeshOptions.inputOutputConstraints.begin(),
        options.inferMeshOptions.inputOutputConstraints.end());
    pm.addNestedPass<func::FuncOp>(
        createEnforceInputOutputEquishardingPass(equisharding));
  }
  pm.addNestedPass<func::FuncOp>(createFragmentDedupPass());
  pm.addNestedPass<func::FuncOp>(createFragmentDcePass());
  pm.addNestedPass<func::FuncOp>(createRemoveTransferCyclesPass());
  // Inlining the microbatch calls is what gives fragments their call
  // counters; the pass also erases the callees it emptied.
  pm.addPass(createCallInlinePass());
  if (!options.mergeAfterScheduling)
    pm.addNestedPass<func::FuncOp>(createMergeInferredFragmentsPass());

  // Scheduling preparation: the units the optimize phase orders.
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createMoveTransfersToProducerPass());
  funcPm.addPass(createMergeUserFragmentsIntoSchedulingUnitsPass());
  if (options.verifyScheduleUnits)
    funcPm.addPass(createSchedulingUnitsVerifierPass());
  if (options.splitBwdFragments) {
    funcPm.addPass(createSplitBwdFragmentsPass());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    funcPm.addPass(createCanonicalizerPass(config));
    funcPm.addPass(createFragmentDcePass());
  }
}

namespace {

struct ImportPipelineOptions
    : public PassPipelineOptions<ImportPipelineOptions> {
  Option<UserAssignmentMap> nameToMeshAssignment{
      *this, "name-to-mesh-assignment",
      llvm::cl::desc("Named computations and tensors to meshes: "
                     "`name@mesh[#memory_kind][/stage],...`.")};
  Option<bool> callsToNamedComputations{
      *this, "calls-to-named-computations",
      llvm::cl::desc("First turn func.calls of functions named after assigned "
                     "names into named computations (JAX programs whose "
                     "layers are jitted functions)."),
      llvm::cl::init(false)};
  Option<IndexedAssignmentMap> inputAssignment{
      *this, "input-assignment",
      llvm::cl::desc("Entry inputs to meshes: `index@mesh[#memory_kind],...`.")};
  Option<IndexedAssignmentMap> outputAssignment{
      *this, "output-assignment",
      llvm::cl::desc(
          "Entry outputs to meshes: `index@mesh[#memory_kind],...`.")};
  ListOption<InputOutputEquishardingConstraint> constraints{
      *this, "constraints",
      llvm::cl::desc("Input/output pairs `in:out` that must end up with the "
                     "same mesh tensor type.")};
  Option<bool> inferTransfers{
      *this, "infer-transfers",
      llvm::cl::desc("Create cross-mesh transfers where needed (implies "
                     "infer-cross-mesh-reductions)."),
      llvm::cl::init(false)};
  Option<bool> inferCrossMeshReductions{
      *this, "infer-cross-mesh-reductions",
      llvm::cl::desc("Turn elementwise ops over values on different meshes "
                     "into cross-mesh reductions."),
      llvm::cl::init(false)};
  Option<bool> mergeAfterScheduling{
      *this, "merge-after-scheduling",
      llvm::cl::desc("Leave the merging of inferred fragments to the "
                     "optimize phase."),
      llvm::cl::init(false)};
  Option<bool> absorbOnEntryPoint{
      *this, "absorb-inferred-fragments-on-entry-point-function",
      llvm::cl::desc("Also absorb inferred fragments into user fragments of "
                     "the entry function."),
      llvm::cl::init(false)};
  Option<bool> splitBwdFragments{
      *this, "split-bwd-fragments",
      llvm::cl::desc("Split each backward fragment into the part whose "
                     "results are transferred and the rest."),
      llvm::cl::init(false)};
  Option<bool> verifyScheduleUnits{
      *this, "verify-schedule-units",
      llvm::cl::desc("Warn when a mesh does not have one forward and one "
                     "backward scheduling unit per microbatch."),
      llvm::cl::init(false)};
  Option<bool> enableHeterogeneousMeshes{
      *this, "enable-heterogeneous-meshes",
      llvm::cl::desc("One sdy.mesh per topology mesh; sharding axes are named "
                     "<mesh>_<axis>."),
      llvm::cl::init(false)};
};

} // namespace

void registerImportPipeline() {
  PassPipelineRegistration<ImportPipelineOptions>(
      "mpmd-import-pipeline",
      "Import: maps named computations to fragments on meshes, inserts "
      "transfers, infers the mesh of every other op, merges inferred "
      "fragments and inlines microbatch calls.",
      [](OpPassManager &pm, const ImportPipelineOptions &pipelineOptions) {
        ImportOptions options;
        options.nameToMeshAssignment = pipelineOptions.nameToMeshAssignment;
        options.callsToNamedComputations =
            pipelineOptions.callsToNamedComputations;
        options.inputAssignment = pipelineOptions.inputAssignment;
        options.outputAssignment = pipelineOptions.outputAssignment;
        options.inferMeshOptions.inputOutputConstraints.assign(
            pipelineOptions.constraints.begin(),
            pipelineOptions.constraints.end());
        options.inferMeshOptions.inferTransfers =
            pipelineOptions.inferTransfers;
        options.inferMeshOptions.inferCrossMeshReductions =
            pipelineOptions.inferCrossMeshReductions;
        options.mergeAfterScheduling = pipelineOptions.mergeAfterScheduling;
        options.enableHeterogeneousMeshes =
            pipelineOptions.enableHeterogeneousMeshes;
        options.splitBwdFragments = pipelineOptions.splitBwdFragments;
        options.verifyScheduleUnits = pipelineOptions.verifyScheduleUnits;
        options.absorbInferredFragmentsOnEntryPointFunction =
            pipelineOptions.absorbOnEntryPoint;
        addImportPipeline(pm, options);
      });
}

} // namespace mlir::mpmd
