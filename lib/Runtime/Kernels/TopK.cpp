//===- TopK.cpp - top_k along the last dimension --------------------------===//

#include "mpmd/Runtime/CompoundKernels.h"

#include "Dispatch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace mlir::mpmd::runtime {

std::vector<Tensor> topK(const Tensor &operandIn, int64_t k) {
  Tensor operand = detail::widenForCompute(operandIn);
  const Shape &shape = operand.shape();
  int64_t n = shape.back();
  Shape resultShape = shape;
  resultShape.back() = k;
  Tensor values = Tensor::empty(operand.dtype(), resultShape);
  Tensor indices = Tensor::empty(DType::I32, resultShape);
  int64_t rows = n == 0 ? 0 : operand.numElements() / n;
  detail::visitStorageType(operand.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *in = operand.data<T>();
    T *outValues = values.data<T>();
    int32_t *outIndices = indices.data<int32_t>();
    std::vector<int64_t> order(n);
    for (int64_t row = 0; row < rows; ++row) {
      const T *line = in + row * n;
      // Strict "comes before": larger first, nan largest, lower index on
      // ties (which makes the order total, so partial_sort is stable).
      auto before = [&](int64_t a, int64_t b) {
        T x = line[a], y = line[b];
        if constexpr (std::is_floating_point_v<T>) {
          bool xNan = std::isnan(x), yNan = std::isnan(y);
          if (xNan || yNan)
            return xNan && (!yNan || a < b);
        }
        if (x != y)
          return x > y;
        return a < b;
      };
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      for (int64_t i = 0; i < k; ++i) {
        outValues[row * k + i] = line[order[i]];
        outIndices[row * k + i] = static_cast<int32_t>(order[i]);
      }
    }
  });
  if (roundsAfterEachOp(operandIn.dtype()))
    values = detail::roundToDType(values, operandIn.dtype());
  return {values, indices};
}

} // namespace mlir::mpmd::runtime
