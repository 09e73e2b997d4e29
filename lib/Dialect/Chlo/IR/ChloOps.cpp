//===- ChloOps.cpp - chlo dialect and operations --------------------------===//

#include "mpmd/Dialect/Chlo/IR/ChloOps.h"
#include "mpmd/Dialect/Utils/InlineAnywhere.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::chlo;

#include "mpmd/Dialect/Chlo/IR/ChloDialect.cpp.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Chlo/IR/ChloOps.cpp.inc"

void ChloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mpmd/Dialect/Chlo/IR/ChloOps.cpp.inc"
      >();
  addInterfaces<mlir::mpmd::InlineAnywhereInterface>();
}

/// Reached only for `chlo.*` names that are not registered ops. The parser
/// prefixes the error with "custom op '<name>' ".
static ParseResult parseUnsupportedOp(OpAsmParser &parser, OperationState &) {
  return parser.emitError(parser.getNameLoc())
         << "is an unsupported chlo op (mpmd's chlo dialect does not define "
            "it; legalize chlo to stablehlo before import)";
}

std::optional<Dialect::ParseOpHook>
ChloDialect::getParseOperationHook(StringRef) const {
  return ParseOpHook(parseUnsupportedOp);
}

LogicalResult TopKOp::verify() {
  auto operandType = dyn_cast<RankedTensorType>(getOperand().getType());
  if (!operandType)
    return success();
  if (operandType.getRank() < 1)
    return emitOpError() << "operand must have rank at least 1";
  int64_t k = getKAttr().getInt();
  int64_t last = operandType.getShape().back();
  if (k < 0)
    return emitOpError() << "k must be non-negative, got " << k;
  if (!ShapedType::isDynamic(last) && k > last)
    return emitOpError() << "k (" << k
                         << ") is larger than the last dimension (" << last
                         << ")";
  SmallVector<int64_t> shape(operandType.getShape());
  shape.back() = k;
  auto expectedValues =
      RankedTensorType::get(shape, operandType.getElementType());
  if (getValues().getType() != expectedValues)
    return emitOpError() << "values must have type " << expectedValues
                         << ", got " << getValues().getType();
  auto indicesType = dyn_cast<RankedTensorType>(getIndices().getType());
  if (!indicesType || indicesType.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError() << "indices must have the shape of the values, got "
                         << getIndices().getType();
  return success();
}
