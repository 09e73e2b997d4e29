//===- Linalg.cpp - cholesky and triangular_solve -------------------------===//
//
// Batches of small dense matrices, as optimizers and Gaussian processes
// use them: plain loops in f64 (each result rounded once to the operand's
// dtype), one matrix at a time. Cholesky is O(n^3 / 3) per matrix.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/CompoundKernels.h"

#include <cmath>

namespace mlir::mpmd::runtime {

namespace {

Tensor toF64(const Tensor &tensor) {
  return tensor.dtype() == DType::F64 ? tensor : convert(tensor, DType::F64);
}

Tensor fromF64(const Tensor &tensor, DType dtype) {
  return dtype == DType::F64 ? tensor : convert(tensor, dtype);
}

/// The number of matrices of a [..., rows, columns] tensor.
int64_t batchCount(const Shape &shape) {
  return numElementsOf(Shape(shape.begin(), shape.end() - 2));
}

} // namespace

Tensor cholesky(const Tensor &aIn, bool lower) {
  Tensor a = toF64(aIn);
  const Shape &shape = a.shape();
  int64_t n = shape.back();
  Tensor result = Tensor::zeros(DType::F64, shape);
  for (int64_t batch = 0, e = batchCount(shape); batch < e; ++batch) {
    const double *in = a.data<double>() + batch * n * n;
    double *out = result.data<double>() + batch * n * n;
    // Computes L (lower) in both cases: for an upper factor, A's upper
    // triangle read transposed is the lower triangle of the same symmetric
    // matrix, and U = L^T is written transposed.
    auto readA = [&](int64_t i, int64_t j) { // i >= j
      return lower ? in[i * n + j] : in[j * n + i];
    };
    auto factor = [&](int64_t i, int64_t j) -> double & {
      return lower ? out[i * n + j] : out[j * n + i];
    };
    for (int64_t j = 0; j < n; ++j) {
      double diagonal = readA(j, j);
      for (int64_t k = 0; k < j; ++k)
        diagonal -= factor(j, k) * factor(j, k);
      // Not positive definite: sqrt of a negative number, nan from here on.
      double pivot = std::sqrt(diagonal);
      factor(j, j) = pivot;
      for (int64_t i = j + 1; i < n; ++i) {
        double value = readA(i, j);
        for (int64_t k = 0; k < j; ++k)
          value -= factor(i, k) * factor(j, k);
        factor(i, j) = value / pivot;
      }
    }
  }
  return fromF64(result, aIn.dtype());
}

} // namespace mlir::mpmd::runtime
