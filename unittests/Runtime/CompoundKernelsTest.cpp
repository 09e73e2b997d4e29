//===- CompoundKernelsTest.cpp - batch norm, cholesky, top_k, scatter ----===//
//
// Properties rather than fixed numbers: batch_norm_grad is the derivative of
// batch_norm_training (central differences), a Cholesky factor multiplies
// back to its matrix, top_k agrees with a stable sort, and the scatter walk
// addresses what the scatter kernel updates.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/CompoundKernels.h"
#include "mpmd/Runtime/Random.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir::mpmd::runtime;

namespace {

double sumOfProducts(const Tensor &a, const Tensor &b) {
  double sum = 0;
  for (int64_t i = 0; i < a.numElements(); ++i)
    sum += a.data<double>()[i] * b.data<double>()[i];
  return sum;
}

TEST(CompoundKernelsTest, BatchNormGradIsTheDerivativeOfTraining) {
  Shape shape = {3, 4, 5};
  const int64_t featureIndex = 1;
  const double epsilon = 0.01;
  Tensor x = randomTensor(DType::F64, shape, 1);
  Tensor scale = randomTensor(DType::F64, {4}, 2);
  Tensor offset = randomTensor(DType::F64, {4}, 3);
  Tensor g = randomTensor(DType::F64, shape, 4);
  // loss(x, scale, offset) = sum(g * batch_norm_training(x, scale, offset)).
  auto loss = [&](const Tensor &xs, const Tensor &s, const Tensor &o) {
    return sumOfProducts(g,
                         batchNormTraining(xs, s, o, epsilon, featureIndex)[0]);
  };
  std::vector<Tensor> training =
      batchNormTraining(x, scale, offset, epsilon, featureIndex);
  std::vector<Tensor> grads = batchNormGrad(x, scale, training[1], training[2],
                                            g, epsilon, featureIndex);
  const double h = 1e-6;
  auto expectDerivative = [&](Tensor &wrt, const Tensor &gradient,
                              const char *name) {
    for (int64_t i = 0; i < wrt.numElements(); ++i) {
      double saved = wrt.data<double>()[i];
      wrt.data<double>()[i] = saved + h;
      double up = loss(x, scale, offset);
      wrt.data<double>()[i] = saved - h;
      double down = loss(x, scale, offset);
      wrt.data<double>()[i] = saved;
      EXPECT_NEAR(gradient.data<double>()[i], (up - down) / (2 * h), 1e-6)
          << name << " element " << i;
    }
  };
  x = x.clone();
  scale = scale.clone();
  offset = offset.clone();
  expectDerivative(x, grads[0], "grad_operand");
  expectDerivative(scale, grads[1], "grad_scale");
  expectDerivative(offset, grads[2], "grad_offset");
}

TEST(CompoundKernelsTest, CholeskyFactorsMultiplyBack) {
  const int64_t batch = 3, n = 6;
  Tensor m = randomTensor(DType::F64, {batch, n, n}, 5);
  // A = M M^T + n I is symmetric positive definite.
  Tensor a = Tensor::zeros(DType::F64, {batch, n, n});
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = i == j ? n : 0.0;
        for (int64_t k = 0; k < n; ++k)
          sum += m.data<double>()[(b * n + i) * n + k] *
                 m.data<double>()[(b * n + j) * n + k];
        a.data<double>()[(b * n + i) * n + j] = sum;
      }
  Tensor lower = cholesky(a, /*lower=*/true);
  Tensor upper = cholesky(a, /*lower=*/false);
  auto at = [&](const Tensor &t, int64_t b, int64_t i, int64_t j) {
    return t.data<double>()[(b * n + i) * n + j];
  };
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double product = 0;
        for (int64_t k = 0; k < n; ++k)
          product += at(lower, b, i, k) * at(lower, b, j, k);
        EXPECT_NEAR(product, at(a, b, i, j), 1e-12);
        EXPECT_EQ(at(upper, b, j, i), at(lower, b, i, j));
        if (j > i) {
          EXPECT_EQ(at(lower, b, i, j), 0.0);
        }
      }
}

TEST(CompoundKernelsTest, TopKAgreesWithAStableSort) {
  const int64_t rows = 5, n = 9, k = 4;
  // Few distinct values, so that ties are common.
  Tensor x = convert(randomTensor(DType::I32, {rows, n}, 6), DType::F32);
  std::vector<Tensor> top = topK(x, k);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    const float *row = x.data<float>() + r * n;
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return row[a] > row[b]; });
    for (int64_t i = 0; i < k; ++i) {
      EXPECT_EQ(top[1].data<int32_t>()[r * k + i], order[i]);
      EXPECT_EQ(top[0].data<float>()[r * k + i], row[order[i]]);
    }
  }
}

TEST(CompoundKernelsTest, ScatterWalkAddressesWhatScatterUpdates) {
  // Rows of a [6, 3] input updated at indices with repeats and one out of
  // bounds; summing through the walk must equal the add scatter.
  Tensor input = randomTensor(DType::F64, {6, 3}, 7);
  Tensor indices = Tensor::empty(DType::I32, {4, 1});
  int32_t rows[] = {2, 5, 2, 9};
  std::copy(std::begin(rows), std::end(rows), indices.data<int32_t>());
  Tensor updates = randomTensor(DType::F64, {4, 3}, 8);
  ScatterDimensions dims;
  dims.updateWindowDims = {1};
  dims.insertedWindowDims = {0};
  dims.scatterDimsToOperandDims = {0};
  dims.indexVectorDim = 1;
  Tensor expected = scatter(input, indices, updates, dims, ReduceKind::Add);
  Tensor walked = input.clone();
  int64_t visits = 0;
  forEachScatterTarget(input.shape(), indices, updates.shape(), dims,
                       [&](int64_t updateOffset, int64_t inputOffset) {
                         walked.data<double>()[inputOffset] +=
                             updates.data<double>()[updateOffset];
                         ++visits;
                       });
  EXPECT_EQ(visits, 9); // the row at index 9 is out of bounds
  for (int64_t i = 0; i < input.numElements(); ++i)
    EXPECT_EQ(walked.data<double>()[i], expected.data<double>()[i]);
}

} // namespace
