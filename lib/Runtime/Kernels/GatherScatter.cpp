//===- GatherScatter.cpp - gather and scatter -----------------------------===//
//
// Both walk the "batch" positions (the result/update dimensions that are
// not window dimensions) with an odometer, read one start index vector per
// position, and then move a whole window: gather as one strided copy,
// scatter element by element (each element needs a bounds check and a
// combine). Cost: O(result elements) and O(update elements).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/CompoundKernels.h"

#include "Dispatch.h"
#include "ElementwiseLoops.h"

#include <algorithm>
#include <functional>
#include <type_traits>

namespace mlir::mpmd::runtime {

namespace {

bool contains(const std::vector<int64_t> &dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

/// The dimensions of `rank` that are not in `windowDims`, in order.
std::vector<int64_t> complementOf(int64_t rank, const std::vector<int64_t> &windowDims) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!contains(windowDims, d))
      dims.push_back(d);
  return dims;
}

/// Calls `body(batchIndex)` for every index over `shape`'s `dims`.
template <typename Body>
void forEachBatchIndex(const Shape &shape, const std::vector<int64_t> &dims,
                       Body body) {
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t d : dims)
    if (shape[d] == 0)
      return;
  while (true) {
    body(index);
    int64_t i = static_cast<int64_t>(dims.size()) - 1;
    for (; i >= 0; --i) {
      if (++index[i] < shape[dims[i]])
        break;
      index[i] = 0;
    }
    if (i < 0)
      return;
  }
}

/// The start index vector at `batchIndex` (over the indices' dimensions
/// other than `indexVectorDim`), and the index of each of those dimensions
/// in the indices tensor.
std::vector<int64_t> readStartIndex(const Tensor &indices, int64_t indexVectorDim,
                                    const std::vector<int64_t> &batchIndex) {
  int64_t rank = indices.rank();
  std::vector<int64_t> strides = indices.strides();
  int64_t offset = 0, vectorLength = 1, vectorStride = 0;
  for (int64_t d = 0, b = 0; d < rank; ++d) {
    if (d == indexVectorDim) {
      vectorLength = indices.shape()[d];
      vectorStride = strides[d];
      continue;
    }
    offset += batchIndex[b++] * strides[d];
  }
  std::vector<int64_t> start(vectorLength);
  for (int64_t i = 0; i < vectorLength; ++i)
    start[i] = indices.elementAsInt(offset + i * vectorStride);
  return start;
}

/// The indices' batch coordinate for dimension `indicesDim` (which is not
/// the index vector dimension).
int64_t batchCoordinate(const std::vector<int64_t> &batchIndex, int64_t indicesDim,
                        int64_t indexVectorDim) {
  return batchIndex[indicesDim < indexVectorDim ? indicesDim : indicesDim - 1];
}

template <typename T>
T combine(std::optional<ReduceKind> combiner, T current, T update) {
  if (!combiner)
    return update;
  switch (*combiner) {
  case ReduceKind::Add:
    if constexpr (std::is_same_v<T, bool>) return current || update;
    else return static_cast<T>(current + update);
  case ReduceKind::Multiply:
    if constexpr (std::is_same_v<T, bool>) return current && update;
    else return static_cast<T>(current * update);
  case ReduceKind::Maximum:
    if constexpr (std::is_floating_point_v<T>) return detail::floatMax(current, update);
    else return current > update ? current : update;
  case ReduceKind::Minimum:
    if constexpr (std::is_floating_point_v<T>) return detail::floatMin(current, update);
    else return current < update ? current : update;
  case ReduceKind::And:
    if constexpr (std::is_floating_point_v<T>) return update;
    else return static_cast<T>(current & update);
  case ReduceKind::Or:
    if constexpr (std::is_floating_point_v<T>) return update;
    else return static_cast<T>(current | update);
  }
  return update;
}

} // namespace

Tensor gather(const Tensor &operand, const Tensor &startIndices,
              const GatherDimensions &dims, const std::vector<int64_t> &sliceSizes,
              const Shape &resultShape) {
  Tensor result = Tensor::empty(operand.dtype(), resultShape);
  int64_t resultRank = static_cast<int64_t>(resultShape.size());
  std::vector<int64_t> batchDims = complementOf(resultRank, dims.offsetDims);
  std::vector<int64_t> operandStrides = operand.strides(),
                       resultStrides = result.strides();
  // The window: operand dims that are neither collapsed nor batching,
  // written to the result's offset dims in order.
  Shape windowShape;
  std::vector<int64_t> windowSrcStrides, windowDstStrides;
  for (int64_t d = 0, o = 0; d < operand.rank(); ++d) {
    if (contains(dims.collapsedSliceDims, d) || contains(dims.operandBatchingDims, d))
      continue;
    windowShape.push_back(sliceSizes[d]);
    windowSrcStrides.push_back(operandStrides[d]);
    windowDstStrides.push_back(resultStrides[dims.offsetDims[o++]]);
  }
  if (result.numElements() == 0)
    return result;
  forEachBatchIndex(resultShape, batchDims, [&](const std::vector<int64_t> &batchIndex) {
    std::vector<int64_t> start =
        readStartIndex(startIndices, dims.indexVectorDim, batchIndex);
    int64_t srcOffset = 0, dstOffset = 0;
    for (size_t i = 0; i < batchDims.size(); ++i)
      dstOffset += batchIndex[i] * resultStrides[batchDims[i]];
    for (size_t i = 0; i < dims.startIndexMap.size(); ++i) {
      int64_t d = dims.startIndexMap[i];
      srcOffset += std::clamp<int64_t>(start[i], 0, operand.shape()[d] - sliceSizes[d]) *
                   operandStrides[d];
    }
    for (size_t i = 0; i < dims.operandBatchingDims.size(); ++i)
      srcOffset += batchCoordinate(batchIndex, dims.startIndicesBatchingDims[i],
                                   dims.indexVectorDim) *
                   operandStrides[dims.operandBatchingDims[i]];
    detail::stridedCopy(windowShape, operand, srcOffset, windowSrcStrides, result,
                        dstOffset, windowDstStrides);
  });
  return result;
}

namespace {

/// forEachScatterTarget's walk, inlined into the scatter kernel.
template <typename Body>
void walkScatterTargets(const Shape &inputShape, const Tensor &scatterIndices,
                        const Shape &updatesShape, const ScatterDimensions &dims,
                        Body body) {
  int64_t updateRank = static_cast<int64_t>(updatesShape.size());
  int64_t inputRank = static_cast<int64_t>(inputShape.size());
  std::vector<int64_t> scatterDims = complementOf(updateRank, dims.updateWindowDims);
  std::vector<int64_t> inputStrides = rowMajorStrides(inputShape),
                       updateStrides = rowMajorStrides(updatesShape);
  // Input dimension of each update window dimension, in order.
  std::vector<int64_t> windowInputDims;
  for (int64_t d = 0; d < inputRank; ++d)
    if (!contains(dims.insertedWindowDims, d) && !contains(dims.inputBatchingDims, d))
      windowInputDims.push_back(d);
  if (numElementsOf(updatesShape) == 0)
    return;
  forEachBatchIndex(updatesShape, scatterDims, [&](const std::vector<int64_t> &batchIndex) {
    std::vector<int64_t> start =
        readStartIndex(scatterIndices, dims.indexVectorDim, batchIndex);
    std::vector<int64_t> base(inputRank, 0);
    for (size_t i = 0; i < dims.scatterDimsToOperandDims.size(); ++i)
      base[dims.scatterDimsToOperandDims[i]] = start[i];
    for (size_t i = 0; i < dims.inputBatchingDims.size(); ++i)
      base[dims.inputBatchingDims[i]] = batchCoordinate(
          batchIndex, dims.scatterIndicesBatchingDims[i], dims.indexVectorDim);
    int64_t updateBase = 0;
    for (size_t i = 0; i < scatterDims.size(); ++i)
      updateBase += batchIndex[i] * updateStrides[scatterDims[i]];
    forEachBatchIndex(updatesShape, dims.updateWindowDims,
                      [&](const std::vector<int64_t> &windowIndex) {
      int64_t inputOffset = 0, updateOffset = updateBase;
      std::vector<int64_t> position = base;
      for (size_t i = 0; i < windowIndex.size(); ++i) {
        position[windowInputDims[i]] += windowIndex[i];
        updateOffset += windowIndex[i] * updateStrides[dims.updateWindowDims[i]];
      }
      for (int64_t d = 0; d < inputRank; ++d) {
        if (position[d] < 0 || position[d] >= inputShape[d])
          return; // out of bounds: skipped
        inputOffset += position[d] * inputStrides[d];
      }
      body(updateOffset, inputOffset);
    });
  });
}

} // namespace

void forEachScatterTarget(
    const Shape &inputShape, const Tensor &scatterIndices,
    const Shape &updatesShape, const ScatterDimensions &dims,
    const std::function<void(int64_t updateOffset, int64_t inputOffset)> &body) {
  walkScatterTargets(inputShape, scatterIndices, updatesShape, dims, body);
}

Tensor scatter(const Tensor &inputIn, const Tensor &scatterIndices,
               const Tensor &updatesIn, const ScatterDimensions &dims,
               std::optional<ReduceKind> combiner) {
  Tensor input = detail::widenForCompute(inputIn).clone(),
         updates = detail::widenForCompute(updatesIn);
  if (updates.numElements() == 0)
    return inputIn.clone();
  detail::visitStorageType(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T *out = input.data<T>();
    const T *in = updates.data<T>();
    walkScatterTargets(input.shape(), scatterIndices, updates.shape(), dims,
                       [&](int64_t updateOffset, int64_t inputOffset) {
      out[inputOffset] = combine<T>(combiner, out[inputOffset], in[updateOffset]);
    });
  });
  return roundsAfterEachOp(inputIn.dtype()) ? detail::roundToDType(input, inputIn.dtype()) : input;
}

} // namespace mlir::mpmd::runtime
