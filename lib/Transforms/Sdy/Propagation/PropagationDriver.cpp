//===- PropagationDriver.cpp - One fixed-point propagation run ------------===//

#include "PropagationDriver.h"

#include "DataFlowEdges.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::sdy {
namespace {

/// Stores `sharding` where `value` keeps it. Returns false for values that
/// cannot carry one (block arguments of region ops, results of ops that
/// shardings only cross through data-flow edges).
bool setSharding(Value value, TensorShardingAttr sharding) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto function =
        dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!function || !arg.getOwner()->isEntryBlock())
      return false;
    function.setArgAttr(arg.getArgNumber(), SdyDialect::kShardingAttrName,
                        sharding);
    return true;
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  if (isa<CollectiveOpInterface, ManualComputationOp, NamedComputationOp>(
          owner))
    return false;
  if (auto constraint = dyn_cast<ShardingConstraintOp>(owner)) {
    constraint.setShardingAttr(sharding);
    return true;
  }
  if (auto reshard = dyn_cast<ReshardOp>(owner)) {
    reshard.setShardingAttr(sharding);
    return true;
  }
  if (auto edge = dyn_cast<DataFlowEdgeOp>(owner)) {
    edge.setShardingAttr(sharding);
    return true;
  }
  // The other results keep their sharding or are fully open on the mesh.
  SmallVector<TensorShardingAttr> shardings;
  for (OpResult other : owner->getResults()) {
    if (other == result) {
      shardings.push_back(sharding);
    } else if (TensorShardingAttr existing = getSharding(other)) {
      shardings.push_back(existing);
    } else {
      auto type = dyn_cast<ShapedType>(other.getType());
      shardings.push_back(TensorShardingAttr::getFullyOpen(
          owner->getContext(), sharding.getMeshOrRef(),
          type && type.hasRank() ? type.getRank() : 0));
    }
  }
  owner->setAttr(
      SdyDialect::kShardingAttrName,
      TensorShardingPerValueAttr::get(owner->getContext(), shardings));
  return true;
}

/// The value whose sharding stands for `value` during propagation: the
/// `sdy.data_flow_edge` of the edge `value` is a target of, if there is one,
/// so that all targets of an edge share one sharding.
Value getShardableValue(Value value) {
  if (Value owner = getEdgeOwnerFromTarget(value))
    if (DataFlowEdgeOp edge = getDataFlowEdge(owner))
      return edge.getResult();
  return value;
}

/// The statically shaped tensor type a value of `type` holds (a mesh
/// tensor holds its global type), or null.
RankedTensorType getStaticTensorType(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return nullptr;
  return RankedTensorType::get(shaped.getShape(), shaped.getElementType());
}

/// `([i, j, ...], ...)->([i, j, ...])` with `numOperands` operands for
/// tensors of `type`.
OpShardingRuleAttr getIdentityRule(RankedTensorType type,
                                   int64_t numOperands = 1) {
  MLIRContext *context = type.getContext();
  SmallVector<DimMappingAttr> dims;
  for (int64_t dim : llvm::seq<int64_t>(0, type.getRank()))
    dims.push_back(DimMappingAttr::get(context, {dim}));
  auto mapping = TensorMappingAttr::get(context, dims);
  SmallVector<TensorMappingAttr> operands(numOperands, mapping);
  return OpShardingRuleAttr::get(context, type.getShape(), operands, {mapping},
                                 {}, {}, {}, {},
                                 /*isCustomRule=*/false);
}

bool isEmptyMesh(MeshAttr mesh) {
  return mesh.getAxes().empty() && mesh.getDeviceIds().empty();
}

bool isMaximalMesh(MeshAttr mesh) {
  return mesh.getAxes().empty() && !mesh.getDeviceIds().empty();
}

/// One propagation step (sdy-notes 3.3) between the tensors of a rule.
/// `write(tensor, sharding)` is called for every operand (index < number
/// of operands) or result (after them) whose sharding changed.
void propagateStep(
    Operation *scope, ArrayRef<TensorShardingAttr> operands,
    ArrayRef<TensorShardingAttr> results, OpShardingRuleAttr rule,
    const FactorPropagationOptions &options,
    function_ref<void(int64_t tensor, TensorShardingAttr sharding)> write) {
  SmallVector<TensorShardingAttr> all(operands);
  llvm::append_range(all, results);
  MeshAttr mesh;
  Attribute meshOrRef;
  for (TensorShardingAttr sharding : all) {
    if (!sharding)
      continue;
    MeshAttr tensorMesh = sharding.getMesh(scope);
    if (!tensorMesh || isEmptyMesh(tensorMesh))
      continue;
    // Shardings on different meshes (device order included) cannot be
    // compared axis by axis.
    if (mesh && tensorMesh != mesh)
      return;
    if (!mesh) {
      mesh = tensorMesh;
      meshOrRef = sharding.getMeshOrRef();
    }
  }
  if (!mesh || isMaximalMesh(mesh))
    return;

  ShardingProjection projection =
      ShardingProjection::build(operands, results, rule, mesh);
  llvm::BitVector updated = propagateFactorShardings(
      projection, rule, mesh,
      [](int64_t) { return PropagationDirection::BOTH; }, options);
  int64_t numOperands = operands.size();
  for (int64_t tensor : updated.set_bits()) {
    bool isOperand = tensor < numOperands;
    TensorMappingAttr mapping =
        isOperand ? rule.getOperandMappings()[tensor]
                  : rule.getResultMappings()[tensor - numOperands];
    TensorShardingAttr previous = all[tensor];
    TensorShardingAttr sharding =
        unprojectTensor(projection.getTensor(tensor), mapping,
                        rule.getFactorSizes(), mesh, meshOrRef, previous);
    // Values that gain no axis stay without an attribute.
    if (sharding == previous || (!previous && sharding.isFullyReplicated()))
      continue;
    write(tensor, sharding);
  }
}

/// Returned values ⇄ result shardings of `function` (sdy-notes 3.2 steps 1
/// and 4).
void propagateThroughReturn(func::FuncOp function,
                            const FactorPropagationOptions &options) {
  Operation *terminator = function.getBody().front().getTerminator();
  for (OpOperand &returned : terminator->getOpOperands()) {
    RankedTensorType type = getStaticTensorType(returned.get().getType());
    if (!type)
      continue;
    unsigned index = returned.getOperandNumber();
    auto resultSharding = function.getResultAttrOfType<TensorShardingAttr>(
        index, SdyDialect::kShardingAttrName);
    propagateStep(function, {getSharding(returned.get())}, {resultSharding},
                  getIdentityRule(type), options,
                  [&](int64_t tensor, TensorShardingAttr sharding) {
                    if (tensor == 0)
                      setSharding(returned.get(), sharding);
                    else
                      function.setResultAttr(
                          index, SdyDialect::kShardingAttrName, sharding);
                  });
  }
}

/// The ops still to visit, last in first out, each at most once.
class Worklist {
public:
  void push(Operation *op) {
    if (queued.insert(op).second)
      stack.push_back(op);
  }
  Operation *pop() {
    Operation *op = stack.pop_back_val();
    queued.erase(op);
    return op;
  }
  bool empty() const { return stack.empty(); }

private:
  SmallVector<Operation *> stack;
  DenseSet<Operation *> queued;
};

/// Re-queues what may see news after `value`'s sharding changed
/// (sdy-notes 3.2 step 3): its definition and its users, except `current`,
/// which is being processed. A use as an edge source re-queues the edge;
/// a changed edge also re-queues the users of its other targets, which
/// read the edge's sharding.
void notifyChanged(Value value, Operation *current, Worklist &worklist) {
  auto push = [&](Operation *op) {
    if (op && op != current)
      worklist.push(op);
  };
  auto pushUsers = [&](Value used) {
    for (OpOperand &use : used.getUses()) {
      if (Value owner = getEdgeOwnerFromSource(use)) {
        if (DataFlowEdgeOp edge = getDataFlowEdge(owner)) {
          push(edge);
          continue;
        }
      }
      Operation *user = use.getOwner();
      push(user->hasTrait<OpTrait::IsTerminator>() ? user->getParentOp()
                                                   : user);
    }
  };
  if (Operation *def = value.getDefiningOp())
    push(def);
  else
    push(cast<BlockArgument>(value).getOwner()->getParentOp());
  pushUsers(value);
  if (auto edge = value.getDefiningOp<DataFlowEdgeOp>())
    if (Value owner = getEdgeOwnerFromTarget(edge.getInput()))
      for (Value target : getNonOwnerTargets(owner))
        pushUsers(target);
}

/// Identity step between the sources of `edge` and the edge, which holds
/// the sharding of all its targets (sdy-notes 3.2 step 2).
void propagateThroughEdge(DataFlowEdgeOp edge,
                          const FactorPropagationOptions &options,
                          Worklist &worklist) {
  Value owner = getEdgeOwnerFromTarget(edge.getInput());
  if (!owner)
    return;
  RankedTensorType type = getStaticTensorType(edge.getType());
  // A source that is a target of this edge (a loop-invariant block
  // argument returned as is) already is the edge itself.
  SmallVector<Value> sources;
  for (Value source : getEdgeSources(owner)) {
    Value shardable = getShardableValue(source);
    if (shardable != edge.getResult() &&
        !llvm::is_contained(sources, shardable))
      sources.push_back(shardable);
  }
  if (sources.empty())
    return;
  SmallVector<TensorShardingAttr> operands;
  for (Value source : sources)
    operands.push_back(getSharding(source));
  int64_t numOperands = sources.size();
  propagateStep(edge, operands, {edge.getShardingAttr()},
                getIdentityRule(type, numOperands), options,
                [&](int64_t tensor, TensorShardingAttr sharding) {
                  Value value =
                      tensor < numOperands ? sources[tensor] : edge.getResult();
                  if (setSharding(value, sharding))
                    notifyChanged(value, edge, worklist);
                });
}

LogicalResult verifySupported(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    for (Type type : op->getResultTypes()) {
      if (isa<TupleType>(type)) {
        op->emitError("sharding propagation does not handle tuple values");
        return WalkResult::interrupt();
      }
      auto shaped = dyn_cast<ShapedType>(type);
      if (shaped && !shaped.hasStaticShape()) {
        op->emitError("sharding propagation needs statically shaped "
                      "tensors, got ")
            << type;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

func::FuncOp getMainFunction(ModuleOp module) {
  auto functions = module.getOps<func::FuncOp>();
  if (!functions.empty() && std::next(functions.begin()) == functions.end())
    return *functions.begin();
  return module.lookupSymbol<func::FuncOp>("main");
}

void runOnce(ModuleOp module, func::FuncOp main,
             const FactorPropagationOptions &options) {
  propagateThroughReturn(main, options);

  Worklist worklist;
  SmallVector<Operation *> topDown;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module)
      topDown.push_back(op);
  });
  for (Operation *op : llvm::reverse(topDown))
    worklist.push(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop();
    if (auto edge = dyn_cast<DataFlowEdgeOp>(op)) {
      propagateThroughEdge(edge, options, worklist);
      continue;
    }
    OpShardingRuleAttr rule =
        getOrCreateOpShardingRule(op, options.conservative, /*storeOnOp=*/true);
    if (!rule)
      continue;
    SmallVector<TensorShardingAttr> operands, results;
    for (Value operand : op->getOperands())
      operands.push_back(getSharding(getShardableValue(operand)));
    for (Value result : op->getResults())
      results.push_back(getSharding(getShardableValue(result)));
    int64_t numOperands = op->getNumOperands();
    propagateStep(op, operands, results, rule, options,
                  [&](int64_t tensor, TensorShardingAttr sharding) {
                    Value value = getShardableValue(
                        tensor < numOperands
                            ? op->getOperand(tensor)
                            : op->getResult(tensor - numOperands));
                    if (setSharding(value, sharding))
                      notifyChanged(value, op, worklist);
                  });
  }

  propagateThroughReturn(main, options);
}

} // namespace

LogicalResult propagateShardings(ModuleOp module,
                                 ArrayRef<PropagationStrategy> strategies,
                                 bool conservativePropagation,
                                 bool keepShardingRules) {
  if (failed(verifySupported(module)))
    return failure();
  func::FuncOp main = getMainFunction(module);
  if (!main)
    return module.emitError("sharding propagation needs a single function or "
                            "a function named @main");
  for (PropagationStrategy strategy : strategies)
    runOnce(module, main, {strategy, conservativePropagation});
  if (!keepShardingRules)
    module.walk([](Operation *op) {
      auto rule = op->getAttrOfType<OpShardingRuleAttr>(
          SdyDialect::kShardingRuleAttrName);
      if (rule && !rule.getIsCustomRule())
        op->removeAttr(SdyDialect::kShardingRuleAttrName);
    });
  return success();
}

} // namespace mlir::sdy
