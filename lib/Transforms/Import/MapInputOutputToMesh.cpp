//===- MapInputOutputToMesh.cpp - -mpmd-map-input-output-to-mesh ----------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MAPINPUTOUTPUTTOMESHPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

/// The mesh tensor type `assignment` gives to `type`, or null after
/// reporting why there is none. `what` is "input 0" or "output 1".
MeshTensorType getAssignedType(func::FuncOp function, TopologyAttr topology,
                               Type type, const MeshAssignment &assignment,
                               StringAttr memoryKindAttr, const Twine &what) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType) {
    function.emitError() << what << " is assigned to mesh \""
                         << assignment.meshName << "\" but has type " << type
                         << ", which is not a ranked tensor";
    return nullptr;
  }
  if (!topology.getMesh(assignment.meshName)) {
    function.emitError() << what << " is assigned to mesh \""
                         << assignment.meshName
                         << "\", which is not in the topology";
    return nullptr;
  }
  if (memoryKindAttr && assignment.memoryKind &&
      memoryKindAttr.getValue() != *assignment.memoryKind) {
    function.emitError() << what << " has " << MpmdDialect::kMemoryKindAttrName << " = \""
                         << memoryKindAttr.getValue()
                         << "\" but is assigned to memory kind \""
                         << *assignment.memoryKind << "\"";
    return nullptr;
  }
  MLIRContext *context = function.getContext();
  StringAttr memoryKind = assignment.memoryKind
                              ? StringAttr::get(context, *assignment.memoryKind)
                              : StringAttr();
  return MeshTensorType::get(context, assignment.meshName, tensorType,
                             sdy::TensorShardingAttr(), memoryKind);
}

LogicalResult mapInputsAndOutputs(func::FuncOp function,
                                  const IndexedAssignmentMap &inputs,
                                  const IndexedAssignmentMap &outputs) {
  TopologyAttr topology = getTopology(function);
  MLIRContext *context = function.getContext();
  unsigned numInputs = function.getNumArguments();
  unsigned numResults = function.getNumResults();
  for (const auto &[index, _] : inputs.entries)
    if (index >= numInputs)
      return function.emitError()
             << "input-assignment: input " << index
             << " is out of range, the function has " << numInputs << " inputs";
  for (const auto &[index, _] : outputs.entries)
    if (index >= numResults)
      return function.emitError() << "output-assignment: output " << index
                                  << " is out of range, the function has "
                                  << numResults << " outputs";

  SmallVector<Type> argTypes(function.getArgumentTypes());
  SmallVector<Type> resultTypes(function.getResultTypes());
  Block &entry = function.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  StringAttr userIn = StringAttr::get(context, "user_in");
  StringAttr userOut = StringAttr::get(context, "user_out");

  for (const auto &[index, assignment] : inputs.entries) {
    auto memoryKindAttr =
        function.getArgAttrOfType<StringAttr>(index, MpmdDialect::kMemoryKindAttrName);
    MeshTensorType type =
        getAssignedType(function, topology, argTypes[index], assignment,
                        memoryKindAttr, "input " + Twine(index));
    if (!type)
      return failure();
    BlockArgument arg = entry.getArgument(index);
    arg.setType(type);
    argTypes[index] = type;
    auto unassign = UnassignOp::create(builder, arg.getLoc(), arg, userIn);
    arg.replaceAllUsesExcept(unassign.getResult(), unassign);
    if (memoryKindAttr && assignment.memoryKind)
      function.removeArgAttr(index,
                             StringAttr::get(context, MpmdDialect::kMemoryKindAttrName));
  }

  for (const auto &[index, assignment] : outputs.entries) {
    auto memoryKindAttr =
        function.getResultAttrOfType<StringAttr>(index, MpmdDialect::kMemoryKindAttrName);
    MeshTensorType type =
        getAssignedType(function, topology, resultTypes[index], assignment,
                        memoryKindAttr, "output " + Twine(index));
    if (!type)
      return failure();
    resultTypes[index] = type;
    if (memoryKindAttr && assignment.memoryKind)
      function.removeResultAttr(index,
                                StringAttr::get(context, MpmdDialect::kMemoryKindAttrName));
  }
  if (!outputs.empty()) {
    for (Block &block : function.getBody()) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      if (!ret)
        continue;
      builder.setInsertionPoint(ret);
      for (const auto &[index, _] : outputs.entries) {
        Value returned = ret.getOperand(index);
        auto assign = AssignOp::create(builder, returned.getLoc(),
                                       resultTypes[index], returned, userOut);
        ret.setOperand(index, assign.getResult());
      }
    }
  }
  function.setType(FunctionType::get(context, argTypes, resultTypes));
  return success();
}

class MapInputOutputToMeshPass
    : public impl::MapInputOutputToMeshPassBase<MapInputOutputToMeshPass> {
  using MapInputOutputToMeshPassBase::MapInputOutputToMeshPassBase;

  void runOnOperation() override {
    if (inputAssignment.empty() && outputAssignment.empty())
      return;
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (!isEntryPointFunction(function) || !isMpmdFunction(function) ||
          function.isExternal())
        continue;
      if (failed(
              mapInputsAndOutputs(function, inputAssignment, outputAssignment)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
