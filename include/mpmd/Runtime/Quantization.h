//===- Quantization.h - Uniform quantization kernels ------------*- C++ -*-===//
//
// The runtime holds a quantized tensor as its storage integers (a tensor of
// the storage dtype); the quantization parameters live in the program's
// types and come to these kernels as a QuantizedElementType. The kernels
// follow the spec's `quantize` and `dequantize` step by step, each step a
// whole-tensor kernel in the expressed type (so narrow expressed types round
// after each step, as the spec's per-op semantics do). O(elements).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_QUANTIZATION_H
#define MPMD_RUNTIME_QUANTIZATION_H

#include "mpmd/Runtime/Tensor.h"

#include <optional>
#include <vector>

namespace mlir::mpmd::runtime {

/// A `!quant.uniform` element type: per-tensor (one scale and zero point,
/// no axis) or per-axis (one pair per index of dimension `axis`).
struct QuantizedElementType {
  DType storage;
  int64_t storageMin = 0;
  int64_t storageMax = 0;
  DType expressed;
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
  std::optional<int64_t> axis;
};

/// `(x - zero_point) * scale` in the expressed type: the difference exact
/// (in 64 bits, where the spec's pseudo-code subtracts in the storage type
/// and could wrap), converted to the expressed type, times the scale
/// rounded to the expressed type.
Tensor dequantize(const Tensor &storage, const QuantizedElementType &type);
/// `round_nearest_even(clamp(storage_min, x / scale + zero_point,
/// storage_max))` in the expressed type (`floats` has it), converted to the
/// storage type.
Tensor quantize(const Tensor &floats, const QuantizedElementType &type);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_QUANTIZATION_H
