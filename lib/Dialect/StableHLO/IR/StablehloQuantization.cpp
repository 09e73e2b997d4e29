//===- StablehloQuantization.cpp - quantized element types ----------------===//

#include "mpmd/Dialect/StableHLO/IR/StablehloQuantization.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace {

/// What C1-C9 of the spec ask of the storage and expressed types and of
/// each (scale, zero point) pair.
bool hasValidParameters(quant::QuantizedType type, ArrayRef<double> scales,
                        ArrayRef<int64_t> zeroPoints) {
  auto storage = dyn_cast<IntegerType>(type.getStorageType());
  if (!storage)
    return false;
  unsigned width = storage.getWidth();
  if (width != 2 && width != 4 && width != 8 && width != 16 && width != 32)
    return false;
  // The spec's floating-point types (no f80, f128).
  Type expressed = type.getExpressedType();
  if (!isa_and_nonnull<FloatType>(expressed) ||
      isa<Float80Type, Float128Type>(expressed))
    return false;
  int64_t storageMin = type.getStorageTypeMin();
  int64_t storageMax = type.getStorageTypeMax();
  if (storageMin >= storageMax)
    return false;
  if (scales.empty() || scales.size() != zeroPoints.size())
    return false;
  for (auto [scale, zeroPoint] : llvm::zip(scales, zeroPoints))
    if (!(scale > 0) || !std::isfinite(scale) || zeroPoint < storageMin ||
        zeroPoint > storageMax)
      return false;
  return true;
}

} // namespace

bool mlir::stablehlo::isPerTensorQuantizedElementType(Type type) {
  auto quantized = dyn_cast<quant::UniformQuantizedType>(type);
  if (!quantized)
    return false;
  double scale = quantized.getScale();
  int64_t zeroPoint = quantized.getZeroPoint();
  return hasValidParameters(quantized, scale, zeroPoint);
}

bool mlir::stablehlo::isPerAxisQuantizedElementType(Type type) {
  auto quantized = dyn_cast<quant::UniformQuantizedPerAxisType>(type);
  return quantized && quantized.getQuantizedDimension() >= 0 &&
         hasValidParameters(quantized, quantized.getScales(),
                            quantized.getZeroPoints());
}

bool mlir::stablehlo::isQuantizedElementType(Type type) {
  return isPerTensorQuantizedElementType(type) ||
         isPerAxisQuantizedElementType(type);
}

bool mlir::stablehlo::hasValidQuantizationAxis(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return true;
  auto perAxis =
      dyn_cast<quant::UniformQuantizedPerAxisType>(tensor.getElementType());
  if (!perAxis)
    return true;
  int64_t axis = perAxis.getQuantizedDimension();
  if (axis < 0 || axis >= tensor.getRank())
    return false;
  int64_t size = tensor.getDimSize(axis);
  return ShapedType::isDynamic(size) ||
         size == static_cast<int64_t>(perAxis.getScales().size());
}

bool mlir::stablehlo::isQuantized(Type type) {
  return isa<quant::UniformQuantizedType, quant::UniformQuantizedPerAxisType>(
      getElementTypeOrSelf(type));
}

unsigned mlir::stablehlo::getQuantizedStorageBitWidth(Type type) {
  return cast<quant::QuantizedType>(getElementTypeOrSelf(type))
      .getStorageTypeIntegralWidth();
}

bool mlir::stablehlo::isUnsignedQuantizedStorage(Type type) {
  return !cast<quant::QuantizedType>(getElementTypeOrSelf(type)).isSigned();
}

bool mlir::stablehlo::hasZeroZeroPoints(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto perTensor = dyn_cast<quant::UniformQuantizedType>(element))
    return perTensor.getZeroPoint() == 0;
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(element))
    return llvm::all_of(perAxis.getZeroPoints(),
                        [](int64_t zeroPoint) { return zeroPoint == 0; });
  return false;
}

std::optional<int64_t> mlir::stablehlo::getQuantizationDimension(Type type) {
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(
          getElementTypeOrSelf(type)))
    return perAxis.getQuantizedDimension();
  return std::nullopt;
}

Type mlir::stablehlo::withQuantizationDimension(Type element,
                                                int64_t dimension) {
  auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(element);
  if (!perAxis)
    return element;
  return quant::UniformQuantizedPerAxisType::get(
      perAxis.getFlags(), perAxis.getStorageType(),
      perAxis.getExpressedType(), perAxis.getScales(),
      perAxis.getZeroPoints(), static_cast<int32_t>(dimension),
      perAxis.getStorageTypeMin(), perAxis.getStorageTypeMax());
}

bool mlir::stablehlo::isBroadcastOfPerAxisType(Type operand, Type result,
                                               int64_t resultDimension,
                                               int64_t operandSize) {
  auto from = dyn_cast<quant::UniformQuantizedPerAxisType>(operand);
  auto to = dyn_cast<quant::UniformQuantizedPerAxisType>(result);
  if (!from || !to || from.getFlags() != to.getFlags() ||
      from.getStorageType() != to.getStorageType() ||
      from.getExpressedType() != to.getExpressedType() ||
      from.getStorageTypeMin() != to.getStorageTypeMin() ||
      from.getStorageTypeMax() != to.getStorageTypeMax() ||
      to.getQuantizedDimension() != resultDimension)
    return false;
  if (operandSize != 1)
    return from.getScales() == to.getScales() &&
           from.getZeroPoints() == to.getZeroPoints();
  return llvm::all_of(to.getScales(),
                      [&](double scale) {
                        return scale == from.getScales()[0];
                      }) &&
         llvm::all_of(to.getZeroPoints(), [&](int64_t zeroPoint) {
           return zeroPoint == from.getZeroPoints()[0];
         });
}

Type mlir::stablehlo::getExpressedTypeOrSelf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (auto quantized = dyn_cast<quant::QuantizedType>(element))
    return quantized.getExpressedType();
  return element;
}

Type mlir::stablehlo::getExpressedTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isQuantized(tensor))
    return type;
  return tensor.clone(getExpressedTypeOrSelf(tensor));
}

bool mlir::stablehlo::haveSameBaselineElementType(Type lhs, Type rhs) {
  if (lhs == rhs)
    return true;
  auto left = dyn_cast<quant::QuantizedType>(lhs);
  auto right = dyn_cast<quant::QuantizedType>(rhs);
  if (!left || !right || left.getStorageType() != right.getStorageType() ||
      left.isSigned() != right.isSigned() ||
      left.getStorageTypeMin() != right.getStorageTypeMin() ||
      left.getStorageTypeMax() != right.getStorageTypeMax() ||
      left.getExpressedType() != right.getExpressedType())
    return false;
  if (isa<quant::UniformQuantizedType>(lhs))
    return isa<quant::UniformQuantizedType>(rhs);
  auto leftAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(lhs);
  auto rightAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(rhs);
  return leftAxis && rightAxis &&
         leftAxis.getQuantizedDimension() == rightAxis.getQuantizedDimension();
}
