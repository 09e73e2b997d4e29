//===- SdyOps.h - sdy operations --------------------------------*- C++ -*-===//

#ifndef MPMD_DIALECT_SDY_IR_SDYOPS_H
#define MPMD_DIALECT_SDY_IR_SDYOPS_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Sdy/IR/SdyOps.h.inc"

#endif // MPMD_DIALECT_SDY_IR_SDYOPS_H
