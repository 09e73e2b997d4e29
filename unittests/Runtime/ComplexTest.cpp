//===- ComplexTest.cpp - complex kernels and FFT against plain loops ------===//

#include "mpmd/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

using namespace mlir::mpmd::runtime;

namespace {

using Complex = std::complex<double>;

Tensor complexTensor(const std::vector<Complex> &values, Shape shape) {
  Tensor tensor = Tensor::empty(DType::C128, std::move(shape));
  std::copy(values.begin(), values.end(),
            reinterpret_cast<Complex *>(tensor.bytes()));
  return tensor;
}

Complex at(const Tensor &tensor, int64_t index) {
  return {tensor.elementAsDouble(index), tensor.elementImagAsDouble(index)};
}

/// The definition: X[k] = sum_j x[j] exp(-2 pi i jk / n), O(n^2).
std::vector<Complex> naiveDft(const std::vector<Complex> &x) {
  int64_t n = x.size();
  std::vector<Complex> result(n);
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j)
      result[k] += x[j] * std::polar(1.0, -2 * std::numbers::pi * double(j * k % n) / n);
  return result;
}

std::vector<Complex> randomValues(int64_t n, std::mt19937 &random) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<Complex> values(n);
  for (Complex &value : values)
    value = {uniform(random), uniform(random)};
  return values;
}

TEST(ComplexTest, FftMatchesTheDefinitionAtEveryLength) {
  std::mt19937 random(3);
  // Powers of two take radix-2, the others Bluestein.
  for (int64_t n = 1; n <= 40; ++n) {
    std::vector<Complex> x = randomValues(n, random);
    Tensor result = fft(complexTensor(x, {n}), FftKind::FFT, {n}, {n}, DType::C128);
    std::vector<Complex> expected = naiveDft(x);
    for (int64_t k = 0; k < n; ++k)
      EXPECT_LT(std::abs(at(result, k) - expected[k]), 1e-11 * n) << n << " " << k;
    Tensor back = fft(result, FftKind::IFFT, {n}, {n}, DType::C128);
    for (int64_t k = 0; k < n; ++k)
      EXPECT_LT(std::abs(at(back, k) - x[k]), 1e-12 * n) << n << " " << k;
  }
}

TEST(ComplexTest, RealTransformsKeepHalfTheSpectrum) {
  std::mt19937 random(5);
  for (int64_t n : {1, 2, 6, 7, 16}) {
    // Two lines of n reals.
    Tensor x = Tensor::empty(DType::F64, {2, n});
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (int64_t i = 0; i < 2 * n; ++i)
      x.data<double>()[i] = uniform(random);
    int64_t half = n / 2 + 1;
    Tensor spectrum = fft(x, FftKind::RFFT, {n}, {2, half}, DType::C128);
    for (int64_t line = 0; line < 2; ++line) {
      std::vector<Complex> lineValues(x.data<double>() + line * n,
                                      x.data<double>() + (line + 1) * n);
      std::vector<Complex> expected = naiveDft(lineValues);
      for (int64_t k = 0; k < half; ++k)
        EXPECT_LT(std::abs(at(spectrum, line * half + k) - expected[k]), 1e-11);
    }
    Tensor back = fft(spectrum, FftKind::IRFFT, {n}, {2, n}, DType::F64);
    for (int64_t i = 0; i < 2 * n; ++i)
      EXPECT_NEAR(back.data<double>()[i], x.data<double>()[i], 1e-12);
  }
}

TEST(ComplexTest, ElementwiseOpsFollowStdComplex) {
  Tensor a = complexTensor({{1, 2}, {-3, 0.5}}, {2});
  Tensor b = complexTensor({{0.5, -1}, {2, 2}}, {2});
  Tensor product = binary(BinaryKind::Multiply, a, b);
  Tensor quotient = binary(BinaryKind::Divide, a, b);
  Tensor root = unary(UnaryKind::Sqrt, a);
  Tensor modulus = unary(UnaryKind::Abs, a);
  for (int64_t i = 0; i < 2; ++i) {
    EXPECT_EQ(at(product, i), at(a, i) * at(b, i));
    EXPECT_EQ(at(quotient, i), at(a, i) / at(b, i));
    EXPECT_EQ(at(root, i), std::sqrt(at(a, i)));
    EXPECT_EQ(modulus.dtype(), DType::F64);
    EXPECT_EQ(modulus.elementAsDouble(i), std::abs(at(a, i)));
  }
  EXPECT_FALSE(supportsBinary(BinaryKind::Remainder, DType::C64));
  EXPECT_FALSE(supportsUnary(UnaryKind::Floor, DType::C128));
}

TEST(ComplexTest, MaximumAndCompareOrderRealThenImaginary) {
  Tensor a = complexTensor({{1, 5}, {2, 1}, {3, -1}}, {3});
  Tensor b = complexTensor({{1, 6}, {1, 9}, {3, -1}}, {3});
  Tensor maximum = binary(BinaryKind::Maximum, a, b);
  Tensor minimum = binary(BinaryKind::Minimum, a, b);
  Tensor less = compare(CompareKind::LT, a, b);
  Tensor lessOrEqual = compare(CompareKind::LE, a, b);
  const Complex expectedMax[] = {{1, 6}, {2, 1}, {3, -1}};
  const Complex expectedMin[] = {{1, 5}, {1, 9}, {3, -1}};
  const bool expectedLess[] = {true, false, false};
  const bool expectedLessOrEqual[] = {true, false, true};
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(at(maximum, i), expectedMax[i]);
    EXPECT_EQ(at(minimum, i), expectedMin[i]);
    EXPECT_EQ(less.data<bool>()[i], expectedLess[i]);
    EXPECT_EQ(lessOrEqual.data<bool>()[i], expectedLessOrEqual[i]);
  }
}

} // namespace
