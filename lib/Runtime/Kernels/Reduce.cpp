//===- Reduce.cpp - Reductions with a known combiner ----------------------===//
//
// The operand is read once, in memory order. When the innermost dimension
// is reduced, each run of it folds into 16 partial accumulators, then one;
// when it is kept,
// each run combines elementwise into a row of the result (vectorizable).
// The accumulation order differs from a sequential fold, which changes
// float results by rounding only.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "Dispatch.h"
#include "ElementwiseLoops.h"

#include <type_traits>
#include <vector>

namespace mlir::mpmd::runtime {

namespace {

template <typename T> struct Combiner {
  ReduceKind kind;
  T operator()(T a, T b) const {
    switch (kind) {
    case ReduceKind::Add:
      if constexpr (std::is_same_v<T, bool>) return a || b;
      else return static_cast<T>(a + b);
    case ReduceKind::Multiply:
      if constexpr (std::is_same_v<T, bool>) return a && b;
      else return static_cast<T>(a * b);
    case ReduceKind::Maximum:
      if constexpr (std::is_floating_point_v<T>) return detail::floatMax(a, b);
      else return a > b ? a : b;
    case ReduceKind::Minimum:
      if constexpr (std::is_floating_point_v<T>) return detail::floatMin(a, b);
      else return a < b ? a : b;
    case ReduceKind::And:
      if constexpr (std::is_floating_point_v<T>) return a;
      else return static_cast<T>(a & b);
    case ReduceKind::Or:
      if constexpr (std::is_floating_point_v<T>) return a;
      else return static_cast<T>(a | b);
    }
    return a;
  }
};

template <typename T, typename Op>
void reduceTyped(Op op, const Tensor &operand, const std::vector<bool> &reduced,
                 Tensor &result) {
  const Shape &shape = operand.shape();
  int64_t rank = operand.rank();
  const T *in = operand.data<T>();
  T *out = result.data<T>();
  if (operand.numElements() == 0)
    return;
  if (rank == 0) {
    out[0] = op(out[0], in[0]);
    return;
  }
  // Result strides per operand dimension (0 along reduced dimensions).
  std::vector<int64_t> outStrides(rank, 0);
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d)
    if (!reduced[d]) {
      outStrides[d] = stride;
      stride *= shape[d];
    }
  int64_t last = rank - 1, length = shape[last];
  std::vector<int64_t> index(rank, 0);
  int64_t inOffset = 0, outOffset = 0;
  while (true) {
    const T *row = in + inOffset;
    T *target = out + outOffset;
    if (reduced[last]) {
      // Independent partial accumulators break the loop-carried dependency
      // so that the fold vectorizes.
      constexpr int64_t kLanes = 16;
      T accumulator = *target;
      int64_t i = 0;
      if (length >= 2 * kLanes) {
        T partial[kLanes];
        for (int64_t lane = 0; lane < kLanes; ++lane)
          partial[lane] = row[lane];
        for (i = kLanes; i + kLanes <= length; i += kLanes)
          for (int64_t lane = 0; lane < kLanes; ++lane)
            partial[lane] = op(partial[lane], row[i + lane]);
        for (int64_t lane = 0; lane < kLanes; ++lane)
          accumulator = op(accumulator, partial[lane]);
      }
      for (; i < length; ++i)
        accumulator = op(accumulator, row[i]);
      *target = accumulator;
    } else {
      for (int64_t i = 0; i < length; ++i)
        target[i] = op(target[i], row[i]);
    }
    inOffset += length;
    int64_t d = last - 1;
    for (; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        outOffset += outStrides[d];
        break;
      }
      outOffset -= outStrides[d] * (shape[d] - 1);
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

} // namespace

bool supportsReduce(ReduceKind kind, DType dtype) {
  if (isComplex(dtype)) // the interpreter runs complex bodies as regions
    return false;
  if (kind == ReduceKind::And || kind == ReduceKind::Or)
    return !isFloat(dtype);
  return true;
}

Tensor reduce(ReduceKind kind, const Tensor &operandIn, const Tensor &initIn,
              const std::vector<int64_t> &dimensions) {
  Tensor operand = detail::widenForCompute(operandIn), init = detail::widenForCompute(initIn);
  std::vector<bool> reduced(operand.rank(), false);
  for (int64_t d : dimensions)
    reduced[d] = true;
  Shape resultShape;
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (!reduced[d])
      resultShape.push_back(operand.shape()[d]);
  Tensor result = broadcastInDim(init, resultShape, {});
  detail::visitStorageType(operand.dtype(), [&](auto tag) {
    using T = decltype(tag);
    switch (kind) { // one instantiation per combiner, so it inlines
    case ReduceKind::Add:
      return reduceTyped<T>([](T a, T b) { return Combiner<T>{ReduceKind::Add}(a, b); }, operand, reduced, result);
    case ReduceKind::Multiply:
      return reduceTyped<T>([](T a, T b) { return Combiner<T>{ReduceKind::Multiply}(a, b); }, operand, reduced, result);
    case ReduceKind::Maximum:
      return reduceTyped<T>([](T a, T b) { return Combiner<T>{ReduceKind::Maximum}(a, b); }, operand, reduced, result);
    case ReduceKind::Minimum:
      return reduceTyped<T>([](T a, T b) { return Combiner<T>{ReduceKind::Minimum}(a, b); }, operand, reduced, result);
    case ReduceKind::And:
      return reduceTyped<T>([](T a, T b) { return Combiner<T>{ReduceKind::And}(a, b); }, operand, reduced, result);
    case ReduceKind::Or:
      return reduceTyped<T>([](T a, T b) { return Combiner<T>{ReduceKind::Or}(a, b); }, operand, reduced, result);
    }
  });
  return roundsAfterEachOp(operandIn.dtype()) ? detail::roundToDType(result, operandIn.dtype())
                                   : result;
}

WindowIndexer::WindowIndexer(const Shape &operandShape,
                             const Shape &resultShape,
                             const WindowDimensions &window)
    : operandShape(operandShape), resultShape(resultShape), window(window),
      windowSize(numElementsOf(window.size)) {}

Tensor reduceWindow(ReduceKind kind, const Tensor &operandIn,
                    const Tensor &initIn, const WindowDimensions &window,
                    const Shape &resultShape) {
  Tensor operand = detail::widenForCompute(operandIn), init = detail::widenForCompute(initIn);
  Tensor result = broadcastInDim(init, resultShape, {});
  WindowIndexer indexer(operand.shape(), resultShape, window);
  detail::visitStorageType(operand.dtype(), [&](auto tag) {
    using T = decltype(tag);
    Combiner<T> combine{kind};
    const T *in = operand.data<T>();
    T *out = result.data<T>();
    T padding = init.data<T>()[0];
    indexer.forEachRun([&](int64_t resultIndex, int64_t, int64_t source,
                           int64_t length) {
      T *to = out + resultIndex;
      if (source < 0) {
        for (int64_t i = 0; i < length; ++i)
          to[i] = combine(to[i], padding);
        return;
      }
      const T *from = in + source;
      for (int64_t i = 0; i < length; ++i)
        to[i] = combine(to[i], from[i]);
    });
  });
  return roundsAfterEachOp(operandIn.dtype()) ? detail::roundToDType(result, operandIn.dtype())
                                   : result;
}

Tensor selectAndScatter(CompareKind select, ReduceKind scatter,
                        const Tensor &operandIn, const Tensor &sourceIn,
                        const Tensor &initIn, const WindowDimensions &window) {
  Tensor operand = detail::widenForCompute(operandIn);
  Tensor source = detail::widenForCompute(sourceIn), init = detail::widenForCompute(initIn);
  Tensor result = broadcastInDim(init, operand.shape(), {});
  WindowIndexer indexer(operand.shape(), source.shape(), window);
  int64_t lastPosition = indexer.getWindowSize() - 1;
  detail::visitStorageType(operand.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto keeps = [select](T a, T b) {
      switch (select) {
      case CompareKind::EQ: return a == b;
      case CompareKind::NE: return a != b;
      case CompareKind::LT: return a < b;
      case CompareKind::LE: return a <= b;
      case CompareKind::GT: return a > b;
      case CompareKind::GE: return a >= b;
      }
      return true;
    };
    Combiner<T> combine{scatter};
    const T *in = operand.data<T>(), *from = source.data<T>();
    T *out = result.data<T>();
    // The element each window of the current run has chosen so far, and
    // its value (compared without reading it back through the index).
    std::vector<int64_t> chosen;
    std::vector<T> best;
    indexer.forEachRun([&](int64_t sourceIndex, int64_t position,
                           int64_t index, int64_t length) {
      if (position == 0) {
        chosen.assign(length, -1);
        best.resize(length);
      }
      // Without branches: which element a window keeps follows the data
      // (half of relu'd activations' comparisons go either way), and a
      // mispredicted branch per element cost more than the comparison.
      for (int64_t i = 0; index >= 0 && i < length; ++i) {
        T value = in[index + i];
        // Both sides evaluated: `|` of ints, not a `||` that branches.
        bool take = static_cast<int>(chosen[i] < 0) |
                    static_cast<int>(!keeps(best[i], value));
        chosen[i] = take ? index + i : chosen[i];
        best[i] = take ? value : best[i];
      }
      if (position != lastPosition)
        return;
      for (int64_t i = 0; i < length; ++i)
        if (chosen[i] >= 0)
          out[chosen[i]] = combine(out[chosen[i]], from[sourceIndex + i]);
    });
  });
  return roundsAfterEachOp(operandIn.dtype()) ? detail::roundToDType(result, operandIn.dtype())
                                   : result;
}

} // namespace mlir::mpmd::runtime
