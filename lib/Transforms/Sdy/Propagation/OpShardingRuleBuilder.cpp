//===- OpShardingRuleBuilder.cpp - Building #sdy.op_sharding_rule ---------===//

#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleBuilder.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {

int64_t getRank(Type type) { return cast<RankedTensorType>(type).getRank(); }

} // namespace

OpShardingRuleBuilder::OpShardingRuleBuilder(Operation *op)
    : context(op->getContext()) {
  for (Type type : op->getOperandTypes())
    operandMappings.emplace_back(getRank(type));
  for (Type type : op->getResultTypes())
    resultMappings.emplace_back(getRank(type));
}

void OpShardingRuleBuilder::mapFactor(TensorFactors &tensor, int64_t dim,
                                      int64_t factor, int64_t size) {
  if (dim == kNullDim)
    return;
  // A size-1 factor cannot be sharded; inside a compound dimension it would
  // only make the rule invalid.
  if (size == 1 && !tensor[dim].empty())
    return;
  tensor[dim].push_back(factor);
}

OpShardingRuleBuilder &
OpShardingRuleBuilder::addFactor(ArrayRef<int64_t> operandDims,
                                 ArrayRef<int64_t> resultDims, int64_t size,
                                 FactorType type, bool isBlocked) {
  assert(operandDims.size() == operandMappings.size() &&
         resultDims.size() == resultMappings.size() &&
         "one dimension (or kNullDim) per operand and result");
  int64_t factor = factorSizes.size();
  factorSizes.push_back(size);
  for (auto [tensor, dim] : llvm::zip(operandMappings, operandDims))
    mapFactor(tensor, dim, factor, size);
  for (auto [tensor, dim] : llvm::zip(resultMappings, resultDims))
    mapFactor(tensor, dim, factor, size);
  switch (type) {
  case FactorType::kPassThrough:
    break;
  case FactorType::kReduction:
    reductionFactors.push_back(factor);
    break;
  case FactorType::kNeedReplication:
    needReplicationFactors.push_back(factor);
    break;
  case FactorType::kPermutation:
    permutationFactors.push_back(factor);
    break;
  }
  if (isBlocked)
    blockedPropagationFactors.push_back(factor);
  return *this;
}

OpShardingRuleBuilder &OpShardingRuleBuilder::addFactor(int64_t dim,
                                                        int64_t size,
                                                        FactorType type,
                                                        bool isBlocked) {
  auto dimIfPresent = [&](const TensorFactors &tensor) {
    return dim < static_cast<int64_t>(tensor.size()) ? dim : kNullDim;
  };
  SmallVector<int64_t> operandDims =
      llvm::map_to_vector(operandMappings, dimIfPresent);
  SmallVector<int64_t> resultDims =
      llvm::map_to_vector(resultMappings, dimIfPresent);
  return addFactor(operandDims, resultDims, size, type, isBlocked);
}

OpShardingRuleBuilder &
OpShardingRuleBuilder::addPointwise(ArrayRef<int64_t> shape) {
  for (auto [dim, size] : llvm::enumerate(shape))
    addFactor(dim, size);
  return *this;
}

OpShardingRuleBuilder &OpShardingRuleBuilder::addPointwiseIfDimSizesMatch(
    ArrayRef<int64_t> inShape, ArrayRef<int64_t> outShape,
    function_ref<void(int64_t dim)> onMismatch) {
  for (auto [dim, sizes] : llvm::enumerate(llvm::zip(inShape, outShape))) {
    auto [inSize, outSize] = sizes;
    if (inSize == outSize)
      addFactor(dim, inSize);
    else
      onMismatch(dim);
  }
  return *this;
}

OpShardingRuleAttr OpShardingRuleBuilder::build() {
  auto fillUnmapped = [&](TensorFactors &tensor) {
    for (SmallVector<int64_t, 1> &dim : tensor) {
      if (!dim.empty())
        continue;
      dim.push_back(factorSizes.size());
      factorSizes.push_back(1);
    }
  };
  llvm::for_each(operandMappings, fillUnmapped);
  llvm::for_each(resultMappings, fillUnmapped);

  auto toAttr = [&](const TensorFactors &tensor) {
    return TensorMappingAttr::get(
        context, llvm::map_to_vector(tensor, [&](ArrayRef<int64_t> factors) {
          return DimMappingAttr::get(context, factors);
        }));
  };
  return OpShardingRuleAttr::get(
      context, factorSizes, llvm::map_to_vector(operandMappings, toAttr),
      llvm::map_to_vector(resultMappings, toAttr), reductionFactors,
      needReplicationFactors, permutationFactors, blockedPropagationFactors,
      /*isCustomRule=*/false);
}
