//===- CheckOps.cpp - check dialect and operations ------------------------===//

#include "mpmd/Dialect/Check/IR/CheckOps.h"
#include "mpmd/Dialect/Utils/InlineAnywhere.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::check;

#include "mpmd/Dialect/Check/IR/CheckDialect.cpp.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Check/IR/CheckOps.cpp.inc"

void CheckDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mpmd/Dialect/Check/IR/CheckOps.cpp.inc"
      >();
  addInterfaces<mlir::mpmd::InlineAnywhereInterface>();
}

static LogicalResult verifyTolerance(Operation *op, double tolerance) {
  if (!(tolerance >= 0.0))
    return op->emitOpError()
           << "tolerance must be non-negative, got " << tolerance;
  return success();
}

LogicalResult ExpectAlmostEqOp::verify() {
  return verifyTolerance(*this, getTolerance().convertToDouble());
}

LogicalResult ExpectAlmostEqConstOp::verify() {
  return verifyTolerance(*this, getTolerance().convertToDouble());
}

LogicalResult ExpectCloseOp::verify() {
  // The attributes are signless i64; read them as signed.
  auto maxUlps = static_cast<int64_t>(getMaxUlpDifference());
  auto minUlps = static_cast<int64_t>(getMinUlpDifference());
  if (minUlps < 0)
    return emitOpError() << "min_ulp_difference must be non-negative, got "
                         << minUlps;
  if (maxUlps < minUlps)
    return emitOpError() << "max_ulp_difference (" << maxUlps
                         << ") must not be smaller than min_ulp_difference ("
                         << minUlps << ")";
  return success();
}

LogicalResult ExpectSerializedEqOp::verify() {
  // The attribute is signless i64; read it as signed.
  if (static_cast<int64_t>(getIter()) < 0)
    return emitOpError() << "iter must be non-negative, got "
                         << static_cast<int64_t>(getIter());
  return success();
}
