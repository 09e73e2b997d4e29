//===- Pipelines.h - The optimize pipeline ----------------------*- C++ -*-===//
//
// `-mpmd-optimize-pipeline` and its C++ builder: schedule the fragments, merge
// them by rule, rematerialise, check stage merging, merge inferred fragments
// (when deferred to after scheduling) and forward with backward. This is the
// schedule and merge part of the driver's configuration.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_OPTIMIZE_PIPELINES_H
#define MPMD_TRANSFORMS_OPTIMIZE_PIPELINES_H

#include "mpmd/Transforms/Optimize/FragmentRules.h"
#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "mlir/Pass/PassManager.h"

#include <vector>

namespace mlir::mpmd {

struct OptimizeOptions {
  /// The built-in schedule, used when there are no `scheduleRules`. GPipe as
  /// upstream's C++ default (the registered pipeline defaults to 1F1B).
  PipelineSchedule pipelineSchedule = PipelineSchedule::kGPipe;
  /// A user schedule: per mesh, fragments in order. Replaces the built-in
  /// schedule when not empty.
  std::vector<FragmentScheduleRule> scheduleRules;
  /// A schedule generated from the program's (meshes, stages per mesh,
  /// microbatches) by name (Interleaved1F1B, ZB-V, DualPipeV, ...;
  /// -mpmd-generated-schedule). Replaces the built-in schedule when not
  /// empty, and takes precedence over `scheduleRules`.
  std::string generatedSchedule;
  /// Fragments to merge into one, applied after scheduling and before any
  /// other merge (which would change the origins the rules name).
  std::vector<FragmentMergeRule> mergeRules;
  /// Recompute forward fragments next to their backward users
  /// (-mpmd-remat-fragment), merged into them with `mergeRematFragments`.
  bool applyFragmentRemat = false;
  bool mergeRematFragments = false;
  /// Merge inferred fragments here rather than at import (must match the
  /// import's `mergeAfterScheduling`).
  bool mergeAfterScheduling = false;
  bool absorbInferredFragmentsOnEntryPointFunction = false;
  /// Fuse each forward with its backward when it is the next fragment on its
  /// mesh (the last stage of 1F1B).
  bool mergeForwardWithBackward = false;
};

/// Builds the optimize pipeline on a module pass manager.
void addOptimizePipeline(OpPassManager &pm, const OptimizeOptions &options);

/// Registers `-mpmd-optimize-pipeline`.
void registerOptimizePipeline();

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_OPTIMIZE_PIPELINES_H
