//===- Layout.cpp - transpose, broadcast, slice, concatenate, pad, ... ----===//
//
// All layout kernels are one strided copy: the result is walked in memory
// order, an odometer over the outer dimensions keeps source and destination
// offsets incrementally (no per-element index division), and the innermost
// dimension is a tight loop. Transposes that move the innermost dimension
// copy 32x32 tiles so that both sides stay in cache.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "Dispatch.h"

#include <algorithm>
#include <cstring>

namespace mlir::mpmd::runtime {

namespace {

/// Calls `body(srcOffset, dstOffset)` for every index of `shape` except
/// along the dimensions in `innerDims` (which the body walks itself).
template <typename Body>
void forEachOuterIndex(const Shape &shape, const std::vector<int64_t> &srcStrides,
                       const std::vector<int64_t> &dstStrides,
                       const std::vector<bool> &innerDims, Body body) {
  int64_t rank = static_cast<int64_t>(shape.size());
  for (int64_t d = 0; d < rank; ++d)
    if (shape[d] == 0)
      return;
  std::vector<int64_t> index(rank, 0);
  int64_t src = 0, dst = 0;
  while (true) {
    body(src, dst);
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (innerDims[d])
        continue;
      if (++index[d] < shape[d]) {
        src += srcStrides[d];
        dst += dstStrides[d];
        break;
      }
      src -= srcStrides[d] * (shape[d] - 1);
      dst -= dstStrides[d] * (shape[d] - 1);
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

template <typename E>
void stridedCopyTyped(const Shape &shape, const E *src,
                      const std::vector<int64_t> &srcStrides, E *dst,
                      const std::vector<int64_t> &dstStrides) {
  if (shape.empty()) {
    *dst = *src;
    return;
  }
  int64_t last = static_cast<int64_t>(shape.size()) - 1;
  int64_t length = shape[last], srcStep = srcStrides[last],
          dstStep = dstStrides[last];
  std::vector<bool> innerDims(shape.size(), false);
  innerDims[last] = true;
  forEachOuterIndex(shape, srcStrides, dstStrides, innerDims,
                    [&](int64_t srcOffset, int64_t dstOffset) {
                      const E *from = src + srcOffset;
                      E *to = dst + dstOffset;
                      if (srcStep == 1 && dstStep == 1)
                        std::copy(from, from + length, to);
                      else if (srcStep == 0)
                        std::fill_n(to, length, *from);
                      else
                        for (int64_t i = 0; i < length; ++i)
                          to[i * dstStep] = from[i * srcStep];
                    });
}

/// complex<f64> elements, moved as a whole.
struct SixteenBytes {
  uint64_t low, high;
};

template <typename F> void visitElementSize(size_t size, F &&f) {
  switch (size) {
  case 1: return f(uint8_t{});
  case 2: return f(uint16_t{});
  case 4: return f(uint32_t{});
  case 16: return f(SixteenBytes{});
  default: return f(uint64_t{});
  }
}

template <typename E>
void tiledTranspose(const Shape &shape, const E *src,
                    const std::vector<int64_t> &srcStrides, E *dst,
                    const std::vector<int64_t> &dstStrides, int64_t rowDim,
                    int64_t columnDim) {
  // columnDim is the destination's innermost dimension, rowDim the one that
  // is innermost in the source.
  constexpr int64_t kTile = 32;
  std::vector<bool> innerDims(shape.size(), false);
  innerDims[rowDim] = innerDims[columnDim] = true;
  int64_t rows = shape[rowDim], columns = shape[columnDim];
  int64_t srcColumnStride = srcStrides[columnDim],
          dstRowStride = dstStrides[rowDim];
  forEachOuterIndex(
      shape, srcStrides, dstStrides, innerDims, [&](int64_t srcBase, int64_t dstBase) {
        for (int64_t r0 = 0; r0 < rows; r0 += kTile)
          for (int64_t c0 = 0; c0 < columns; c0 += kTile) {
            int64_t rEnd = std::min(rows, r0 + kTile),
                    cEnd = std::min(columns, c0 + kTile);
            for (int64_t r = r0; r < rEnd; ++r) {
              const E *from = src + srcBase + r;
              E *to = dst + dstBase + r * dstRowStride;
              for (int64_t c = c0; c < cEnd; ++c)
                to[c] = from[c * srcColumnStride];
            }
          }
      });
}

} // namespace

namespace detail {

void stridedCopy(const Shape &shape, const Tensor &srcTensor, int64_t srcOffset,
                 const std::vector<int64_t> &srcStrides, Tensor &dstTensor,
                 int64_t dstOffset, const std::vector<int64_t> &dstStrides) {
  visitElementSize(dtypeSize(srcTensor.dtype()), [&](auto tag) {
    using E = decltype(tag);
    stridedCopyTyped(shape, srcTensor.data<E>() + srcOffset, srcStrides,
                     dstTensor.data<E>() + dstOffset, dstStrides);
  });
}

} // namespace detail

using detail::stridedCopy;

Tensor transpose(const Tensor &operand, const std::vector<int64_t> &permutation) {
  int64_t rank = operand.rank();
  Shape resultShape(rank);
  std::vector<int64_t> operandStrides = operand.strides(), srcStrides(rank);
  for (int64_t d = 0; d < rank; ++d) {
    resultShape[d] = operand.shape()[permutation[d]];
    srcStrides[d] = operandStrides[permutation[d]];
  }
  Tensor result = Tensor::empty(operand.dtype(), resultShape);
  std::vector<int64_t> dstStrides = result.strides();
  int64_t rowDim = -1;
  for (int64_t d = 0; d < rank; ++d)
    if (permutation[d] == rank - 1)
      rowDim = d;
  if (rank < 2 || rowDim == rank - 1) {
    stridedCopy(resultShape, operand, 0, srcStrides, result, 0, dstStrides);
    return result;
  }
  visitElementSize(dtypeSize(operand.dtype()), [&](auto tag) {
    using E = decltype(tag);
    tiledTranspose(resultShape, operand.data<E>(), srcStrides, result.data<E>(),
                   dstStrides, rowDim, rank - 1);
  });
  return result;
}

Tensor broadcastInDim(const Tensor &operand, const Shape &resultShape,
                      const std::vector<int64_t> &dimensions) {
  Tensor result = Tensor::empty(operand.dtype(), resultShape);
  std::vector<int64_t> operandStrides = operand.strides();
  std::vector<int64_t> srcStrides(resultShape.size(), 0);
  for (size_t d = 0; d < dimensions.size(); ++d)
    if (operand.shape()[d] != 1)
      srcStrides[dimensions[d]] = operandStrides[d];
  stridedCopy(resultShape, operand, 0, srcStrides, result, 0, result.strides());
  return result;
}

Tensor slice(const Tensor &operand, const std::vector<int64_t> &start,
             const std::vector<int64_t> &limit,
             const std::vector<int64_t> &strides) {
  int64_t rank = operand.rank();
  Shape resultShape(rank);
  std::vector<int64_t> operandStrides = operand.strides(), srcStrides(rank);
  int64_t offset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    resultShape[d] =
        std::max<int64_t>(0, (limit[d] - start[d] + strides[d] - 1) / strides[d]);
    srcStrides[d] = operandStrides[d] * strides[d];
    offset += start[d] * operandStrides[d];
  }
  Tensor result = Tensor::empty(operand.dtype(), resultShape);
  stridedCopy(resultShape, operand, offset, srcStrides, result, 0,
              result.strides());
  return result;
}

Tensor dynamicSlice(const Tensor &operand, std::vector<int64_t> start,
                    const Shape &sizes) {
  std::vector<int64_t> limit(sizes.size()), unitStrides(sizes.size(), 1);
  for (size_t d = 0; d < sizes.size(); ++d) {
    start[d] = std::clamp<int64_t>(start[d], 0, operand.shape()[d] - sizes[d]);
    limit[d] = start[d] + sizes[d];
  }
  return slice(operand, start, limit, unitStrides);
}

Tensor dynamicUpdateSlice(const Tensor &operand, const Tensor &update,
                          std::vector<int64_t> start) {
  Tensor result = operand.clone();
  std::vector<int64_t> resultStrides = result.strides();
  int64_t offset = 0;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    start[d] = std::clamp<int64_t>(start[d], 0,
                                   operand.shape()[d] - update.shape()[d]);
    offset += start[d] * resultStrides[d];
  }
  stridedCopy(update.shape(), update, 0, update.strides(), result, offset,
              resultStrides);
  return result;
}

void copyBox(const Tensor &source, const std::vector<int64_t> &sourceBegin,
             Tensor &destination, const std::vector<int64_t> &destinationBegin,
             const Shape &shape) {
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> srcStrides = source.strides(),
                       dstStrides = destination.strides();
  int64_t srcOffset = 0, dstOffset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    srcOffset += sourceBegin[d] * srcStrides[d];
    dstOffset += destinationBegin[d] * dstStrides[d];
  }
  // Fold trailing dimensions spanned whole by both boxes into the one
  // before them, so that the innermost run is as long as possible.
  Shape runShape = shape;
  int64_t inner = rank - 1;
  while (inner > 0 && shape[inner] == source.shape()[inner] &&
         shape[inner] == destination.shape()[inner]) {
    runShape[inner - 1] *= runShape[inner];
    --inner;
  }
  runShape.resize(std::max<int64_t>(inner + 1, 0));
  srcStrides.resize(runShape.size());
  dstStrides.resize(runShape.size());
  if (!runShape.empty()) {
    srcStrides.back() = 1;
    dstStrides.back() = 1;
  }
  stridedCopy(runShape, source, srcOffset, srcStrides, destination, dstOffset,
              dstStrides);
}

Tensor concatenate(const std::vector<Tensor> &inputs, int64_t dimension) {
  Shape resultShape = inputs.front().shape();
  resultShape[dimension] = 0;
  for (const Tensor &input : inputs)
    resultShape[dimension] += input.shape()[dimension];
  Tensor result = Tensor::empty(inputs.front().dtype(), resultShape);
  std::vector<int64_t> resultStrides = result.strides();
  int64_t offset = 0;
  for (const Tensor &input : inputs) {
    stridedCopy(input.shape(), input, 0, input.strides(), result, offset,
                resultStrides);
    offset += input.shape()[dimension] * resultStrides[dimension];
  }
  return result;
}

Tensor pad(const Tensor &operand, const Tensor &paddingValue,
           const std::vector<int64_t> &low, const std::vector<int64_t> &high,
           const std::vector<int64_t> &interior) {
  int64_t rank = operand.rank();
  Shape resultShape(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = operand.shape()[d];
    resultShape[d] = low[d] + high[d] + size + std::max<int64_t>(size - 1, 0) * interior[d];
  }
  Tensor result = broadcastInDim(paddingValue, resultShape, {});
  // Operand element i of dim d lands at low + i * (interior + 1); negative
  // edge padding drops the elements that land outside the result.
  std::vector<int64_t> operandStrides = operand.strides(),
                       resultStrides = result.strides();
  Shape copiedShape(rank);
  std::vector<int64_t> dstStrides(rank);
  int64_t srcOffset = 0, dstOffset = 0;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t step = interior[d] + 1;
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t lastPosition = resultShape[d] - 1 - low[d];
    int64_t end = lastPosition < 0 ? 0 : std::min(operand.shape()[d], lastPosition / step + 1);
    copiedShape[d] = std::max<int64_t>(0, end - first);
    dstStrides[d] = resultStrides[d] * step;
    srcOffset += first * operandStrides[d];
    dstOffset += (low[d] + first * step) * resultStrides[d];
  }
  if (numElementsOf(copiedShape) > 0)
    stridedCopy(copiedShape, operand, srcOffset, operandStrides, result,
                dstOffset, dstStrides);
  return result;
}

Tensor reverse(const Tensor &operand, const std::vector<int64_t> &dimensions) {
  std::vector<int64_t> srcStrides = operand.strides();
  int64_t offset = 0;
  for (int64_t d : dimensions) {
    offset += (operand.shape()[d] - 1) * srcStrides[d];
    srcStrides[d] = -srcStrides[d];
  }
  Tensor result = Tensor::empty(operand.dtype(), operand.shape());
  if (result.numElements() > 0)
    stridedCopy(operand.shape(), operand, offset, srcStrides, result, 0,
                result.strides());
  return result;
}

Tensor bitcastConvert(const Tensor &operand, DType to, const Shape &shape) {
  DType from = operand.dtype();
  auto isPlain = [](DType dtype) {
    return dtypeBitWidth(dtype) == static_cast<int64_t>(dtypeSize(dtype)) * 8;
  };
  // Row-major bytes are the same whichever the element size.
  if (isPlain(from) && isPlain(to))
    return operand.bitcast(to, shape);
  // Otherwise the elements' own bits (tf32's 19, i4's 4) are one bit
  // string, element 0 in the lowest bits, cut into the result's elements.
  const int64_t inBits = dtypeBitWidth(from), outBits = dtypeBitWidth(to);
  auto patternOf = [&](int64_t index) {
    uint64_t raw = 0;
    std::memcpy(&raw, operand.bytes() + index * dtypeSize(from), dtypeSize(from));
    if (from == DType::TF32)
      raw >>= 13;
    return inBits == 64 ? raw : raw & ((uint64_t(1) << inBits) - 1);
  };
  Tensor result = Tensor::empty(to, shape);
  for (int64_t j = 0, e = result.numElements(); j < e; ++j) {
    uint64_t pattern = 0;
    for (int64_t bit = 0; bit < outBits; ++bit) {
      int64_t position = j * outBits + bit;
      pattern |= ((patternOf(position / inBits) >> (position % inBits)) & 1)
                 << bit;
    }
    int64_t value = static_cast<int64_t>(pattern);
    if (isSubByteInt(to))
      value = wrapToSubByteInt(to, value);
    else if (to == DType::TF32)
      value <<= 13;
    std::memcpy(result.bytes() + j * dtypeSize(to), &value, dtypeSize(to));
  }
  return result;
}

Tensor iota(DType dtype, const Shape &shape, int64_t dimension) {
  // One row 0..n-1 along `dimension`, broadcast to the shape.
  Tensor row = Tensor::empty(DType::I64, {shape[dimension]});
  for (int64_t i = 0; i < shape[dimension]; ++i)
    row.data<int64_t>()[i] = i;
  return broadcastInDim(convert(row, dtype), shape, {dimension});
}

} // namespace mlir::mpmd::runtime
