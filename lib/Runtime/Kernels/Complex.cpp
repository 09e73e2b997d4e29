//===- Complex.cpp - complex<f32>/complex<f64> kernels and FFT ------------===//
//
// Complex tensors are (real, imaginary) pairs, computed with std::complex of
// the part type, one element at a time: O(elements) per op (dot_general on
// complex goes to cgemm/zgemm, DotGeneral.cpp).
//
// FFT: each 1-D transform of length n runs an iterative radix-2
// Cooley-Tukey when n is a power of two (O(n log n)) and Bluestein's
// chirp-z otherwise, which turns a length-n DFT into a circular
// convolution of power-of-two length m >= 2n - 1 done by two radix-2
// transforms (O(m log m), so O(n log n) for every n). Twiddles are computed
// in f64 for both part types.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "Dispatch.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numbers>

namespace mlir::mpmd::runtime {

namespace {

template <typename F> decltype(auto) visitPartType(DType dtype, F &&f) {
  if (dtype == DType::C128 || dtype == DType::F64)
    return f(double{});
  return f(float{});
}

template <typename T> std::complex<T> *complexData(Tensor &tensor) {
  return reinterpret_cast<std::complex<T> *>(tensor.bytes());
}
template <typename T>
const std::complex<T> *complexData(const Tensor &tensor) {
  return reinterpret_cast<const std::complex<T> *>(tensor.bytes());
}

template <typename T> std::complex<T> signOf(std::complex<T> z) {
  if (std::isnan(z.real()) || std::isnan(z.imag()))
    return {std::numeric_limits<T>::quiet_NaN(),
            std::numeric_limits<T>::quiet_NaN()};
  T magnitude = std::abs(z);
  return magnitude == 0 ? std::complex<T>(0, 0) : z / magnitude;
}

template <typename T>
std::complex<T> applyUnary(UnaryKind kind, std::complex<T> z) {
  const std::complex<T> one(1, 0);
  switch (kind) {
  case UnaryKind::Negate: return -z;
  case UnaryKind::Sign: return signOf(z);
  case UnaryKind::Exp: return std::exp(z);
  case UnaryKind::Expm1: return std::exp(z) - one;
  case UnaryKind::Log: return std::log(z);
  case UnaryKind::Log1p: return std::log(one + z);
  case UnaryKind::Logistic: return one / (one + std::exp(-z));
  case UnaryKind::Sqrt: return std::sqrt(z);
  case UnaryKind::Rsqrt: return one / std::sqrt(z);
  case UnaryKind::Cbrt: return std::pow(z, T(1) / T(3));
  case UnaryKind::Tanh: return std::tanh(z);
  case UnaryKind::Sine: return std::sin(z);
  case UnaryKind::Cosine: return std::cos(z);
  case UnaryKind::Tan: return std::tan(z);
  case UnaryKind::Sinh: return std::sinh(z);
  case UnaryKind::Cosh: return std::cosh(z);
  case UnaryKind::Asin: return std::asin(z);
  case UnaryKind::Acos: return std::acos(z);
  case UnaryKind::Atan: return std::atan(z);
  case UnaryKind::Asinh: return std::asinh(z);
  case UnaryKind::Acosh: return std::acosh(z);
  case UnaryKind::Atanh: return std::atanh(z);
  default: return z; // not called: supportsComplexUnary says no
  }
}

template <typename T>
bool lexicographicLess(std::complex<T> a, std::complex<T> b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}

template <typename T>
std::complex<T> applyBinary(BinaryKind kind, std::complex<T> a,
                            std::complex<T> b) {
  switch (kind) {
  case BinaryKind::Add: return a + b;
  case BinaryKind::Subtract: return a - b;
  case BinaryKind::Multiply: return a * b;
  case BinaryKind::Divide: return a / b;
  case BinaryKind::Power: return std::pow(a, b);
  // Lexicographic on (real, imag), as the spec orders complex numbers.
  case BinaryKind::Maximum: return lexicographicLess(a, b) ? b : a;
  case BinaryKind::Minimum: return lexicographicLess(b, a) ? b : a;
  // -i log((b + i a) / |b + i a|): the angle of b + i a, which for real a
  // and b is atan2(a, b).
  case BinaryKind::Atan2: {
    const std::complex<T> i(0, 1);
    return -i * std::log((b + i * a) / std::sqrt(a * a + b * b));
  }
  default: return a; // not called: supportsComplexBinary says no
  }
}

} // namespace

namespace detail {

bool supportsComplexUnary(UnaryKind kind) {
  switch (kind) {
  case UnaryKind::Abs: case UnaryKind::Negate: case UnaryKind::Sign:
  case UnaryKind::Exp: case UnaryKind::Expm1: case UnaryKind::Log:
  case UnaryKind::Log1p: case UnaryKind::Logistic: case UnaryKind::Sqrt:
  case UnaryKind::Rsqrt: case UnaryKind::Cbrt: case UnaryKind::Tanh:
  case UnaryKind::Sine: case UnaryKind::Cosine: case UnaryKind::Tan:
  case UnaryKind::Sinh: case UnaryKind::Cosh: case UnaryKind::Asin:
  case UnaryKind::Acos: case UnaryKind::Atan: case UnaryKind::Asinh:
  case UnaryKind::Acosh: case UnaryKind::Atanh:
    return true;
  default:
    return false;
  }
}

bool supportsComplexBinary(BinaryKind kind) {
  return kind == BinaryKind::Add || kind == BinaryKind::Subtract ||
         kind == BinaryKind::Multiply || kind == BinaryKind::Divide ||
         kind == BinaryKind::Power || kind == BinaryKind::Maximum ||
         kind == BinaryKind::Minimum || kind == BinaryKind::Atan2;
}

Tensor complexUnary(UnaryKind kind, const Tensor &operand) {
  int64_t count = operand.numElements();
  return visitPartType(operand.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const std::complex<T> *in = complexData<T>(operand);
    if (kind == UnaryKind::Abs) { // the modulus, a real tensor
      Tensor result = Tensor::empty(complexPartType(operand.dtype()),
                                    operand.shape());
      T *out = result.data<T>();
      for (int64_t i = 0; i < count; ++i)
        out[i] = std::abs(in[i]);
      return result;
    }
    Tensor result = Tensor::empty(operand.dtype(), operand.shape());
    std::complex<T> *out = complexData<T>(result);
    for (int64_t i = 0; i < count; ++i)
      out[i] = applyUnary(kind, in[i]);
    return result;
  });
}

Tensor complexBinary(BinaryKind kind, const Tensor &lhs, const Tensor &rhs) {
  Tensor result = Tensor::empty(lhs.dtype(), lhs.shape());
  int64_t count = lhs.numElements();
  visitPartType(lhs.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const std::complex<T> *a = complexData<T>(lhs), *b = complexData<T>(rhs);
    std::complex<T> *out = complexData<T>(result);
    for (int64_t i = 0; i < count; ++i)
      out[i] = applyBinary(kind, a[i], b[i]);
  });
  return result;
}

Tensor complexCompare(CompareKind kind, const Tensor &lhs, const Tensor &rhs) {
  Tensor result = Tensor::empty(DType::I1, lhs.shape());
  bool *out = result.data<bool>();
  int64_t count = lhs.numElements();
  visitPartType(lhs.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const std::complex<T> *a = complexData<T>(lhs), *b = complexData<T>(rhs);
    for (int64_t i = 0; i < count; ++i) {
      switch (kind) {
      case CompareKind::EQ: out[i] = a[i] == b[i]; break;
      case CompareKind::NE: out[i] = a[i] != b[i]; break;
      case CompareKind::LT: out[i] = lexicographicLess(a[i], b[i]); break;
      case CompareKind::LE: out[i] = !lexicographicLess(b[i], a[i]); break;
      case CompareKind::GT: out[i] = lexicographicLess(b[i], a[i]); break;
      case CompareKind::GE: out[i] = !lexicographicLess(a[i], b[i]); break;
      }
    }
  });
  return result;
}

Tensor convertComplex(const Tensor &operand, DType to) {
  int64_t count = operand.numElements();
  DType from = operand.dtype();
  if (isComplex(from) && isComplex(to)) {
    // Part by part, as float-to-float conversions.
    Tensor parts = operand.bitcast(complexPartType(from),
                                   {operand.numElements() * 2});
    return convert(parts, complexPartType(to)).bitcast(to, operand.shape());
  }
  if (isComplex(from)) {
    // The imaginary part is dropped, except that a nonzero one makes true.
    Tensor real = realPart(operand);
    if (to != DType::I1)
      return convert(real, to);
    Tensor result = Tensor::empty(DType::I1, operand.shape());
    for (int64_t i = 0; i < count; ++i)
      result.data<bool>()[i] = operand.elementAsDouble(i) != 0 ||
                               operand.elementImagAsDouble(i) != 0;
    return result;
  }
  // A real value becomes the real part; the imaginary part is zero.
  Tensor real = convert(operand, complexPartType(to));
  return makeComplex(real, Tensor::zeros(real.dtype(), real.shape()));
}

} // namespace detail

Tensor makeComplex(const Tensor &real, const Tensor &imag) {
  DType dtype = real.dtype() == DType::F64 ? DType::C128 : DType::C64;
  Tensor result = Tensor::empty(dtype, real.shape());
  int64_t count = real.numElements();
  visitPartType(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T *re = real.data<T>(), *im = imag.data<T>();
    std::complex<T> *out = complexData<T>(result);
    for (int64_t i = 0; i < count; ++i)
      out[i] = {re[i], im[i]};
  });
  return result;
}

namespace {

Tensor complexPart(const Tensor &operand, int part) {
  if (!isComplex(operand.dtype()))
    return part == 0 ? operand : Tensor::zeros(operand.dtype(), operand.shape());
  DType partType = complexPartType(operand.dtype());
  Tensor result = Tensor::empty(partType, operand.shape());
  size_t size = dtypeSize(partType);
  for (int64_t i = 0, e = operand.numElements(); i < e; ++i)
    std::memcpy(result.bytes() + i * size,
                operand.bytes() + (2 * i + part) * size, size);
  return result;
}

} // namespace

Tensor realPart(const Tensor &operand) { return complexPart(operand, 0); }
Tensor imagPart(const Tensor &operand) { return complexPart(operand, 1); }

//===----------------------------------------------------------------------===//
// FFT
//===----------------------------------------------------------------------===//

namespace {

using Complex = std::complex<double>;

bool isPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/// In-place radix-2 DFT of a power-of-two length: X[k] = sum x[j] w^(jk)
/// with w = exp(sign * 2 pi i / n).
void radix2(std::vector<Complex> &data, int sign) {
  int64_t n = data.size();
  for (int64_t i = 1, j = 0; i < n; ++i) { // bit-reversal permutation
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j)
      std::swap(data[i], data[j]);
  }
  for (int64_t length = 2; length <= n; length <<= 1) {
    double angle = sign * 2 * std::numbers::pi / length;
    for (int64_t start = 0; start < n; start += length)
      for (int64_t k = 0; k < length / 2; ++k) {
        Complex twiddle = std::polar(1.0, angle * k);
        Complex even = data[start + k], odd = data[start + k + length / 2] * twiddle;
        data[start + k] = even + odd;
        data[start + k + length / 2] = even - odd;
      }
  }
}

/// The unnormalized DFT of any length (sign -1 forward, +1 inverse).
void dft(std::vector<Complex> &data, int sign) {
  int64_t n = data.size();
  if (n <= 1)
    return;
  if (isPowerOfTwo(n))
    return radix2(data, sign);
  // Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2, so X[k] = c[k] sum_j
  // (x[j] c[j]) conj(c[k - j]) with the chirp c[j] = exp(sign pi i j^2 / n):
  // a convolution, done circularly at a power-of-two length.
  int64_t m = 1;
  while (m < 2 * n - 1)
    m <<= 1;
  std::vector<Complex> chirp(n), a(m), b(m);
  for (int64_t j = 0; j < n; ++j) {
    // j^2 mod 2n keeps the angle small (exact for any n that fits).
    int64_t square = (j * j) % (2 * n);
    chirp[j] = std::polar(1.0, sign * std::numbers::pi * square / n);
  }
  for (int64_t j = 0; j < n; ++j)
    a[j] = data[j] * chirp[j];
  b[0] = std::conj(chirp[0]);
  for (int64_t j = 1; j < n; ++j)
    b[j] = b[m - j] = std::conj(chirp[j]);
  radix2(a, -1);
  radix2(b, -1);
  for (int64_t i = 0; i < m; ++i)
    a[i] *= b[i];
  radix2(a, 1);
  for (int64_t k = 0; k < n; ++k)
    data[k] = a[k] * chirp[k] / double(m);
}

/// Applies the 1-D transform `lineTransform(in, out)` (input line length
/// `inLength`, output `outLength`) along the last dimension of a
/// [lines, inLength] complex<double> buffer.
template <typename F>
std::vector<Complex> alongLastDimension(const std::vector<Complex> &in,
                                        int64_t lines, int64_t inLength,
                                        int64_t outLength, F lineTransform) {
  std::vector<Complex> out(lines * outLength);
  std::vector<Complex> line(inLength), result;
  for (int64_t l = 0; l < lines; ++l) {
    std::copy(in.begin() + l * inLength, in.begin() + (l + 1) * inLength,
              line.begin());
    result = lineTransform(line);
    std::copy(result.begin(), result.begin() + outLength,
              out.begin() + l * outLength);
  }
  return out;
}

/// Applies a length-preserving 1-D transform along dimension `dim` (from
/// the back: 0 is the last) of a row-major buffer of `shape`.
template <typename F>
void alongDimension(std::vector<Complex> &data, const Shape &shape,
                    int64_t dim, F transform) {
  int64_t axis = static_cast<int64_t>(shape.size()) - 1 - dim;
  int64_t length = shape[axis];
  int64_t stride = rowMajorStrides(shape)[axis];
  int64_t total = data.size();
  if (length == 0 || total == 0)
    return;
  std::vector<Complex> line(length);
  for (int64_t outer = 0; outer < total / (length * stride); ++outer)
    for (int64_t inner = 0; inner < stride; ++inner) {
      int64_t base = outer * length * stride + inner;
      for (int64_t k = 0; k < length; ++k)
        line[k] = data[base + k * stride];
      transform(line);
      for (int64_t k = 0; k < length; ++k)
        data[base + k * stride] = line[k];
    }
}

} // namespace

Tensor fft(const Tensor &operand, FftKind kind,
           const std::vector<int64_t> &fftLength, const Shape &resultShape,
           DType resultType) {
  // Everything runs in complex<double> and is rounded to the result type.
  int64_t count = operand.numElements();
  std::vector<Complex> data(count);
  for (int64_t i = 0; i < count; ++i)
    data[i] = {operand.elementAsDouble(i), operand.elementImagAsDouble(i)};
  Shape shape = operand.shape();
  int64_t rank = shape.size(), dims = fftLength.size();
  auto forward = [](std::vector<Complex> &line) { dft(line, -1); };
  auto inverse = [](std::vector<Complex> &line) {
    dft(line, 1);
    for (Complex &value : line)
      value /= double(line.size());
  };
  int64_t last = rank ? shape[rank - 1] : 1;
  int64_t lines = last ? count / last : 0;
  switch (kind) {
  case FftKind::FFT:
    for (int64_t d = 0; d < dims; ++d)
      alongDimension(data, shape, d, forward);
    break;
  case FftKind::IFFT:
    for (int64_t d = dims - 1; d >= 0; --d)
      alongDimension(data, shape, d, inverse);
    break;
  case FftKind::RFFT: {
    int64_t outLength = resultShape[rank - 1];
    data = alongLastDimension(data, lines, last, outLength,
                              [&](std::vector<Complex> line) {
                                forward(line);
                                return line;
                              });
    shape[rank - 1] = outLength;
    for (int64_t d = 1; d < dims; ++d)
      alongDimension(data, shape, d, forward);
    break;
  }
  case FftKind::IRFFT: {
    for (int64_t d = dims - 1; d >= 1; --d)
      alongDimension(data, shape, d, inverse);
    // The last dimension holds the first n/2 + 1 terms of a Hermitian
    // spectrum of length n = fft_length's last: complete it, invert, keep
    // the real parts.
    int64_t n = fftLength.back();
    data = alongLastDimension(data, lines, last, n,
                              [&](const std::vector<Complex> &half) {
                                std::vector<Complex> full(n);
                                for (int64_t k = 0; k < n; ++k)
                                  full[k] = k < int64_t(half.size())
                                                ? half[k]
                                                : std::conj(half[n - k]);
                                inverse(full);
                                return full;
                              });
    break;
  }
  }
  Tensor result = Tensor::empty(resultType, resultShape);
  visitPartType(resultType, [&](auto tag) {
    using T = decltype(tag);
    int64_t elements = result.numElements();
    if (isComplex(resultType)) {
      std::complex<T> *out = complexData<T>(result);
      for (int64_t i = 0; i < elements; ++i)
        out[i] = {static_cast<T>(data[i].real()), static_cast<T>(data[i].imag())};
    } else {
      T *out = result.data<T>();
      for (int64_t i = 0; i < elements; ++i)
        out[i] = static_cast<T>(data[i].real());
    }
  });
  return result;
}

} // namespace mlir::mpmd::runtime
