//===- Pipelines.h - The sharding-propagation pipeline ----------*- C++ -*-===//
//
// `-mpmd-sharding-propagation-pipeline`: gives every output its own buffer
// (a transfer), keeps the unreduced axes fragments return, makes the
// fragments and transfers at @main's boundary use the user's shardings, turns
// transfers that change the sharding into reshard fragments, moves all
// shardings into the mesh tensor types and drops redundant fragment and loop
// operands and results.
// Automatic SPMD propagation inside meshes is not implemented yet: values
// without a sharding are replicated over their mesh.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SHARDINGPROPAGATION_PIPELINES_H
#define MPMD_TRANSFORMS_SHARDINGPROPAGATION_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mlir::mpmd {

/// Builds the sharding-propagation pipeline on a module pass manager.
void addShardingPropagationPipeline(OpPassManager &pm);

/// Registers `-mpmd-sharding-propagation-pipeline`.
void registerShardingPropagationPipeline();

} // namespace mlir::mpmd

#endif // MPMD_TRANSFORMS_SHARDINGPROPAGATION_PIPELINES_H
