//===- StablehloAttrs.cpp - stablehlo enums, attributes and types ---------===//

#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
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

#define GET_TYPEDEF_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloTypes.cpp.inc"

void StablehloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloAttrs.cpp.inc"
      >();
}

void StablehloDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloTypes.cpp.inc"
      >();
}
