//===- Kernels.h - The runtime's tensor kernels -----------------*- C++ -*-===//
//
// Whole-tensor kernels: each call runs one tight, vectorizable loop (or a
// BLAS call), never a per-element dispatch. Shapes and dtypes are assumed
// valid (the IR verifier checks them); the interpreter rejects what the
// kernels do not support before calling them. f16/bf16 are computed in f32.
// Costs: elementwise, layout and reduce kernels are O(elements);
// dot_general is one GEMM per batch element.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_KERNELS_H
#define MPMD_RUNTIME_KERNELS_H

#include "mpmd/Runtime/Tensor.h"

#include <optional>

namespace mlir::mpmd::runtime {

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

enum class UnaryKind {
  Abs, Negate, Not, Sign, Exp, Expm1, Log, Log1p, Logistic, Sqrt, Rsqrt, Cbrt,
  Tanh, Sine, Cosine, Tan, Floor, Ceil, RoundAwayFromZero, RoundNearestEven,
  PopCount, CountLeadingZeros,
  // chlo
  Erf, Erfc, Lgamma, Sinh, Cosh, Asin, Acos, Atan, Asinh, Acosh, Atanh
};
enum class BinaryKind {
  Add, Subtract, Multiply, Divide, Remainder, Power, Maximum, Minimum, Atan2,
  And, Or, Xor, ShiftLeft, ShiftRightArithmetic, ShiftRightLogical
};
enum class CompareKind { EQ, NE, LT, LE, GT, GE };

/// False when `kind` has no meaning on `dtype` (e.g. exp on integers).
bool supportsUnary(UnaryKind kind, DType dtype);
bool supportsBinary(BinaryKind kind, DType dtype);

Tensor unary(UnaryKind kind, const Tensor &operand);
/// `out` must have the operand's shape and a dtype other than f16/bf16; it
/// may be the operand itself (in place).
void unaryInto(UnaryKind kind, const Tensor &operand, Tensor &out);
Tensor binary(BinaryKind kind, const Tensor &lhs, const Tensor &rhs);
/// `out` must already have the operands' shape and dtype, not f16/bf16
/// (lets callers and benchmarks reuse a buffer); it may be an operand
/// itself (in place).
void binaryInto(BinaryKind kind, const Tensor &lhs, const Tensor &rhs,
                Tensor &out);
/// One operation of a fused elementwise chain (see `fusedElementwise`): a
/// unary or binary kernel on operand slots. Slots 0..N-1 are the N inputs,
/// slot N+i the result of operation i; `rhs` is unused for unary ones.
struct FusedOperation {
  bool isUnary;
  UnaryKind unary;
  BinaryKind binary;
  int32_t lhs, rhs;
};
/// An input of a fused chain, read through `strides`: per result dimension,
/// the step in the tensor's elements (row-major strides of the result shape
/// for a tensor of that shape; 0 on dimensions it is repeated along, so a
/// broadcast is read in place, never materialized).
struct FusedInput {
  Tensor tensor;
  std::vector<int64_t> strides;
};
/// Runs `operations` in order over every element of `out` in one pass over
/// memory: tile by tile (a few KiB, kept in L1), each operation runs the
/// same vectorized loop as `unaryInto`/`binaryInto` on the tile, so every
/// element goes through the same operations in the same order as running
/// the ops one by one, and the result is bit-identical. The last operation
/// writes `out`, which has the result shape and the inputs' dtype (not
/// f16/bf16: those round after every op) and may share its buffer with an
/// input read with row-major strides (in place). O(elements x operations).
void fusedElementwise(const std::vector<FusedOperation> &operations,
                      const std::vector<FusedInput> &inputs, Tensor &out);
/// i1 result. Integers compare by their signedness, floats by IEEE order
/// or, with `totalOrder` (compare_type TOTALORDER), by IEEE-754's totalOrder
/// (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN, EQ meaning the
/// same value and sign), complex numbers by their (real, imag) pairs in
/// lexicographic order.
Tensor compare(CompareKind kind, const Tensor &lhs, const Tensor &rhs,
               bool totalOrder = false);
/// `pred` is i1, scalar or of the operands' shape.
Tensor select(const Tensor &pred, const Tensor &onTrue, const Tensor &onFalse);
/// `min` and `max` are scalars or of the operand's shape.
Tensor clamp(const Tensor &min, const Tensor &operand, const Tensor &max);
/// i1 result: true where a float is neither inf nor nan.
Tensor isFinite(const Tensor &operand);
/// Float to int truncates toward zero (saturating, to the i2/i4 range
/// too); int to int wraps; to i1 is `!= 0`; to a narrow float rounds to
/// nearest even once (see doubleToNarrowFloat); complex to real drops the
/// imaginary part, real to complex zeroes it.
Tensor convert(const Tensor &operand, DType to);
/// stablehlo.complex: f32 (f64) parts to complex<f32> (complex<f64>).
Tensor makeComplex(const Tensor &real, const Tensor &imag);
/// stablehlo.real / imag: a complex tensor's parts (a real tensor is its
/// own real part, with zero imaginary part).
Tensor realPart(const Tensor &operand);
Tensor imagPart(const Tensor &operand);
/// `stablehlo.reduce_precision`: each float rounded (to nearest, ties to
/// even) to `mantissaBits` and to the range of `exponentBits`, as if
/// converted to such a format and back: past the largest value is
/// infinity, below the smallest normal is zero; nan stays nan. Bit counts
/// wider than the operand's format change nothing.
Tensor reducePrecision(const Tensor &operand, int exponentBits,
                       int mantissaBits);

//===----------------------------------------------------------------------===//
// Layout: views and copies
//===----------------------------------------------------------------------===//

/// result[i] = operand[i[permutation[0]], ...]; cache-blocked 2-D tiles when
/// the innermost dimension moves.
Tensor transpose(const Tensor &operand, const std::vector<int64_t> &permutation);
/// StableHLO broadcast_in_dim: operand dim d becomes result dim
/// `dimensions[d]` (size 1 dims repeat).
Tensor broadcastInDim(const Tensor &operand, const Shape &resultShape,
                      const std::vector<int64_t> &dimensions);
Tensor slice(const Tensor &operand, const std::vector<int64_t> &start,
             const std::vector<int64_t> &limit,
             const std::vector<int64_t> &strides);
/// `start` is clamped so that the slice stays in bounds (StableHLO).
Tensor dynamicSlice(const Tensor &operand, std::vector<int64_t> start,
                    const Shape &sizes);
Tensor dynamicUpdateSlice(const Tensor &operand, const Tensor &update,
                          std::vector<int64_t> start);
Tensor concatenate(const std::vector<Tensor> &inputs, int64_t dimension);
/// Copies the box of `shape` elements at `sourceBegin` of `source` into the
/// box at `destinationBegin` of `destination` (same dtype), in place. Trailing
/// dimensions that both boxes span whole are copied as one run.
/// O(elements of the box).
void copyBox(const Tensor &source, const std::vector<int64_t> &sourceBegin,
             Tensor &destination, const std::vector<int64_t> &destinationBegin,
             const Shape &shape);
/// Edge padding may be negative (crops); interior padding is >= 0.
Tensor pad(const Tensor &operand, const Tensor &paddingValue,
           const std::vector<int64_t> &low, const std::vector<int64_t> &high,
           const std::vector<int64_t> &interior);
Tensor reverse(const Tensor &operand, const std::vector<int64_t> &dimensions);
Tensor iota(DType dtype, const Shape &shape, int64_t dimension);
/// stablehlo.bitcast_convert to `to` in `shape` (the verified one): a view
/// when both element types fill their bytes, else the elements' bits
/// (4 of an i4, 19 of a tf32) as one little-endian bit string, re-cut.
/// O(elements x bits) then.
Tensor bitcastConvert(const Tensor &operand, DType to, const Shape &shape);

//===----------------------------------------------------------------------===//
// dot_general and reduce
//===----------------------------------------------------------------------===//

struct DotDimensions {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
};
/// Result dims: batch, free lhs, free rhs. f32/f64 (and f16/bf16 through
/// f32) go to BLAS gemm, one call per batch element, with operands passed
/// transposed instead of copied when their layout allows; integers use a
/// blocked loop.
Tensor dotGeneral(const Tensor &lhs, const Tensor &rhs,
                  const DotDimensions &dimensions);
/// `accumulator` = `accumulator` + dot_general(lhs, rhs), with
/// `accumulator` of the dot's shape and of the operands' dtype, in a buffer
/// no one else reads. f32/f64/complex: one gemm per batch element with
/// beta = 1, so the product is added as BLAS computes it, with no
/// zero-filled result and no separate add pass. The sum can round
/// differently from `add(accumulator, dot)`: BLAS adds its partial sums
/// over blocks of the contraction to the accumulator one block at a time
/// (the same bits while the contraction fits in one block). Other dtypes
/// compute the product, then add it.
void dotGeneralAccumulate(const Tensor &lhs, const Tensor &rhs,
                          const DotDimensions &dimensions, Tensor &accumulator);

/// Limits the threads one BLAS call may use while it lives (the MPMD
/// executor gives each virtual device one core), restoring the previous
/// count after. Process-wide: one limit at a time.
class BlasThreadLimit {
public:
  explicit BlasThreadLimit(int threads);
  ~BlasThreadLimit();
  BlasThreadLimit(const BlasThreadLimit &) = delete;
  BlasThreadLimit &operator=(const BlasThreadLimit &) = delete;

private:
  int previous;
};

enum class ReduceKind { Add, Multiply, Maximum, Minimum, And, Or };
bool supportsReduce(ReduceKind kind, DType dtype);
/// Reduces `operand` over `dimensions` starting from the scalar `init`,
/// reading the operand once in memory order.
Tensor reduce(ReduceKind kind, const Tensor &operand, const Tensor &init,
              const std::vector<int64_t> &dimensions);

//===----------------------------------------------------------------------===//
// Windows (reduce_window)
//===----------------------------------------------------------------------===//

/// StableHLO's window attributes, one entry per dimension (all filled in:
/// strides and dilations 1, padding 0 where the op omits them).
struct WindowDimensions {
  Shape size;
  std::vector<int64_t> strides, baseDilations, windowDilations, paddingLow,
      paddingHigh;
};

/// Where each window element of each result element comes from: the operand
/// is dilated (holes between elements) and padded, and window position `w`
/// of result element `i` reads padded index `i * stride + w * dilation`.
/// Holes and padding read no operand element (index -1: the init value).
/// The window's positions must fit in int64 (the interpreter checks); they
/// are walked, not stored, so a large window takes no memory.
class WindowIndexer {
public:
  WindowIndexer(const Shape &operandShape, const Shape &resultShape,
                const WindowDimensions &window);

  int64_t getWindowSize() const { return windowSize; }
  /// The row-major index, over the leading `rank` dimensions of the operand,
  /// of the element that the result element at `result` reads at window
  /// position `position`; -1 where it reads padding or a base-dilation hole.
  /// O(rank).
  int64_t getSourceIndex(const std::vector<int64_t> &result,
                         const std::vector<int64_t> &position,
                         int64_t rank) const {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t padded = result[d] * window.strides[d] +
                       position[d] * window.windowDilations[d] -
                       window.paddingLow[d];
      int64_t dilation = window.baseDilations[d];
      if (padded < 0 || padded % dilation != 0 ||
          padded / dilation >= operandShape[d])
        return -1;
      source = source * operandShape[d] + padded / dilation;
    }
    return source;
  }

  /// Calls `visit(resultIndex, windowPosition, operandIndex or -1)` for every
  /// result element (row-major), then every window position (row-major).
  /// O(results x window x rank).
  template <typename Visit> void forEach(Visit visit) const {
    int64_t rank = operandShape.size();
    // Both return to all zeros after their last index.
    std::vector<int64_t> result(rank, 0), position(rank, 0);
    for (int64_t out = 0, e = numElementsOf(resultShape); out < e; ++out) {
      for (int64_t w = 0; w < windowSize; ++w) {
        visit(out, w, getSourceIndex(result, position, rank));
        advanceRowMajor(position, window.size);
      }
      advanceRowMajor(result, resultShape);
    }
  }

  /// forEach with the trailing dimensions that the window leaves alone
  /// (window 1, stride 1, no padding or base dilation, operand and result
  /// of one size: NHWC pooling's channels) walked as one run: calls
  /// `visit(resultIndex, windowPosition, operandIndex or -1, runLength)`
  /// for result elements resultIndex .. resultIndex + runLength - 1 and
  /// operand elements from operandIndex on. The same visits as forEach
  /// (row-major within a run), O(results x window x rank / runLength)
  /// index computations instead of O(results x window x rank).
  template <typename Visit> void forEachRun(Visit visit) const {
    int64_t rank = operandShape.size(), outerRank = rank, runLength = 1;
    while (outerRank > 0) {
      int64_t d = outerRank - 1;
      if (window.size[d] != 1 || window.strides[d] != 1 ||
          window.paddingLow[d] != 0 || window.baseDilations[d] != 1 ||
          operandShape[d] != resultShape[d])
        break;
      runLength *= operandShape[d];
      --outerRank;
    }
    Shape outerResult(resultShape.begin(), resultShape.begin() + outerRank);
    Shape outerWindow(window.size.begin(), window.size.begin() + outerRank);
    std::vector<int64_t> result(outerRank, 0), position(outerRank, 0);
    for (int64_t out = 0, e = runLength ? numElementsOf(outerResult) : 0;
         out < e; ++out) {
      for (int64_t w = 0; w < windowSize; ++w) {
        int64_t source = getSourceIndex(result, position, outerRank);
        visit(out * runLength, w, source < 0 ? -1 : source * runLength,
              runLength);
        advanceRowMajor(position, outerWindow);
      }
      advanceRowMajor(result, outerResult);
    }
  }

private:
  /// The next index of `shape` in row-major order, all zeros after the last.
  static void advanceRowMajor(std::vector<int64_t> &index, const Shape &shape) {
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        return;
      index[d] = 0;
    }
  }

  Shape operandShape, resultShape;
  WindowDimensions window;
  int64_t windowSize;
};

/// reduce_window with a recognized combiner: each result element folds the
/// elements its window covers (the init value for padding and holes) into
/// `init`. O(results x window).
Tensor reduceWindow(ReduceKind kind, const Tensor &operand, const Tensor &init,
                    const WindowDimensions &window, const Shape &resultShape);

/// select_and_scatter without padding, with a comparison as `select` (the
/// current choice `a` stays over a later window element `b` while
/// `a <select> b`) and a recognized `scatter` combiner: each source element
/// combines into the result (`init` in `operand`'s shape) at the element
/// its window selects. O(source x window).
Tensor selectAndScatter(CompareKind select, ReduceKind scatter,
                        const Tensor &operand, const Tensor &source,
                        const Tensor &init, const WindowDimensions &window);

//===----------------------------------------------------------------------===//
// convolution (StableHLO semantics)
//===----------------------------------------------------------------------===//

/// The op's dimension numbers and window, every entry filled in (strides
/// and dilations 1, padding 0, no reversal where the op leaves them out).
struct ConvolutionDimensions {
  int64_t inputBatch = 0, inputFeature = 0;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInputFeature = 0, kernelOutputFeature = 0;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = 0, outputFeature = 0;
  std::vector<int64_t> outputSpatial;
  std::vector<int64_t> strides, paddingLow, paddingHigh, lhsDilation,
      rhsDilation;
  std::vector<bool> reversal;
  int64_t featureGroupCount = 1, batchGroupCount = 1;
};

/// How the GEMM path lays out the products (Convolution.cpp): `Gather`
/// (im2col: result positions x window taps), `Scatter` (col2im: lhs
/// positions x window taps, added into the result; cheaper when the lhs is
/// dilated), `GatherTransposed` (im2col built as (input feature, window
/// tap) rows x (result position, batch) columns, read from the operands as
/// JAX stores a filter gradient's; one group only, others run Gather), or
/// `Auto`: GatherTransposed where the operands are already stored that
/// way (lhs [I, X..., B], kernel [I, K..., O], no reversal: JAX's filter
/// gradients) with one group, an undilated lhs and at most as many result
/// positions x batch as window taps x input features; else scatter when
/// the lhs is dilated and has fewer positions than the result; else
/// gather. `Direct` (f32, one group, an undilated lhs) computes without
/// im2col or BLAS, register-blocked over 16 output features: Auto takes it
/// first where the lhs has at most 4 features (at most 4 batch elements
/// in the filter gradient's stored form), as an RGB stem's forward and
/// filter gradient; forced where unsupported, the GEMM paths run.
/// `DirectFewResultFeatures` (f32, one group, any lhs dilation) computes
/// without BLAS a result of at most 4 features, vectorized along the input
/// features and forming no products with dilation holes: Auto takes it
/// next (the stems' input gradients); forced where unsupported, the GEMM
/// paths run. Tests and benchmarks force one.
enum class ConvolutionPath {
  Auto,
  Gather,
  Scatter,
  GatherTransposed,
  Direct,
  DirectFewResultFeatures
};

/// `resultShape` is the verified one (C25). f32 and f64 (f16/bf16 through
/// f32) run on BLAS gemm in tiles of at most 256 KiB, or the direct kernel
/// (few features, f32): O(result x window x input features per group)
/// multiply-adds (lhs positions instead of result positions for Scatter)
/// plus O(operands + result + tiles) copies. Other dtypes use
/// convolutionReference.
Tensor convolution(const Tensor &lhs, const Tensor &rhs,
                   const ConvolutionDimensions &dimensions,
                   const Shape &resultShape,
                   ConvolutionPath path = ConvolutionPath::Auto);
/// The spec's definition, one dot product per result element (accumulated
/// in f64 for floats, wrapping for integers, or/and for i1). Same cost in
/// multiply-adds, without BLAS; what the GEMM path is tested against.
Tensor convolutionReference(const Tensor &lhs, const Tensor &rhs,
                            const ConvolutionDimensions &dimensions,
                            const Shape &resultShape);

//===----------------------------------------------------------------------===//
// fft (StableHLO semantics)
//===----------------------------------------------------------------------===//

enum class FftKind { FFT, IFFT, RFFT, IRFFT };
/// The transforms of stablehlo.fft over the last `fftLength.size()`
/// dimensions (the verifier checks the shapes), unnormalized forward and
/// 1/n-scaled inverse, computed in complex<f64> and rounded to
/// `resultType`. O(elements x log n) per transformed dimension of length n
/// (radix-2, or Bluestein for other lengths; Complex.cpp).
Tensor fft(const Tensor &operand, FftKind kind,
           const std::vector<int64_t> &fftLength, const Shape &resultShape,
           DType resultType);

//===----------------------------------------------------------------------===//
// gather and scatter (StableHLO semantics, batching dimensions included)
//===----------------------------------------------------------------------===//

struct GatherDimensions {
  std::vector<int64_t> offsetDims, collapsedSliceDims, operandBatchingDims,
      startIndicesBatchingDims, startIndexMap;
  int64_t indexVectorDim = 0;
};
/// One strided slice copy per start index; starts are clamped so that the
/// slice stays in bounds.
Tensor gather(const Tensor &operand, const Tensor &startIndices,
              const GatherDimensions &dimensions,
              const std::vector<int64_t> &sliceSizes, const Shape &resultShape);

struct ScatterDimensions {
  std::vector<int64_t> updateWindowDims, insertedWindowDims, inputBatchingDims,
      scatterIndicesBatchingDims, scatterDimsToOperandDims;
  int64_t indexVectorDim = 0;
};
/// Combines each update element into the input element it addresses with
/// `combiner` (std::nullopt: replace); update elements that address
/// outside the input are skipped. Updates apply in index order.
Tensor scatter(const Tensor &input, const Tensor &scatterIndices,
               const Tensor &updates, const ScatterDimensions &dimensions,
               std::optional<ReduceKind> combiner);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_KERNELS_H
