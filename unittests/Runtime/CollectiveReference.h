//===- CollectiveReference.h - Collectives as plain index loops -*- C++ -*-===//
//
// What every transport's collectives must compute, written as the simplest
// loops over f32 tensors (operands: member m's element i is
// `operandValue(m, i)`), for the transport tests to compare with.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_UNITTESTS_RUNTIME_COLLECTIVEREFERENCE_H
#define MPMD_UNITTESTS_RUNTIME_COLLECTIVEREFERENCE_H

#include "mpmd/Runtime/Tensor.h"

#include <vector>

namespace mlir::mpmd::runtime::testing {

/// Exact in f32: small integers.
inline float operandValue(int64_t member, int64_t index) {
  return float(member * 1000 + index);
}

inline Tensor makeOperand(int64_t member, const Shape &shape) {
  Tensor tensor = Tensor::empty(DType::F32, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.data<float>()[i] = operandValue(member, i);
  return tensor;
}

/// (outer, size, inner) of `shape` around `dimension`.
struct Split {
  int64_t outer = 1, size = 1, inner = 1;
};
inline Split splitAround(const Shape &shape, int64_t dimension) {
  Split split;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    if (d < dimension)
      split.outer *= shape[d];
    else if (d > dimension)
      split.inner *= shape[d];
  }
  split.size = shape[dimension];
  return split;
}

inline std::vector<float> referenceAllReduceSum(int64_t members,
                                                int64_t elements) {
  std::vector<float> sum(elements, 0);
  for (int64_t m = 0; m < members; ++m)
    for (int64_t i = 0; i < elements; ++i)
      sum[i] += operandValue(m, i);
  return sum;
}

/// Member operands concatenated along `dimension`, member order.
inline std::vector<float> referenceAllGather(int64_t members,
                                             const Shape &shape,
                                             int64_t dimension) {
  Split split = splitAround(shape, dimension);
  std::vector<float> result;
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t m = 0; m < members; ++m)
      for (int64_t k = 0; k < split.size; ++k)
        for (int64_t i = 0; i < split.inner; ++i)
          result.push_back(operandValue(
              m, (o * split.size + k) * split.inner + i));
  return result;
}

/// Chunk `position` along `dimension` of the sum of the operands.
inline std::vector<float> referenceReduceScatterSum(int64_t members,
                                                   const Shape &shape,
                                                   int64_t dimension,
                                                   int64_t position) {
  Split split = splitAround(shape, dimension);
  int64_t chunk = split.size / members;
  std::vector<float> result;
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t k = position * chunk; k < (position + 1) * chunk; ++k)
      for (int64_t i = 0; i < split.inner; ++i) {
        float sum = 0;
        for (int64_t m = 0; m < members; ++m)
          sum += operandValue(m, (o * split.size + k) * split.inner + i);
        result.push_back(sum);
      }
  return result;
}

/// Chunk `position` (along `splitDimension`) of every member's operand,
/// concatenated along `concatDimension`.
inline std::vector<float> referenceAllToAll(int64_t members,
                                            const Shape &shape,
                                            int64_t splitDimension,
                                            int64_t concatDimension,
                                            int64_t position) {
  Shape chunkShape = shape;
  chunkShape[splitDimension] /= members;
  Shape resultShape = chunkShape;
  resultShape[concatDimension] *= members;
  std::vector<int64_t> strides = rowMajorStrides(shape);
  std::vector<float> result(numElementsOf(resultShape));
  std::vector<int64_t> index(resultShape.size(), 0);
  for (int64_t flat = 0; flat < int64_t(result.size()); ++flat) {
    // The result element at `index` comes from member `index[concat] /
    // chunk`, at its chunk `position` along the split dimension.
    int64_t member = index[concatDimension] / chunkShape[concatDimension];
    int64_t source = 0;
    for (int64_t d = 0; d < int64_t(index.size()); ++d) {
      int64_t coordinate = index[d];
      if (d == concatDimension)
        coordinate %= chunkShape[concatDimension];
      if (d == splitDimension)
        coordinate += position * chunkShape[splitDimension];
      source += coordinate * strides[d];
    }
    result[flat] = operandValue(member, source);
    for (int64_t d = int64_t(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < resultShape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

inline std::vector<float> valuesOf(const Tensor &tensor) {
  return std::vector<float>(tensor.data<float>(),
                            tensor.data<float>() + tensor.numElements());
}

} // namespace mlir::mpmd::runtime::testing

#endif // MPMD_UNITTESTS_RUNTIME_COLLECTIVEREFERENCE_H
