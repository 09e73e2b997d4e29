//===- StablehloQuantization.h - quantized element types --------*- C++ -*-===//
//
// The spec's quantized element types are MLIR's `!quant.uniform` types
// (per-tensor: quant::UniformQuantizedType, per-axis:
// quant::UniformQuantizedPerAxisType). These predicates back the ODS type
// constraints and the verifiers; they take plain Types so that this header
// stays light (it is included by every op TU).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOQUANTIZATION_H
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOQUANTIZATION_H

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::stablehlo {

/// A `!quant.uniform` element type the spec allows (constraints C1-C11 of
/// "Quantized element types"): an integer storage type of 2, 4, 8, 16 or 32
/// bits, signed or unsigned, with storage_min < storage_max; a spec float
/// expressed type; positive finite scales; zero points within
/// [storage_min, storage_max]. Per-tensor or per-axis.
bool isQuantizedElementType(Type type);
bool isPerTensorQuantizedElementType(Type type);
bool isPerAxisQuantizedElementType(Type type);
/// A ranked tensor whose per-axis quantized element type (if any) fits it:
/// quantization_dimension < rank (C12) and dim(quantization_dimension) =
/// size(scales) (C13). True for any other type.
bool hasValidQuantizationAxis(Type type);
/// `type`'s element type is quantized (type may be a tensor or an element).
bool isQuantized(Type type);
/// The bit width of a quantized element type's storage type.
unsigned getQuantizedStorageBitWidth(Type type);
/// A quantized element type whose storage integers are unsigned.
bool isUnsignedQuantizedStorage(Type type);
/// A quantized element type whose zero points are all 0.
bool hasZeroZeroPoints(Type type);
/// A per-axis quantized element type's quantization_dimension.
std::optional<int64_t> getQuantizationDimension(Type type);
/// A per-axis quantized element type along `dimension` instead (same
/// scales and zero points); any other type unchanged.
Type withQuantizationDimension(Type element, int64_t dimension);
/// broadcast_in_dim's rule for per-axis types (C1, C6): `result` is
/// `operand` but along `resultDimension`, with its scales and zero points,
/// or, when `operandSize` is 1, that one pair repeated.
bool isBroadcastOfPerAxisType(Type operand, Type result,
                              int64_t resultDimension, int64_t operandSize);
/// The expressed type of a quantized element type (of a tensor's element
/// type); `type` itself otherwise.
Type getExpressedTypeOrSelf(Type type);
/// The tensor of `type`'s shape whose elements are the expressed type of
/// its quantized elements; `type` itself when it is not quantized.
Type getExpressedTensorType(Type type);
/// The element types agree up to the quantization parameters (the spec's
/// baseline_element_type): equal types, or two quantized types with the same
/// storage type, signedness, storage range and expressed type, both
/// per-tensor or both per-axis along the same dimension.
bool haveSameBaselineElementType(Type lhs, Type rhs);

} // namespace mlir::stablehlo

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOQUANTIZATION_H
