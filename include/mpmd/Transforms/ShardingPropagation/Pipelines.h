//===- Pipelines.h - The sharding-propagation pipeline ----------*- C++ -*-===//
//
// `-mpmd-sharding-propagation-pipeline`: gives every output its own buffer
// (a transfer), keeps the unreduced axes fragments return, makes the
// fragments and transfers at @main's boundary use the user's shardings, turns
// transfers that change the sharding into reshard fragments, moves all
// shardings into the mesh tensor types and drops redundant fragment and loop
// operands and results. Between the first two steps the sdy engine
// propagates shardings through the whole program (`addSdyPropagation`).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SHARDINGPROPAGATION_PIPELINES_H
#define MPMD_TRANSFORMS_SHARDINGPROPAGATION_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mlir::mpmd {

/// Shardy's propagation pipeline as the MPMD pipeline runs it (import,
/// user- and op-priority propagation, export without partitioning), on a
/// module pass manager.
void addSdyPropagation(OpPassManager &pm);

/// Builds the sharding-propagation pipeline on a module pass manager.
void addShardingPropagationPipeline(OpPassManager &pm);

/// Registers `-mpmd-sharding-propagation-pipeline`.
void registerShardingPropagationPipeline();

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_SHARDINGPROPAGATION_PIPELINES_H
