//===- BatchNorm.cpp - batch_norm_training / inference / grad -------------===//
//
// The operand is viewed as [outer, features, inner] (the dimensions before,
// at and after the feature index), so every loop runs over contiguous
// `inner` rows. Sums are accumulated in f64 and each result is rounded once
// to the operand's dtype. Cost: O(elements) per pass; training and grad read
// the operand twice (the mean, then the centered sums: more accurate than
// one pass of sums and sums of squares).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/CompoundKernels.h"

#include <algorithm>
#include <cmath>

namespace mlir::mpmd::runtime {

namespace {

/// The operand's [outer, features, inner] view.
struct FeatureView {
  int64_t outer = 1, features = 1, inner = 1;

  FeatureView(const Shape &shape, int64_t featureIndex) {
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
      if (d < featureIndex)
        outer *= shape[d];
      else if (d == featureIndex)
        features = shape[d];
      else
        inner *= shape[d];
    }
  }
  int64_t perFeature() const { return outer * inner; }

  /// Calls `body(feature, row)` for each contiguous row of `inner`
  /// elements, `row` being the offset of its first element.
  template <typename Body> void forEachRow(Body body) const {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < features; ++c)
        body(c, (o * features + c) * inner);
  }
};

Tensor toF64(const Tensor &tensor) {
  return tensor.dtype() == DType::F64 ? tensor : convert(tensor, DType::F64);
}

Tensor fromF64(const Tensor &tensor, DType dtype) {
  return dtype == DType::F64 ? tensor : convert(tensor, dtype);
}

/// Per-feature sums of `x` (f64).
std::vector<double> featureSums(const FeatureView &view, const double *x) {
  std::vector<double> sums(view.features, 0.0);
  view.forEachRow([&](int64_t c, int64_t row) {
    double sum = 0;
    for (int64_t i = 0; i < view.inner; ++i)
      sum += x[row + i];
    sums[c] += sum;
  });
  return sums;
}

/// y = (x - mean) * scale / sqrt(variance + epsilon) + offset.
Tensor normalize(const FeatureView &view, const Tensor &x, const double *scale,
                 const double *offset, const double *mean,
                 const double *variance, double epsilon, DType dtype) {
  std::vector<double> factor(view.features), shift(view.features);
  for (int64_t c = 0; c < view.features; ++c) {
    factor[c] = scale[c] / std::sqrt(variance[c] + epsilon);
    shift[c] = offset[c] - mean[c] * factor[c];
  }
  Tensor y = Tensor::empty(DType::F64, x.shape());
  const double *in = x.data<double>();
  double *out = y.data<double>();
  view.forEachRow([&](int64_t c, int64_t row) {
    for (int64_t i = 0; i < view.inner; ++i)
      out[row + i] = in[row + i] * factor[c] + shift[c];
  });
  return fromF64(y, dtype);
}

Tensor vectorOf(const std::vector<double> &values, DType dtype) {
  Tensor tensor =
      Tensor::empty(DType::F64, {static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), tensor.data<double>());
  return fromF64(tensor, dtype);
}

} // namespace

Tensor batchNormInference(const Tensor &operand, const Tensor &scale,
                          const Tensor &offset, const Tensor &mean,
                          const Tensor &variance, double epsilon,
                          int64_t featureIndex) {
  FeatureView view(operand.shape(), featureIndex);
  Tensor x = toF64(operand), s = toF64(scale), o = toF64(offset),
         m = toF64(mean), v = toF64(variance);
  return normalize(view, x, s.data<double>(), o.data<double>(),
                   m.data<double>(), v.data<double>(), epsilon,
                   operand.dtype());
}

std::vector<Tensor> batchNormTraining(const Tensor &operand,
                                      const Tensor &scale, const Tensor &offset,
                                      double epsilon, int64_t featureIndex) {
  FeatureView view(operand.shape(), featureIndex);
  Tensor x = toF64(operand), s = toF64(scale), o = toF64(offset);
  const double *in = x.data<double>();
  double count = static_cast<double>(view.perFeature());
  std::vector<double> mean = featureSums(view, in);
  for (double &value : mean)
    value /= count;
  std::vector<double> variance(view.features, 0.0);
  view.forEachRow([&](int64_t c, int64_t row) {
    double sum = 0;
    for (int64_t i = 0; i < view.inner; ++i) {
      double centered = in[row + i] - mean[c];
      sum += centered * centered;
    }
    variance[c] += sum;
  });
  for (double &value : variance)
    value /= count;
  DType dtype = operand.dtype();
  return {normalize(view, x, s.data<double>(), o.data<double>(), mean.data(),
                    variance.data(), epsilon, dtype),
          vectorOf(mean, dtype), vectorOf(variance, dtype)};
}

std::vector<Tensor> batchNormGrad(const Tensor &operand, const Tensor &scale,
                                  const Tensor &mean, const Tensor &variance,
                                  const Tensor &gradOutput, double epsilon,
                                  int64_t featureIndex) {
  FeatureView view(operand.shape(), featureIndex);
  Tensor x = toF64(operand), s = toF64(scale), m = toF64(mean),
         v = toF64(variance), g = toF64(gradOutput);
  const double *in = x.data<double>(), *grad = g.data<double>();
  const double *meanData = m.data<double>(), *varianceData = v.data<double>(),
               *scaleData = s.data<double>();
  double count = static_cast<double>(view.perFeature());
  // Per feature: sum(g) and sum(g * (x - mean)).
  std::vector<double> gradSum = featureSums(view, grad);
  std::vector<double> gradCenteredSum(view.features, 0.0);
  view.forEachRow([&](int64_t c, int64_t row) {
    double sum = 0;
    for (int64_t i = 0; i < view.inner; ++i)
      sum += grad[row + i] * (in[row + i] - meanData[c]);
    gradCenteredSum[c] += sum;
  });
  // grad_operand = scale / stddev / N * (N g - sum(g) - (x - mean) *
  // sum(g (x - mean)) / (variance + epsilon)), the spec's decomposition.
  std::vector<double> gradScale(view.features), factor(view.features),
      slope(view.features);
  for (int64_t c = 0; c < view.features; ++c) {
    double varianceEps = varianceData[c] + epsilon;
    double stddev = std::sqrt(varianceEps);
    gradScale[c] = gradCenteredSum[c] / stddev;
    factor[c] = scaleData[c] / stddev / count;
    slope[c] = gradCenteredSum[c] / varianceEps;
  }
  Tensor gradOperand = Tensor::empty(DType::F64, operand.shape());
  double *out = gradOperand.data<double>();
  view.forEachRow([&](int64_t c, int64_t row) {
    for (int64_t i = 0; i < view.inner; ++i) {
      double centered = in[row + i] - meanData[c];
      out[row + i] = factor[c] *
                     (count * grad[row + i] - gradSum[c] - centered * slope[c]);
    }
  });
  DType dtype = operand.dtype();
  return {fromF64(gradOperand, dtype), vectorOf(gradScale, dtype),
          vectorOf(gradSum, dtype)};
}

} // namespace mlir::mpmd::runtime
