//===- SdyDialect.cpp - sdy dialect registration and attr verifiers -------===//

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/Utils/InlineAnywhere.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::sdy;

#include "mpmd/Dialect/Sdy/IR/SdyDialect.cpp.inc"

void SdyDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "mpmd/Dialect/Sdy/IR/SdyOps.cpp.inc"
      >();
  addInterfaces<mlir::mpmd::InlineAnywhereInterface>();
}

LogicalResult mlir::sdy::verifyShardingOfValue(Operation *op,
                                               TensorShardingAttr sharding,
                                               Type type, const Twine &what) {
  MeshAttr mesh = sharding.getMesh(op);
  if (!mesh)
    return op->emitOpError() << what << " has a sharding on unknown mesh @"
                             << sharding.getMeshName();
  auto emitError = [&]() {
    return op->emitOpError() << what << " has an invalid sharding " << sharding
                             << ": ";
  };
  return sharding.verifyForMesh(mesh, type, emitError,
                                /*checkDivisibility=*/false);
}

LogicalResult SdyDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == kShardingRuleAttrName) {
    auto rule = dyn_cast<OpShardingRuleAttr>(attr.getValue());
    if (!rule)
      return op->emitOpError() << "should have a sharding rule attribute of "
                                  "type OpShardingRuleAttr";
    return rule.verifyForOp(op);
  }
  if (attr.getName() != kShardingAttrName)
    return success();
  auto perValue = dyn_cast<TensorShardingPerValueAttr>(attr.getValue());
  if (!perValue)
    return op->emitOpError() << "should have a sharding attribute of type "
                                "TensorShardingPerValueAttr";
  if (perValue.getShardings().size() != op->getNumResults())
    return op->emitOpError()
           << "sharding doesn't match number of results: "
           << perValue.getShardings().size() << " != " << op->getNumResults();
  for (auto [index, sharding] : llvm::enumerate(perValue.getShardings()))
    if (failed(verifyShardingOfValue(op, sharding,
                                     op->getResult(index).getType(),
                                     "result " + std::to_string(index))))
      return failure();
  return success();
}

namespace {

/// Verifies a `sdy.sharding` attribute on a function argument or result
/// (`what`) whose type is `type`; null when unknown.
LogicalResult verifySignatureSharding(Operation *op, NamedAttribute attr,
                                      Type type, const Twine &what) {
  auto sharding = dyn_cast<TensorShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitOpError() << "should have a sharding attribute of type "
                                "TensorShardingAttr on "
                             << what;
  if (!type)
    return success();
  return verifyShardingOfValue(op, sharding, type, what);
}

} // namespace

LogicalResult SdyDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName() != kShardingAttrName)
    return success();
  Type type;
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    type = function.getArgumentTypes()[argIndex];
  else if (!op->getRegion(regionIndex).empty())
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  return verifySignatureSharding(op, attr, type,
                                 "argument " + Twine(argIndex));
}

LogicalResult SdyDialect::verifyRegionResultAttribute(Operation *op,
                                                      unsigned,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  if (attr.getName() != kShardingAttrName)
    return success();
  Type type;
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    type = function.getResultTypes()[resultIndex];
  return verifySignatureSharding(op, attr, type, "result " + Twine(resultIndex));
}
