//===- Pipelines.h - sdy import, propagation and export pipelines -*- C++ -*-===//
//
// Upstream's `-sdy-import-pipeline`, `-sdy-propagation-pipeline` and
// `-sdy-export-pipeline` (sdy-notes 2.6). The export pipeline ends with the
// partitioner's first steps (explicit reshards, then sdy collectives or
// per-instruction partitioning), so it lives in its own library above the
// propagation and partitioning passes.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PIPELINES_H
#define MPMD_TRANSFORMS_SDY_PIPELINES_H

#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::sdy {

struct ImportPipelineOptions
    : public PassPipelineOptions<ImportPipelineOptions> {
  Option<bool> dedupFunctionsFully{
      *this, "dedup-functions-fully",
      llvm::cl::desc("Apply sharding constraints and import sharding groups "
                     "here (upstream's dedup mode, which keeps functions)"),
      llvm::cl::init(false)};
};

struct ExportPipelineOptions
    : public PassPipelineOptions<ExportPipelineOptions> {
  Option<int64_t> replicaCount{
      *this, "replica-count",
      llvm::cl::desc("Number of replicas, for per-instruction partitioning"),
      llvm::cl::init(1)};
  Option<int64_t> partitionCount{
      *this, "partition-count",
      llvm::cl::desc("Number of partitions, for per-instruction "
                     "partitioning"),
      llvm::cl::init(1)};
  Option<std::string> dumpDirectory{
      *this, "dump-directory",
      llvm::cl::desc("Accepted; modules are not dumped yet"),
      llvm::cl::init("")};
  Option<bool> avoidExportForPartitioning{
      *this, "avoid-export-for-partitioning",
      llvm::cl::desc("Keep sharding groups, constraints and mesh symbols "
                     "and insert no reshards, for a partitioner that runs "
                     "later"),
      llvm::cl::init(false)};
  Option<bool> enableInsertExplicitCollectives{
      *this, "enable-insert-explicit-collectives",
      llvm::cl::desc("Make every op's shardings compatible with reshards "
                     "and turn the reshards into sdy collectives"),
      llvm::cl::init(false)};
  Option<bool> removeAllGatherReduceScatterForCmv1{
      *this, "remove-all-gather-reduce-scatter-for-cmv1",
      llvm::cl::desc("With explicit collectives, drop the all-gathers "
                     "feeding dots and the reduce-scatters fed by them"),
      llvm::cl::init(false)};
  Option<bool> enablePerInstructionPartitioning{
      *this, "enable-per-instruction-partitioning",
      llvm::cl::desc("Partition the selected ops one at a time, each in an "
                     "sdy.manual_computation"),
      llvm::cl::init(false)};
  Option<std::string> perInstructionPartitioningFilter{
      *this, "per-instruction-partitioning-filter",
      llvm::cl::desc("The `filter` of -sdy-per-instruction-partitioning"),
      llvm::cl::init("")};
  Option<bool> keepShardingRules{
      *this, "keep-sharding-rules",
      llvm::cl::desc("Keep the non-custom op sharding rules"),
      llvm::cl::init(false)};
  Option<bool> dumpShardingOrigins{
      *this, "dump-sharding-origins",
      llvm::cl::desc("Sink and then remove sharding-origin debug info"),
      llvm::cl::init(false)};
  Option<bool> dumpPropagationEdges{
      *this, "dump-propagation-edges",
      llvm::cl::desc("Sink and then remove propagation-edge debug info"),
      llvm::cl::init(false)};
  Option<bool> avoidReshardsOnCalls{
      *this, "avoid-reshards-on-calls",
      llvm::cl::desc("Accepted; unused, as upstream"), llvm::cl::init(false)};
  Option<bool> updateNonDivisibleInputOutputShardings{
      *this, "update-non-divisible-input-output-shardings",
      llvm::cl::desc("Make function, call and manual-computation shardings "
                     "divisible, and cut main's open dims at sub-axes"),
      llvm::cl::init(true)};
  Option<bool> inlineMeshes{
      *this, "inline-meshes",
      llvm::cl::desc("Replace mesh symbols by inlined meshes at the end"),
      llvm::cl::init(true)};
};

struct PropagationPipelineOptions
    : public PassPipelineOptions<PropagationPipelineOptions> {
  Option<bool> dedupFunctionsFully{
      *this, "dedup-functions-fully",
      llvm::cl::desc("Keep one body per function and cross calls through "
                     "func data-flow edges, instead of giving every call "
                     "its own copy; clones are then merged whatever their "
                     "shardings"),
      llvm::cl::init(false)};
  Option<bool> keepShardingRules{
      *this, "keep-sharding-rules",
      llvm::cl::desc("Keep the op sharding rules propagation created"),
      llvm::cl::init(false)};
  Option<bool> conservativePropagation{
      *this, "conservative-propagation",
      llvm::cl::desc("Propagate no sub-axes and use rules without the "
                     "factors that can carry non-divisible shardings"),
      llvm::cl::init(false)};
  Option<std::string> moduleDumpDirectory{
      *this, "module-dump-directory",
      llvm::cl::desc("Accepted; modules are not dumped yet"),
      llvm::cl::init("")};
  Option<bool> debugShardingOrigins{
      *this, "debug-sharding-origins",
      llvm::cl::desc("Accepted; origins are not recorded yet"),
      llvm::cl::init(false)};
  Option<bool> debugPropagationEdgeSharding{
      *this, "debug-propagation-edge-sharding",
      llvm::cl::desc("Accepted; propagation edges are not recorded yet"),
      llvm::cl::init(false)};
  Option<bool> enableInsertExplicitCollectives{
      *this, "enable-insert-explicit-collectives",
      llvm::cl::desc("Passed to the export pipeline"), llvm::cl::init(false)};
  Option<bool> avoidExportForPartitioning{
      *this, "avoid-export-for-partitioning",
      llvm::cl::desc("Passed to the export pipeline"), llvm::cl::init(false)};
};

/// symbol-dce, lift-inlined-meshes, remove-size-one-axes,
/// propagate-sharding-from-func-to-call, constant-or-scalar-splitter,
/// symbol-dce, manual-axes-cleanup, add-data-flow-edges, and with
/// `dedup-functions-fully` apply-sharding-constraints and
/// sharding-group-import.
void addImportPipeline(OpPassManager &pm,
                       const ImportPipelineOptions &options);

/// constant-or-scalar-merger, sink-data-flow-edges, [remove-sharding-groups,
/// sharding-constraint-to-reshard], [update-non-divisible-input-output-
/// shardings, remove-sub-axes-in-input-output-shardings], close-shardings,
/// [verify-unreduced-axes, insert-explicit-reshards (full version with
/// explicit collectives or per-instruction partitioning),
/// [per-instruction-partitioning | canonicalize(sdy-reshard),
/// reshard-to-collectives], canonicalize(sdy-collective),
/// [remove-all-gather-reduce-scatter-for-cmv1]],
/// [remove-propagation-debug-info], [drop-sharding-rules], [inline-meshes].
void addExportPipeline(OpPassManager &pm,
                       const ExportPipelineOptions &options);

/// The import pipeline; with `dedup-functions-fully` add-func-data-flow-edges,
/// else flatten-call-graph, symbol-dce, import-func-calls, symbol-dce,
/// apply-sharding-constraints, sharding-group-import; pre-order-funcs;
/// user-priority-propagate keeping the rules; with `dedup-functions-fully`
/// propagate-to-func-results and sink-func-data-flow-edges, else
/// export-named-computations and propagate-to-func-results;
/// unflatten-call-graph, symbol-dce, insert-func-call-reshards; and the
/// export pipeline without inlining meshes (explicit collectives and
/// avoid-export-for-partitioning passed on).
void addPropagationPipeline(OpPassManager &pm,
                            const PropagationPipelineOptions &options);

/// Registers `-sdy-import-pipeline`, `-sdy-propagation-pipeline` and
/// `-sdy-export-pipeline`.
void registerSdyPipelines();

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PIPELINES_H
