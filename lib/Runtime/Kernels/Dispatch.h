//===- Dispatch.h - dtype → C++ type dispatch for the kernels ---*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. `visitStorageType(dtype, f)` calls `f(T{})` with
// the C++ type that stores `dtype` (bool for i1, uint16_t for f16/bf16,
// uint8_t for the 8-bit and narrower floats, int8_t/uint8_t for i2/i4 and
// ui2/ui4), so a kernel is written once as a template. Complex tensors
// never reach it: the complex kernels (Complex.cpp) handle them.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_KERNELS_DISPATCH_H
#define MPMD_LIB_RUNTIME_KERNELS_DISPATCH_H

#include "mpmd/Runtime/Kernels.h"

#include <cstdint>

namespace mlir::mpmd::runtime::detail {

template <typename F> decltype(auto) visitStorageType(DType dtype, F &&f) {
  switch (dtype) {
  case DType::F64: return f(double{});
  case DType::F32: case DType::TF32: return f(float{});
  case DType::F16: case DType::BF16: case DType::UI16: return f(uint16_t{});
  case DType::I1: return f(bool{});
  case DType::I8: case DType::I2: case DType::I4: return f(int8_t{});
  case DType::I16: return f(int16_t{});
  case DType::I32: return f(int32_t{});
  case DType::I64: return f(int64_t{});
  case DType::UI32: return f(uint32_t{});
  case DType::UI64: return f(uint64_t{});
  case DType::C64: case DType::C128: break;
  default: return f(uint8_t{}); // ui8, ui2, ui4, the byte-sized floats
  }
  return f(float{});
}

/// What the kernels compute a dtype in: narrow floats as f32 (a new
/// tensor; tf32 is a view), i2/i4/ui2/ui4 as i8/ui8 (a view); others are
/// returned as they are. O(elements).
Tensor widenForCompute(const Tensor &tensor);
/// The reverse: `wide` (what widenForCompute gave) rounded to the narrow
/// float or wrapped to the sub-byte integer `dtype`. O(elements).
Tensor roundToDType(const Tensor &wide, DType dtype);

/// The complex kernels (Complex.cpp) behind unary, binary, compare and
/// convert. Abs gives the real modulus; compare supports EQ and NE.
bool supportsComplexUnary(UnaryKind kind);
bool supportsComplexBinary(BinaryKind kind);
Tensor complexUnary(UnaryKind kind, const Tensor &operand);
Tensor complexBinary(BinaryKind kind, const Tensor &lhs, const Tensor &rhs);
Tensor complexCompare(CompareKind kind, const Tensor &lhs, const Tensor &rhs);
Tensor convertComplex(const Tensor &operand, DType to);

/// Copies the elements of `shape` from `src` to `dst`, each given as an
/// element offset and strides (in elements; source strides may be 0 or
/// negative).
void stridedCopy(const Shape &shape, const Tensor &src, int64_t srcOffset,
                 const std::vector<int64_t> &srcStrides, Tensor &dst,
                 int64_t dstOffset, const std::vector<int64_t> &dstStrides);

} // namespace mlir::mpmd::runtime::detail

#endif // MPMD_LIB_RUNTIME_KERNELS_DISPATCH_H
