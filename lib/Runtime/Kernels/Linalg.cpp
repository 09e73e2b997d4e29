//===- Linalg.cpp - cholesky and triangular_solve -------------------------===//
//
// Batches of small dense matrices, as optimizers and Gaussian processes
// use them: plain loops in f64 (each result rounded once to the operand's
// dtype), one matrix at a time. Cholesky is O(n^3 / 3) per matrix, the
// triangular solve O(n^2 m) per n x n matrix and n x m right-hand side.
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

Tensor triangularSolve(const Tensor &aIn, const Tensor &bIn, bool leftSide,
                       bool lower, bool unitDiagonal, TransposeKind transpose) {
  Tensor a = toF64(aIn), x = toF64(bIn).clone();
  const Shape &shape = x.shape();
  int64_t n = a.shape().back();
  int64_t rows = shape[shape.size() - 2], columns = shape.back();
  bool transposed = transpose == TransposeKind::Transpose;
  // op(a) is lower triangular iff a's triangle is lower and not transposed,
  // or upper and transposed.
  bool opLower = lower != transposed;
  for (int64_t batch = 0, e = batchCount(shape); batch < e; ++batch) {
    const double *matrix = a.data<double>() + batch * n * n;
    double *out = x.data<double>() + batch * rows * columns;
    // op(a)[i][j], reading only the given triangle.
    auto opA = [&](int64_t i, int64_t j) {
      if (transposed)
        std::swap(i, j);
      if (i == j)
        return unitDiagonal ? 1.0 : matrix[i * n + j];
      if (lower ? i < j : i > j)
        return 0.0;
      return matrix[i * n + j];
    };
    if (leftSide) {
      // op(a) x = b, one row of x at a time (forward or back substitution).
      for (int64_t step = 0; step < n; ++step) {
        int64_t i = opLower ? step : n - 1 - step;
        double *row = out + i * columns;
        for (int64_t k = 0; k < n; ++k) {
          if (opLower ? k >= i : k <= i)
            continue;
          double coefficient = opA(i, k);
          const double *solved = out + k * columns;
          for (int64_t c = 0; c < columns; ++c)
            row[c] -= coefficient * solved[c];
        }
        double pivot = opA(i, i);
        for (int64_t c = 0; c < columns; ++c)
          row[c] /= pivot;
      }
      continue;
    }
    // x op(a) = b, one column of x at a time: column j depends on the
    // columns k with op(a)[k][j] != 0, k != j.
    for (int64_t step = 0; step < n; ++step) {
      int64_t j = opLower ? n - 1 - step : step;
      double pivot = opA(j, j);
      for (int64_t r = 0; r < rows; ++r) {
        double *row = out + r * columns;
        double value = row[j];
        for (int64_t k = 0; k < n; ++k)
          if (opLower ? k > j : k < j)
            value -= row[k] * opA(k, j);
        row[j] = value / pivot;
      }
    }
  }
  return fromF64(x, bIn.dtype());
}

} // namespace mlir::mpmd::runtime
