//===- DotGeneral.cpp - dot_general as (batched) GEMM ---------------------===//
//
// The operands are viewed as [B, M, K] and [B, K, N] (batch, free,
// contracting). When an operand's dimensions are already in that order, or
// in the transposed [B, K, M] / [B, N, K] order, it goes to BLAS as it is
// (with the transpose flag); otherwise one transpose copy puts it in order.
// f32 and f64 use OpenBLAS sgemm/dgemm (one call per batch element);
// complex<f32>/complex<f64> use cgemm/zgemm; narrow floats go through
// f32; integer dtypes use a cache-friendly i-k-j loop. dotGeneralAccumulate
// adds the product into an existing tensor with gemm's beta = 1.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "Dispatch.h"

#include <cblas.h>

#include <cstring>

namespace mlir::mpmd::runtime {

namespace {

enum class OperandLayout { Normal, Transposed };

std::vector<int64_t> concat(std::initializer_list<const std::vector<int64_t> *> parts) {
  std::vector<int64_t> result;
  for (const std::vector<int64_t> *part : parts)
    result.insert(result.end(), part->begin(), part->end());
  return result;
}

bool isIdentity(const std::vector<int64_t> &permutation) {
  for (size_t i = 0; i < permutation.size(); ++i)
    if (permutation[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

std::vector<int64_t> freeDimensions(int64_t rank, const std::vector<int64_t> &batch,
                                    const std::vector<int64_t> &contracting) {
  std::vector<bool> used(rank, false);
  for (int64_t d : batch)
    used[d] = true;
  for (int64_t d : contracting)
    used[d] = true;
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!used[d])
      free.push_back(d);
  return free;
}

int64_t productOf(const Tensor &tensor, const std::vector<int64_t> &dims) {
  int64_t product = 1;
  for (int64_t d : dims)
    product *= tensor.shape()[d];
  return product;
}

/// `operand` in the order `normal` (or `transposed`, when that is free),
/// with the layout it ended up in.
std::pair<Tensor, OperandLayout> arrange(const Tensor &operand,
                                         const std::vector<int64_t> &normal,
                                         const std::vector<int64_t> &transposed,
                                         bool allowTransposed) {
  if (isIdentity(normal))
    return {operand, OperandLayout::Normal};
  if (allowTransposed && isIdentity(transposed))
    return {operand, OperandLayout::Transposed};
  return {transpose(operand, normal), OperandLayout::Normal};
}

template <typename T>
void integerGemm(int64_t batches, int64_t m, int64_t n, int64_t k, const T *lhs,
                 const T *rhs, T *out) {
  for (int64_t b = 0; b < batches; ++b) {
    const T *a = lhs + b * m * k, *bMatrix = rhs + b * k * n;
    T *c = out + b * m * n;
    std::fill(c, c + m * n, T(0));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) {
        T scale = a[i * k + p];
        const T *row = bMatrix + p * n;
        T *outRow = c + i * n;
        for (int64_t j = 0; j < n; ++j)
          outRow[j] = static_cast<T>(outRow[j] + scale * row[j]);
      }
  }
}

} // namespace

namespace {

/// The shape of the dot_general of `lhs` and `rhs`: batch, free lhs, free
/// rhs dimensions.
Shape getResultShape(const Tensor &lhs, const Tensor &rhs,
                     const DotDimensions &dims) {
  Shape shape;
  for (int64_t d : dims.lhsBatch)
    shape.push_back(lhs.shape()[d]);
  for (int64_t d : freeDimensions(lhs.rank(), dims.lhsBatch, dims.lhsContracting))
    shape.push_back(lhs.shape()[d]);
  for (int64_t d : freeDimensions(rhs.rank(), dims.rhsBatch, dims.rhsContracting))
    shape.push_back(rhs.shape()[d]);
  return shape;
}

/// `result` = lhs·rhs, or with `accumulate` `result` += lhs·rhs (gemm's
/// beta = 1: no zero-filling pass over the result and no separate add).
/// `lhs` and `rhs` have the dtype the product is computed in (not f16/bf16),
/// `result` that dtype and the dot's shape, in a buffer of its own.
void multiplyInto(const Tensor &lhs, const Tensor &rhs,
                  const DotDimensions &dims, Tensor &result, bool accumulate) {
  std::vector<int64_t> lhsFree =
      freeDimensions(lhs.rank(), dims.lhsBatch, dims.lhsContracting);
  std::vector<int64_t> rhsFree =
      freeDimensions(rhs.rank(), dims.rhsBatch, dims.rhsContracting);
  int64_t batches = productOf(lhs, dims.lhsBatch), m = productOf(lhs, lhsFree),
          k = productOf(lhs, dims.lhsContracting), n = productOf(rhs, rhsFree);

  bool isBlasType = lhs.dtype() == DType::F32 || lhs.dtype() == DType::F64 ||
                    isComplex(lhs.dtype());
  auto [a, aLayout] = arrange(
      lhs, concat({&dims.lhsBatch, &lhsFree, &dims.lhsContracting}),
      concat({&dims.lhsBatch, &dims.lhsContracting, &lhsFree}), isBlasType);
  auto [b, bLayout] = arrange(
      rhs, concat({&dims.rhsBatch, &dims.rhsContracting, &rhsFree}),
      concat({&dims.rhsBatch, &rhsFree, &dims.rhsContracting}), isBlasType);

  if (k == 0) {
    // An empty contraction adds nothing.
    if (!accumulate)
      std::memset(result.bytes(), 0, result.byteSize());
    return;
  }
  if (batches * m * n == 0)
    return;
  if (!isBlasType) {
    // The integer loop writes a fresh product; an accumulation adds it after.
    Tensor product = accumulate ? Tensor::empty(result.dtype(), result.shape())
                                : result;
    detail::visitStorageType(lhs.dtype(), [&](auto tag) {
      using T = decltype(tag);
      integerGemm<T>(batches, m, n, k, a.data<T>(), b.data<T>(),
                     product.data<T>());
    });
    if (accumulate)
      binaryInto(BinaryKind::Add, result, product, result);
    return;
  }
  CBLAS_TRANSPOSE transA = aLayout == OperandLayout::Normal ? CblasNoTrans : CblasTrans;
  CBLAS_TRANSPOSE transB = bLayout == OperandLayout::Normal ? CblasNoTrans : CblasTrans;
  int64_t lda = aLayout == OperandLayout::Normal ? k : m;
  int64_t ldb = bLayout == OperandLayout::Normal ? n : k;
  const float betaF = accumulate ? 1.0f : 0.0f;
  const double beta = accumulate ? 1.0 : 0.0;
  for (int64_t batch = 0; batch < batches; ++batch) {
    if (isComplex(lhs.dtype())) {
      // cgemm/zgemm: alpha = 1 and beta as (real, imaginary) pairs.
      static const double one[2] = {1, 0};
      static const float oneF[2] = {1, 0};
      const double betaPair[2] = {beta, 0};
      const float betaPairF[2] = {betaF, 0};
      size_t size = dtypeSize(lhs.dtype());
      const std::byte *aBatch = a.bytes() + batch * m * k * size,
                      *bBatch = b.bytes() + batch * k * n * size;
      std::byte *cBatch = result.bytes() + batch * m * n * size;
      if (lhs.dtype() == DType::C64)
        cblas_cgemm(CblasRowMajor, transA, transB, m, n, k, oneF, aBatch, lda,
                    bBatch, ldb, betaPairF, cBatch, n);
      else
        cblas_zgemm(CblasRowMajor, transA, transB, m, n, k, one, aBatch, lda,
                    bBatch, ldb, betaPair, cBatch, n);
    } else if (lhs.dtype() == DType::F32)
      cblas_sgemm(CblasRowMajor, transA, transB, m, n, k, 1.0f,
                  a.data<float>() + batch * m * k, lda,
                  b.data<float>() + batch * k * n, ldb, betaF,
                  result.data<float>() + batch * m * n, n);
    else
      cblas_dgemm(CblasRowMajor, transA, transB, m, n, k, 1.0,
                  a.data<double>() + batch * m * k, lda,
                  b.data<double>() + batch * k * n, ldb, beta,
                  result.data<double>() + batch * m * n, n);
  }
}

} // namespace

Tensor dotGeneral(const Tensor &lhsIn, const Tensor &rhsIn,
                  const DotDimensions &dims) {
  Tensor lhs = detail::widenForCompute(lhsIn), rhs = detail::widenForCompute(rhsIn);
  // Every path of multiplyInto writes the whole result.
  Tensor result = Tensor::empty(lhs.dtype(), getResultShape(lhs, rhs, dims));
  multiplyInto(lhs, rhs, dims, result, /*accumulate=*/false);
  return roundsAfterEachOp(lhsIn.dtype()) ? detail::roundToDType(result, lhsIn.dtype())
                               : result;
}

void dotGeneralAccumulate(const Tensor &lhs, const Tensor &rhs,
                          const DotDimensions &dims, Tensor &accumulator) {
  if (roundsAfterEachOp(lhs.dtype())) {
    // Rounded to the narrow format after the dot and after the add, as the
    // two ops would be.
    accumulator = binary(BinaryKind::Add, accumulator, dotGeneral(lhs, rhs, dims));
    return;
  }
  multiplyInto(lhs, rhs, dims, accumulator, /*accumulate=*/true);
}

BlasThreadLimit::BlasThreadLimit(int threads)
    : previous(openblas_get_num_threads()) {
  openblas_set_num_threads(threads);
}

BlasThreadLimit::~BlasThreadLimit() { openblas_set_num_threads(previous); }

} // namespace mlir::mpmd::runtime
