//===- ImportPipeline.cpp - -sdy-import-pipeline --------------------------===//

#include "mpmd/Transforms/Sdy/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::sdy {

void addImportPipeline(OpPassManager &pm,
                       const ImportPipelineOptions &options) {
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createLiftInlinedMeshesPass());
  pm.addPass(createRemoveSizeOneAxesPass());
  pm.addPass(createPropagateShardingFromFuncToCallPass());
  pm.addPass(createConstantOrScalarSplitterPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createManualAxesCleanupPass());
  pm.addNestedPass<func::FuncOp>(createAddDataFlowEdgesPass());
  if (options.dedupFunctionsFully) {
    pm.addPass(createApplyShardingConstraintsPass());
    pm.addPass(createShardingGroupImportPass());
  }
}

namespace {

/// Rejects export options upstream refuses together: keeping the program
/// for a later partitioner means inserting no reshards or collectives.
LogicalResult
checkExportOptions(bool avoidExportForPartitioning,
                   bool enableInsertExplicitCollectives,
                   bool enablePerInstructionPartitioning,
                   function_ref<LogicalResult(const Twine &)> errorHandler) {
  if (avoidExportForPartitioning &&
      (enableInsertExplicitCollectives || enablePerInstructionPartitioning))
    return errorHandler(
        Twine("avoid-export-for-partitioning keeps the program for a later "
              "partitioner, so it cannot be combined with ") +
        (enableInsertExplicitCollectives
             ? "enable-insert-explicit-collectives"
             : "enable-per-instruction-partitioning"));
  return success();
}

/// Registers a pipeline whose options are checked by `check` once parsed.
template <typename Options>
void registerCheckedPipeline(
    StringRef argument, StringRef description,
    void (*build)(OpPassManager &, const Options &),
    LogicalResult (*check)(const Options &,
                           function_ref<LogicalResult(const Twine &)>)) {
  registerPassPipeline(
      argument, description,
      [build, check](OpPassManager &pm, StringRef text,
                     function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(text)) ||
            failed(check(options, errorHandler)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const ::mlir::detail::PassOptions &)> handler) {
        handler(Options());
      });
}

} // namespace

void registerSdyPipelines() {
  PassPipelineRegistration<ImportPipelineOptions>(
      "sdy-import-pipeline",
      "Prepares a module for sharding propagation: mesh symbols, no size-1 "
      "axes, call shardings, split constants, clean manual axes, data-flow "
      "edges.",
      addImportPipeline);
  registerCheckedPipeline<PropagationPipelineOptions>(
      "sdy-propagation-pipeline",
      "Import, user-priority propagation and export (through the explicit "
      "reshards).",
      addPropagationPipeline,
      [](const PropagationPipelineOptions &options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        return checkExportOptions(options.avoidExportForPartitioning,
                                  options.enableInsertExplicitCollectives,
                                  /*enablePerInstructionPartitioning=*/false,
                                  errorHandler);
      });
  registerCheckedPipeline<ExportPipelineOptions>(
      "sdy-export-pipeline",
      "Finishes propagation: merges constants, sinks data-flow edges, turns "
      "constraints into reshards, makes I/O shardings divisible, closes "
      "every sharding and inserts explicit reshards (optionally turned into "
      "collectives, or each op partitioned on its own).",
      addExportPipeline,
      [](const ExportPipelineOptions &options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        return checkExportOptions(options.avoidExportForPartitioning,
                                  options.enableInsertExplicitCollectives,
                                  options.enablePerInstructionPartitioning,
                                  errorHandler);
      });
}

} // namespace mlir::sdy
