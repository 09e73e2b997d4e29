//===- ShardingUtils.cpp - Shardings of mesh tensors after propagation ----===//

#include "ShardingUtils.h"

namespace mlir::mpmd {

sdy::TensorShardingAttr canonicalizeSharding(sdy::TensorShardingAttr sharding) {
  if (!sharding)
    return nullptr;
  MLIRContext *ctx = sharding.getContext();
  bool shardsSomething = !sharding.getUnreducedAxes().empty();
  SmallVector<sdy::DimensionShardingAttr> dims;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings()) {
    shardsSomething |= !dim.getAxes().empty();
    dims.push_back(sdy::DimensionShardingAttr::get(ctx, dim.getAxes(),
                                                   /*is_closed=*/true,
                                                   std::nullopt));
  }
  if (!shardsSomething)
    return nullptr;
  return sdy::TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims, {},
                                      sharding.getUnreducedAxes(),
                                      sharding.getUnreducedKind());
}

sdy::TensorShardingAttr getTypeSharding(Type type) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  return meshTensor ? canonicalizeSharding(meshTensor.getSharding()) : nullptr;
}

Type withSharding(Type type, sdy::TensorShardingAttr sharding) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  if (!meshTensor)
    return type;
  return MeshTensorType::get(type.getContext(), meshTensor.getMeshName(),
                             meshTensor.getRankedTensorType(),
                             canonicalizeSharding(sharding),
                             meshTensor.getMemoryKind());
}

} // namespace mlir::mpmd
