//===- PropagationDriver.cpp - One fixed-point propagation run ------------===//

#include "PropagationDriver.h"

#include "DataFlowEdges.h"
#include "ShardingUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/OpShardingRuleRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::sdy {

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

Value getShardableValue(Value value) {
  if (Value owner = getEdgeOwnerFromTarget(value))
    if (DataFlowEdgeOp edge = getDataFlowEdge(owner))
      return edge.getResult();
  return value;
}

namespace {

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

using FactorDirectionFn = function_ref<PropagationDirection(int64_t factor)>;

PropagationDirection bothWays(int64_t) { return PropagationDirection::BOTH; }

/// One propagation step (sdy-notes 3.3) between the tensors of a rule.
/// `write(tensor, sharding)` is called for every operand (index < number
/// of operands) or result (after them) whose sharding changed.
void propagateStep(
    Operation *scope, ArrayRef<TensorShardingAttr> operands,
    ArrayRef<TensorShardingAttr> results, OpShardingRuleAttr rule,
    const FactorPropagationOptions &options, FactorDirectionFn direction,
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
  llvm::BitVector updated =
      propagateFactorShardings(projection, rule, mesh, direction, options);
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

/// The members of every sharding group, by the value whose sharding stands
/// for them during propagation.
class ShardingGroups {
public:
  explicit ShardingGroups(ModuleOp module) {
    module.walk([&](ShardingGroupOp group) {
      Value member = getShardableValue(group.getInput());
      int64_t id = group.getGroupId();
      SmallVector<Value> &members = membersById[id];
      if (!llvm::is_contained(members, member))
        members.push_back(member);
      groupOf.try_emplace(member, id);
    });
  }

  /// The other members of the group of `value` (empty if it has none).
  ArrayRef<Value> getMembers(Value value) const {
    auto it = groupOf.find(value);
    if (it == groupOf.end())
      return {};
    return membersById.find(it->second)->second;
  }

private:
  DenseMap<int64_t, SmallVector<Value>> membersById;
  DenseMap<Value, int64_t> groupOf;
};

/// The calls of every function with a body, and the callee of every call:
/// how `sdy.func_data_flow_edge`s find their sources. O(ops) to build.
class CallGraph {
public:
  explicit CallGraph(ModuleOp module) : symbols(module) {
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return;
      calleeOf[call] = callee;
      callsOf[callee].push_back(call);
    });
  }

  /// The function with a body `call` calls, or null.
  func::FuncOp getCallee(func::CallOp call) const {
    return calleeOf.lookup(call);
  }

  /// The calls of `function`.
  ArrayRef<func::CallOp> getCalls(func::FuncOp function) const {
    auto it = callsOf.find(function);
    if (it == callsOf.end())
      return {};
    return it->second;
  }

private:
  SymbolTable symbols;
  DenseMap<func::CallOp, func::FuncOp> calleeOf;
  DenseMap<func::FuncOp, SmallVector<func::CallOp>> callsOf;
};

/// The `sdy.func_data_flow_edge`s on `owner` (a function argument or call
/// result).
auto getFuncEdgeUsers(Value owner) {
  return llvm::make_filter_range(owner.getUsers(), [](Operation *user) {
    return isa<FuncDataFlowEdgeOp>(user);
  });
}

/// The state of one fixed-point run.
class PropagationRun {
public:
  PropagationRun(ModuleOp module, const FactorPropagationOptions &options,
                 OpDirectionFn direction)
      : module(module), options(options), direction(direction), groups(module),
        callGraph(module) {}

  void run();

private:
  /// The sharding of `value`, as propagation has it so far.
  TensorShardingAttr read(Value value) const;
  /// Stores `sharding` for `value`; false where no sharding can be kept.
  bool write(Value value, TensorShardingAttr sharding);
  /// Gives `value` (a shardable value) `sharding`, and the same to the other
  /// members of its sharding group, re-queueing what may see news.
  void assign(Value value, TensorShardingAttr sharding, Operation *current);
  /// Returned values ⇄ result shardings of `function` (sdy-notes 3.2 steps
  /// 1 and 4).
  void propagateThroughReturn(func::FuncOp function);
  /// Stores the argument shardings kept aside during the run.
  void flushArgumentShardings();
  /// Re-queues what may see news after `value`'s sharding changed
  /// (sdy-notes 3.2 step 3): its definition and its users, except
  /// `current`, which is being processed.
  void notifyChanged(Value value, Operation *current);
  void visitOp(Operation *op);
  void visitEdge(DataFlowEdgeOp edge);
  void visitManualEdge(DataFlowEdgeOp edge, Value owner,
                       ManualComputationOp manual);
  void visitFuncEdge(FuncDataFlowEdgeOp edge);
  void visitBarrier(PropagationBarrierOp barrier);

  ModuleOp module;
  const FactorPropagationOptions &options;
  OpDirectionFn direction;
  ShardingGroups groups;
  CallGraph callGraph;
  Worklist worklist;
  /// Function argument shardings changed during the run. Setting one
  /// attribute of a function rebuilds the array of all its arguments'
  /// attributes, so they are stored once, at the end: O(arguments) instead
  /// of O(arguments²) for functions with many parameters.
  llvm::MapVector<BlockArgument, TensorShardingAttr> argumentShardings;
};

/// The function whose entry block `value` is an argument of, or null.
func::FuncOp getArgumentFunction(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return {};
  return dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp());
}

TensorShardingAttr PropagationRun::read(Value value) const {
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (auto it = argumentShardings.find(arg); it != argumentShardings.end())
      return it->second;
  return getSharding(value);
}

bool PropagationRun::write(Value value, TensorShardingAttr sharding) {
  if (getArgumentFunction(value)) {
    argumentShardings[cast<BlockArgument>(value)] = sharding;
    return true;
  }
  return setSharding(value, sharding);
}

void PropagationRun::flushArgumentShardings() {
  setArgumentShardings(llvm::to_vector(argumentShardings));
  argumentShardings.clear();
}

void PropagationRun::propagateThroughReturn(func::FuncOp function) {
  Operation *terminator = function.getBody().front().getTerminator();
  SmallVector<DictionaryAttr> resultAttrs;
  function.getAllResultAttrs(resultAttrs);
  bool changed = false;
  for (OpOperand &returned : terminator->getOpOperands()) {
    RankedTensorType type = getStaticTensorType(returned.get().getType());
    if (!type)
      continue;
    unsigned index = returned.getOperandNumber();
    auto resultSharding = dyn_cast_or_null<TensorShardingAttr>(
        resultAttrs[index].get(SdyDialect::kShardingAttrName));
    Value value = getShardableValue(returned.get());
    propagateStep(
        function, {read(value)}, {resultSharding}, getIdentityRule(type),
        options, bothWays, [&](int64_t tensor, TensorShardingAttr sharding) {
          if (tensor == 0) {
            write(value, sharding);
            return;
          }
          NamedAttrList attrs(resultAttrs[index]);
          attrs.set(SdyDialect::kShardingAttrName, sharding);
          resultAttrs[index] = attrs.getDictionary(function.getContext());
          changed = true;
        });
  }
  // One update of the result attributes, whatever their number.
  if (changed)
    function.setAllResultAttrs(resultAttrs);
}

void PropagationRun::notifyChanged(Value value, Operation *current) {
  auto push = [&](Operation *op) {
    if (op && op != current)
      worklist.push(op);
  };
  // A use as an edge source re-queues the edge; a use by a call re-queues
  // the edge of the callee's argument, a use by the return of a called
  // function the edges of the calls' results.
  auto pushUsers = [&](Value used) {
    for (OpOperand &use : used.getUses()) {
      if (Value owner = getEdgeOwnerFromSource(use)) {
        if (DataFlowEdgeOp edge = getDataFlowEdge(owner)) {
          push(edge);
          continue;
        }
      }
      Operation *user = use.getOwner();
      unsigned index = use.getOperandNumber();
      if (auto call = dyn_cast<func::CallOp>(user)) {
        if (func::FuncOp callee = callGraph.getCallee(call)) {
          for (Operation *edge : getFuncEdgeUsers(callee.getArgument(index)))
            push(edge);
          continue;
        }
      }
      if (isa<func::ReturnOp>(user)) {
        auto function = dyn_cast<func::FuncOp>(user->getParentOp());
        ArrayRef<func::CallOp> calls =
            function ? callGraph.getCalls(function) : ArrayRef<func::CallOp>();
        for (func::CallOp call : calls)
          for (Operation *edge : getFuncEdgeUsers(call->getResult(index)))
            push(edge);
        if (!calls.empty())
          continue;
      }
      push(user->hasTrait<OpTrait::IsTerminator>() ? user->getParentOp()
                                                   : user);
    }
  };
  if (Operation *def = value.getDefiningOp())
    push(def);
  else
    push(cast<BlockArgument>(value).getOwner()->getParentOp());
  pushUsers(value);
  // A changed edge also re-queues the users of its other targets, which
  // read the edge's sharding.
  if (auto edge = value.getDefiningOp<DataFlowEdgeOp>())
    if (Value owner = getEdgeOwnerFromTarget(edge.getInput()))
      for (Value target : getNonOwnerTargets(owner))
        pushUsers(target);
}

void PropagationRun::assign(Value value, TensorShardingAttr sharding,
                            Operation *current) {
  if (write(value, sharding))
    notifyChanged(value, current);
  for (Value member : groups.getMembers(value)) {
    if (member == value || read(member) == sharding)
      continue;
    // The step that changed `value` did not see the other members: it is
    // re-queued through them if it uses them.
    if (write(member, sharding))
      notifyChanged(member, /*current=*/nullptr);
  }
}

/// Identity step between the sources of `edge` and the edge, which holds
/// the sharding of all its targets (sdy-notes 3.2 step 2).
void PropagationRun::visitEdge(DataFlowEdgeOp edge) {
  Value owner = getEdgeOwnerFromTarget(edge.getInput());
  if (!owner)
    return;
  if (ManualComputationOp manual = getManualComputationOfOwner(owner))
    return visitManualEdge(edge, owner, manual);
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
    operands.push_back(read(source));
  int64_t numOperands = sources.size();
  propagateStep(
      edge, operands, {edge.getShardingAttr()},
      getIdentityRule(type, numOperands), options,
      [&](int64_t factor) {
        return direction ? direction(edge, factor) : PropagationDirection::BOTH;
      },
      [&](int64_t tensor, TensorShardingAttr sharding) {
        assign(tensor < numOperands ? sources[tensor] : edge.getResult(),
               sharding, edge);
      });
}

/// Identity step across an edge of a manual computation (sdy-notes 3.8),
/// in the view of its source: a block argument's edge (the body's view)
/// meets the operand with the in_sharding's manual axes put back, a
/// result's edge (the global view) meets the returned value without them.
/// So only free axes change; the manual ones stay where the op has them.
void PropagationRun::visitManualEdge(DataFlowEdgeOp edge, Value owner,
                                     ManualComputationOp manual) {
  SmallVector<Value> sources = getEdgeSources(owner);
  if (sources.size() != 1)
    return;
  Value source = getShardableValue(sources.front());
  RankedTensorType type = getStaticTensorType(source.getType());
  TensorShardingAttr edgeSharding = edge.getShardingAttr();
  if (!type || !edgeSharding)
    return;
  ManualAxesAttr manualAxes = manual.getManualAxes();
  auto arg = dyn_cast<BlockArgument>(owner);
  TensorShardingAttr reference =
      arg ? manual.getInShardings().getShardings()[arg.getArgNumber()]
          : edgeSharding;
  MeshAttr mesh = reference.getMesh(manual);
  auto toSourceView = [&](TensorShardingAttr sharding) {
    return arg ? addManualAxes(sharding, reference, manualAxes, mesh)
               : stripManualAxes(sharding, manualAxes);
  };
  auto toEdgeView = [&](TensorShardingAttr sharding) {
    return arg ? stripManualAxes(sharding, manualAxes)
               : addManualAxes(sharding, reference, manualAxes, mesh);
  };
  propagateStep(
      edge, {read(source)}, {toSourceView(edgeSharding)},
      getIdentityRule(type), options,
      [&](int64_t factor) {
        return direction ? direction(edge, factor) : PropagationDirection::BOTH;
      },
      [&](int64_t tensor, TensorShardingAttr sharding) {
        if (tensor == 0)
          assign(source, sharding, edge);
        else
          assign(edge.getResult(), toEdgeView(sharding), edge);
      });
}

/// Identity step between `edge` and what flows into its input (sdy-notes
/// 3.2 step 2): the matching operand of every call of the function whose
/// argument it is, or the matching returned value of the callee of the
/// call whose result it is.
void PropagationRun::visitFuncEdge(FuncDataFlowEdgeOp edge) {
  RankedTensorType type = getStaticTensorType(edge.getType());
  if (!type)
    return;
  SmallVector<Value> sources;
  Value input = edge.getInput();
  if (func::FuncOp function = getArgumentFunction(input)) {
    unsigned index = cast<BlockArgument>(input).getArgNumber();
    for (func::CallOp call : callGraph.getCalls(function)) {
      Value source = getShardableValue(call.getOperand(index));
      if (!llvm::is_contained(sources, source))
        sources.push_back(source);
    }
  } else if (auto call = input.getDefiningOp<func::CallOp>()) {
    if (func::FuncOp callee = callGraph.getCallee(call)) {
      Operation *terminator = callee.getBody().front().getTerminator();
      sources.push_back(getShardableValue(
          terminator->getOperand(cast<OpResult>(input).getResultNumber())));
    }
  }
  if (sources.empty())
    return;
  SmallVector<TensorShardingAttr> operands;
  for (Value source : sources)
    operands.push_back(read(source));
  int64_t numOperands = sources.size();
  propagateStep(
      edge, operands, {read(edge.getResult())},
      getIdentityRule(type, numOperands), options,
      [&](int64_t factor) {
        return direction ? direction(edge, factor) : PropagationDirection::BOTH;
      },
      [&](int64_t tensor, TensorShardingAttr sharding) {
        assign(tensor < numOperands ? sources[tensor] : edge.getResult(),
               sharding, edge);
      });
}

/// Identity step that only goes the barrier's way, whatever the stage.
void PropagationRun::visitBarrier(PropagationBarrierOp barrier) {
  auto type = cast<RankedTensorType>(barrier.getType());
  Value input = getShardableValue(barrier.getInput());
  Value result = getShardableValue(barrier.getResult());
  PropagationDirection allowed = barrier.getAllowedDirection();
  propagateStep(
      barrier, {read(input)}, {read(result)}, getIdentityRule(type), options,
      [&](int64_t) { return allowed; },
      [&](int64_t tensor, TensorShardingAttr sharding) {
        assign(tensor == 0 ? input : result, sharding, barrier);
      });
}

void PropagationRun::visitOp(Operation *op) {
  OpShardingRuleAttr rule =
      getOrCreateOpShardingRule(op, options.conservative, /*storeOnOp=*/true);
  if (!rule)
    return;
  SmallVector<Value> values;
  for (Value operand : op->getOperands())
    values.push_back(getShardableValue(operand));
  for (Value result : op->getResults())
    values.push_back(getShardableValue(result));
  SmallVector<TensorShardingAttr> shardings;
  for (Value value : values)
    shardings.push_back(read(value));
  int64_t numOperands = op->getNumOperands();
  ArrayRef<TensorShardingAttr> all(shardings);
  propagateStep(
      op, all.take_front(numOperands), all.drop_front(numOperands), rule,
      options,
      [&](int64_t factor) {
        return direction ? direction(op, factor) : PropagationDirection::BOTH;
      },
      [&](int64_t tensor, TensorShardingAttr sharding) {
        assign(values[tensor], sharding, op);
      });
}

void PropagationRun::run() {
  SmallVector<func::FuncOp> roots = getUncalledFunctions(module);
  for (func::FuncOp root : roots)
    propagateThroughReturn(root);

  SmallVector<Operation *> topDown;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module)
      topDown.push_back(op);
  });
  for (Operation *op : llvm::reverse(topDown))
    worklist.push(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop();
    if (auto edge = dyn_cast<DataFlowEdgeOp>(op))
      visitEdge(edge);
    else if (auto funcEdge = dyn_cast<FuncDataFlowEdgeOp>(op))
      visitFuncEdge(funcEdge);
    else if (auto barrier = dyn_cast<PropagationBarrierOp>(op))
      visitBarrier(barrier);
    else
      visitOp(op);
  }

  for (func::FuncOp root : roots)
    propagateThroughReturn(root);
  flushArgumentShardings();
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

/// Whether `sharding` tells nothing: absent, or open and unsharded.
bool isUninformative(TensorShardingAttr sharding) {
  return !sharding || (sharding.isFullyReplicated() &&
                       sharding.getReplicatedAxes().empty() &&
                       llvm::all_of(sharding.getDimShardings(),
                                    [](DimensionShardingAttr dim) {
                                      return !dim.getIsClosed();
                                    }));
}

/// Gives every member of each sharding group the sharding its informative
/// members agree on (sdy-notes 2.3); on disagreement, warns and detaches
/// every member behind a fully open sharding constraint.
void syncShardingGroups(ModuleOp module) {
  llvm::MapVector<int64_t, SmallVector<ShardingGroupOp>> groups;
  module.walk([&](ShardingGroupOp group) {
    groups[group.getGroupId()].push_back(group);
  });
  for (auto &[id, members] : groups) {
    TensorShardingAttr agreed;
    bool conflict = false;
    for (ShardingGroupOp member : members) {
      TensorShardingAttr sharding = getSharding(member.getInput());
      if (isUninformative(sharding))
        continue;
      if (agreed && agreed != sharding)
        conflict = true;
      agreed = agreed ? agreed : sharding;
    }
    if (!agreed)
      continue;
    if (!conflict) {
      for (ShardingGroupOp member : members)
        setSharding(getShardableValue(member.getInput()), agreed);
      continue;
    }
    members.front().emitWarning()
        << "the members of sharding group " << id
        << " have different shardings; each is detached behind a fully "
           "open sharding constraint";
    for (ShardingGroupOp member : members) {
      Value input = member.getInput();
      auto type = cast<RankedTensorType>(input.getType());
      OpBuilder builder(member);
      builder.setInsertionPointAfterValue(input);
      auto constraint = ShardingConstraintOp::create(
          builder, member.getLoc(), input,
          TensorShardingAttr::getFullyOpen(
              module.getContext(), agreed.getMeshOrRef(), type.getRank()));
      input.replaceAllUsesExcept(constraint.getResult(), constraint);
    }
  }
}

} // namespace

SmallVector<PropagationStrategy>
getStrategyRuns(PropagationStrategyOption option) {
  switch (option) {
  case PropagationStrategyOption::kBasic:
    return {PropagationStrategy::kBasic};
  case PropagationStrategyOption::kAggressive:
    return {PropagationStrategy::kAggressive};
  case PropagationStrategyOption::kBasicThenAggressive:
    return {PropagationStrategy::kBasic, PropagationStrategy::kAggressive};
  }
  llvm_unreachable("unknown propagation strategy");
}

PropagationDirection unionOf(PropagationDirection a, PropagationDirection b) {
  using D = PropagationDirection;
  if ((a == D::FORWARD && b == D::BACKWARD) ||
      (a == D::BACKWARD && b == D::FORWARD))
    return D::BOTH;
  return std::max(a, b);
}

PropagationDirection intersectionOf(PropagationDirection a,
                                    PropagationDirection b) {
  using D = PropagationDirection;
  if ((a == D::FORWARD && b == D::BACKWARD) ||
      (a == D::BACKWARD && b == D::FORWARD))
    return D::NONE;
  return std::min(a, b);
}

LogicalResult prepareForPropagation(ModuleOp module) {
  if (failed(verifySupported(module)))
    return failure();
  syncShardingGroups(module);
  return success();
}

void runPropagation(ModuleOp module, const FactorPropagationOptions &options,
                    OpDirectionFn direction) {
  PropagationRun(module, options, direction).run();
}

void dropNonCustomShardingRules(Operation *root) {
  root->walk([](Operation *op) {
    auto rule = op->getAttrOfType<OpShardingRuleAttr>(
        SdyDialect::kShardingRuleAttrName);
    if (rule && !rule.getIsCustomRule())
      op->removeAttr(SdyDialect::kShardingRuleAttrName);
  });
}

LogicalResult propagateShardings(ModuleOp module,
                                 ArrayRef<PropagationStrategy> strategies,
                                 bool conservativePropagation,
                                 bool keepShardingRules) {
  if (failed(prepareForPropagation(module)))
    return failure();
  for (PropagationStrategy strategy : strategies)
    runPropagation(module, {strategy, conservativePropagation});
  if (!keepShardingRules)
    dropNonCustomShardingRules(module);
  return success();
}

} // namespace mlir::sdy
