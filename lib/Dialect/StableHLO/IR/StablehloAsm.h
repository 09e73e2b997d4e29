//===- StablehloAsm.h - custom directives of the op formats ----*- C++ -*-===//
//
// Private to the dialect library: the parse/print functions that the
// declarative assembly formats call through `custom<...>` directives, and
// small shape helpers shared by the op verifiers.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_DIALECT_STABLEHLO_IR_STABLEHLOASM_H
#define MPMD_LIB_DIALECT_STABLEHLO_IR_STABLEHLOASM_H

#include "StablehloTypeInference.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/OpImplementation.h"

namespace mlir::stablehlo {

// `T` when all types agree, else `(T0, T1) -> R`.
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser, Type &operand,
                                           Type &result);
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser, Type &lhs,
                                           Type &rhs, Type &result);
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser, Type &a,
                                           Type &b, Type &c, Type &result);
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op,
                                    Type operand, Type result);
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op, Type lhs,
                                    Type rhs, Type result);
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op, Type a,
                                    Type b, Type c, Type result);

// `e5m10`: the exponent and mantissa bits of reduce_precision.
ParseResult parseExponentMantissa(OpAsmParser &parser, IntegerAttr &exponent,
                                  IntegerAttr &mantissa);
void printExponentMantissa(OpAsmPrinter &p, Operation *op,
                           IntegerAttr exponent, IntegerAttr mantissa);

// `predType, T` or a functional type.
ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred, Type &onTrue,
                              Type &onFalse, Type &result);
void printSelectOpType(OpAsmPrinter &p, Operation *op, Type pred, Type onTrue,
                       Type onFalse, Type result);

// Types of operands that equal the result types, printed once.
ParseResult parsePairwiseOpType(OpAsmParser &parser,
                                SmallVectorImpl<Type> &operands,
                                SmallVectorImpl<Type> &results);
void printPairwiseOpType(OpAsmPrinter &p, Operation *op, TypeRange operands,
                         TypeRange results);

// Bare enum keywords (`LT`, `FLOAT`), printed with single spaces around.
ParseResult parseComparisonDirection(OpAsmParser &parser,
                                     ComparisonDirectionAttr &attr);
void printComparisonDirection(OpAsmPrinter &p, Operation *op,
                              ComparisonDirectionAttr attr);
ParseResult parseComparisonType(OpAsmParser &parser, ComparisonTypeAttr &attr);
void printComparisonType(OpAsmPrinter &p, Operation *op,
                         ComparisonTypeAttr attr);
ParseResult parseRngAlgorithm(OpAsmParser &parser, RngAlgorithmAttr &attr);
void printRngAlgorithm(OpAsmPrinter &p, Operation *op, RngAlgorithmAttr attr);
ParseResult parseFftType(OpAsmParser &parser, FftTypeAttr &attr);
void printFftType(OpAsmPrinter &p, Operation *op, FftTypeAttr attr);
/// `: tensor<2xcomplex<f32>>` (the parts are tensor<2xf32>) or a
/// functional type `(parts, parts) -> result`.
ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs, Type &rhs,
                               Type &result);
void printComplexOpType(OpAsmPrinter &p, Operation *op, Type lhs, Type rhs,
                        Type result);

// Region checks shared by the region ops: `region` (called `name` in
// errors) returns exactly `expected`, takes arguments of types `expected`.
LogicalResult verifyRegionReturns(Operation *op, Region &region,
                                  StringRef name, TypeRange expected);
LogicalResult verifyRegionArgs(Operation *op, Region &region, StringRef name,
                               TypeRange expected);

// `[0, 1]`.
ParseResult parseDims(OpAsmParser &parser, DenseI64ArrayAttr &dims);
void printDims(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr dims);

// `[1:3, 4:8:2]` (stride 1 left out).
ParseResult parseSliceRanges(OpAsmParser &parser, DenseI64ArrayAttr &start,
                             DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides);
void printSliceRanges(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides);

// `%a, %b,` (every operand followed by a comma).
ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands);
void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *op,
                                       OperandRange operands);

// `batching_dims = [0] x [0], contracting_dims = [2] x [1]`.
ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims);
void printDotDimensionNumbers(OpAsmPrinter &p, Operation *op,
                              DotDimensionNumbersAttr dims);

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (also inside
// `#stablehlo.conv<...>`). The printer returns false, printing nothing, when
// the dimension numbers have no compact form.
ParseResult parseConvDimensions(AsmParser &parser,
                                ConvDimensionNumbersAttr &dims);
bool printConvDimensions(AsmPrinter &printer, ConvDimensionNumbersAttr dims);
ParseResult parseConvolutionDimensions(OpAsmParser &parser,
                                       ConvDimensionNumbersAttr &dims);
void printConvolutionDimensions(OpAsmPrinter &p, Operation *op,
                                ConvDimensionNumbersAttr dims);

// `stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1],
// rhs_dilate = [1, 1], reverse = [0, 0]`: each optional, any order when
// parsed, printed in this order. `reverse` also accepts true/false.
ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &windowStrides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &windowReversal);
void printWindowAttributes(OpAsmPrinter &p, Operation *op,
                           DenseI64ArrayAttr windowStrides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr windowReversal);

// `, precision = [DEFAULT, HIGH]` (nothing when absent).
ParseResult parsePrecisionConfig(OpAsmParser &parser, ArrayAttr &precision);
void printPrecisionConfig(OpAsmPrinter &p, Operation *op, ArrayAttr precision);

// `, precision = [...]` and/or `, algorithm = <...>`.
ParseResult parsePrecisionAndAlgorithm(OpAsmParser &parser,
                                       ArrayAttr &precision,
                                       DotAlgorithmAttr &algorithm);
void printPrecisionAndAlgorithm(OpAsmPrinter &p, Operation *op,
                                ArrayAttr precision,
                                DotAlgorithmAttr algorithm);

// `@target` (a string printed as a symbol name).
ParseResult parseCustomCallTarget(OpAsmParser &parser, StringAttr &target);
void printCustomCallTarget(OpAsmPrinter &p, Operation *op, StringAttr target);

void registerElementwiseOps(StablehloDialect &dialect);
void registerShapeOps(StablehloDialect &dialect);
void registerRegionOps(StablehloDialect &dialect);
void registerCompoundOps(StablehloDialect &dialect);

/// Registers `Ops` with `dialect` (each op TU registers its own list).
template <typename... Ops>
void insertOps(Dialect &dialect) {
  (RegisteredOperationName::insert<Ops>(dialect), ...);
}

//===----------------------------------------------------------------------===//
// Verifier helpers
//===----------------------------------------------------------------------===//

/// Checks that `dims` are unique and in [0, rank); `what` names the list in
/// errors (e.g. "dimensions").
LogicalResult verifyDimsInRange(Operation *op, ArrayRef<int64_t> dims,
                                int64_t rank, StringRef what);

/// "<aName> element type X does not match <bName> element type Y".
LogicalResult verifySameElementType(Operation *op, Type a, Type b,
                                    StringRef aName, StringRef bName);

} // namespace mlir::stablehlo

#endif // MPMD_LIB_DIALECT_STABLEHLO_IR_STABLEHLOASM_H
