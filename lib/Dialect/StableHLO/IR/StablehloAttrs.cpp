//===- StablehloAttrs.cpp - stablehlo enums, attributes and types ---------===//

#include "StablehloAsm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::stablehlo {

/// `[1, 2]` as used by the struct-like attributes.
FailureOr<SmallVector<int64_t>> parseDimsParameter(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       int64_t value;
                                       if (parser.parseInteger(value))
                                         return failure();
                                       values.push_back(value);
                                       return success();
                                     }))
    return failure();
  return values;
}

void printDimsParameter(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

FailureOr<bool> parseBoolParameter(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(parser.getCurrentLocation(),
                          "expected 'true' or 'false'");
}

} // namespace mlir::stablehlo

using namespace mlir;
using namespace mlir::stablehlo;

#include "mpmd/Dialect/StableHLO/IR/StablehloEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// ConvDimensionNumbersAttr
//===----------------------------------------------------------------------===//

namespace {

/// One list of the compact form: what each dimension of one tensor is.
struct ConvDimsList {
  /// Positions of the two labelled dimensions (-1 until seen).
  int64_t first = -1, second = -1;
  /// spatial[k]: the position of spatial dimension k.
  SmallVector<int64_t> spatial;
};

/// `[b, 0, 1, f]` with the labels `firstLabel` and `secondLabel` (b and f,
/// or i and o): every label once, spatial dimensions numbered 0..n-1.
ParseResult parseConvDimsList(AsmParser &parser, char firstLabel,
                              char secondLabel, ConvDimsList &list) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<std::optional<int64_t>> spatialAt; // spatial number per position
  int64_t position = 0;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc itemLoc = parser.getCurrentLocation();
            int64_t number;
            OptionalParseResult isNumber = parser.parseOptionalInteger(number);
            if (isNumber.has_value()) {
              if (failed(*isNumber))
                return failure();
              if (number < 0)
                return parser.emitError(itemLoc)
                       << "spatial dimension numbers must be non-negative, got "
                       << number;
              spatialAt.push_back(number);
              ++position;
              return success();
            }
            StringRef label;
            if (parser.parseKeyword(&label))
              return failure();
            int64_t *slot = nullptr;
            if (label.size() == 1 && label[0] == firstLabel)
              slot = &list.first;
            else if (label.size() == 1 && label[0] == secondLabel)
              slot = &list.second;
            if (!slot)
              return parser.emitError(itemLoc)
                     << "expected '" << firstLabel << "', '" << secondLabel
                     << "' or a spatial dimension number, got '" << label
                     << "'";
            if (*slot >= 0)
              return parser.emitError(itemLoc)
                     << "'" << label << "' appears more than once";
            *slot = position++;
            spatialAt.push_back(std::nullopt);
            return success();
          }))
    return failure();
  if (list.first < 0 || list.second < 0)
    return parser.emitError(loc) << "expected both '" << firstLabel
                                 << "' and '" << secondLabel << "'";
  int64_t numSpatial = position - 2;
  list.spatial.assign(numSpatial, -1);
  for (auto [pos, number] : llvm::enumerate(spatialAt)) {
    if (!number)
      continue;
    if (*number >= numSpatial)
      return parser.emitError(loc)
             << "spatial dimension number " << *number << " is out of range [0, "
             << numSpatial << ")";
    if (list.spatial[*number] >= 0)
      return parser.emitError(loc)
             << "spatial dimension number " << *number
             << " appears more than once";
    list.spatial[*number] = pos;
  }
  return success();
}

/// The compact list of one tensor, or nothing when the dimensions do not
/// describe each dimension of a rank-(2 + spatial) tensor exactly once.
std::optional<std::string> formatConvDimsList(int64_t first, char firstLabel,
                                              int64_t second, char secondLabel,
                                              ArrayRef<int64_t> spatial) {
  int64_t rank = static_cast<int64_t>(spatial.size()) + 2;
  SmallVector<std::string> labels(rank);
  auto place = [&](int64_t dim, std::string label) {
    if (dim < 0 || dim >= rank || !labels[dim].empty())
      return false;
    labels[dim] = std::move(label);
    return true;
  };
  if (!place(first, std::string(1, firstLabel)) ||
      !place(second, std::string(1, secondLabel)))
    return std::nullopt;
  for (auto [number, dim] : llvm::enumerate(spatial))
    if (!place(dim, std::to_string(number)))
      return std::nullopt;
  return "[" + llvm::join(labels, ", ") + "]";
}

} // namespace

ParseResult mlir::stablehlo::parseConvDimensions(AsmParser &parser,
                                                 ConvDimensionNumbersAttr &dims) {
  SMLoc loc = parser.getCurrentLocation();
  ConvDimsList input, kernel, output;
  if (parseConvDimsList(parser, 'b', 'f', input) || parser.parseKeyword("x") ||
      parseConvDimsList(parser, 'i', 'o', kernel) || parser.parseArrow() ||
      parseConvDimsList(parser, 'b', 'f', output))
    return failure();
  if (input.spatial.size() != kernel.spatial.size() ||
      input.spatial.size() != output.spatial.size())
    return parser.emitError(loc)
           << "the input, kernel and output have " << input.spatial.size()
           << ", " << kernel.spatial.size() << " and " << output.spatial.size()
           << " spatial dimensions; expected the same number";
  dims = ConvDimensionNumbersAttr::get(
      parser.getContext(), input.first, input.second, input.spatial,
      kernel.first, kernel.second, kernel.spatial, output.first, output.second,
      output.spatial);
  return success();
}

bool mlir::stablehlo::printConvDimensions(AsmPrinter &printer,
                                          ConvDimensionNumbersAttr dims) {
  std::optional<std::string> input = formatConvDimsList(
      dims.getInputBatchDimension(), 'b', dims.getInputFeatureDimension(), 'f',
      dims.getInputSpatialDimensions());
  std::optional<std::string> kernel = formatConvDimsList(
      dims.getKernelInputFeatureDimension(), 'i',
      dims.getKernelOutputFeatureDimension(), 'o',
      dims.getKernelSpatialDimensions());
  std::optional<std::string> output = formatConvDimsList(
      dims.getOutputBatchDimension(), 'b', dims.getOutputFeatureDimension(),
      'f', dims.getOutputSpatialDimensions());
  if (!input || !kernel || !output ||
      dims.getInputSpatialDimensions().size() !=
          dims.getKernelSpatialDimensions().size() ||
      dims.getInputSpatialDimensions().size() !=
          dims.getOutputSpatialDimensions().size())
    return false;
  printer << *input << "x" << *kernel << "->" << *output;
  return true;
}

namespace {

/// The fields of the raw form, in printing order.
constexpr StringLiteral kConvRawFields[] = {
    "input_batch_dimension",          "input_feature_dimension",
    "input_spatial_dimensions",       "kernel_input_feature_dimension",
    "kernel_output_feature_dimension", "kernel_spatial_dimensions",
    "output_batch_dimension",         "output_feature_dimension",
    "output_spatial_dimensions"};

} // namespace

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  ConvDimensionNumbersAttr dims;
  if (failed(parser.parseOptionalKeyword("raw"))) {
    if (parseConvDimensions(parser, dims) || parser.parseGreater())
      return {};
    return dims;
  }
  // raw: `name = value` for every field, in any order.
  int64_t scalars[9] = {};
  SmallVector<int64_t> lists[9];
  bool seen[9] = {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        SMLoc fieldLoc = parser.getCurrentLocation();
        StringRef name;
        if (parser.parseKeyword(&name) || parser.parseEqual())
          return failure();
        const auto *field = llvm::find(kConvRawFields, name);
        if (field == std::end(kConvRawFields))
          return parser.emitError(fieldLoc)
                 << "unknown convolution dimension field '" << name << "'";
        size_t index = field - std::begin(kConvRawFields);
        if (seen[index])
          return parser.emitError(fieldLoc)
                 << "field '" << name << "' appears more than once";
        seen[index] = true;
        if (index % 3 == 2) {
          FailureOr<SmallVector<int64_t>> values = parseDimsParameter(parser);
          if (failed(values))
            return failure();
          lists[index] = std::move(*values);
          return success();
        }
        return parser.parseInteger(scalars[index]);
      }) ||
      parser.parseGreater())
    return {};
  for (auto [index, name] : llvm::enumerate(kConvRawFields))
    if (!seen[index]) {
      parser.emitError(loc) << "missing convolution dimension field '" << name
                            << "'";
      return {};
    }
  return ConvDimensionNumbersAttr::get(parser.getContext(), scalars[0],
                                       scalars[1], lists[2], scalars[3],
                                       scalars[4], lists[5], scalars[6],
                                       scalars[7], lists[8]);
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (!printConvDimensions(printer, *this)) {
    printer << "raw ";
    int64_t scalars[9] = {getInputBatchDimension(),
                          getInputFeatureDimension(),
                          0,
                          getKernelInputFeatureDimension(),
                          getKernelOutputFeatureDimension(),
                          0,
                          getOutputBatchDimension(),
                          getOutputFeatureDimension(),
                          0};
    ArrayRef<int64_t> lists[9] = {{}, {}, getInputSpatialDimensions(),
                                  {}, {}, getKernelSpatialDimensions(),
                                  {}, {}, getOutputSpatialDimensions()};
    llvm::interleaveComma(llvm::enumerate(kConvRawFields), printer,
                          [&](auto field) {
                            size_t index = field.index();
                            printer << field.value() << " = ";
                            if (index % 3 == 2)
                              printDimsParameter(printer, lists[index]);
                            else
                              printer << scalars[index];
                          });
  }
  printer << '>';
}

#define GET_TYPEDEF_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloTypes.cpp.inc"

void StablehloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.cpp.inc"
      >();
}

LogicalResult
FutureType::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                   ArrayRef<Type> types) {
  if (types.empty())
    return emitError() << "a future holds at least one tensor";
  for (Type type : types)
    if (!isa<RankedTensorType>(type))
      return emitError() << "a future holds ranked tensors, got " << type;
  return success();
}

void StablehloDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloTypes.cpp.inc"
      >();
}
