//===- InferMeshPipeline.cpp - -mpmd-infer-mesh-pipeline ------------------===//

#include "mpmd/Transforms/Import/Passes.h"
#include "mpmd/Transforms/Import/Pipelines.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::mpmd {

void addInferMeshPipeline(OpPassManager &pm, const InferMeshOptions &options) {
  bool inferCrossMeshReductions =
      options.inferCrossMeshReductions || options.inferTransfers;
  pm.addPass(createInferMeshPopulateUseSetPass());
  pm.addPass(createInferMeshPopulateSrcSetPass());
  if (!options.inputOutputConstraints.empty()) {
    InferMeshAssignUsingInputOutputConstraintsPassOptions constraints;
    constraints.constraints.assign(options.inputOutputConstraints.begin(),
                                   options.inputOutputConstraints.end());
    pm.addPass(createInferMeshAssignUsingInputOutputConstraintsPass(constraints));
  }
  pm.addPass(createInferMeshConvertReduceOpsPass(
      InferMeshConvertReduceOpsPassOptions{inferCrossMeshReductions}));
  if (!options.inferTransfers)
    pm.addPass(createInferMeshValidateSrcSetNotEmptyPass(
        InferMeshValidateSrcSetNotEmptyPassOptions{options.errorLimit}));
  pm.addPass(createInferMeshAssignMeshFuncLeavesPass(
      InferMeshAssignMeshFuncLeavesPassOptions{options.inferTransfers,
                                               options.errorLimit}));
  pm.addPass(createInferMeshPopulateUseSetPass());
  if (!options.inferTransfers)
    pm.addPass(createInferMeshValidateNoAdditionalTransfersNeededPass(
        InferMeshValidateNoAdditionalTransfersNeededPassOptions{
            options.errorLimit}));
  pm.addPass(createInferMeshRewriteUsingAnalysisPass(
      InferMeshRewriteUsingAnalysisPassOptions{options.maxClones}));
  pm.addPass(createInferMeshFinalizePass(
      InferMeshFinalizePassOptions{options.inferTransfers}));
}

namespace {

struct InferMeshPipelineOptions
    : public PassPipelineOptions<InferMeshPipelineOptions> {
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
};

} // namespace

void registerInferMeshPipeline() {
  PassPipelineRegistration<InferMeshPipelineOptions>(
      "mpmd-infer-mesh-pipeline",
      "Mesh inference: assigns every meshless op of a partially assigned "
      "MPMD program to meshes (use_set/src_set analyses, leaf assignment, "
      "rewrite into fragments, transfers).",
      [](OpPassManager &pm, const InferMeshPipelineOptions &options) {
        InferMeshOptions opts;
        opts.inferTransfers = options.inferTransfers;
        opts.inferCrossMeshReductions = options.inferCrossMeshReductions;
        addInferMeshPipeline(pm, opts);
      });
}

} // namespace mlir::mpmd
