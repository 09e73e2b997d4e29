//===- MapNamedOpsToMpmdOps.cpp - -mpmd-map-named-ops-to-mpmd-ops ---------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MAPNAMEDOPSTOMPMDOPSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

/// The mesh tensor of `type` on `mesh`; tokens stay tokens.
Type toMeshType(Type type, StringRef mesh, StringAttr memoryKind = {}) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  return MeshTensorType::get(type.getContext(), mesh, tensor,
                             sdy::TensorShardingAttr(), memoryKind);
}

LogicalResult checkPlacement(Operation *op, StringRef kind, StringRef name) {
  if (isa<func::FuncOp, ForOp>(op->getParentOp()))
    return success();
  return op->emitError() << kind << " '" << name
                         << "' must be at the top level of a function or of "
                            "an mpmd.for body to be assigned to a mesh";
}

LogicalResult checkMesh(Operation *op, TopologyAttr topology, StringRef kind,
                        StringRef name, const MeshAssignment &assignment) {
  if (topology.getMesh(assignment.meshName))
    return success();
  return op->emitError() << kind << " '" << name << "' is assigned to mesh \""
                         << assignment.meshName
                         << "\", which is not in the topology";
}

LogicalResult mapComputation(NamedComputationOp computation,
                             TopologyAttr topology,
                             const UserAssignmentMap &assignment) {
  StringRef name = computation.getOrigin().getUserName();
  if (failed(checkPlacement(computation, "NamedComputation", name)))
    return failure();
  auto it = assignment.entries.find(name.str());
  if (it == assignment.entries.end())
    return computation.emitError()
           << "Top-level NamedComputation '" << name
           << "' is not assigned to a mesh in the user-defined mesh "
              "assignment";
  const MeshAssignment &target = it->second;
  if (failed(
          checkMesh(computation, topology, "NamedComputation", name, target)))
    return failure();
  if (target.memoryKind)
    computation.emitWarning()
        << "memory kind \"" << *target.memoryKind
        << "\" in the assignment of NamedComputation '" << name
        << "' is ignored: only inputs, outputs and named tensors can be "
           "assigned a memory kind";

  MLIRContext *context = computation.getContext();
  StringAttr origin = StringAttr::get(context, name);
  OpBuilder builder(computation);
  Location loc = computation.getLoc();

  // One fragment operand per distinct operand.
  llvm::MapVector<Value, Value> fragmentOperandOf;
  for (Value operand : computation.getOperands()) {
    if (fragmentOperandOf.contains(operand))
      continue;
    Value assigned = operand;
    if (isa<RankedTensorType>(operand.getType()))
      assigned = AssignOp::create(
          builder, loc, toMeshType(operand.getType(), target.meshName), operand,
          origin);
    fragmentOperandOf[operand] = assigned;
  }
  SmallVector<Value> operands =
      llvm::to_vector(llvm::make_second_range(fragmentOperandOf.takeVector()));
  SmallVector<Type> resultTypes =
      llvm::map_to_vector(computation.getResultTypes(), [&](Type type) {
        return toMeshType(type, target.meshName);
      });

  auto fragment = FragmentOp::create(
      builder, loc, resultTypes, operands,
      builder.getArrayAttr({computation.getOrigin()}),
      builder.getStringAttr(target.meshName),
      target.stage ? builder.getI64IntegerAttr(*target.stage) : IntegerAttr(),
      sdy::TensorShardingPerValueAttr(), sdy::TensorShardingPerValueAttr());
  fragment->setDiscardableAttrs(computation->getDiscardableAttrDictionary());

  // Merge the block arguments of repeated operands.
  Block &body = computation.getRegion().front();
  llvm::DenseMap<Value, BlockArgument> firstArgOf;
  llvm::BitVector duplicate(body.getNumArguments());
  for (auto [operand, arg] :
       llvm::zip(computation.getOperands(), body.getArguments())) {
    auto [first, inserted] = firstArgOf.try_emplace(operand, arg);
    if (inserted)
      continue;
    arg.replaceAllUsesWith(first->second);
    duplicate.set(arg.getArgNumber());
  }
  body.eraseArguments(duplicate);
  fragment.getRegion().takeBody(computation.getRegion());

  builder.setInsertionPointAfter(fragment);
  for (auto [oldResult, newResult] :
       llvm::zip(computation.getResults(), fragment.getResults())) {
    Value replacement = newResult;
    if (isa<MeshTensorType>(newResult.getType()))
      replacement = UnassignOp::create(builder, loc, newResult, origin);
    oldResult.replaceAllUsesWith(replacement);
  }
  computation.erase();
  return success();
}

LogicalResult mapTensor(NamedTensorOp tensor, TopologyAttr topology,
                        const UserAssignmentMap &assignment) {
  StringRef name = tensor.getName();
  auto it = assignment.entries.find(name.str());
  if (it == assignment.entries.end()) {
    tensor.replaceAllUsesWith(tensor.getTensor());
    tensor.erase();
    return success();
  }
  const MeshAssignment &target = it->second;
  if (failed(checkPlacement(tensor, "NamedTensor", name)) ||
      failed(checkMesh(tensor, topology, "NamedTensor", name, target)))
    return failure();
  OpBuilder builder(tensor);
  MLIRContext *context = tensor.getContext();
  StringAttr memoryKind = target.memoryKind
                              ? StringAttr::get(context, *target.memoryKind)
                              : StringAttr();
  StringAttr origin = StringAttr::get(context, name);
  auto assign = AssignOp::create(
      builder, tensor.getLoc(),
      toMeshType(tensor.getType(), target.meshName, memoryKind),
      tensor.getTensor(), origin);
  auto unassign =
      UnassignOp::create(builder, tensor.getLoc(), assign.getResult(), origin);
  tensor.replaceAllUsesWith(unassign.getResult());
  tensor.erase();
  return success();
}

class MapNamedOpsToMpmdOpsPass
    : public impl::MapNamedOpsToMpmdOpsPassBase<MapNamedOpsToMpmdOpsPass> {
  using MapNamedOpsToMpmdOpsPassBase::MapNamedOpsToMpmdOpsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    TopologyAttr topology = getTopology(function);
    SmallVector<Operation *> namedOps;
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<NamedComputationOp>(op)) {
        namedOps.push_back(op);
        return WalkResult::skip(); // Nested ones belong to the fragment.
      }
      if (isa<NamedTensorOp>(op))
        namedOps.push_back(op);
      return WalkResult::advance();
    });
    for (Operation *op : namedOps) {
      LogicalResult mapped =
          isa<NamedComputationOp>(op)
              ? mapComputation(cast<NamedComputationOp>(op), topology,
                               assignment)
              : mapTensor(cast<NamedTensorOp>(op), topology, assignment);
      if (failed(mapped))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
