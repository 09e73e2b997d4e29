//===- StablehloOps.h - stablehlo operations --------------------*- C++ -*-===//

#ifndef MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H
#define MPMD_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H

#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloQuantization.h"

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

/// Ops whose result types are inferred (InferTypeOpInterface); the ODS
/// traits in StablehloBase.td add the interface hooks to the op class.
///
/// Verification runs the op's refineReturnTypes as soon as the verifier
/// enters the op: it reports why inference fails or which result type
/// differs. MLIR's own interface check runs only after the op's regions and
/// adds a generic "failed to infer returned types" to any failure; an op
/// that fails here never gets that far.
template <typename ConcreteType>
class HloInferTypeOp
    : public ::mlir::OpTrait::TraitBase<ConcreteType, HloInferTypeOp> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    SmallVector<Type, 4> resultTypes(op->getResultTypes());
    return ConcreteType::refineReturnTypes(
        op->getContext(), op->getLoc(), op->getOperands(),
        op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
        op->getRegions(), resultTypes);
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
