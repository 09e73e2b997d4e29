//===- StablehloTypeInference.h - result type inference --------*- C++ -*-===//
//
// Private to the dialect library: the shape functions behind the ops'
// InferTypeOpInterface hooks, and the check of given result types against
// inferred ones.
//
// Each shape function checks the operands and attributes it reads, reports
// the first problem through `emitError` and produces the result shape. The
// inference hooks call them for builders and for verification (through
// OpTrait::HloInferTypeOp), so every check and every expected-shape
// computation is written once, and an op whose result types cannot be
// inferred fails verification with a specific message.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_DIALECT_STABLEHLO_IR_STABLEHLOTYPEINFERENCE_H
#define MPMD_LIB_DIALECT_STABLEHLO_IR_STABLEHLOTYPEINFERENCE_H

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir::stablehlo {

/// Starts an error about the op being inferred or verified. An inactive
/// (default-constructed) diagnostic swallows everything streamed into it.
using EmitErrorFn = llvm::function_ref<InFlightDiagnostic()>;

/// Emits errors at `loc` prefixed like Operation::emitOpError
/// ("'stablehlo.add' op ..."), or nothing when `loc` is unset.
class OpErrorEmitter {
public:
  OpErrorEmitter(std::optional<Location> loc, StringRef opName)
      : loc(loc), opName(opName) {}
  InFlightDiagnostic operator()() const;

private:
  std::optional<Location> loc;
  StringRef opName;
};

//===----------------------------------------------------------------------===//
// Given versus inferred result types
//===----------------------------------------------------------------------===//

/// Same number of types; ranked tensors need compatible shapes (a dynamic
/// dimension matches any size) and, if `checkElementTypes`, equal element
/// types; other types must be equal. Encodings are not compared.
bool isCompatibleInferredTypes(TypeRange inferred, TypeRange actual,
                               bool checkElementTypes);

/// Reports the first given result type that is incompatible with the
/// inferred one, naming the element type, rank or dimension that differs
/// ("result dimension 1 has size 3 but expected 2 (expected shape [2, 2])").
/// Results are called "result" when `singleResult`, else "result #i".
LogicalResult verifyInferredTypes(std::optional<Location> loc, StringRef opName,
                                  bool singleResult, bool checkElementTypes,
                                  TypeRange inferred, TypeRange actual);

//===----------------------------------------------------------------------===//
// Small shape helpers (also used by verifiers)
//===----------------------------------------------------------------------===//

/// True if two dimension sizes may be equal (either dynamic or same value).
inline bool isCompatibleDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// Prints a shape as `[2, ?, 4]` (for error messages).
std::string shapeToString(ArrayRef<int64_t> shape);

/// Refines `shape` with the static sizes of `other` (same rank, compatible
/// sizes), or fails.
LogicalResult refineShape(SmallVectorImpl<int64_t> &shape,
                          ArrayRef<int64_t> other);

/// The element type of a complex element type's parts, or `type` itself.
Type realPartType(Type type);

/// Checks that `dims` are unique and in [0, rank); `what` names the list.
LogicalResult verifyDimsInRange(EmitErrorFn emitError, ArrayRef<int64_t> dims,
                                int64_t rank, StringRef what);

/// Checks that `type` is a ranked tensor whose shape is compatible with
/// `expectedShape`; `what` names it ("result", "result #1").
LogicalResult verifyShape(EmitErrorFn emitError, Type type,
                          ArrayRef<int64_t> expectedShape, StringRef what);

/// "<aName> element type X does not match <bName> element type Y".
LogicalResult verifySameElementType(EmitErrorFn emitError, Type a, Type b,
                                    StringRef aName, StringRef bName);

/// "<aName> shape [..] is incompatible with <bName> shape [..]".
LogicalResult verifySameShape(EmitErrorFn emitError, ShapedType a, ShapedType b,
                              StringRef aName, StringRef bName);

/// Window attributes of reduce_window / select_and_scatter: one entry per
/// dimension, positive (or non-negative unless `positive`).
LogicalResult verifyWindowAttr(EmitErrorFn emitError,
                               std::optional<ArrayRef<int64_t>> values,
                               int64_t rank, StringRef name, bool positive);

/// Padding of reduce_window / select_and_scatter: shape [rank, 2].
LogicalResult verifyWindowPadding(EmitErrorFn emitError,
                                  std::optional<DenseIntElementsAttr> padding,
                                  int64_t rank);

/// Start indices of dynamic_slice / dynamic_update_slice: one per dimension,
/// all of one element type.
LogicalResult verifyStartIndices(EmitErrorFn emitError,
                                 TypeRange startIndexTypes, int64_t rank);

//===----------------------------------------------------------------------===//
// Shape functions
//===----------------------------------------------------------------------===//

/// `perTensor` is per-tensor quantized, `perAxis` per-axis, and they agree
/// in storage type, signedness, storage range and expressed type: how
/// add's operands may differ from its result (spec C3-C7 of add).
bool isPerTensorOfPerAxis(Type perTensor, Type perAxis);

/// Elementwise ops: the type of operand #0 with its shape refined by the
/// other operands (which need the same element type and compatible shapes).
/// `stablehlo.add` of a per-tensor and a per-axis quantized operand of one
/// baseline (spec C5-C7 of add) has the per-axis operand's element type.
LogicalResult inferElementwiseTypes(std::optional<Location> loc,
                                    StringRef opName, TypeRange operandTypes,
                                    SmallVectorImpl<Type> &inferred);

/// Result dimension i is operand dimension permutation[i].
LogicalResult inferTransposeShape(EmitErrorFn emitError,
                                  RankedTensorType operand,
                                  ArrayRef<int64_t> permutation,
                                  SmallVectorImpl<int64_t> &shape);

/// ceil((limit - start) / stride) per dimension.
LogicalResult inferSliceShape(EmitErrorFn emitError, RankedTensorType operand,
                              ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                              ArrayRef<int64_t> strides,
                              SmallVectorImpl<int64_t> &shape);

/// The slice sizes (after checking the start indices and the sizes).
LogicalResult inferDynamicSliceShape(EmitErrorFn emitError,
                                     RankedTensorType operand,
                                     TypeRange startIndexTypes,
                                     ArrayRef<int64_t> sliceSizes,
                                     SmallVectorImpl<int64_t> &shape);

/// The inputs' shape with the sizes along `dimension` added up.
LogicalResult inferConcatenateShape(EmitErrorFn emitError, TypeRange inputTypes,
                                    int64_t dimension,
                                    SmallVectorImpl<int64_t> &shape);

/// low + high + size + (size - 1) * interior per dimension.
LogicalResult inferPadShape(EmitErrorFn emitError, RankedTensorType operand,
                            RankedTensorType paddingValue,
                            ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                            ArrayRef<int64_t> interior,
                            SmallVectorImpl<int64_t> &shape);

/// Legacy dot: [lhs rows] x [rhs columns] of rank-1/2 operands.
LogicalResult inferDotShape(EmitErrorFn emitError, RankedTensorType lhs,
                            RankedTensorType rhs,
                            SmallVectorImpl<int64_t> &shape);

/// Batch dimensions, then the free lhs, then the free rhs dimensions.
LogicalResult inferDotGeneralShape(EmitErrorFn emitError, RankedTensorType lhs,
                                   RankedTensorType rhs,
                                   DotDimensionNumbersAttr dims,
                                   SmallVectorImpl<int64_t> &shape);

/// The window attributes of a convolution, absent ones left empty.
struct ConvolutionWindow {
  std::optional<ArrayRef<int64_t>> strides, lhsDilation, rhsDilation;
  std::optional<DenseIntElementsAttr> padding;
  std::optional<ArrayRef<bool>> reversal;
};

/// Checks constraints C1-C23 and C26-C27 (operand element types) of the
/// spec's convolution and computes C25: the batch (divided by
/// batch_group_count), the kernel's output features, and per spatial
/// dimension the number of windows of the dilated, padded input.
LogicalResult inferConvolutionShape(EmitErrorFn emitError, RankedTensorType lhs,
                                    RankedTensorType rhs,
                                    const ConvolutionWindow &window,
                                    ConvDimensionNumbersAttr dims,
                                    int64_t featureGroupCount,
                                    int64_t batchGroupCount,
                                    SmallVectorImpl<int64_t> &shape);

/// Batch dimensions of the indices with the slice (offset) dimensions placed
/// at `offset_dims`.
LogicalResult inferGatherShape(EmitErrorFn emitError, RankedTensorType operand,
                               RankedTensorType startIndices,
                               GatherDimensionNumbersAttr dims,
                               ArrayRef<int64_t> sliceSizes,
                               SmallVectorImpl<int64_t> &shape);

/// The inputs' (compatible) shape without the reduced `dimensions`.
LogicalResult inferReduceShape(EmitErrorFn emitError, TypeRange inputTypes,
                               ArrayRef<int64_t> dimensions,
                               SmallVectorImpl<int64_t> &shape);

/// Number of window positions per dimension of the (dilated, padded) input.
LogicalResult
inferReduceWindowShape(EmitErrorFn emitError, TypeRange inputTypes,
                       ArrayRef<int64_t> windowDimensions,
                       std::optional<ArrayRef<int64_t>> windowStrides,
                       std::optional<ArrayRef<int64_t>> baseDilations,
                       std::optional<ArrayRef<int64_t>> windowDilations,
                       std::optional<DenseIntElementsAttr> padding,
                       SmallVectorImpl<int64_t> &shape);

} // namespace mlir::stablehlo

#endif // MPMD_LIB_DIALECT_STABLEHLO_IR_STABLEHLOTYPEINFERENCE_H
