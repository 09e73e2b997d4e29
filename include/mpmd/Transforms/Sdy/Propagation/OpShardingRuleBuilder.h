//===- OpShardingRuleBuilder.h - Building #sdy.op_sharding_rule -*- C++ -*-===//
//
// Rules are built factor by factor: the order in which factors are added is
// their index, which fixes the printed symbols and the tie-breaks of
// propagation, so every rule of the registry adds its factors in the order
// the sharding-rule notes give.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_PROPAGATION_OPSHARDINGRULEBUILDER_H
#define MPMD_TRANSFORMS_SDY_PROPAGATION_OPSHARDINGRULEBUILDER_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::sdy {

/// What sharding a factor costs (see `#sdy.op_sharding_rule`).
enum class FactorType {
  kPassThrough,
  kReduction,
  kNeedReplication,
  kPermutation,
};

/// Stands for "this tensor is not mapped to the factor" in the dimension
/// lists of `OpShardingRuleBuilder::addFactor`.
inline constexpr int64_t kNullDim = -1;

class OpShardingRuleBuilder {
public:
  /// A rule over the operands and results of `op`, which must all be ranked
  /// tensors.
  explicit OpShardingRuleBuilder(Operation *op);

  /// Adds a factor of `size` mapped to dimension `operandDims[i]` of operand
  /// `i` and `resultDims[j]` of result `j` (`kNullDim`: not mapped). A size-1
  /// factor is not added to a dimension that already has factors.
  OpShardingRuleBuilder &addFactor(ArrayRef<int64_t> operandDims,
                                   ArrayRef<int64_t> resultDims, int64_t size,
                                   FactorType type = FactorType::kPassThrough,
                                   bool isBlocked = false);

  /// Adds a factor mapped to dimension `dim` of every operand and result
  /// whose rank is larger than `dim` (scalars are never mapped).
  OpShardingRuleBuilder &addFactor(int64_t dim, int64_t size,
                                   FactorType type = FactorType::kPassThrough,
                                   bool isBlocked = false);

  /// One pass-through factor per dimension of `shape`, on every tensor.
  OpShardingRuleBuilder &addPointwise(ArrayRef<int64_t> shape);

  /// Per dimension: a pass-through factor on every tensor where `inShape`
  /// and `outShape` agree, `onMismatch(dim)` where they differ.
  OpShardingRuleBuilder &
  addPointwiseIfDimSizesMatch(ArrayRef<int64_t> inShape,
                              ArrayRef<int64_t> outShape,
                              function_ref<void(int64_t dim)> onMismatch);

  /// The rule; every dimension still without a factor first gets a fresh
  /// size-1 factor (operands before results, in dimension order).
  OpShardingRuleAttr build();

  int64_t getNumOperands() const { return operandMappings.size(); }
  int64_t getNumResults() const { return resultMappings.size(); }

private:
  /// Factor indices of every dimension of one tensor.
  using TensorFactors = SmallVector<SmallVector<int64_t, 1>>;

  void mapFactor(TensorFactors &tensor, int64_t dim, int64_t factor,
                 int64_t size);

  MLIRContext *context;
  SmallVector<TensorFactors> operandMappings;
  SmallVector<TensorFactors> resultMappings;
  SmallVector<int64_t> factorSizes;
  SmallVector<int64_t> reductionFactors;
  SmallVector<int64_t> needReplicationFactors;
  SmallVector<int64_t> permutationFactors;
  SmallVector<int64_t> blockedPropagationFactors;
};

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_PROPAGATION_OPSHARDINGRULEBUILDER_H
