//===- Linalg.cpp - cholesky and triangular_solve -------------------------===//
//
// Batches of small dense matrices, as optimizers and Gaussian processes
// use them: plain loops in f64, or complex<f64> for complex operands (each
// result rounded once to the operand's dtype), one matrix at a time. Cholesky is O(n^3 / 3) per matrix, the
// triangular solve O(n^2 m) per n x n matrix and n x m right-hand side.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/CompoundKernels.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <utility>
#include <vector>

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

namespace {

/// Cholesky on one element type: double, or std::complex<double> (A = L
/// L^H, where the diagonal's imaginary parts are not read).
template <typename T>
void factorCholesky(const T *matrices, T *factors, const Shape &shape,
                    bool lower) {
  int64_t n = shape.back();
  auto adjoint = [](T value) {
    if constexpr (std::is_same_v<T, double>)
      return value;
    else
      return std::conj(value);
  };
  // L, one matrix at a time, row-major.
  std::vector<T> factor(n * n);
  for (int64_t batch = 0, e = batchCount(shape); batch < e; ++batch) {
    const T *in = matrices + batch * n * n;
    T *out = factors + batch * n * n;
    // A's lower triangle: read directly, or as the adjoint of the upper
    // triangle of the same Hermitian matrix.
    auto readA = [&](int64_t i, int64_t j) { // i >= j
      return lower ? in[i * n + j] : adjoint(in[j * n + i]);
    };
    std::fill(factor.begin(), factor.end(), T(0));
    for (int64_t j = 0; j < n; ++j) {
      double diagonal = std::real(readA(j, j));
      for (int64_t k = 0; k < j; ++k)
        diagonal -= std::norm(factor[j * n + k]);
      // Not positive definite: sqrt of a negative number, nan from here on.
      double pivot = std::sqrt(diagonal);
      factor[j * n + j] = pivot;
      for (int64_t i = j + 1; i < n; ++i) {
        T value = readA(i, j);
        for (int64_t k = 0; k < j; ++k)
          value -= factor[i * n + k] * adjoint(factor[j * n + k]);
        factor[i * n + j] = value / pivot;
      }
    }
    // U = L^H for the upper factor.
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j <= i; ++j) {
        if (lower)
          out[i * n + j] = factor[i * n + j];
        else
          out[j * n + i] = adjoint(factor[i * n + j]);
      }
  }
}

} // namespace

Tensor cholesky(const Tensor &aIn, bool lower) {
  if (isComplex(aIn.dtype())) {
    // In complex<f64>, each result rounded once to the operand's type.
    Tensor a = aIn.dtype() == DType::C128 ? aIn : convert(aIn, DType::C128);
    Tensor result = Tensor::zeros(DType::C128, a.shape());
    using Complex = std::complex<double>;
    factorCholesky(reinterpret_cast<const Complex *>(a.bytes()),
                   reinterpret_cast<Complex *>(result.bytes()), a.shape(),
                   lower);
    return aIn.dtype() == DType::C128 ? result : convert(result, aIn.dtype());
  }
  Tensor a = toF64(aIn);
  Tensor result = Tensor::zeros(DType::F64, a.shape());
  factorCholesky(a.data<double>(), result.data<double>(), a.shape(), lower);
  return fromF64(result, aIn.dtype());
}

namespace {

/// The solve on one element type: double, or std::complex<double> (where
/// the adjoint also conjugates).
template <typename T>
void solveTriangular(const T *matrices, T *solutions, const Shape &shape,
                     int64_t n, bool leftSide, bool lower, bool unitDiagonal,
                     TransposeKind transpose) {
  int64_t rows = shape[shape.size() - 2], columns = shape.back();
  bool transposed = transpose != TransposeKind::None;
  // op(a) is lower triangular iff a's triangle is lower and not transposed,
  // or upper and transposed.
  bool opLower = lower != transposed;
  for (int64_t batch = 0, e = batchCount(shape); batch < e; ++batch) {
    const T *matrix = matrices + batch * n * n;
    T *out = solutions + batch * rows * columns;
    // op(a)[i][j], reading only the given triangle.
    auto opA = [&](int64_t i, int64_t j) -> T {
      if (transposed)
        std::swap(i, j);
      T value;
      if (i == j)
        value = unitDiagonal ? T(1) : matrix[i * n + j];
      else if (lower ? i < j : i > j)
        return T(0);
      else
        value = matrix[i * n + j];
      if constexpr (!std::is_same_v<T, double>)
        if (transpose == TransposeKind::Adjoint)
          return std::conj(value);
      return value;
    };
    if (leftSide) {
      // op(a) x = b, one row of x at a time (forward or back substitution).
      for (int64_t step = 0; step < n; ++step) {
        int64_t i = opLower ? step : n - 1 - step;
        T *row = out + i * columns;
        for (int64_t k = 0; k < n; ++k) {
          if (opLower ? k >= i : k <= i)
            continue;
          T coefficient = opA(i, k);
          const T *solved = out + k * columns;
          for (int64_t c = 0; c < columns; ++c)
            row[c] -= coefficient * solved[c];
        }
        T pivot = opA(i, i);
        for (int64_t c = 0; c < columns; ++c)
          row[c] /= pivot;
      }
      continue;
    }
    // x op(a) = b, one column of x at a time: column j depends on the
    // columns k with op(a)[k][j] != 0, k != j.
    for (int64_t step = 0; step < n; ++step) {
      int64_t j = opLower ? n - 1 - step : step;
      T pivot = opA(j, j);
      for (int64_t r = 0; r < rows; ++r) {
        T *row = out + r * columns;
        T value = row[j];
        for (int64_t k = 0; k < n; ++k)
          if (opLower ? k > j : k < j)
            value -= row[k] * opA(k, j);
        row[j] = value / pivot;
      }
    }
  }
}

} // namespace

Tensor triangularSolve(const Tensor &aIn, const Tensor &bIn, bool leftSide,
                       bool lower, bool unitDiagonal, TransposeKind transpose) {
  int64_t n = aIn.shape().back();
  if (isComplex(aIn.dtype())) {
    // In complex<f64>, each result rounded once to the operand's type.
    Tensor a = aIn.dtype() == DType::C128 ? aIn : convert(aIn, DType::C128);
    Tensor x = convert(bIn, DType::C128).clone();
    using Complex = std::complex<double>;
    solveTriangular(reinterpret_cast<const Complex *>(a.bytes()),
                    reinterpret_cast<Complex *>(x.bytes()), x.shape(), n,
                    leftSide, lower, unitDiagonal, transpose);
    return bIn.dtype() == DType::C128 ? x : convert(x, bIn.dtype());
  }
  // The adjoint of a real matrix is its transpose.
  if (transpose == TransposeKind::Adjoint)
    transpose = TransposeKind::Transpose;
  Tensor a = toF64(aIn), x = toF64(bIn).clone();
  solveTriangular(a.data<double>(), x.data<double>(), x.shape(), n, leftSide,
                  lower, unitDiagonal, transpose);
  return fromF64(x, bIn.dtype());
}

} // namespace mlir::mpmd::runtime
