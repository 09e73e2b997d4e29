//===- Convolution.cpp - stablehlo.convolution ----------------------------===//
//
// Two implementations of one definition (the spec's convolution):
//
// * convolutionReference: one dot product per result element, read through
//   the operands' own strides and the spec's index arithmetic (dilated,
//   padded window positions; reversal by mirrored window index; groups by
//   offsets). Any dtype; O(result x window x input features per group).
//   Integers and i1 run here, and the tests hold the fast path to it.
//
// * the direct kernel (f32, one group, an undilated lhs with at most 4
//   features, or at most 4 batch elements in the filter gradient's stored
//   form: a 3-channel stem's forward and filter gradient): no im2col, no
//   BLAS; register-blocked loops (ConvolutionDirectLoops.h) over the lhs
//   with its innermost dimension padded and the kernel as stored.
//
// * the few-result-features kernel (f32, one group, at most 4 result
//   features, any lhs dilation: a stem's input gradient, the image's 3
//   channels from the output gradient's 64): no BLAS; per result position
//   a dot product over the taps that land on lhs elements (none on the
//   dilation's holes) and the input features, vectorized along those
//   (ConvolutionDirectLoops.h), on lhs [B, X..., I] and kernel [K..., O,
//   I] as NHWC gradients store them.
//
// * the GEMM path (f32, f64, and f16/bf16 computed in f32), one of
//   - transposed gather (filter gradients: one group, operands stored as
//     below, result positions x batch at most the reduction, window taps x
//     input features, and an undilated lhs): the im2col matrix
//     built transposed, rows = (input feature, window tap), columns =
//     (result position, batch), read from the lhs as [I, X..., B] and
//     multiplied with the kernel as [I, K..., O] by sgemm with A
//     transposed, accumulating over row tiles with beta = 1. JAX stores a
//     filter gradient's operands in exactly these layouts (x [N, H, W, C]
//     as [f, 0, 1, b], the output gradient as [i, 0, 1, o]), so nothing is
//     transposed first, and the rows are the forward's im2col rows: runs
//     of (window row x channels) contiguous elements. When windows cover
//     the input (1x1), the matrix is the lhs itself: one GEMM, no copy.
//   - otherwise the operands are copied into a canonical layout, lhs
//     [B, X..., C] and kernel [K..., I, O] with reversed dimensions
//     flipped (skipped when already in that layout and unreversed), then
//     per group:
//     - gather (im2col): rows = result positions (b, y...), columns =
//       window taps x input features (k..., c); each tile of that matrix
//       is filled from the lhs (zeros for padding and dilation holes) and
//       multiplied with the kernel's [K...*I, O] rows by sgemm/dgemm. When
//       the matrix is the lhs itself (1x1 windows, stride 1) no copy is
//       made: the GEMM runs in row tiles on the lhs as it is.
//     - scatter (col2im): when the lhs is dilated (the input gradient of
//       a strided convolution), gathering would multiply mostly the holes'
//       zeros; instead every lhs row (b, x...) is multiplied by the kernel
//       as [I, K...*O] and each tap's product is added to the result row
//       it lands on (y * stride = x * dilation + low - k * rhs_dilation);
//       with stride and rhs dilation 1 along the innermost dimension, a
//       whole window row of taps lands on consecutive result elements and
//       is added as one run.
//     The result comes out as [B', Y..., O] and is transposed to the
//     requested layout when that differs.
//   Tiles hold at most kTileElements elements (a transposed tile at least
//   one row of result positions x batch), so the extra memory is bounded
//   whatever the shapes; the GEMM does all the arithmetic.
//
// docs/runtime.md explains the choice and docs/measurements.md gives the
// numbers (bench/ConvolutionBenchmark.cpp).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "ConvolutionDirectLoops.h"
#include "Dispatch.h"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace mlir::mpmd::runtime {

namespace {

using detail::lhsPosition;

//===----------------------------------------------------------------------===//
// Reference
//===----------------------------------------------------------------------===//

/// Advances `index` over `shape` in row-major order (all zeros after the
/// last index).
void advance(std::vector<int64_t> &index, const Shape &shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return;
    index[d] = 0;
  }
}

template <typename T>
void referenceTyped(const Tensor &lhs, const Tensor &rhs,
                    const ConvolutionDimensions &dims, Tensor &result) {
  const T *l = lhs.data<T>();
  const T *r = rhs.data<T>();
  T *out = result.data<T>();
  int64_t numSpatial = static_cast<int64_t>(dims.inputSpatial.size());
  std::vector<int64_t> lhsStrides = lhs.strides(), rhsStrides = rhs.strides();
  const Shape &resultShape = result.shape();
  int64_t batch = lhs.shape()[dims.inputBatch];
  int64_t outFeatures = rhs.shape()[dims.kernelOutputFeature];
  int64_t inFeatures = rhs.shape()[dims.kernelInputFeature];
  int64_t batchGroupSize = batch / dims.batchGroupCount;
  int64_t featuresPerBatchGroup = outFeatures / dims.batchGroupCount;
  int64_t featuresPerFeatureGroup = outFeatures / dims.featureGroupCount;
  Shape window(numSpatial);
  for (int64_t d = 0; d < numSpatial; ++d)
    window[d] = rhs.shape()[dims.kernelSpatial[d]];

  std::vector<int64_t> resultIndex(resultShape.size(), 0);
  for (int64_t linear = 0, e = result.numElements(); linear < e; ++linear) {
    int64_t outBatch = resultIndex[dims.outputBatch];
    int64_t outFeature = resultIndex[dims.outputFeature];
    // The spec splits the lhs batch (batch groups) or features (feature
    // groups) and the kernel's output features into as many parts, and
    // concatenates the parts' results along the output features.
    int64_t lhsBatch =
        outFeature / featuresPerBatchGroup * batchGroupSize + outBatch;
    int64_t firstFeature = outFeature / featuresPerFeatureGroup * inFeatures;
    using Accumulator =
        std::conditional_t<std::is_floating_point_v<T>, double,
                           std::conditional_t<std::is_same_v<T, bool>, bool,
                                              uint64_t>>;
    Accumulator sum = 0;
    std::vector<int64_t> tap(numSpatial, 0);
    for (int64_t t = 0, taps = numElementsOf(window); t < taps; ++t) {
      // The lhs element this tap reads, or none (padding or a hole).
      int64_t lhsOffset = lhsBatch * lhsStrides[dims.inputBatch];
      int64_t rhsOffset = outFeature * rhsStrides[dims.kernelOutputFeature];
      bool inside = true;
      for (int64_t d = 0; d < numSpatial && inside; ++d) {
        int64_t position = dims.reversal[d] ? window[d] - 1 - tap[d] : tap[d];
        int64_t padded =
            resultIndex[dims.outputSpatial[d]] * dims.strides[d] +
            position * dims.rhsDilation[d] - dims.paddingLow[d];
        int64_t dilation = dims.lhsDilation[d];
        int64_t x = padded / dilation;
        inside = padded >= 0 && padded % dilation == 0 &&
                 x < lhs.shape()[dims.inputSpatial[d]];
        lhsOffset += x * lhsStrides[dims.inputSpatial[d]];
        rhsOffset += tap[d] * rhsStrides[dims.kernelSpatial[d]];
      }
      advance(tap, window);
      if (!inside)
        continue;
      for (int64_t c = 0; c < inFeatures; ++c) {
        T a = l[lhsOffset + (firstFeature + c) * lhsStrides[dims.inputFeature]];
        T b = r[rhsOffset + c * rhsStrides[dims.kernelInputFeature]];
        if constexpr (std::is_floating_point_v<T>)
          sum += static_cast<double>(a) * static_cast<double>(b);
        else if constexpr (std::is_same_v<T, bool>)
          sum = sum || (a && b);
        else // Two's complement wrap-around, without signed overflow.
          sum += static_cast<uint64_t>(static_cast<int64_t>(a)) *
                 static_cast<uint64_t>(static_cast<int64_t>(b));
      }
    }
    out[linear] = static_cast<T>(sum);
    advance(resultIndex, resultShape);
  }
}

//===----------------------------------------------------------------------===//
// GEMM path
//===----------------------------------------------------------------------===//

/// The most elements an im2col / col2im tile, or the result rows of one
/// copy-free GEMM, hold: 256 KiB of f32, half an L2, so that what one step
/// writes is still in cache when the next reads it (sgemm packing a tile
/// it was just given, col2im adding the products sgemm just wrote, sgemm
/// accumulating into the rows it just zeroed for beta = 0). With 4 MiB
/// tiles, sgemm's packing of the stem's im2col tile cost 40% of its
/// multiply time, 16% with these (perf, docs/measurements.md).
constexpr int64_t kTileElements = int64_t(1) << 16;
/// Tiles keep at least this many rows (splitting the window taps instead,
/// accumulating with beta = 1) so that the GEMMs stay large.
constexpr int64_t kMinTileRows = 256;

void blasGemm(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
              const float *b, int64_t ldb, float *c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, lda,
              b, ldb, 1.0f, c, ldc);
}
void blasGemm(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
              const double *b, int64_t ldb, double *c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, lda,
              b, ldb, 1.0, c, ldc);
}

/// C = A B (beta 0) or C += A B (beta 1). For beta 0, C is zeroed here and
/// the GEMM accumulates: OpenBLAS would otherwise zero C in a separate pass
/// of its own that perf shows at 11-17% of the multiply time on the stem's
/// tiles, several times what a fill costs.
template <typename T>
void gemm(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
          const T *b, int64_t ldb, T beta, T *c, int64_t ldc) {
  if (beta == T(0))
    for (int64_t i = 0; i < m; ++i)
      std::fill_n(c + i * ldc, n, T(0));
  blasGemm(m, n, k, a, lda, b, ldb, c, ldc);
}

/// C (+)= A^T B, with A stored as [k, m].
void gemmTransposedA(int64_t m, int64_t n, int64_t k, const float *a,
                     int64_t lda, const float *b, float beta, float *c) {
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0f, a, lda,
              b, n, beta, c, n);
}
void gemmTransposedA(int64_t m, int64_t n, int64_t k, const double *a,
                     int64_t lda, const double *b, double beta, double *c) {
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0, a, lda,
              b, n, beta, c, n);
}

/// An uninitialized tile of `n` elements from the tensor buffer pool: a
/// convolution takes tiles of the same sizes on every call, and a
/// std::vector of 256 KiB was mmapped and page-faulted in again each time
/// (16% of the stem's input gradient in perf).
template <typename T>
Tensor scratchTile(int64_t n) {
  return Tensor::empty(std::is_same_v<T, float> ? DType::F32 : DType::F64, {n});
}

/// Sizes of the convolution in canonical form.
struct Canonical {
  int64_t numSpatial;
  Shape input, window, output; // X..., K..., Y...
  std::vector<int64_t> strides, low, lhsDilation, rhsDilation;
  int64_t batch, features;         // B, C of the lhs
  int64_t groups;                  // feature or batch groups (one is 1)
  int64_t groupBatch;              // B' (result batch)
  int64_t groupFeatures;           // I (kernel input features)
  int64_t outFeatures, groupOutFeatures; // O, O / groups
  int64_t taps;                    // prod K
  int64_t inputPositions, outputPositions; // prod X, prod Y
};

/// `operand` with dimensions `order` (and `reversed` of them flipped), as a
/// contiguous tensor; the operand itself when that changes nothing.
Tensor arrange(const Tensor &operand, const std::vector<int64_t> &order,
               const std::vector<bool> &reversed) {
  bool identity = true, anyReversed = false;
  for (size_t i = 0; i < order.size(); ++i) {
    identity &= order[i] == static_cast<int64_t>(i) && !reversed[i];
    anyReversed |= reversed[i];
  }
  if (identity)
    return operand;
  // The transpose kernel copies in cache-sized tiles when the innermost
  // dimension moves (as for a filter gradient's [N, H, W, C] -> [C, H, W,
  // N]); the strided copy below would read one element per cache line.
  if (!anyReversed)
    return transpose(operand, order);
  Shape shape(order.size());
  std::vector<int64_t> operandStrides = operand.strides(),
                       srcStrides(order.size());
  int64_t offset = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    shape[i] = operand.shape()[order[i]];
    srcStrides[i] = operandStrides[order[i]];
    if (reversed[i] && shape[i] > 0) {
      offset += (shape[i] - 1) * srcStrides[i];
      srcStrides[i] = -srcStrides[i];
    }
  }
  Tensor result = Tensor::empty(operand.dtype(), shape);
  if (result.numElements() > 0)
    detail::stridedCopy(shape, operand, offset, srcStrides, result, 0,
                        result.strides());
  return result;
}

/// Whether the im2col matrix of one group is the canonical lhs itself, seen
/// as [B' * Y..., K... * I] rows with a row stride: every spatial dimension
/// is either output-like (x = y: window 1, stride 1, no padding or
/// dilation) or window-like (x = k: one window covering the input), the
/// output-like ones first, and window-like ones only when the group reads
/// all lhs features (columns (k..., c) contiguous). Sets `rowStride`.
bool isLhsItsOwnIm2col(const Canonical &c, int64_t &rowStride) {
  bool seenWindowLike = false;
  int64_t windowLikePositions = 1;
  for (int64_t d = 0; d < c.numSpatial; ++d) {
    bool plain = c.low[d] == 0 && c.lhsDilation[d] == 1;
    bool outputLike = plain && c.window[d] == 1 && c.strides[d] == 1 &&
                      c.output[d] == c.input[d];
    bool windowLike = plain && c.output[d] == 1 && c.rhsDilation[d] == 1 &&
                      c.window[d] == c.input[d];
    if (outputLike && windowLike)
      continue;
    if (outputLike && !seenWindowLike)
      continue;
    if (!windowLike)
      return false;
    seenWindowLike = true;
    windowLikePositions *= c.input[d];
  }
  if (seenWindowLike && c.groupFeatures != c.features)
    return false;
  rowStride = windowLikePositions * c.features;
  return true;
}

/// The offset in the lhs of the window position `output * stride + tap *
/// rhs_dilation - low` over every spatial dimension but the last (x on the
/// lhs grid, then `x * inputStrides`), or -1 when it falls in padding or
/// between dilated positions.
inline int64_t getOuterOffset(const Canonical &c, const int64_t *output,
                              const int64_t *tap,
                              const std::vector<int64_t> &inputStrides) {
  int64_t offset = 0;
  for (int64_t e = 0; e + 1 < c.numSpatial; ++e) {
    int64_t x = lhsPosition(output[e] * c.strides[e] +
                                tap[e] * c.rhsDilation[e] - c.low[e],
                            c.lhsDilation[e], c.input[e]);
    if (x < 0)
      return -1;
    offset += x * inputStrides[e];
  }
  return offset;
}

/// Writes `length` elements to `dst`, a run of items of `width` elements
/// each: items [begin, end) copied from `run` (the run's first item in the
/// source), zeros before and after them (padding). Fills only where padding
/// is: a call per empty fill costs as much as copying a stem run.
template <typename T>
void copyClippedRun(T *dst, const T *run, int64_t begin, int64_t end,
                    int64_t width, int64_t length) {
  if (begin > 0)
    std::fill(dst, dst + begin * width, T(0));
  std::copy_n(run + begin * width, (end - begin) * width, dst + begin * width);
  if (end * width < length)
    std::fill(dst + end * width, dst + length, T(0));
}

template <typename T>
void gatherGroup(const Canonical &c, const T *lhs, const T *kernel, T *out,
                 int64_t group, bool batchGroups) {
  int64_t s = c.numSpatial;
  int64_t batchOffset = batchGroups ? group * c.groupBatch : 0;
  int64_t featureOffset = batchGroups ? 0 : group * c.groupFeatures;
  int64_t outOffset = group * c.groupOutFeatures;
  int64_t rows = c.groupBatch * c.outputPositions;
  int64_t columns = c.taps * c.groupFeatures;
  const T *groupKernel = kernel + outOffset;
  T *groupOut = out + outOffset;
  const T *groupLhs =
      lhs + batchOffset * c.inputPositions * c.features + featureOffset;

  int64_t rowStride;
  if (isLhsItsOwnIm2col(c, rowStride)) {
    // In row tiles whose result stays in L2 between the GEMM's zeroing
    // (beta = 0) and its accumulation, instead of two passes over memory.
    int64_t tileRows = std::max<int64_t>(
        kMinTileRows, kTileElements / std::max<int64_t>(c.groupOutFeatures, 1));
    for (int64_t r0 = 0; r0 < rows; r0 += tileRows)
      gemm(std::min(tileRows, rows - r0), c.groupOutFeatures, columns,
           groupLhs + r0 * rowStride, rowStride, groupKernel, c.outFeatures,
           T(0), groupOut + r0 * c.outFeatures, c.outFeatures);
    return;
  }

  // Tiles: whole rows of taps when they fit, else runs of whole innermost
  // window rows (so the last dimension is walked as one run below).
  int64_t lastWindow = s ? std::max<int64_t>(c.window[s - 1], 1) : 1;
  int64_t tileRows, tileTaps;
  if (columns * std::min<int64_t>(rows, kMinTileRows) <= kTileElements) {
    tileTaps = c.taps;
    tileRows = kTileElements / columns;
  } else {
    tileRows = std::min<int64_t>(rows, kMinTileRows);
    tileTaps = std::max<int64_t>(
        kTileElements / (tileRows * c.groupFeatures) / lastWindow * lastWindow,
        lastWindow);
  }
  tileRows = std::min(tileRows, rows);
  Tensor tile =
      scratchTile<T>(tileRows * std::min(tileTaps, c.taps) * c.groupFeatures);

  // Element strides of x... in one image of the canonical lhs [B, X..., C].
  std::vector<int64_t> inputStrides(s);
  for (int64_t d = s - 1; d >= 0; --d)
    inputStrides[d] = d == s - 1 ? c.features : inputStrides[d + 1] * c.input[d + 1];
  int64_t batchStride = c.inputPositions * c.features;

  Shape windowPrefix(c.window.begin(), c.window.end() - (s ? 1 : 0));
  std::vector<int64_t> position(s), prefix(windowPrefix.size());
  // Along the innermost dimension, a run of taps is one block of the lhs.
  bool contiguous = s > 0 && c.lhsDilation[s - 1] == 1 &&
                    c.rhsDilation[s - 1] == 1 && c.groupFeatures == c.features;
  for (int64_t r0 = 0; r0 < rows; r0 += tileRows) {
    int64_t r1 = std::min(rows, r0 + tileRows);
    for (int64_t t0 = 0; t0 < c.taps; t0 += tileTaps) {
      int64_t t1 = std::min(c.taps, t0 + tileTaps);
      int64_t width = (t1 - t0) * c.groupFeatures;
      // Row r: result position (b, y...).
      int64_t b = r0 / c.outputPositions;
      for (int64_t d = s - 1, rest = r0 % c.outputPositions; d >= 0; --d) {
        position[d] = rest % c.output[d];
        rest /= c.output[d];
      }
      for (int64_t r = r0; r < r1; ++r) {
        T *row = tile.data<T>() + (r - r0) * width;
        const T *image = groupLhs + b * batchStride;
        // Taps t0..t1 are whole runs over the innermost window dimension.
        int64_t firstPrefix = t0 / lastWindow;
        for (int64_t d = static_cast<int64_t>(prefix.size()) - 1,
                     rest = firstPrefix;
             d >= 0; --d) {
          prefix[d] = rest % windowPrefix[d];
          rest /= windowPrefix[d];
        }
        // The innermost dimension's taps k with 0 <= start + k < X, the
        // same for every run of this row (contiguous case).
        int64_t d = s - 1;
        int64_t start = s ? position[d] * c.strides[d] - c.low[d] : 0;
        int64_t kBegin = std::clamp<int64_t>(-start, 0, lastWindow);
        int64_t kEnd = s ? std::clamp<int64_t>(c.input[d] - start, kBegin,
                                               lastWindow)
                         : kBegin;
        for (int64_t t = t0; t < t1; t += lastWindow) {
          T *dst = row + (t - t0) * c.groupFeatures;
          int64_t runLength = lastWindow * c.groupFeatures;
          int64_t offset =
              getOuterOffset(c, position.data(), prefix.data(), inputStrides);
          advance(prefix, windowPrefix);
          if (s == 0) {
            std::copy_n(image, c.groupFeatures, dst);
          } else if (offset < 0) {
            std::fill(dst, dst + runLength, T(0));
          } else if (contiguous) {
            copyClippedRun(dst, image + offset + start * c.features, kBegin,
                           kEnd, c.features, runLength);
          } else {
            for (int64_t k = 0; k < lastWindow; ++k) {
              T *to = dst + k * c.groupFeatures;
              int64_t x = lhsPosition(start + k * c.rhsDilation[d],
                                      c.lhsDilation[d], c.input[d]);
              if (x < 0)
                std::fill(to, to + c.groupFeatures, T(0));
              else
                std::copy_n(image + offset + x * c.features, c.groupFeatures, to);
            }
          }
        }
        // Next result position.
        advance(position, c.output);
        if (std::all_of(position.begin(), position.end(),
                        [](int64_t i) { return i == 0; }))
          ++b;
      }
      gemm(r1 - r0, c.groupOutFeatures, width, tile.data<T>(), width,
           groupKernel + t0 * c.groupFeatures * c.outFeatures, c.outFeatures,
           t0 == 0 ? T(0) : T(1), groupOut + r0 * c.outFeatures,
           c.outFeatures);
    }
  }
}

/// The im2col matrix built transposed, for one group of all features: rows
/// (i, k...) (the reduction, matching the kernel [I, K..., O] row by row),
/// columns (y..., b) read from the lhs [I, X..., B]. Along the innermost
/// dimension with stride 1 and no lhs dilation, consecutive y read
/// consecutive x, so a row is a few runs of Y x B contiguous elements (for
/// a filter gradient: the forward's im2col rows). The result [Y..., B, O]
/// is the sum over row tiles of tile^T x kernel rows, accumulated by the
/// GEMM with beta = 1, so the tile stays small while the GEMM sees the
/// whole result. When the windows cover the input (a 1x1 convolution's
/// filter gradient), the matrix is the lhs itself: one GEMM, no copy.
template <typename T>
void gatherTransposed(const Canonical &c, const T *lhs, const T *kernel,
                      T *out) {
  int64_t s = c.numSpatial;
  int64_t columns = c.outputPositions * c.batch;
  int64_t rows = c.groupFeatures * c.taps;
  bool windowsCoverInput = true;
  for (int64_t d = 0; d < s; ++d)
    windowsCoverInput &= c.output[d] == 1 && c.low[d] == 0 &&
                         c.lhsDilation[d] == 1 &&
                         (c.rhsDilation[d] == 1 || c.window[d] == 1) &&
                         c.window[d] == c.input[d];
  if (windowsCoverInput) {
    gemmTransposedA(columns, c.outFeatures, rows, lhs, columns, kernel, T(0),
                    out);
    return;
  }
  int64_t tileRows =
      std::clamp<int64_t>(kTileElements / columns, 1, rows);
  Tensor tile = scratchTile<T>(tileRows * columns);
  // Element strides of x... in one feature of the lhs [I, X..., B].
  std::vector<int64_t> inputStrides(s);
  for (int64_t d = s - 1; d >= 0; --d)
    inputStrides[d] = d == s - 1 ? c.batch : inputStrides[d + 1] * c.input[d + 1];
  int64_t featureStride = c.inputPositions * c.batch;
  int64_t lastOutput = s ? c.output[s - 1] : 1;
  Shape outerOutput(c.output.begin(), c.output.end() - (s ? 1 : 0));
  std::vector<int64_t> tap(s), outerY(outerOutput.size());
  // Along the innermost dimension, consecutive y read one block of the lhs.
  bool contiguous = s > 0 && c.strides[s - 1] == 1 && c.lhsDilation[s - 1] == 1;
  for (int64_t r0 = 0; r0 < rows; r0 += tileRows) {
    int64_t r1 = std::min(rows, r0 + tileRows);
    for (int64_t d = s - 1, rest = r0 % c.taps; d >= 0; --d) {
      tap[d] = rest % c.window[d];
      rest /= c.window[d];
    }
    for (int64_t r = r0; r < r1; ++r) {
      T *row = tile.data<T>() + (r - r0) * columns;
      const T *feature = lhs + r / c.taps * featureStride;
      if (s == 0)
        std::copy_n(feature, c.batch, row);
      std::fill(outerY.begin(), outerY.end(), 0);
      // The innermost dimension's y with 0 <= y + start < X, the same for
      // every run of this row (contiguous case).
      int64_t d = s - 1;
      int64_t start = s ? tap[d] * c.rhsDilation[d] - c.low[d] : 0;
      int64_t yBegin = std::clamp<int64_t>(-start, 0, lastOutput);
      int64_t yEnd = s ? std::clamp<int64_t>(c.input[d] - start, yBegin,
                                             lastOutput)
                       : yBegin;
      int64_t runLength = lastOutput * c.batch;
      for (int64_t y0 = 0; s > 0 && y0 < c.outputPositions; y0 += lastOutput) {
        T *dst = row + y0 * c.batch;
        int64_t offset =
            getOuterOffset(c, outerY.data(), tap.data(), inputStrides);
        advance(outerY, outerOutput);
        if (offset < 0) {
          std::fill(dst, dst + runLength, T(0));
        } else if (contiguous) {
          copyClippedRun(dst, feature + offset + start * c.batch, yBegin, yEnd,
                         c.batch, runLength);
        } else {
          for (int64_t y = 0; y < lastOutput; ++y) {
            T *to = dst + y * c.batch;
            int64_t x = lhsPosition(y * c.strides[d] + start, c.lhsDilation[d],
                                    c.input[d]);
            if (x < 0)
              std::fill(to, to + c.batch, T(0));
            else
              std::copy_n(feature + offset + x * c.batch, c.batch, to);
          }
        }
      }
      advance(tap, c.window);
    }
    gemmTransposedA(columns, c.outFeatures, r1 - r0, tile.data<T>(), columns,
                    kernel + r0 * c.outFeatures, r0 == 0 ? T(0) : T(1), out);
  }
}

template <typename T>
void scatterGroup(const Canonical &c, const T *lhs, const T *kernel, T *out,
                  int64_t group, bool batchGroups) {
  int64_t s = c.numSpatial;
  int64_t batchOffset = batchGroups ? group * c.groupBatch : 0;
  int64_t featureOffset = batchGroups ? 0 : group * c.groupFeatures;
  int64_t outOffset = group * c.groupOutFeatures;
  int64_t og = c.groupOutFeatures;
  int64_t width = c.taps * og;
  // With stride and rhs dilation 1 along the innermost dimension, the
  // taps k = 0..K-1 of one lhs row land on K consecutive result positions
  // (y = x * lhs_dilation + low - k), and with one group these are K * O
  // consecutive result elements: storing that dimension's taps mirrored
  // makes their products one run added with one vectorized loop, instead
  // of K runs of O elements (3 for an RGB stem's input gradient).
  int64_t lastWindow = s ? c.window[s - 1] : 1;
  bool runs = s > 0 && c.strides[s - 1] == 1 && c.rhsDilation[s - 1] == 1 &&
              og == c.outFeatures;
  // The group's kernel as [I, K... x O/groups].
  std::vector<T> spread(c.groupFeatures * width);
  for (int64_t t = 0; t < c.taps; ++t) {
    int64_t column =
        runs ? t - t % lastWindow + (lastWindow - 1 - t % lastWindow) : t;
    for (int64_t i = 0; i < c.groupFeatures; ++i)
      std::copy_n(kernel + (t * c.groupFeatures + i) * c.outFeatures + outOffset,
                  og, spread.data() + i * width + column * og);
  }
  int64_t rows = c.groupBatch * c.inputPositions;
  if (rows == 0)
    return;
  int64_t tileRows =
      std::clamp<int64_t>(kTileElements / std::max<int64_t>(width, 1), 1, rows);
  Tensor tile = scratchTile<T>(tileRows * width);
  const T *groupLhs =
      lhs + batchOffset * c.inputPositions * c.features + featureOffset;
  // The result position y that lhs position x and tap k add to along
  // dimension d (y * stride = x * lhs_dilation + low - k * rhs_dilation),
  // or -1. Tabulated per dimension (landing[d][x * K + k]) so that rows and
  // taps look it up instead of dividing, unless a table would exceed a tile.
  auto land = [&](int64_t d, int64_t x, int64_t k) -> int64_t {
    int64_t scaled = x * c.lhsDilation[d] + c.low[d] - k * c.rhsDilation[d];
    int64_t y = scaled / c.strides[d];
    return scaled < 0 || scaled % c.strides[d] != 0 || y >= c.output[d] ? -1
                                                                        : y;
  };
  std::vector<std::vector<int64_t>> landing(s);
  for (int64_t d = 0; d < s; ++d) {
    if (c.input[d] > kTileElements / c.window[d]) // window > 0 here
      continue;
    landing[d].resize(c.input[d] * c.window[d]);
    for (int64_t x = 0; x < c.input[d]; ++x)
      for (int64_t k = 0; k < c.window[d]; ++k)
        landing[d][x * c.window[d] + k] = land(d, x, k);
  }
  Shape outerWindow(c.window.begin(), c.window.end() - (s ? 1 : 0));
  std::vector<int64_t> outerTap(outerWindow.size());
  for (int64_t r0 = 0; r0 < rows; r0 += tileRows) {
    int64_t r1 = std::min(rows, r0 + tileRows);
    gemm(r1 - r0, width, c.groupFeatures, groupLhs + r0 * c.features,
         c.features, spread.data(), width, T(0), tile.data<T>(), width);
    std::vector<int64_t> x(s, 0), tap(s, 0);
    for (int64_t d = s - 1, rest = r0 % c.inputPositions; d >= 0; --d) {
      x[d] = rest % c.input[d];
      rest /= c.input[d];
    }
    int64_t b = r0 / c.inputPositions;
    for (int64_t r = r0; r < r1; ++r) {
      const T *products = tile.data<T>() + (r - r0) * width;
      if (runs) {
        // Mirrored tap j = K-1-k lands on y = first + j.
        int64_t d = s - 1;
        int64_t first = x[d] * c.lhsDilation[d] + c.low[d] - (lastWindow - 1);
        int64_t jBegin = std::clamp<int64_t>(-first, 0, lastWindow);
        int64_t jEnd =
            std::clamp<int64_t>(c.output[d] - first, jBegin, lastWindow);
        std::fill(outerTap.begin(), outerTap.end(), 0);
        for (int64_t t = 0; t < c.taps && jEnd > jBegin; t += lastWindow) {
          int64_t target = b;
          for (int64_t e = 0; e < d && target >= 0; ++e) {
            int64_t y = landing[e].empty()
                            ? land(e, x[e], outerTap[e])
                            : landing[e][x[e] * c.window[e] + outerTap[e]];
            target = y < 0 ? -1 : target * c.output[e] + y;
          }
          advance(outerTap, outerWindow);
          if (target < 0)
            continue;
          T *to = out + ((target * c.output[d]) + first + jBegin) * og;
          const T *from = products + (t + jBegin) * og;
          for (int64_t o = 0, n = (jEnd - jBegin) * og; o < n; ++o)
            to[o] += from[o];
        }
      }
      for (int64_t t = 0; !runs && t < c.taps; ++t) {
        // y * stride = x * lhs_dilation + low - k * rhs_dilation.
        int64_t target = b;
        for (int64_t d = 0; d < s && target >= 0; ++d) {
          int64_t y = landing[d].empty()
                          ? land(d, x[d], tap[d])
                          : landing[d][x[d] * c.window[d] + tap[d]];
          target = y < 0 ? -1 : target * c.output[d] + y;
        }
        advance(tap, c.window);
        if (target < 0)
          continue;
        T *to = out + target * c.outFeatures + outOffset;
        const T *from = products + t * og;
        for (int64_t o = 0; o < og; ++o)
          to[o] += from[o];
      }
      advance(x, c.input);
      if (std::all_of(x.begin(), x.end(), [](int64_t i) { return i == 0; }))
        ++b;
    }
  }
}

/// A result computed as [B, Y..., O], in the layout `dims` asks for.
Tensor arrangeCanonicalResult(const Tensor &out,
                              const ConvolutionDimensions &dims) {
  int64_t s = static_cast<int64_t>(dims.outputSpatial.size());
  // Result dimension i is canonical dimension order[i].
  std::vector<int64_t> order(s + 2);
  order[dims.outputBatch] = 0;
  for (int64_t d = 0; d < s; ++d)
    order[dims.outputSpatial[d]] = d + 1;
  order[dims.outputFeature] = s + 1;
  return arrange(out, order, std::vector<bool>(s + 2, false));
}

//===----------------------------------------------------------------------===//
// Direct path (few features)
//===----------------------------------------------------------------------===//

/// The most lhs elements per position (features x batch of the direct
/// form) for which Auto takes the direct kernel: with an RGB stem's 3,
/// im2col's K (window x 3) is too short for sgemm, and each product needs
/// a copy into the im2col tile or col2im's adds (docs/measurements.md).
constexpr int64_t kDirectMaxFeatures = 4;

#ifdef MPMD_CONVOLUTION_AVX2
/// Whether this CPU runs the direct loops compiled for AVX2 with FMA.
bool hasAvx2Fma() {
  static const bool supported =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return supported;
}
#endif

/// The direct kernel (ConvolutionDirectLoops.h) on lhs [N, I, X..., B, C]
/// and kernel [I, K..., C, O] (contiguous, reversal applied), `c` giving
/// the spatial sizes and window: returns [N, Y..., B, O]. Copies the lhs
/// once when its innermost dimension needs padding (or loses some to
/// negative padding), and a last chunk of fewer than 16 output features of
/// the kernel.
Tensor directConvolution(const Tensor &lhs, const Tensor &kernel,
                         const Canonical &c, int64_t n, int64_t i, int64_t b,
                         int64_t features, int64_t o) {
  int64_t s = c.numSpatial;
  detail::DirectConvolution p;
  p.n = n;
  p.i = i;
  p.b = b;
  p.c = features;
  p.o = o;
  p.input = c.input;
  p.window = c.window;
  p.output = c.output;
  p.strides = c.strides;
  p.dilations = c.rhsDilation;
  p.low = c.low;

  // The innermost row positions u = 0 .. span-1 read x = u - low.
  int64_t width = b * features;
  int64_t lastInput = c.input[s - 1], low = c.low[s - 1];
  int64_t span = (c.output[s - 1] - 1) * c.strides[s - 1] +
                 (c.window[s - 1] - 1) * c.rhsDilation[s - 1] + 1;
  Tensor padded;
  if (low <= 0 && span - low <= lastInput) {
    p.lhs = lhs.data<float>() - low * width;
    p.rowLength = lastInput * width;
  } else {
    // Rows (n, i, x_outer...); all zeros when the innermost input is empty.
    int64_t rows = n * i;
    for (int64_t d = 0; d + 1 < s; ++d)
      rows *= c.input[d];
    p.rowLength = span * width;
    padded = Tensor::empty(DType::F32, {rows, p.rowLength});
    int64_t begin = std::clamp<int64_t>(low, 0, span);
    int64_t end = std::clamp<int64_t>(low + lastInput, begin, span);
    for (int64_t r = 0; r < rows; ++r)
      copyClippedRun(padded.data<float>() + r * p.rowLength,
                     lhs.data<float>() + r * lastInput * width - low * width,
                     begin, end, width, p.rowLength);
    p.lhs = padded.data<float>();
  }

  // The last chunk of fewer than 16 output features, zero-padded.
  int64_t chunk = detail::kDirectChunk;
  int64_t tailFirst = o / chunk * chunk, tailLanes = o - tailFirst;
  int64_t reductionRows = i * c.taps * features;
  Tensor tail;
  p.kernel = kernel.data<float>();
  p.tailKernel = nullptr;
  if (tailLanes > 0) {
    tail = Tensor::empty(DType::F32, {reductionRows * chunk});
    for (int64_t r = 0; r < reductionRows; ++r) {
      float *to = tail.data<float>() + r * chunk;
      std::copy_n(kernel.data<float>() + r * o + tailFirst, tailLanes, to);
      std::fill(to + tailLanes, to + chunk, 0.0f);
    }
    p.tailKernel = tail.data<float>();
  }

  Shape resultShape{n};
  resultShape.insert(resultShape.end(), c.output.begin(), c.output.end());
  resultShape.push_back(b);
  resultShape.push_back(o);
  Tensor result = Tensor::empty(DType::F32, resultShape);
  p.out = result.data<float>();
#ifdef MPMD_CONVOLUTION_AVX2
  if (hasAvx2Fma()) {
    detail::directConvolutionAvx2(p);
    return result;
  }
#endif
  // Two-register vectors: 3 rows keep 12 accumulators in SSE's 16.
  detail::directConvolutionLoops<3>(p);
  return result;
}

/// The direct kernel on the convolution `dims` describes (one group, an
/// undilated lhs), in the filter gradient's form (lhs [I, X..., B], kernel
/// [I, K..., O]) when `transposedForm`, else the forward's (lhs [B, X...,
/// C], kernel [K..., C, O]); the operands are arranged into that form (no
/// copy when already stored so) and the result into the requested layout.
Tensor runDirect(const Tensor &lhsIn, const Tensor &rhsIn,
                 const ConvolutionDimensions &dims, const Canonical &c,
                 bool transposedForm) {
  int64_t s = c.numSpatial;
  std::vector<int64_t> lhsOrder, kernelOrder;
  std::vector<bool> kernelReversed;
  if (transposedForm) {
    lhsOrder.push_back(dims.inputFeature);
    kernelOrder.push_back(dims.kernelInputFeature);
    kernelReversed.push_back(false);
  } else {
    lhsOrder.push_back(dims.inputBatch);
  }
  lhsOrder.insert(lhsOrder.end(), dims.inputSpatial.begin(),
                  dims.inputSpatial.end());
  lhsOrder.push_back(transposedForm ? dims.inputBatch : dims.inputFeature);
  kernelOrder.insert(kernelOrder.end(), dims.kernelSpatial.begin(),
                     dims.kernelSpatial.end());
  kernelReversed.insert(kernelReversed.end(), dims.reversal.begin(),
                        dims.reversal.end());
  if (!transposedForm) {
    kernelOrder.push_back(dims.kernelInputFeature);
    kernelReversed.push_back(false);
  }
  kernelOrder.push_back(dims.kernelOutputFeature);
  kernelReversed.push_back(false);
  Tensor lhs = arrange(lhsIn, lhsOrder, std::vector<bool>(s + 2, false));
  Tensor kernel = arrange(rhsIn, kernelOrder, kernelReversed);
  // [N, Y..., B, O]: N = 1 in the filter gradient's form, B = 1 in the
  // forward's.
  Tensor out =
      transposedForm
          ? directConvolution(lhs, kernel, c, 1, c.features, c.batch, 1,
                              c.outFeatures)
          : directConvolution(lhs, kernel, c, c.batch, 1, 1, c.features,
                              c.outFeatures);
  Shape shape(c.output.begin(), c.output.end());
  shape.insert(shape.begin() + (transposedForm ? s : 0), c.batch);
  shape.push_back(c.outFeatures);
  // Result dimension i is dimension order[i] of `shape`.
  std::vector<int64_t> order(s + 2);
  int64_t batchAt = transposedForm ? s : 0, firstSpatial = transposedForm ? 0 : 1;
  for (int64_t d = 0; d < s; ++d)
    order[dims.outputSpatial[d]] = firstSpatial + d;
  order[dims.outputBatch] = batchAt;
  order[dims.outputFeature] = s + 1;
  return arrange(out.reshaped(shape), order, std::vector<bool>(s + 2, false));
}

/// `operand` (f32, innermost dimension > 0) with its innermost dimension
/// zero-padded to `width` elements; the operand itself when it has that
/// many.
Tensor padInnermost(const Tensor &operand, int64_t width) {
  Shape shape = operand.shape();
  int64_t length = shape.back();
  if (length == width)
    return operand;
  shape.back() = width;
  Tensor result = Tensor::empty(DType::F32, shape);
  for (int64_t r = 0, rows = operand.numElements() / length; r < rows; ++r)
    copyClippedRun(result.data<float>() + r * width,
                   operand.data<float>() + r * length, 0, 1, length, width);
  return result;
}

/// The lhs dimensions in the order [B, X..., C].
std::vector<int64_t> getCanonicalLhsOrder(const ConvolutionDimensions &dims) {
  std::vector<int64_t> order{dims.inputBatch};
  order.insert(order.end(), dims.inputSpatial.begin(), dims.inputSpatial.end());
  order.push_back(dims.inputFeature);
  return order;
}

/// The kernel dimensions in the order [K..., I, O] (`inputFirst`) or
/// [K..., O, I].
std::vector<int64_t> getKernelOrder(const ConvolutionDimensions &dims,
                                    bool inputFirst) {
  std::vector<int64_t> order = dims.kernelSpatial;
  order.push_back(inputFirst ? dims.kernelInputFeature
                             : dims.kernelOutputFeature);
  order.push_back(inputFirst ? dims.kernelOutputFeature
                             : dims.kernelInputFeature);
  return order;
}

/// Per dimension of a kernel arranged by getKernelOrder: whether it is
/// reversed (window dimensions only).
std::vector<bool> getKernelReversal(const ConvolutionDimensions &dims) {
  std::vector<bool> reversed(dims.reversal.begin(), dims.reversal.end());
  reversed.resize(dims.kernelSpatial.size() + 2, false);
  return reversed;
}

/// The few-result-features kernel (ConvolutionDirectLoops.h) on the
/// convolution `dims` describes (f32, one group, every size > 0, at most
/// kFewResultMaxFeatures result features): lhs [B, X..., I] and kernel
/// [K..., O, I] (reversal applied; copies only where the operands are
/// stored otherwise), both with I zero-padded to a multiple of 8 (a copy
/// only when it is not one).
Tensor runFewResultFeatures(const Tensor &lhsIn, const Tensor &rhsIn,
                            const ConvolutionDimensions &dims,
                            const Canonical &c) {
  int64_t s = c.numSpatial;
  std::vector<int64_t> lhsOrder = getCanonicalLhsOrder(dims);
  std::vector<int64_t> kernelOrder = getKernelOrder(dims, /*inputFirst=*/false);
  std::vector<bool> kernelReversed = getKernelReversal(dims);
  int64_t lanes = detail::kFewResultLanes;
  int64_t features = (c.features + lanes - 1) / lanes * lanes;
  Tensor lhs = padInnermost(
      arrange(lhsIn, lhsOrder, std::vector<bool>(s + 2, false)), features);
  Tensor kernel =
      padInnermost(arrange(rhsIn, kernelOrder, kernelReversed), features);

  detail::FewResultFeaturesConvolution p;
  p.batch = c.batch;
  p.features = features;
  p.outFeatures = c.outFeatures;
  p.input = c.input;
  p.window = c.window;
  p.output = c.output;
  p.strides = c.strides;
  p.lhsDilation = c.lhsDilation;
  p.rhsDilation = c.rhsDilation;
  p.low = c.low;
  p.lhs = lhs.data<float>();
  p.kernel = kernel.data<float>();
  Shape canonicalShape{c.batch};
  canonicalShape.insert(canonicalShape.end(), c.output.begin(), c.output.end());
  canonicalShape.push_back(c.outFeatures);
  Tensor out = Tensor::empty(DType::F32, canonicalShape);
  p.out = out.data<float>();
#ifdef MPMD_CONVOLUTION_AVX2
  if (hasAvx2Fma())
    detail::fewResultFeaturesConvolutionAvx2(p);
  else
#endif
    // Two-register vectors: 6 accumulators in SSE's 16 registers.
    detail::fewResultFeaturesLoops<6>(p);
  return arrangeCanonicalResult(out, dims);
}

template <typename T>
Tensor gemmConvolution(const Tensor &lhsIn, const Tensor &rhsIn,
                       const ConvolutionDimensions &dims,
                       const Shape &resultShape, ConvolutionPath path) {
  int64_t s = static_cast<int64_t>(dims.inputSpatial.size());
  Canonical c;
  c.numSpatial = s;
  c.batch = lhsIn.shape()[dims.inputBatch];
  c.features = lhsIn.shape()[dims.inputFeature];
  c.groupFeatures = rhsIn.shape()[dims.kernelInputFeature];
  c.outFeatures = rhsIn.shape()[dims.kernelOutputFeature];
  bool batchGroups = dims.batchGroupCount > 1;
  c.groups = batchGroups ? dims.batchGroupCount : dims.featureGroupCount;
  c.groupBatch = c.batch / dims.batchGroupCount;
  c.groupOutFeatures = c.outFeatures / c.groups;
  for (int64_t d = 0; d < s; ++d) {
    c.input.push_back(lhsIn.shape()[dims.inputSpatial[d]]);
    c.window.push_back(rhsIn.shape()[dims.kernelSpatial[d]]);
    c.output.push_back(resultShape[dims.outputSpatial[d]]);
  }
  c.strides = dims.strides;
  c.low = dims.paddingLow;
  c.lhsDilation = dims.lhsDilation;
  c.rhsDilation = dims.rhsDilation;
  c.taps = numElementsOf(c.window);
  c.inputPositions = numElementsOf(c.input);
  c.outputPositions = numElementsOf(c.output);

  bool dilatedLhs = std::any_of(dims.lhsDilation.begin(),
                                dims.lhsDilation.end(),
                                [](int64_t d) { return d > 1; });
  int64_t reduction = c.groupFeatures * c.taps;
  // Auto takes the transposed gather only where it copies nothing: both
  // operands stored as [I, X..., B] and [I, K..., O] without reversal, as
  // JAX stores a filter gradient's. Elsewhere (an NHWC / HWIO forward with
  // few result positions, say) it would first transpose the kernel, which
  // the canonical gather reads as it is.
  bool storedTransposed = dims.inputFeature == 0 &&
                          dims.inputBatch == s + 1 &&
                          dims.kernelInputFeature == 0 &&
                          dims.kernelOutputFeature == s + 1;
  for (int64_t d = 0; d < s; ++d)
    storedTransposed &= dims.inputSpatial[d] == d + 1 &&
                        dims.kernelSpatial[d] == d + 1 && !dims.reversal[d];
  // The direct kernel (f32): in the filter gradient's stored form when
  // its lhs batch (a stem's 3 channels there) is small, else in the
  // canonical forward form when the lhs features are.
  if constexpr (std::is_same_v<T, float>) {
    bool supported = c.groups == 1 && !dilatedLhs && s > 0 && c.batch > 0 &&
                     c.features > 0 && c.taps > 0 && c.outputPositions > 0 &&
                     c.outFeatures > 0;
    bool fewFeatures =
        (storedTransposed ? c.batch : c.features) <= kDirectMaxFeatures;
    if (supported && (path == ConvolutionPath::Direct ||
                      (path == ConvolutionPath::Auto && fewFeatures)))
      return runDirect(lhsIn, rhsIn, dims, c, storedTransposed);
    // Few result features (the stems' input gradients): sgemm's N would
    // be the 3 channels, col2im's adds as many as its products.
    bool fewResultFeatures =
        c.groups == 1 && s > 0 && c.batch > 0 && c.features > 0 && c.taps > 0 &&
        c.inputPositions > 0 && c.outputPositions > 0 && c.outFeatures > 0 &&
        c.outFeatures <= detail::kFewResultMaxFeatures;
    if (fewResultFeatures && (path == ConvolutionPath::Auto ||
                              path == ConvolutionPath::DirectFewResultFeatures))
      return runFewResultFeatures(lhsIn, rhsIn, dims, c);
  }
  bool transposedGather =
      c.groups == 1 &&
      (path == ConvolutionPath::GatherTransposed ||
       (path == ConvolutionPath::Auto && !dilatedLhs && storedTransposed &&
        c.groupBatch * c.outputPositions <= reduction));
  if (transposedGather) {
    // Operands [I, X..., B] and [I, K..., O] (reversed taps flipped): both
    // as JAX stores a filter gradient's, so usually no copy at all.
    std::vector<int64_t> lhsOrder{dims.inputFeature};
    lhsOrder.insert(lhsOrder.end(), dims.inputSpatial.begin(),
                    dims.inputSpatial.end());
    lhsOrder.push_back(dims.inputBatch);
    std::vector<int64_t> kernelOrder{dims.kernelInputFeature};
    kernelOrder.insert(kernelOrder.end(), dims.kernelSpatial.begin(),
                       dims.kernelSpatial.end());
    kernelOrder.push_back(dims.kernelOutputFeature);
    std::vector<bool> kernelReversed{false};
    kernelReversed.insert(kernelReversed.end(), dims.reversal.begin(),
                          dims.reversal.end());
    kernelReversed.push_back(false);
    Tensor lhs = arrange(lhsIn, lhsOrder, std::vector<bool>(s + 2, false));
    Tensor kernel = arrange(rhsIn, kernelOrder, kernelReversed);
    Shape transposedShape(c.output.begin(), c.output.end());
    transposedShape.push_back(c.batch);
    transposedShape.push_back(c.outFeatures);
    Tensor out = Tensor::zeros(lhs.dtype(), transposedShape);
    if (c.batch * c.outputPositions > 0 && c.outFeatures > 0 && reduction > 0)
      gatherTransposed<T>(c, lhs.data<T>(), kernel.data<T>(), out.data<T>());
    // Result dimension i is [Y..., B, O] dimension order[i].
    std::vector<int64_t> order(s + 2);
    for (int64_t d = 0; d < s; ++d)
      order[dims.outputSpatial[d]] = d;
    order[dims.outputBatch] = s;
    order[dims.outputFeature] = s + 1;
    return arrange(out, order, std::vector<bool>(s + 2, false));
  }

  // Canonical operands: lhs [B, X..., C], kernel [K..., I, O] with the
  // reversed window dimensions flipped (the same dot products as the
  // spec's reversed lhs windows).
  std::vector<int64_t> lhsOrder = getCanonicalLhsOrder(dims);
  std::vector<int64_t> kernelOrder = getKernelOrder(dims, /*inputFirst=*/true);
  std::vector<bool> kernelReversed = getKernelReversal(dims);
  Tensor lhs = arrange(lhsIn, lhsOrder, std::vector<bool>(s + 2, false));
  Tensor kernel = arrange(rhsIn, kernelOrder, kernelReversed);

  Shape canonicalShape{c.groupBatch};
  canonicalShape.insert(canonicalShape.end(), c.output.begin(),
                        c.output.end());
  canonicalShape.push_back(c.outFeatures);
  int64_t rowsIn = c.groupBatch * c.inputPositions;
  int64_t rowsOut = c.groupBatch * c.outputPositions;
  bool scatter = path == ConvolutionPath::Auto
                     ? dilatedLhs && rowsIn < rowsOut
                     : path == ConvolutionPath::Scatter;
  bool empty = c.taps == 0 || c.groupFeatures == 0;
  Tensor out = scatter || empty ? Tensor::zeros(lhs.dtype(), canonicalShape)
                                : Tensor::empty(lhs.dtype(), canonicalShape);
  if (!empty && rowsOut > 0 && c.groupOutFeatures > 0)
    for (int64_t g = 0; g < c.groups; ++g) {
      if (scatter)
        scatterGroup<T>(c, lhs.data<T>(), kernel.data<T>(), out.data<T>(), g,
                        batchGroups);
      else
        gatherGroup<T>(c, lhs.data<T>(), kernel.data<T>(), out.data<T>(), g,
                       batchGroups);
    }

  return arrangeCanonicalResult(out, dims);
}

} // namespace

Tensor convolutionReference(const Tensor &lhsIn, const Tensor &rhsIn,
                            const ConvolutionDimensions &dims,
                            const Shape &resultShape) {
  Tensor lhs = detail::widenForCompute(lhsIn), rhs = detail::widenForCompute(rhsIn);
  Tensor result = Tensor::empty(lhs.dtype(), resultShape);
  detail::visitStorageType(lhs.dtype(), [&](auto tag) {
    referenceTyped<decltype(tag)>(lhs, rhs, dims, result);
  });
  return roundsAfterEachOp(lhsIn.dtype()) ? detail::roundToDType(result, lhsIn.dtype())
                               : result;
}

Tensor convolution(const Tensor &lhsIn, const Tensor &rhsIn,
                   const ConvolutionDimensions &dims, const Shape &resultShape,
                   ConvolutionPath path) {
  Tensor lhs = detail::widenForCompute(lhsIn), rhs = detail::widenForCompute(rhsIn);
  Tensor result;
  if (lhs.dtype() == DType::F32)
    result = gemmConvolution<float>(lhs, rhs, dims, resultShape, path);
  else if (lhs.dtype() == DType::F64)
    result = gemmConvolution<double>(lhs, rhs, dims, resultShape, path);
  else
    return convolutionReference(lhsIn, rhsIn, dims, resultShape);
  return roundsAfterEachOp(lhsIn.dtype()) ? detail::roundToDType(result, lhsIn.dtype())
                               : result;
}

} // namespace mlir::mpmd::runtime
