//===- SdyOps.cpp - sdy operations ----------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::sdy;

#define GET_OP_CLASSES
#include "mpmd/Dialect/Sdy/IR/SdyOps.cpp.inc"
