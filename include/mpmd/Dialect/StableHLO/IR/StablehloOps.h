//===- StablehloOps.h - stablehlo operations --------------------*- C++ -*-===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H

#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stablehlo::OpTrait {

/// Verifies that all operands and results have compatible shapes and the
/// same element type (StableHLO's elementwise type rule).
LogicalResult verifyCompatibleOperandsAndResultType(Operation *op);

template <typename ConcreteType>
class CompatibleOperandsAndResultType
    : public ::mlir::OpTrait::TraitBase<ConcreteType,
                                        CompatibleOperandsAndResultType> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyCompatibleOperandsAndResultType(op);
  }
};

} // namespace mlir::stablehlo::OpTrait

#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloElementwiseOps.h.inc"
#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h.inc"
#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloRegionOps.h.inc"

#endif // MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H
