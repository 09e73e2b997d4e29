//===- Pipelines.h - Pass sequences shared by several phases ----*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_COMMON_PIPELINES_H
#define MPMD_TRANSFORMS_COMMON_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mlir::mpmd {

/// The merge of inferred fragments into their neighbours: absorb into user
/// fragments (also in the entry function with `absorbOnEntryPoint`), merge
/// with any consumer, then sideways. Import runs it, or optimize does with
/// merge-after-scheduling.
void addMergeInferredFragmentsPasses(OpPassManager &pm,
                                     bool absorbOnEntryPoint);

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_COMMON_PIPELINES_H
