//===- StablehloAsm.cpp - custom directives of the op formats -------------===//

#include "StablehloAsm.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::stablehlo {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

namespace {

ParseResult parseSameTypes(OpAsmParser &parser, ArrayRef<Type *> operands,
                           Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != operands.size())
      return parser.emitError(loc)
             << "expected " << operands.size() << " operand type(s), got "
             << fn.getNumInputs();
    if (fn.getNumResults() != 1)
      return parser.emitError(loc)
             << "expected 1 result type, got " << fn.getNumResults();
    for (auto [slot, input] : llvm::zip(operands, fn.getInputs()))
      *slot = input;
    result = fn.getResult(0);
    return success();
  }
  for (Type *slot : operands)
    *slot = type;
  result = type;
  return success();
}

void printSameTypes(OpAsmPrinter &p, ArrayRef<Type> operands, Type result) {
  if (llvm::all_of(operands, [&](Type t) { return t == result; })) {
    p << result;
    return;
  }
  p.printFunctionalType(TypeRange(operands), TypeRange(result));
}

} // namespace

ParseResult parseExponentMantissa(OpAsmParser &parser, IntegerAttr &exponent,
                                  IntegerAttr &mantissa) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef format;
  if (parser.parseKeyword(&format))
    return failure();
  // e<exponent bits>m<mantissa bits>, both decimal.
  int64_t exponentBits = 0, mantissaBits = 0;
  StringRef rest = format;
  if (!rest.consume_front("e") || rest.consumeInteger(10, exponentBits) ||
      !rest.consume_front("m") || rest.consumeInteger(10, mantissaBits) ||
      !rest.empty() || exponentBits > INT32_MAX || mantissaBits > INT32_MAX)
    return parser.emitError(loc, "expected a format like e5m10, got '")
           << format << "'";
  Builder &builder = parser.getBuilder();
  exponent = builder.getI32IntegerAttr(exponentBits);
  mantissa = builder.getI32IntegerAttr(mantissaBits);
  return success();
}

void printExponentMantissa(OpAsmPrinter &p, Operation *, IntegerAttr exponent,
                           IntegerAttr mantissa) {
  p << "e" << exponent.getInt() << "m" << mantissa.getInt();
}

ParseResult parseSameOperandsAndResultType(OpAsmParser &parser, Type &operand,
                                           Type &result) {
  return parseSameTypes(parser, {&operand}, result);
}
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser, Type &lhs,
                                           Type &rhs, Type &result) {
  return parseSameTypes(parser, {&lhs, &rhs}, result);
}
ParseResult parseSameOperandsAndResultType(OpAsmParser &parser, Type &a,
                                           Type &b, Type &c, Type &result) {
  return parseSameTypes(parser, {&a, &b, &c}, result);
}
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *,
                                    Type operand, Type result) {
  printSameTypes(p, {operand}, result);
}
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *, Type lhs,
                                    Type rhs, Type result) {
  printSameTypes(p, {lhs, rhs}, result);
}
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *, Type a,
                                    Type b, Type c, Type result) {
  printSameTypes(p, {a, b, c}, result);
}

ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred, Type &onTrue,
                              Type &onFalse, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type first;
  if (parser.parseType(first))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(first)) {
    if (fn.getNumInputs() != 3 || fn.getNumResults() != 1)
      return parser.emitError(loc)
             << "expected a functional type with 3 inputs and 1 result";
    pred = fn.getInput(0);
    onTrue = fn.getInput(1);
    onFalse = fn.getInput(2);
    result = fn.getResult(0);
    return success();
  }
  Type value;
  if (parser.parseComma() || parser.parseType(value))
    return failure();
  pred = first;
  onTrue = onFalse = result = value;
  return success();
}

void printSelectOpType(OpAsmPrinter &p, Operation *, Type pred, Type onTrue,
                       Type onFalse, Type result) {
  if (onTrue == result && onFalse == result) {
    p << pred << ", " << result;
    return;
  }
  p.printFunctionalType(TypeRange({pred, onTrue, onFalse}), TypeRange(result));
}

ParseResult parsePairwiseOpType(OpAsmParser &parser,
                                SmallVectorImpl<Type> &operands,
                                SmallVectorImpl<Type> &results) {
  if (parser.parseTypeList(operands))
    return failure();
  results.assign(operands.begin(), operands.end());
  return success();
}

void printPairwiseOpType(OpAsmPrinter &p, Operation *, TypeRange operands,
                         TypeRange) {
  llvm::interleaveComma(operands, p);
}

//===----------------------------------------------------------------------===//
// Enum keywords
//===----------------------------------------------------------------------===//

ParseResult parseComparisonDirection(OpAsmParser &parser,
                                     ComparisonDirectionAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ComparisonDirection> value =
      symbolizeComparisonDirection(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected EQ, NE, LT, LE, GT or GE, got '" << keyword << "'";
  attr = ComparisonDirectionAttr::get(parser.getContext(), *value);
  return success();
}

void printComparisonDirection(OpAsmPrinter &p, Operation *,
                              ComparisonDirectionAttr attr) {
  p << stringifyComparisonDirection(attr.getValue());
}

ParseResult parseComparisonType(OpAsmParser &parser,
                                ComparisonTypeAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ComparisonType> value = symbolizeComparisonType(keyword);
  if (!value)
    return parser.emitError(loc) << "expected NOTYPE, FLOAT, TOTALORDER, "
                                    "SIGNED or UNSIGNED, got '"
                                 << keyword << "'";
  attr = ComparisonTypeAttr::get(parser.getContext(), *value);
  return success();
}

void printComparisonType(OpAsmPrinter &p, Operation *,
                         ComparisonTypeAttr attr) {
  p << stringifyComparisonType(attr.getValue());
}

ParseResult parseRngAlgorithm(OpAsmParser &parser, RngAlgorithmAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<RngAlgorithm> value = symbolizeRngAlgorithm(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected DEFAULT, THREE_FRY or PHILOX, got '" << keyword << "'";
  attr = RngAlgorithmAttr::get(parser.getContext(), *value);
  return success();
}

void printRngAlgorithm(OpAsmPrinter &p, Operation *, RngAlgorithmAttr attr) {
  p << stringifyRngAlgorithm(attr.getValue());
}

ParseResult parseFftType(OpAsmParser &parser, FftTypeAttr &attr) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<FftType> value = symbolizeFftType(keyword);
  if (!value)
    return parser.emitError(loc)
           << "expected FFT, IFFT, RFFT or IRFFT, got '" << keyword << "'";
  attr = FftTypeAttr::get(parser.getContext(), *value);
  return success();
}

void printFftType(OpAsmPrinter &p, Operation *, FftTypeAttr attr) {
  p << stringifyFftType(attr.getValue());
}

ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs, Type &rhs,
                               Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto function = dyn_cast<FunctionType>(type)) {
    if (function.getNumInputs() != 2 || function.getNumResults() != 1)
      return parser.emitError(loc)
             << "expected a function type of two operands and one result";
    lhs = function.getInput(0);
    rhs = function.getInput(1);
    result = function.getResult(0);
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto complex = tensor ? dyn_cast<ComplexType>(tensor.getElementType()) : nullptr;
  if (!complex)
    return parser.emitError(loc)
           << "expected a tensor of complex type, got " << type;
  lhs = rhs = tensor.clone(complex.getElementType());
  result = type;
  return success();
}

void printComplexOpType(OpAsmPrinter &p, Operation *, Type lhs, Type rhs,
                        Type result) {
  auto tensor = cast<RankedTensorType>(result);
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (complex && lhs == rhs && lhs == tensor.clone(complex.getElementType())) {
    p << result;
    return;
  }
  p.printFunctionalType(TypeRange{lhs, rhs}, TypeRange{result});
}

//===----------------------------------------------------------------------===//
// Integer lists
//===----------------------------------------------------------------------===//

namespace {

ParseResult parseIntList(OpAsmParser &parser, SmallVectorImpl<int64_t> &out) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        out.push_back(value);
        return success();
      });
}

void printIntList(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

} // namespace

ParseResult parseDims(OpAsmParser &parser, DenseI64ArrayAttr &dims) {
  SmallVector<int64_t> values;
  if (parseIntList(parser, values))
    return failure();
  dims = DenseI64ArrayAttr::get(parser.getContext(), values);
  return success();
}

void printDims(OpAsmPrinter &p, Operation *, DenseI64ArrayAttr dims) {
  printIntList(p, dims ? dims.asArrayRef() : ArrayRef<int64_t>());
}

ParseResult parseSliceRanges(OpAsmParser &parser, DenseI64ArrayAttr &start,
                             DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> starts, limits, steps;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t s, l, st = 1;
            if (parser.parseInteger(s) || parser.parseColon() ||
                parser.parseInteger(l))
              return failure();
            if (succeeded(parser.parseOptionalColon()) &&
                parser.parseInteger(st))
              return failure();
            starts.push_back(s);
            limits.push_back(l);
            steps.push_back(st);
            return success();
          }))
    return failure();
  MLIRContext *ctx = parser.getContext();
  start = DenseI64ArrayAttr::get(ctx, starts);
  limit = DenseI64ArrayAttr::get(ctx, limits);
  strides = DenseI64ArrayAttr::get(ctx, steps);
  return success();
}

void printSliceRanges(OpAsmPrinter &p, Operation *, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides) {
  p << '[';
  int64_t n = start.size();
  for (int64_t i = 0; i < n; ++i) {
    if (i)
      p << ", ";
    p << start[i] << ':' << (i < limit.size() ? limit[i] : 0);
    int64_t stride = i < strides.size() ? strides[i] : 1;
    if (stride != 1)
      p << ':' << stride;
  }
  p << ']';
}

ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  while (true) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult result = parser.parseOptionalOperand(operand);
    if (!result.has_value())
      return success();
    if (failed(*result) || parser.parseComma())
      return failure();
    operands.push_back(operand);
  }
}

void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *,
                                       OperandRange operands) {
  llvm::interleaveComma(operands, p);
  if (!operands.empty())
    p << ',';
}

//===----------------------------------------------------------------------===//
// Dot attributes
//===----------------------------------------------------------------------===//

namespace {

ParseResult parseDimsPair(OpAsmParser &parser, SmallVectorImpl<int64_t> &lhs,
                          SmallVectorImpl<int64_t> &rhs) {
  if (parser.parseEqual() || parseIntList(parser, lhs) ||
      parser.parseKeyword("x") || parseIntList(parser, rhs))
    return failure();
  return success();
}

} // namespace

ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims) {
  SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parseDimsPair(parser, lhsBatch, rhsBatch) || parser.parseComma())
      return failure();
  }
  if (parser.parseKeyword("contracting_dims") ||
      parseDimsPair(parser, lhsContract, rhsContract))
    return failure();
  dims = DotDimensionNumbersAttr::get(parser.getContext(), lhsBatch, rhsBatch,
                                      lhsContract, rhsContract);
  return success();
}

void printDotDimensionNumbers(OpAsmPrinter &p, Operation *,
                              DotDimensionNumbersAttr dims) {
  if (!dims.getLhsBatchingDimensions().empty() ||
      !dims.getRhsBatchingDimensions().empty()) {
    p << "batching_dims = ";
    printIntList(p, dims.getLhsBatchingDimensions());
    p << " x ";
    printIntList(p, dims.getRhsBatchingDimensions());
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, dims.getLhsContractingDimensions());
  p << " x ";
  printIntList(p, dims.getRhsContractingDimensions());
}

namespace {

ParseResult parsePrecisionList(OpAsmParser &parser, ArrayAttr &precision) {
  SmallVector<Attribute> values;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            StringRef keyword;
            if (parser.parseKeyword(&keyword))
              return failure();
            std::optional<Precision> value = symbolizePrecision(keyword);
            if (!value)
              return parser.emitError(loc)
                     << "expected DEFAULT, HIGH or HIGHEST, got '" << keyword
                     << "'";
            values.push_back(PrecisionAttr::get(parser.getContext(), *value));
            return success();
          }))
    return failure();
  precision = ArrayAttr::get(parser.getContext(), values);
  return success();
}

void printPrecisionList(OpAsmPrinter &p, ArrayAttr precision) {
  p << '[';
  llvm::interleaveComma(precision, p, [&](Attribute attr) {
    if (auto value = dyn_cast<PrecisionAttr>(attr))
      p << stringifyPrecision(value.getValue());
    else
      p << attr;
  });
  p << ']';
}

} // namespace

ParseResult parsePrecisionConfig(OpAsmParser &parser, ArrayAttr &precision) {
  if (failed(parser.parseOptionalComma()))
    return success();
  if (parser.parseKeyword("precision") || parser.parseEqual())
    return failure();
  return parsePrecisionList(parser, precision);
}

void printPrecisionConfig(OpAsmPrinter &p, Operation *, ArrayAttr precision) {
  if (!precision)
    return;
  p << ", precision = ";
  printPrecisionList(p, precision);
}

ParseResult parsePrecisionAndAlgorithm(OpAsmParser &parser,
                                       ArrayAttr &precision,
                                       DotAlgorithmAttr &algorithm) {
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return failure();
    if (keyword == "precision" && !precision) {
      if (parsePrecisionList(parser, precision))
        return failure();
    } else if (keyword == "algorithm" && !algorithm) {
      Attribute attr = DotAlgorithmAttr::parse(parser, Type());
      if (!attr)
        return failure();
      algorithm = cast<DotAlgorithmAttr>(attr);
    } else {
      return parser.emitError(loc)
             << "expected 'precision' or 'algorithm', got '" << keyword << "'";
    }
  }
  return success();
}

void printPrecisionAndAlgorithm(OpAsmPrinter &p, Operation *op,
                                ArrayAttr precision,
                                DotAlgorithmAttr algorithm) {
  printPrecisionConfig(p, op, precision);
  if (algorithm) {
    p << ", algorithm = ";
    algorithm.print(p);
  }
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

ParseResult parseConvolutionDimensions(OpAsmParser &parser,
                                       ConvDimensionNumbersAttr &dims) {
  return parseConvDimensions(parser, dims);
}

void printConvolutionDimensions(OpAsmPrinter &p, Operation *,
                                ConvDimensionNumbersAttr dims) {
  // Dimension numbers without a compact form (only reachable through the
  // generic form) print as the attribute, which the parser above rejects:
  // such an op fails verification anyway.
  if (!printConvDimensions(p, dims))
    p << dims;
}

ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &windowStrides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &windowReversal) {
  MLIRContext *ctx = parser.getContext();
  bool first = true;
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (first) {
      if (failed(parser.parseOptionalKeyword(&name)))
        return success(); // `window = {}`
      first = false;
    } else {
      if (failed(parser.parseOptionalComma()))
        return success();
      if (parser.parseKeyword(&name))
        return failure();
    }
    if (parser.parseEqual())
      return failure();
    auto duplicate = [&]() {
      return parser.emitError(loc) << "'" << name << "' appears more than once";
    };
    if (name == "pad") {
      if (padding)
        return duplicate();
      SmallVector<int64_t> values;
      int64_t rows = 0;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                SmallVector<int64_t> row;
                SMLoc rowLoc = parser.getCurrentLocation();
                if (parseIntList(parser, row))
                  return failure();
                if (row.size() != 2)
                  return parser.emitError(rowLoc)
                         << "expected a [low, high] pair, got "
                         << row.size() << " values";
                llvm::append_range(values, row);
                ++rows;
                return success();
              }))
        return failure();
      auto type = RankedTensorType::get({rows, 2}, IntegerType::get(ctx, 64));
      padding = DenseIntElementsAttr::get(type, values);
      continue;
    }
    if (name == "reverse") {
      if (windowReversal)
        return duplicate();
      SmallVector<bool> values;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                if (succeeded(parser.parseOptionalKeyword("true"))) {
                  values.push_back(true);
                  return success();
                }
                if (succeeded(parser.parseOptionalKeyword("false"))) {
                  values.push_back(false);
                  return success();
                }
                int64_t value;
                if (parser.parseInteger(value))
                  return failure();
                values.push_back(value != 0);
                return success();
              }))
        return failure();
      windowReversal = DenseBoolArrayAttr::get(ctx, values);
      continue;
    }
    DenseI64ArrayAttr *slot = name == "stride"       ? &windowStrides
                              : name == "lhs_dilate" ? &lhsDilation
                              : name == "rhs_dilate" ? &rhsDilation
                                                     : nullptr;
    if (!slot)
      return parser.emitError(loc)
             << "expected 'stride', 'pad', 'lhs_dilate', 'rhs_dilate' or "
                "'reverse', got '"
             << name << "'";
    if (*slot)
      return duplicate();
    if (parseDims(parser, *slot))
      return failure();
  }
}

void printWindowAttributes(OpAsmPrinter &p, Operation *,
                           DenseI64ArrayAttr windowStrides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr windowReversal) {
  StringRef separator = "";
  auto printList = [&](StringRef name, DenseI64ArrayAttr values) {
    if (!values)
      return;
    p << separator << name << " = ";
    printIntList(p, values.asArrayRef());
    separator = ", ";
  };
  printList("stride", windowStrides);
  if (padding) {
    p << separator << "pad = [";
    SmallVector<int64_t> values(padding.getValues<int64_t>());
    // A malformed (not [n, 2]) padding prints as rows of two where it
    // can; the verifier reports its shape.
    for (size_t i = 0; i < values.size(); i += 2) {
      if (i)
        p << ", ";
      printIntList(p, ArrayRef<int64_t>(values).slice(
                          i, std::min<size_t>(2, values.size() - i)));
    }
    p << ']';
    separator = ", ";
  }
  printList("lhs_dilate", lhsDilation);
  printList("rhs_dilate", rhsDilation);
  if (windowReversal) {
    // 0/1, as upstream prints it.
    p << separator << "reverse = [";
    llvm::interleaveComma(windowReversal.asArrayRef(), p,
                          [&](bool value) { p << (value ? 1 : 0); });
    p << ']';
  }
}

//===----------------------------------------------------------------------===//
// Custom call target
//===----------------------------------------------------------------------===//

ParseResult parseCustomCallTarget(OpAsmParser &parser, StringAttr &target) {
  return parser.parseSymbolName(target);
}

void printCustomCallTarget(OpAsmPrinter &p, Operation *, StringAttr target) {
  p.printSymbolName(target.getValue());
}

//===----------------------------------------------------------------------===//
// Verifier helpers
//===----------------------------------------------------------------------===//

LogicalResult verifyDimsInRange(Operation *op, ArrayRef<int64_t> dims,
                                int64_t rank, StringRef what) {
  return verifyDimsInRange([&] { return op->emitOpError(); }, dims, rank,
                           what);
}

LogicalResult verifySameElementType(Operation *op, Type a, Type b,
                                    StringRef aName, StringRef bName) {
  return verifySameElementType([&] { return op->emitOpError(); }, a, b, aName,
                               bName);
}

} // namespace mlir::stablehlo
