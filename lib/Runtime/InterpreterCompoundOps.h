//===- InterpreterCompoundOps.h - compound ops, custom calls ----*- C++ -*-===//
//
// Private to the interpreter: the ops of StablehloCompoundOps.td (batch
// norm, cholesky, triangular_solve, map, composite, rng, tuples aside, the
// dynamic-shape ops), top_k, tokens, and the stablehlo.custom_call targets
// JAX emits, run on tensors. Ops with regions or callees run them through the
// frame's runners.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_INTERPRETERCOMPOUNDOPS_H
#define MPMD_LIB_RUNTIME_INTERPRETERCOMPOUNDOPS_H

#include "mpmd/Dialect/StableHLO/IR/StablehloCompoundOps.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>
#include <optional>
#include <vector>

namespace mlir::mpmd::runtime {

/// What the compound ops need from the frame that runs them.
struct CompoundOpContext {
  /// Runs the single block of a region on arguments (map bodies).
  std::function<FailureOr<std::vector<Tensor>>(Region &, std::vector<Tensor>)>
      runRegion;
  /// Runs a function (composite decompositions).
  std::function<FailureOr<std::vector<Tensor>>(func::FuncOp,
                                               std::vector<Tensor>)>
      runFunction;
  /// Counts the stablehlo.rng runs of the interpreter: each run draws from
  /// its own deterministic stream.
  uint64_t &rngRuns;
};

/// The kernel's view of a `stablehlo.convolution` or `dynamic_conv`: its
/// dimension numbers, window attributes (absent ones: 1, no reversal) and
/// groups; the padding is left zero for the caller, which knows where it
/// comes from.
template <typename ConvolutionLikeOp>
ConvolutionDimensions getConvolutionDimensions(ConvolutionLikeOp op) {
  stablehlo::ConvDimensionNumbersAttr numbers = op.getDimensionNumbers();
  auto toVector = [](ArrayRef<int64_t> values) {
    return std::vector<int64_t>(values.begin(), values.end());
  };
  ConvolutionDimensions dims;
  dims.inputBatch = numbers.getInputBatchDimension();
  dims.inputFeature = numbers.getInputFeatureDimension();
  dims.inputSpatial = toVector(numbers.getInputSpatialDimensions());
  dims.kernelInputFeature = numbers.getKernelInputFeatureDimension();
  dims.kernelOutputFeature = numbers.getKernelOutputFeatureDimension();
  dims.kernelSpatial = toVector(numbers.getKernelSpatialDimensions());
  dims.outputBatch = numbers.getOutputBatchDimension();
  dims.outputFeature = numbers.getOutputFeatureDimension();
  dims.outputSpatial = toVector(numbers.getOutputSpatialDimensions());
  size_t numSpatial = dims.inputSpatial.size();
  auto orOnes = [&](std::optional<ArrayRef<int64_t>> values) {
    return values ? toVector(*values) : std::vector<int64_t>(numSpatial, 1);
  };
  dims.strides = orOnes(op.getWindowStrides());
  dims.lhsDilation = orOnes(op.getLhsDilation());
  dims.rhsDilation = orOnes(op.getRhsDilation());
  dims.paddingLow.assign(numSpatial, 0);
  dims.paddingHigh.assign(numSpatial, 0);
  dims.reversal.assign(numSpatial, false);
  if (std::optional<ArrayRef<bool>> reversal = op.getWindowReversal())
    dims.reversal.assign(reversal->begin(), reversal->end());
  dims.featureGroupCount = op.getFeatureGroupCount();
  dims.batchGroupCount = op.getBatchGroupCount();
  return dims;
}

/// Whether runCompoundOp runs `op`. Custom calls to `check.*` targets are
/// not among them: the frame runs those with its check ops.
bool isCompoundOp(Operation &op);

/// Runs `op` on its operands' tensors; fails after an error diagnostic at
/// `op` (an unknown custom call target is named).
FailureOr<std::vector<Tensor>>
runCompoundOp(Operation &op, const std::vector<Tensor> &operands,
              const CompoundOpContext &context);

/// The check a `stablehlo.custom_call @check.expect_*(%actual, %expected)`
/// performs, as StableHLO's testdata writes it: `expect_eq` exactly,
/// `expect_almost_eq` within `tolerance` (check.expect_almost_eq's default),
/// `expect_close` within `maxUlpDifference` ULPs. Null for other targets.
struct CustomCallCheck {
  enum Kind { Equal, AlmostEqual, Close } kind;
  double tolerance = 1e-4;
  int64_t maxUlpDifference = 3;
};
std::optional<CustomCallCheck> getCustomCallCheck(stablehlo::CustomCallOp op);

/// Runs a scatter whose update computation is a region: the region runs
/// once per update element, on the current values of the inputs and the
/// updates (several inputs and updates allowed); update elements that
/// address outside the inputs are skipped.
FailureOr<std::vector<Tensor>>
runScatterRegion(stablehlo::ScatterOp op, const std::vector<Tensor> &inputs,
                 const Tensor &indices, const std::vector<Tensor> &updates,
                 const CompoundOpContext &context);

} // namespace mlir::mpmd::runtime

#endif // MPMD_LIB_RUNTIME_INTERPRETERCOMPOUNDOPS_H
