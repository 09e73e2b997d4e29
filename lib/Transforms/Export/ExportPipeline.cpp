//===- ExportPipeline.cpp - -mpmd-export-pipeline -------------------------===//

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Export/Passes.h"
#include "mpmd/Transforms/Export/Pipelines.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::mpmd {

void addExportPipeline(OpPassManager &pm, const ExportOptions &options) {
  pm.addPass(createCSEPass());
  if (options.copyConstantsFromProducerToConsumer)
    pm.addNestedPass<func::FuncOp>(createCopyConstantsPass());
  // Region simplification would rewrite fragment bodies' block arguments
  // behind the fragments' backs.
  GreedyRewriteConfig canonicalizeConfig;
  canonicalizeConfig.setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Disabled);
  pm.addPass(createCanonicalizerPass(canonicalizeConfig));

  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createFragmentDedupPass());
  if (options.applyMergeTransfers) {
    funcPm.addPass(createMergeTransfersPass());
    funcPm.addPass(createFragmentDedupPass());
    funcPm.addPass(createCSEPass());
  }
  funcPm.addPass(createFragmentDcePass());
  funcPm.addPass(createUniquifyFunctionInputsOutputsPass());
  funcPm.addPass(createMergeInferredFragmentsPass());
  funcPm.addPass(createMarkOffloadedInputOutputPass());
  funcPm.addPass(createMarkInputOutputWithLayoutsPass());
  funcPm.addPass(createDelayInferredFragmentsPass());
  funcPm.addPass(createDelayTransfersFromCpuPass());
  funcPm.addPass(createSinkCreateTokenIntoFragmentsPass());
  funcPm.addPass(createMarkAliasingAndDonationPass());
  funcPm.addPass(createMarkFragmentReservedMemoryPass());
  funcPm.addPass(createValidateNoParamTransfersPass(
      ValidateNoParamTransfersPassOptions{options.failOnParamTransfers,
                                          options.paramTransferPattern}));
  funcPm.addPass(createValidateNoInferredFragmentsPass(
      ValidateNoInferredFragmentsPassOptions{options.failOnInferredFragments}));

  pm.addPass(createLowerToFragmentCallsPass(
      LowerToFragmentCallsPassOptions{options.verboseLogging}));
  pm.addPass(createValidateNoReshardsPass(
      ValidateNoReshardsPassOptions{options.failOnReshardOnlyFragments}));
  if (options.partitionFragmentBodies)
    pm.addPass(createPartitionFragmentBodiesPass());
  pm.addNestedPass<func::FuncOp>(createValidateNoBackwardDepsPass(
      ValidateNoBackwardDepsPassOptions{options.failOnBackwardDeps}));
}

namespace {

struct ExportPipelineOptions
    : public PassPipelineOptions<ExportPipelineOptions> {
  Option<bool> applyMergeTransfers{
      *this, "apply-merge-transfers",
      llvm::cl::desc("Merge one-element transfers between the same fragments "
                     "(-mpmd-merge-transfers)."),
      llvm::cl::init(false)};
  Option<bool> failOnReshardOnlyFragments{
      *this, "fail-on-reshard-only-fragments",
      llvm::cl::desc("Reshard-only fragments are errors, not warnings."),
      llvm::cl::init(false)};
  Option<bool> failOnBackwardDeps{
      *this, "fail-on-backward-deps",
      llvm::cl::desc("Backward dependencies in forward-only programs are "
                     "errors, not warnings."),
      llvm::cl::init(false)};
  Option<bool> failOnInferredFragments{
      *this, "fail-on-inferred-fragments",
      llvm::cl::desc("Unmerged inferred fragments are errors, not warnings "
                     "(those of passes whose fragments may remain only "
                     "warn)."),
      llvm::cl::init(true)};
  Option<bool> failOnParamTransfers{
      *this, "fail-on-param-transfers",
      llvm::cl::desc("Transfers of parameters are errors, not warnings."),
      llvm::cl::init(false)};
  Option<bool> partitionFragmentBodies{
      *this, "partition-fragment-bodies",
      llvm::cl::desc("SPMD-partition the fragment functions of meshes of "
                     "several devices (-mpmd-partition-fragment-bodies)."),
      llvm::cl::init(false)};
  Option<std::string> paramTransferPattern{
      *this, "param-transfer-pattern",
      llvm::cl::desc("Location substring of parameters."),
      llvm::cl::init("params['transformer")};
};

} // namespace

void registerExportPipeline() {
  PassPipelineRegistration<ExportPipelineOptions>(
      "mpmd-export-pipeline",
      "Export: dedups and cleans up fragments, marks buffer aliasing, "
      "donation and reserved memory, validates the program and outlines "
      "fragments into functions called by mpmd.fragment_call.",
      [](OpPassManager &pm, const ExportPipelineOptions &pipelineOptions) {
        ExportOptions options;
        options.applyMergeTransfers = pipelineOptions.applyMergeTransfers;
        options.failOnReshardOnlyFragments =
            pipelineOptions.failOnReshardOnlyFragments;
        options.failOnBackwardDeps = pipelineOptions.failOnBackwardDeps;
        options.failOnInferredFragments =
            pipelineOptions.failOnInferredFragments;
        options.failOnParamTransfers = pipelineOptions.failOnParamTransfers;
        options.paramTransferPattern = pipelineOptions.paramTransferPattern;
        options.partitionFragmentBodies =
            pipelineOptions.partitionFragmentBodies;
        addExportPipeline(pm, options);
      });
}

} // namespace mlir::mpmd
