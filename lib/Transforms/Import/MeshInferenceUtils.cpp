//===- MeshInferenceUtils.cpp - Shared code of the infer-mesh passes ------===//

#include "MeshInferenceUtils.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <deque>

namespace mlir::mpmd::infer {

const char kConflictHint[] =
    "Add an explicit mpmd.transfer, or set `mpmd_infer_transfers=True` "
    "(or `mpmd_infer_cross_mesh_reductions=True` if this op is a cross-mesh "
    "reduction) to let mesh inference introduce transfers.";

//===----------------------------------------------------------------------===//
// MeshIndex / MeshSet
//===----------------------------------------------------------------------===//

MeshIndex::MeshIndex(TopologyAttr topology) {
  for (NamedMeshAttr mesh : topology.getMeshes())
    names.push_back(mesh.getName());
  llvm::sort(names, isMeshNameBefore); // names are unique
  for (NamedMeshAttr mesh : topology.getMeshes())
    declared.push_back(*lookup(mesh.getName()));
}

std::optional<unsigned> MeshIndex::lookup(StringRef name) const {
  for (auto [i, n] : llvm::enumerate(names))
    if (n == name)
      return i;
  return std::nullopt;
}

bool MeshSet::mergeOrigins(SmallVector<StringAttr, 1> &into,
                           ArrayRef<StringAttr> from) {
  bool changed = false;
  for (StringAttr origin : from) {
    if (into.size() >= kMaxOrigins)
      break;
    if (llvm::is_contained(into, origin))
      continue;
    into.push_back(origin);
    changed = true;
  }
  return changed;
}

const MeshSet::Entry *MeshSet::find(unsigned mesh) const {
  auto it = llvm::find_if(entries, [&](const Entry &e) { return e.mesh == mesh; });
  return it == entries.end() ? nullptr : &*it;
}

bool MeshSet::contains(unsigned mesh) const { return find(mesh) != nullptr; }

SmallVector<unsigned> MeshSet::meshes() const {
  SmallVector<unsigned> result =
      llvm::map_to_vector(entries, [](const Entry &e) { return e.mesh; });
  llvm::sort(result);
  return result;
}

bool MeshSet::insert(unsigned mesh, StringAttr origin) {
  auto it =
      llvm::find_if(entries, [&](const Entry &e) { return e.mesh == mesh; });
  if (it == entries.end()) {
    Entry &entry = entries.emplace_back(Entry{mesh, {}});
    if (origin)
      entry.origins.push_back(origin);
    return true;
  }
  return origin && mergeOrigins(it->origins, {origin});
}

bool MeshSet::unionWith(const MeshSet &other) {
  bool changed = false;
  for (const Entry &entry : other.entries) {
    auto it = llvm::find_if(
        entries, [&](const Entry &e) { return e.mesh == entry.mesh; });
    if (it == entries.end()) {
      entries.push_back(entry);
      changed = true;
      continue;
    }
    changed |= mergeOrigins(it->origins, entry.origins);
  }
  return changed;
}

MeshSet MeshSet::intersect(const MeshSet &other) const {
  MeshSet result;
  for (const Entry &entry : entries) {
    if (const Entry *o = other.find(entry.mesh)) {
      Entry merged = entry;
      mergeOrigins(merged.origins, o->origins);
      result.entries.push_back(std::move(merged));
    }
  }
  return result;
}

bool MeshSet::isSubsetOf(const MeshSet &other) const {
  return llvm::all_of(entries,
                      [&](const Entry &e) { return other.contains(e.mesh); });
}

MeshSet MeshSet::all(const MeshIndex &index, StringAttr origin) {
  MeshSet result;
  for (unsigned i : index.inTopologyOrder())
    result.insert(i, origin);
  return result;
}

bool MeshSet::operator==(const MeshSet &other) const {
  if (entries.size() != other.entries.size())
    return false;
  return llvm::all_of(entries, [&](const Entry &e) {
    const Entry *o = other.find(e.mesh);
    return o && o->origins.size() == e.origins.size() &&
           llvm::all_of(e.origins, [&](StringAttr origin) {
             return llvm::is_contained(o->origins, origin);
           });
  });
}

bool MeshSet::isIdenticalTo(const MeshSet &other) const {
  return llvm::equal(entries, other.entries,
                     [](const Entry &a, const Entry &b) {
                       return a.mesh == b.mesh && a.origins == b.origins;
                     });
}

MeshesWithOriginsAttr MeshSet::toAttr(MLIRContext *ctx,
                                      const MeshIndex &index) const {
  SmallVector<MeshWithOriginsAttr> meshes;
  for (const Entry &entry : entries) {
    SmallVector<OriginAttr> origins = llvm::map_to_vector(
        entry.origins,
        [&](StringAttr o) { return OriginAttr::get(ctx, o.getValue()); });
    meshes.push_back(
        MeshWithOriginsAttr::get(ctx, index.name(entry.mesh), origins));
  }
  return MeshesWithOriginsAttr::get(ctx, meshes);
}

MeshSet MeshSet::fromAttr(MeshesWithOriginsAttr attr, const MeshIndex &index) {
  MeshSet result;
  if (!attr)
    return result;
  MLIRContext *ctx = attr.getContext();
  for (MeshWithOriginsAttr mesh : attr.getMeshes()) {
    std::optional<unsigned> i = index.lookup(mesh.getMainMesh());
    if (!i)
      continue;
    result.insert(*i);
    for (OriginAttr origin : mesh.getOrigins())
      result.insert(*i, StringAttr::get(ctx, origin.getOriginLabel()));
  }
  return result;
}

std::string MeshSet::str(const MeshIndex &index) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "{";
  llvm::interleaveComma(meshes(), os, [&](unsigned mesh) {
    os << "\"" << index.name(mesh) << "\"";
    const Entry *e = find(mesh);
    if (e->origins.empty())
      return;
    os << "[";
    llvm::interleaveComma(e->origins, os, [&](StringAttr o) {
      os << "\"" << o.getValue() << "\"";
    });
    os << "]";
  });
  os << "}";
  return s;
}

SrcSet intersectSrc(const SrcSet &lhs, const SrcSet &rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return lhs->intersect(*rhs);
}

std::string srcStr(const SrcSet &set, const MeshIndex &index) {
  return set ? set->str(index) : std::string("any mesh");
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

std::vector<Program> Program::buildUnits(ModuleOp module) {
  // MPMD functions (with a topology and a body), in module order.
  SmallVector<func::FuncOp> functions;
  DenseMap<Operation *, unsigned> indexOf;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!getTopology(function) || function.isExternal())
      continue;
    indexOf[function] = functions.size();
    functions.push_back(function);
  }
  // Units: the functions connected by mpmd.calls (union-find with path
  // halving), so that an entry point and its callees, and entry points
  // sharing a callee, are analysed together. O(F + C · α).
  SmallVector<unsigned> parent(functions.size());
  for (unsigned i = 0; i < parent.size(); ++i)
    parent[i] = i;
  auto find = [&](unsigned i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  SymbolTableCollection symbols;
  SmallVector<std::pair<CallOp, func::FuncOp>> calls;
  for (func::FuncOp function : functions) {
    function.walk([&](CallOp call) {
      auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee)
        return;
      calls.push_back({call, callee});
      // The mpmd.call verifier guarantees the callee's topology is the
      // caller's.
      if (auto it = indexOf.find(callee); it != indexOf.end())
        parent[find(indexOf.lookup(function))] = find(it->second);
    });
  }
  std::vector<Program> units;
  DenseMap<unsigned, unsigned> unitOfRoot;
  SmallVector<unsigned> unitOf(functions.size());
  for (auto [i, function] : llvm::enumerate(functions)) {
    auto [it, inserted] = unitOfRoot.try_emplace(find(i), units.size());
    if (inserted) {
      Program &unit = units.emplace_back();
      unit.module = module;
      unit.meshes = MeshIndex(getTopology(function));
    }
    unitOf[i] = it->second;
  }
  // Callees first, then entry points; each in module order.
  for (bool entries : {false, true})
    for (auto [i, function] : llvm::enumerate(functions))
      if (isEntryPointFunction(function) == entries)
        units[unitOf[i]].functions.push_back(function);
  for (auto [call, callee] : calls) {
    auto caller = call->getParentOfType<func::FuncOp>();
    Program &unit = units[unitOf[indexOf.lookup(caller)]];
    unit.callSites[callee].push_back(call);
    unit.callees[call] = callee;
  }
  return units;
}

bool Program::isEntry(func::FuncOp function) const {
  return isEntryPointFunction(function);
}

ArrayRef<CallOp> Program::getCallSites(func::FuncOp callee) const {
  auto it = callSites.find(callee);
  if (it == callSites.end())
    return {};
  return it->second;
}

void Program::forEachBlock(function_ref<void(Block &)> fn) const {
  for (func::FuncOp function : functions) {
    fn(function.getBody().front());
    function.walk([&](ForOp loop) { fn(loop.getRegion().front()); });
  }
}

//===----------------------------------------------------------------------===//
// Op classification
//===----------------------------------------------------------------------===//

bool isAnalysisBlock(Block *block) {
  Operation *parent = block->getParentOp();
  if (auto function = dyn_cast_or_null<func::FuncOp>(parent))
    return isMpmdFunction(function);
  return isa_and_nonnull<ForOp>(parent);
}

bool isMeshlessOp(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  Dialect *dialect = op->getDialect();
  if (dialect && (isa<MpmdDialect>(dialect) || isa<func::FuncDialect>(dialect)))
    return false;
  return !isa<ModuleOp>(op);
}

bool hasInferredSets(Operation *op) {
  return isMeshlessOp(op) || isa<BroadcastOp, ReduceOp>(op);
}

Operation *getAnalysisUser(OpOperand &use) {
  Operation *op = use.getOwner();
  while (op && op->getBlock() && !isAnalysisBlock(op->getBlock()))
    op = op->getParentOp();
  return op;
}

SmallVector<Value> getInputs(Operation *op) {
  llvm::SetVector<Value> inputs;
  inputs.insert(op->getOperands().begin(), op->getOperands().end());
  if (op->getNumRegions() != 0) {
    llvm::SetVector<Value> free;
    getUsedValuesDefinedAbove(op->getRegions(), free);
    inputs.insert(free.begin(), free.end());
  }
  return inputs.takeVector();
}

std::optional<ReductionType> getReductionKind(Operation *op) {
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return std::nullopt;
  if (isa<stablehlo::AddOp>(op))
    return ReductionType::kAdd;
  if (isa<stablehlo::MulOp>(op))
    return ReductionType::kMul;
  if (isa<stablehlo::MaxOp>(op))
    return ReductionType::kMax;
  if (isa<stablehlo::MinOp>(op))
    return ReductionType::kMin;
  if (isa<stablehlo::OrOp>(op))
    return ReductionType::kOr;
  if (isa<stablehlo::AndOp>(op))
    return ReductionType::kAnd;
  return std::nullopt;
}

namespace {

/// True if `value` is a splat constant equal to the identity of `kind`.
bool isIdentityOf(Value value, ReductionType kind) {
  auto constant = value.getDefiningOp<stablehlo::ConstantOp>();
  auto elements =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  if (!elements || !elements.isSplat())
    return false;
  Type type = elements.getElementType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat v = elements.getSplatValue<APFloat>();
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReductionType::kAdd:
      return v.isZero();
    case ReductionType::kMul:
      return v == APFloat::getOne(sem);
    case ReductionType::kMax:
      return v.isInfinity() && v.isNegative();
    case ReductionType::kMin:
      return v.isInfinity() && !v.isNegative();
    default:
      return false;
    }
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return false;
  APInt v = elements.getSplatValue<APInt>();
  unsigned width = intType.getWidth();
  bool isUnsigned = intType.isUnsigned() || width == 1;
  switch (kind) {
  case ReductionType::kAdd:
  case ReductionType::kOr:
    return v.isZero();
  case ReductionType::kMul:
    return v.isOne();
  case ReductionType::kAnd:
    return v.isAllOnes();
  case ReductionType::kMax:
    return isUnsigned ? v.isMinValue() : v.isMinSignedValue();
  case ReductionType::kMin:
    return isUnsigned ? v.isMaxValue() : v.isMaxSignedValue();
  case ReductionType::kNone:
    return false;
  }
  return false;
}

} // namespace

std::optional<ConcatReduction> matchConcatReduction(Operation *op) {
  auto reduce = dyn_cast<stablehlo::ReduceOp>(op);
  if (!reduce || reduce.getInputs().size() != 1 ||
      reduce.getDimensions().size() != 1)
    return std::nullopt;
  auto concat =
      reduce.getInputs().front().getDefiningOp<stablehlo::ConcatenateOp>();
  if (!concat || !concat->hasOneUse() ||
      static_cast<int64_t>(concat.getDimension()) !=
          reduce.getDimensions().front())
    return std::nullopt;
  // One type for all, so that each reshapes to the reduce's result type.
  Type operandType = concat.getInputs().front().getType();
  auto rankedType = dyn_cast<RankedTensorType>(operandType);
  if (!rankedType || !rankedType.hasStaticShape() ||
      rankedType.getDimSize(concat.getDimension()) != 1 ||
      rankedType.getElementType() !=
          getElementTypeOrSelf(reduce->getResult(0).getType()) ||
      llvm::any_of(concat.getInputs(), [&](Value operand) {
        return operand.getType() != operandType;
      }))
    return std::nullopt;
  // The body: `return op(arg0, arg1)`.
  Block &body = reduce.getBody().front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(
                                         body.without_terminator()))
    return std::nullopt;
  Operation &combiner = body.front();
  std::optional<ReductionType> kind = getReductionKind(&combiner);
  // The ops are commutative: the arguments may come in either order.
  Value lhs = body.getArgument(0), rhs = body.getArgument(1);
  if (!kind ||
      !((combiner.getOperand(0) == lhs && combiner.getOperand(1) == rhs) ||
        (combiner.getOperand(0) == rhs && combiner.getOperand(1) == lhs)) ||
      body.getTerminator()->getNumOperands() != 1 ||
      body.getTerminator()->getOperand(0) != combiner.getResult(0) ||
      !isIdentityOf(reduce.getInitValues().front(), *kind))
    return std::nullopt;
  return ConcatReduction{concat, *kind};
}

//===----------------------------------------------------------------------===//
// Attribute I/O
//===----------------------------------------------------------------------===//

MeshSet getOpUseSet(Operation *op, const MeshIndex &index) {
  return MeshSet::fromAttr(op->getAttrOfType<MeshesWithOriginsAttr>(kUseSetAttr),
                           index);
}

SrcSet getOpSrcSet(Operation *op, const MeshIndex &index) {
  auto attr = op->getAttrOfType<MeshesWithOriginsAttr>(kSrcSetAttr);
  if (!attr)
    return std::nullopt;
  return MeshSet::fromAttr(attr, index);
}

void setOpUseSet(Operation *op, const MeshSet &set, const MeshIndex &index) {
  if (set.empty())
    op->removeAttr(kUseSetAttr);
  else
    op->setAttr(kUseSetAttr, set.toAttr(op->getContext(), index));
}

void setOpSrcSet(Operation *op, const SrcSet &set, const MeshIndex &index) {
  if (!set)
    op->removeAttr(kSrcSetAttr);
  else
    op->setAttr(kSrcSetAttr, set->toAttr(op->getContext(), index));
}

MeshSet getLoopUseSet(ForOp loop, unsigned i, const MeshIndex &index) {
  return MeshSet::fromAttr(dyn_cast_or_null<MeshesWithOriginsAttr>(
                               getArgAttr(loop, i, kUseSetAttr)),
                           index);
}

SrcSet getLoopSrcSet(ForOp loop, unsigned i, const MeshIndex &index) {
  auto attr =
      dyn_cast_or_null<MeshesWithOriginsAttr>(getArgAttr(loop, i, kSrcSetAttr));
  if (!attr)
    return std::nullopt;
  return MeshSet::fromAttr(attr, index);
}

std::optional<std::pair<ForOp, unsigned>> getLoopCarried(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp());
    if (loop && arg.getArgNumber() < loop->getNumOperands())
      return std::make_pair(loop, arg.getArgNumber());
    return std::nullopt;
  }
  auto result = cast<OpResult>(value);
  if (auto loop = dyn_cast<ForOp>(result.getOwner()))
    return std::make_pair(loop, result.getResultNumber());
  return std::nullopt;
}

MeshSet getArgUseSet(func::FuncOp f, unsigned i, const MeshIndex &index) {
  return MeshSet::fromAttr(
      f.getArgAttrOfType<MeshesWithOriginsAttr>(i, kUseSetAttr), index);
}

SrcSet getArgSrcSet(func::FuncOp f, unsigned i, const MeshIndex &index) {
  auto attr = f.getArgAttrOfType<MeshesWithOriginsAttr>(i, kSrcSetAttr);
  if (!attr)
    return std::nullopt;
  return MeshSet::fromAttr(attr, index);
}

MeshSet getResultUseSet(func::FuncOp f, unsigned i, const MeshIndex &index) {
  return MeshSet::fromAttr(
      f.getResultAttrOfType<MeshesWithOriginsAttr>(i, kUseSetAttr), index);
}

SrcSet getResultSrcSet(func::FuncOp f, unsigned i, const MeshIndex &index) {
  auto attr = f.getResultAttrOfType<MeshesWithOriginsAttr>(i, kSrcSetAttr);
  if (!attr)
    return std::nullopt;
  return MeshSet::fromAttr(attr, index);
}

MeshSet getValueUseSet(Value value, const Program &program) {
  if (auto carried = getLoopCarried(value))
    return getLoopUseSet(carried->first, carried->second, program.meshes);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      return getArgUseSet(f, arg.getArgNumber(), program.meshes);
    return {};
  }
  Operation *def = value.getDefiningOp();
  if (auto call = dyn_cast<CallOp>(def))
    if (func::FuncOp callee = program.getCallee(call))
      return getResultUseSet(callee, cast<OpResult>(value).getResultNumber(),
                             program.meshes);
  return getOpUseSet(def, program.meshes);
}

SrcSet getValueSrcSet(Value value, const Program &program) {
  if (auto carried = getLoopCarried(value))
    if (!isa<MeshTensorType>(value.getType()))
      return getLoopSrcSet(carried->first, carried->second, program.meshes);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      return getArgSrcSet(f, arg.getArgNumber(), program.meshes);
    return std::nullopt;
  }
  Operation *def = value.getDefiningOp();
  if (auto call = dyn_cast<CallOp>(def))
    if (func::FuncOp callee = program.getCallee(call))
      return getResultSrcSet(callee, cast<OpResult>(value).getResultNumber(),
                             program.meshes);
  if (isa<MeshTensorType>(value.getType()))
    return MeshSet::fromAttr(
        MeshesWithOriginsAttr::get(value.getContext(),
                                   {MeshWithOriginsAttr::get(
                                       value.getContext(),
                                       getMeshName(value.getType()), {})}),
        program.meshes);
  return getOpSrcSet(def, program.meshes);
}

//===----------------------------------------------------------------------===//
// use_set analysis
//===----------------------------------------------------------------------===//

MeshSet getOwnMesh(AssignOp assign, const MeshIndex &index) {
  MeshSet set;
  std::optional<unsigned> mesh = index.lookup(getMeshName(assign.getType()));
  if (!mesh)
    return set;
  set.insert(*mesh);
  if (StringAttr origin = assign.getOriginAttr())
    set.insert(*mesh, origin);
  return set;
}

namespace {

/// The use_set analysis (G7). Inside a function body a value is used where
/// its users are: a push-style join, each set only growing and every growth
/// pushed to the values it flows from, to a fixpoint (a loop body feeds its
/// next iteration). Across calls it is per call site, as one backward walk
/// of each entry point decides: at a call site, the callee's results add
/// what the site's results are used on, the callee body propagates that to
/// its arguments, and the site's operands take the arguments' sets as they
/// are then. A site therefore sees the uses of its own results and of those
/// of the sites walked before it (after it in program order; entry points in
/// module order), not those of the sites walked after it. Two things are
/// walked again until nothing changes: an entry point with a call chain (a
/// call's result passed straight to a call of the same callee), after which
/// every call site in it has every contribution, and a loop body with calls
/// (its next iteration uses what it computes). The callee bodies and
/// signatures get the union over all call sites.
///
/// Cost: the callee bodies are propagated incrementally (a value's set grows
/// at most O(M) times for M meshes), so a call site costs
/// O((operands + results) * M) plus the growth it causes, and a walk
/// O(call sites * that). An entry point with a chain is walked once more per
/// round of growth (twice for the usual microbatched chain).
class UseSetAnalysis {
public:
  explicit UseSetAnalysis(Program &program) : program(program) {}

  void run() {
    MLIRContext *ctx = program.module.getContext();
    // Seeds: assigns.
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        auto assign = dyn_cast<AssignOp>(&op);
        if (!assign)
          continue;
        addUse(assign.getTensor(), getOwnMesh(assign, program.meshes));
      }
    });
    // Seeds kept from leaf assignment: unused callee args/results.
    StringAttr calleeIn = StringAttr::get(ctx, kInferredUnusedCalleeIn);
    StringAttr calleeOut = StringAttr::get(ctx, kInferredUnusedCalleeOut);
    auto keepSeed = [&](MeshSet set, StringAttr label) {
      MeshSet kept;
      for (const MeshSet::Entry &e : set.getEntries())
        if (llvm::is_contained(e.origins, label))
          kept.insert(e.mesh, label);
      return kept;
    };
    for (func::FuncOp f : program.functions) {
      if (program.isEntry(f))
        continue;
      for (unsigned i = 0; i < f.getNumArguments(); ++i) {
        MeshSet seed = keepSeed(getArgUseSet(f, i, program.meshes), calleeIn);
        if (!seed.empty())
          addUse(f.getArgument(i), seed);
      }
      auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
      for (unsigned j = 0; j < f.getNumResults(); ++j) {
        MeshSet seed =
            keepSeed(getResultUseSet(f, j, program.meshes), calleeOut);
        if (seed.empty())
          continue;
        calleeResultUse[{f, j}].unionWith(seed);
        addUse(ret.getOperand(j), seed);
      }
    }
    drain();
    // The ops (loops, callees) with call sites inside.
    for (auto [call, callee] : program.callees)
      for (Operation *parent = call->getParentOp(); parent;
           parent = parent->getParentOp())
        if (!hasCallSites.insert(parent).second || isa<func::FuncOp>(parent))
          break;
    for (func::FuncOp f : program.functions) {
      if (!program.isEntry(f))
        continue;
      bool chained = hasCallChain(f);
      uint64_t before;
      do {
        before = growth;
        walkCallSites(f.getBody().front());
      } while (chained && growth != before);
    }
    // Functions nothing calls still have their own call sites walked.
    for (func::FuncOp f : program.functions)
      if (!program.isEntry(f) && program.getCallSites(f).empty() &&
          hasCallSites.contains(f))
        walkCallSites(f.getBody().front());
    order();
    write();
  }

private:
  void addUse(Value v, const MeshSet &set) {
    if (set.empty())
      return;
    if (!valueUse[v].unionWith(set))
      return;
    ++growth;
    if (inWorklist.insert(v).second)
      worklist.push_back(v);
  }

  void drain() {
    while (!worklist.empty()) {
      Value v = worklist.front();
      worklist.pop_front();
      inWorklist.erase(v);
      process(v);
    }
  }

  /// Pushes the set of `v` to the values it flows from, within a function
  /// body. Call edges are crossed by the walk (visitCallSite) only.
  void process(Value v) {
    const MeshSet use = valueUse[v];
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      // A function argument is a leaf: an entry point's is an input, a
      // callee's reaches the call sites when they are walked.
      auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp());
      unsigned i = arg.getArgNumber();
      if (loop && i < loop->getNumOperands()) {
        addUse(loop->getOperand(i), use);
        addUse(arg.getOwner()->getTerminator()->getOperand(i), use);
      }
      return;
    }
    Operation *def = v.getDefiningOp();
    unsigned j = cast<OpResult>(v).getResultNumber();
    if (isa<CallOp>(def))
      return; // Reaches the callee when the call site is walked.
    if (auto loop = dyn_cast<ForOp>(def)) {
      // A loop-carried value has one mesh: the result is the operand and the
      // block argument of the next iteration too, and the block argument's
      // set flows on to the loop operand and to the value the body returns
      // (the last iteration's value).
      addUse(loop.getRegion().front().getArgument(j), use);
      return;
    }
    if (isa<UnassignOp, BroadcastOp, ReduceOp>(def)) {
      opUse[def].unionWith(use);
      return;
    }
    if (!isMeshlessOp(def))
      return;
    if (!opUse[def].unionWith(use))
      return;
    auto &inputs = inputCache[def];
    if (inputs.empty())
      inputs = getInputs(def);
    const MeshSet opSet = opUse[def];
    for (Value input : inputs)
      addUse(input, opSet);
  }

  //===--- Per-call-site walk ---------------------------------------------===//

  /// A result of a call passed straight to a call of the same callee.
  bool hasCallChain(func::FuncOp entry) {
    WalkResult result = entry.walk([&](CallOp call) {
      func::FuncOp callee = program.getCallee(call);
      for (Value operand : call->getOperands()) {
        auto producer = operand.getDefiningOp<CallOp>();
        if (producer && callee && program.getCallee(producer) == callee)
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return result.wasInterrupted();
  }

  /// Visits the call sites of `block` (and of the loops in it) backward.
  void walkCallSites(Block &block) {
    for (Operation &op : llvm::reverse(block)) {
      if (auto call = dyn_cast<CallOp>(&op)) {
        visitCallSite(call);
        continue;
      }
      auto loop = dyn_cast<ForOp>(&op);
      if (!loop || !hasCallSites.contains(loop))
        continue;
      uint64_t before;
      do {
        before = growth;
        walkCallSites(loop.getRegion().front());
      } while (growth != before);
    }
  }

  /// The results of `call` are used where they will be (their users come
  /// after it, already walked): the callee's results add that, the callee
  /// propagates it, and the operands take what the callee's arguments have
  /// now.
  void visitCallSite(CallOp call) {
    func::FuncOp callee = program.getCallee(call);
    if (!callee || callee.isExternal())
      return;
    Operation *ret = callee.getBody().front().getTerminator();
    for (unsigned j = 0; j < call->getNumResults(); ++j) {
      auto it = valueUse.find(call->getResult(j));
      if (it == valueUse.end())
        continue;
      MeshSet &resultUse = calleeResultUse[{callee, j}];
      if (resultUse.unionWith(it->second))
        addUse(ret->getOperand(j), resultUse);
    }
    drain();
    // A callee with call sites in its loops is walked at each of its own.
    if (hasCallSites.contains(callee) && walking.insert(callee).second) {
      walkCallSites(callee.getBody().front());
      walking.erase(callee);
    }
    auto [site, firstVisit] = siteUse.try_emplace(call);
    if (firstVisit) {
      site->second.resize(call->getNumOperands());
      sitesInWalkOrder[callee].push_back(call);
    }
    for (unsigned i = 0; i < call->getNumOperands(); ++i) {
      auto it = valueUse.find(callee.getArgument(i));
      if (it == valueUse.end())
        continue;
      MeshSet &operandUse = site->second[i];
      if (operandUse.unionWith(it->second))
        addUse(call->getOperand(i), operandUse);
    }
    drain();
  }

  //===--- Insertion order ------------------------------------------------===//
  //
  // The analysis decides which meshes and origins a set has; the order they
  // print in is that of a backward walk: each value's set is the union of
  // what its uses contribute, in use-list order (for parsed IR, the last
  // user first). Entry points are walked from their last op up, a callee
  // at the first call site the analysis walked (after that call's results;
  // its results' sets take the sites in the order they were walked), a loop
  // body at its loop. A call site's operands contribute what the callee's
  // arguments had when the site was walked, in the order of the callee's
  // arguments. A contribution the walk has not reached yet (what the next
  // iteration of a loop body uses, the users of the results of call sites
  // after the one the callee is ordered at) keeps the order the analysis
  // gave it. One pass: O(E * M) for E uses and M meshes.

  /// Adds what the use `use` contributes to the use_set of the value it
  /// uses to `into`.
  void addContribution(OpOperand &use, MeshSet &into) {
    Operation *owner = use.getOwner();
    Operation *user = getAnalysisUser(use);
    if (!user)
      return;
    if (isMeshlessOp(user))
      return unionFrom(opUse, user, into);
    if (user != owner)
      return;
    unsigned i = use.getOperandNumber();
    if (auto assign = dyn_cast<AssignOp>(user)) {
      into.unionWith(getOwnMesh(assign, program.meshes));
      return;
    }
    if (auto call = dyn_cast<CallOp>(user)) {
      if (auto it = siteUse.find(call); it != siteUse.end())
        into.unionWith(it->second[i]);
      return;
    }
    if (auto loop = dyn_cast<ForOp>(user))
      return unionFrom(valueUse, loop.getRegion().front().getArgument(i), into);
    if (isa<ReturnOp>(user)) {
      if (auto loop = dyn_cast<ForOp>(user->getParentOp())) {
        unionFrom(valueUse, loop.getRegion().front().getArgument(i), into);
        unionFrom(valueUse, loop->getResult(i), into);
      }
      return;
    }
    if (isa<func::ReturnOp>(user)) {
      auto f = cast<func::FuncOp>(user->getParentOp());
      if (!program.isEntry(f))
        unionFrom(calleeResultUse, std::make_pair(f.getOperation(), i), into);
    }
  }

  template <typename Map, typename Key>
  static void unionFrom(const Map &map, const Key &key, MeshSet &into) {
    if (auto it = map.find(key); it != map.end())
      into.unionWith(it->second);
  }

  /// `set` in the order of `order` (meshes and origins of `set` that `order`
  /// lacks follow).
  static MeshSet inOrderOf(const MeshSet &order, const MeshSet &set) {
    MeshSet result;
    for (const MeshSet::Entry &entry : order.getEntries()) {
      const MeshSet::Entry *own = set.find(entry.mesh);
      if (!own)
        continue;
      result.insert(entry.mesh);
      for (StringAttr origin : entry.origins)
        if (llvm::is_contained(own->origins, origin))
          result.insert(entry.mesh, origin);
    }
    result.unionWith(set);
    return result;
  }

  /// Rebuilds the set of `value` in use-list order; whatever the analysis
  /// has beyond its uses (seeds) follows.
  void orderValue(Value value) {
    auto it = valueUse.find(value);
    if (it == valueUse.end())
      return; // No use contributes anything.
    MeshSet ordered;
    for (OpOperand &use : value.getUses())
      addContribution(use, ordered);
    ordered.unionWith(it->second);
    it->second = std::move(ordered);
  }

  void orderBlock(Block &block) {
    for (Operation &op : llvm::reverse(block))
      orderOp(&op);
    for (BlockArgument arg : block.getArguments())
      orderValue(arg);
  }

  void orderOp(Operation *op) {
    for (Value result : op->getResults())
      orderValue(result);
    if (auto loop = dyn_cast<ForOp>(op)) {
      orderBlock(loop.getRegion().front());
      return;
    }
    if (auto call = dyn_cast<CallOp>(op)) {
      orderCallSite(call);
      return;
    }
    auto it = opUse.find(op);
    if (it == opUse.end())
      return;
    MeshSet ordered;
    for (Value result : op->getResults())
      unionFrom(valueUse, result, ordered);
    ordered.unionWith(it->second);
    it->second = std::move(ordered);
  }

  void orderCallSite(CallOp call) {
    func::FuncOp callee = program.getCallee(call);
    if (!callee || callee.isExternal())
      return;
    if (orderedCallees.insert(callee).second) {
      SmallVector<CallOp> sites = sitesInWalkOrder.lookup(callee);
      for (unsigned j = 0; j < callee.getNumResults(); ++j) {
        MeshSet ordered;
        for (CallOp site : sites)
          unionFrom(valueUse, site->getResult(j), ordered);
        MeshSet &set = calleeResultUse[{callee, j}];
        ordered.unionWith(set);
        set = std::move(ordered);
      }
      orderBlock(callee.getBody().front());
    }
    auto site = siteUse.find(call);
    if (site == siteUse.end())
      return;
    for (auto [i, operandUse] : llvm::enumerate(site->second))
      if (auto it = valueUse.find(callee.getArgument(i)); it != valueUse.end())
        operandUse = inOrderOf(it->second, operandUse);
  }

  void order() {
    for (func::FuncOp f : program.functions)
      if (program.isEntry(f))
        orderBlock(f.getBody().front());
  }

  void write() {
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        if (auto loop = dyn_cast<ForOp>(&op)) {
          writeLoop(loop);
          continue;
        }
        // An assign is used where it puts its value; calls have no sets of
        // their own (their callee's arguments and results do).
        if (auto assign = dyn_cast<AssignOp>(&op)) {
          setOpUseSet(&op, getOwnMesh(assign, program.meshes), program.meshes);
          continue;
        }
        if (!hasInferredSets(&op) && !isa<UnassignOp>(op))
          continue;
        auto it = opUse.find(&op);
        setOpUseSet(&op, it == opUse.end() ? MeshSet() : it->second,
                    program.meshes);
      }
    });
    MLIRContext *ctx = program.module.getContext();
    for (func::FuncOp f : program.functions) {
      setArgAttrs(f, kUseSetAttr, [&](unsigned i) -> Attribute {
        auto it = valueUse.find(f.getArgument(i));
        if (it == valueUse.end() || it->second.empty())
          return {};
        return it->second.toAttr(ctx, program.meshes);
      });
      if (program.isEntry(f))
        continue;
      setResultAttrs(f, kUseSetAttr, [&](unsigned j) -> Attribute {
        auto it = calleeResultUse.find({f, j});
        if (it == calleeResultUse.end() || it->second.empty())
          return {};
        return it->second.toAttr(ctx, program.meshes);
      });
    }
  }

  /// A loop-carried value is used where its block argument and its result
  /// are.
  void writeLoop(ForOp loop) {
    MLIRContext *ctx = loop.getContext();
    Block &body = loop.getRegion().front();
    setArgAttrs(loop, kUseSetAttr, [&](unsigned i) -> Attribute {
      MeshSet use;
      Value carried[] = {body.getArgument(i), loop->getResult(i)};
      for (Value value : carried)
        if (auto it = valueUse.find(value); it != valueUse.end())
          use.unionWith(it->second);
      if (use.empty())
        return {};
      return use.toAttr(ctx, program.meshes);
    });
    loop->removeAttr(kUseSetAttr);
  }

  Program &program;
  DenseMap<Value, MeshSet> valueUse;
  DenseMap<Operation *, MeshSet> opUse;
  DenseMap<std::pair<Operation *, unsigned>, MeshSet> calleeResultUse;
  DenseMap<Operation *, SmallVector<Value>> inputCache;
  std::deque<Value> worklist;
  llvm::DenseSet<Value> inWorklist;
  /// Counts the growths of value sets: a walk that leaves it unchanged
  /// changed nothing.
  uint64_t growth = 0;
  /// Loops and callees with call sites inside.
  DenseSet<Operation *> hasCallSites;
  /// Callees being walked (a call graph with a cycle is walked once around).
  DenseSet<Operation *> walking;
  /// What each operand of a call site took from the callee's arguments.
  DenseMap<Operation *, SmallVector<MeshSet>> siteUse;
  /// Each callee's call sites in the order the walk first visited them.
  DenseMap<Operation *, SmallVector<CallOp>> sitesInWalkOrder;
  DenseSet<Operation *> orderedCallees;
};

//===----------------------------------------------------------------------===//
// src_set analysis
//===----------------------------------------------------------------------===//

/// A work item: an op (recompute its src_set) or the argument `index` of a
/// function or loop body.
struct Item {
  Operation *op;
  int index; // -1: the op itself.
  bool operator==(const Item &o) const {
    return op == o.op && index == o.index;
  }
};

} // namespace
} // namespace mlir::mpmd::infer

namespace llvm {
template <>
struct DenseMapInfo<mlir::mpmd::infer::Item> {
  using Item = mlir::mpmd::infer::Item;
  static Item getEmptyKey() {
    return {DenseMapInfo<mlir::Operation *>::getEmptyKey(), -2};
  }
  static Item getTombstoneKey() {
    return {DenseMapInfo<mlir::Operation *>::getTombstoneKey(), -2};
  }
  static unsigned getHashValue(const Item &item) {
    return hash_combine(item.op, item.index);
  }
  static bool isEqual(const Item &a, const Item &b) { return a == b; }
};
} // namespace llvm

namespace mlir::mpmd::infer {
namespace {

class SrcSetAnalysis {
public:
  explicit SrcSetAnalysis(Program &program) : program(program) {
    MLIRContext *ctx = program.module.getContext();
    transferLabel = StringAttr::get(ctx, kTransferOrigin);
    inferredInLabel = StringAttr::get(ctx, kInferredIn);
    broadcastLabel = StringAttr::get(ctx, kBroadcastIn);
  }

  void run() {
    // Seed in program order; a callee is seeded at its first call site so
    // that straight-line code is evaluated once.
    DenseSet<Operation *> seeded;
    std::function<void(Block &)> seedBlock = [&](Block &block) {
      for (Operation &op : block) {
        if (auto call = dyn_cast<CallOp>(&op)) {
          func::FuncOp callee = program.getCallee(call);
          if (callee && !callee.isExternal() &&
              seeded.insert(callee).second) {
            for (unsigned i = 0; i < callee.getNumArguments(); ++i)
              push({callee, static_cast<int>(i)});
            seedBlock(callee.getBody().front());
          }
          continue;
        }
        if (auto loop = dyn_cast<ForOp>(&op)) {
          for (unsigned i = 0; i < loop->getNumOperands(); ++i)
            push({loop, static_cast<int>(i)});
          seedBlock(loop.getRegion().front());
          continue;
        }
        if (hasInferredSets(&op) || isa<UnassignOp>(op))
          push({&op, -1});
      }
    };
    for (func::FuncOp f : program.functions) {
      if (!program.isEntry(f))
        continue;
      seeded.insert(f);
      for (unsigned i = 0; i < f.getNumArguments(); ++i)
        push({f, static_cast<int>(i)});
      seedBlock(f.getBody().front());
    }
    // Callees without call sites from an entry point.
    for (func::FuncOp f : program.functions) {
      if (!seeded.insert(f).second)
        continue;
      for (unsigned i = 0; i < f.getNumArguments(); ++i)
        push({f, static_cast<int>(i)});
      seedBlock(f.getBody().front());
    }
    SmallVector<Item> programOrder(worklist.begin(), worklist.end());
    while (!worklist.empty()) {
      Item item = worklist.front();
      worklist.pop_front();
      inWorklist.erase(item);
      process(item);
    }
    // The fixpoint decides the meshes and origins of each set; the order
    // they print in is that of one forward walk in program order (a callee
    // at its first call site), each set rebuilt from its inputs in operand
    // order. The walk only reorders: the contents are already stable.
    ordering = true;
    for (Item item : programOrder)
      process(item);
    ordering = false;
    write();
  }

private:
  void push(Item item) {
    if (inWorklist.insert(item).second)
      worklist.push_back(item);
  }

  SrcSet get(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto it = argSrc.find(v);
      return it == argSrc.end() ? SrcSet() : it->second;
    }
    Operation *def = v.getDefiningOp();
    unsigned j = cast<OpResult>(v).getResultNumber();
    if (auto call = dyn_cast<CallOp>(def)) {
      func::FuncOp callee = program.getCallee(call);
      if (!callee || callee.isExternal())
        return std::nullopt;
      return get(callee.getBody().front().getTerminator()->getOperand(j));
    }
    // A loop-carried value has one mesh: its result can be where its block
    // argument can.
    if (auto loop = dyn_cast<ForOp>(def))
      return get(loop.getRegion().front().getArgument(j));
    if (isa<MeshTensorType>(v.getType()))
      return std::nullopt; // Mesh tensors are only read through unassign.
    auto it = opSrc.find(def);
    return it == opSrc.end() ? SrcSet() : it->second;
  }

  /// Everything that reads the src_set of `v` is re-evaluated.
  void pushDependents(Value v) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = getAnalysisUser(use);
      if (!user)
        continue;
      if (auto call = dyn_cast<CallOp>(user)) {
        func::FuncOp callee = program.getCallee(call);
        if (callee && !callee.isExternal() && use.getOwner() == user)
          push({callee, static_cast<int>(use.getOperandNumber())});
        continue;
      }
      if (auto loop = dyn_cast<ForOp>(user)) {
        if (use.getOwner() == user)
          push({loop, static_cast<int>(use.getOperandNumber())});
        continue;
      }
      if (auto ret = dyn_cast<func::ReturnOp>(user)) {
        auto f = cast<func::FuncOp>(ret->getParentOp());
        if (program.isEntry(f))
          continue;
        for (CallOp call : program.getCallSites(f))
          pushDependents(call->getResult(use.getOperandNumber()));
        continue;
      }
      // What a loop body returns does not constrain where the loop-carried
      // value can be: src_sets only flow in from the loop operands.
      if (isa<ReturnOp>(user))
        continue;
      if (hasInferredSets(user))
        push({user, -1});
      // A reduce of a concatenation reads the concatenated values directly.
      if (isa<stablehlo::ConcatenateOp>(user) && user->hasOneUse()) {
        Operation *reduce = *user->getUsers().begin();
        if (matchConcatReduction(reduce))
          push({reduce, -1});
      }
    }
  }

  void setArg(Value arg, SrcSet set) {
    if (ordering) {
      if (auto it = argSrc.find(arg); it != argSrc.end())
        it->second = std::move(set);
      return;
    }
    auto [it, inserted] = argSrc.try_emplace(arg, set);
    if (!inserted) {
      if (it->second == set)
        return;
      it->second = std::move(set);
    } else if (!set) {
      return; // Unconstrained, as before.
    }
    pushDependents(arg);
    if (auto carried = getLoopCarried(arg))
      pushDependents(carried->first->getResult(carried->second));
  }

  void setOp(Operation *op, SrcSet set) {
    if (ordering) {
      if (auto it = opSrc.find(op); it != opSrc.end())
        it->second = std::move(set);
      return;
    }
    auto [it, inserted] = opSrc.try_emplace(op, set);
    if (!inserted) {
      if (it->second == set)
        return;
      it->second = std::move(set);
    } else if (!set) {
      return;
    }
    for (Value result : op->getResults())
      pushDependents(result);
  }

  void process(Item item) {
    if (auto f = dyn_cast<func::FuncOp>(item.op)) {
      BlockArgument arg = f.getArgument(item.index);
      if (isa<MeshTensorType>(arg.getType()))
        return;
      if (program.isEntry(f)) {
        MeshSet use = getArgUseSet(f, item.index, program.meshes);
        if (use.empty())
          return setArg(arg, std::nullopt);
        MeshSet src;
        for (const MeshSet::Entry &e : use.getEntries())
          src.insert(e.mesh, inferredInLabel);
        return setArg(arg, src);
      }
      SrcSet src;
      for (CallOp call : program.getCallSites(f))
        src = intersectSrc(src, get(call->getOperand(item.index)));
      return setArg(arg, src);
    }
    if (auto loop = dyn_cast<ForOp>(item.op))
      return setArg(loop.getRegion().front().getArgument(item.index),
                    get(loop->getOperand(item.index)));
    Operation *op = item.op;
    if (auto unassign = dyn_cast<UnassignOp>(op))
      return setOp(op, computeUnassign(unassign));
    if (isa<BroadcastOp>(op))
      return setOp(op, MeshSet::all(program.meshes, broadcastLabel));
    auto &inputs = inputCache[op];
    if (inputs.empty())
      inputs = getInputs(op);
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      MeshSet all;
      for (Value input : inputs) {
        SrcSet s = get(input);
        if (!s)
          return setOp(op, std::nullopt);
        all.unionWith(*s);
      }
      return setOp(op, all);
    }
    std::optional<ReductionType> kind = getReductionKind(op);
    // A reduce of a concatenation reduces the concatenated values.
    SmallVector<Value> concatenated;
    if (std::optional<ConcatReduction> match = matchConcatReduction(op)) {
      kind = match->kind;
      concatenated.assign(match->operands().begin(), match->operands().end());
    }
    ArrayRef<Value> reduced = concatenated.empty() ? ArrayRef<Value>(inputs)
                                                   : ArrayRef(concatenated);
    SrcSet meet;
    bool allNonEmpty = true;
    bool operandIsSameReduction = false;
    for (Value input : reduced) {
      SrcSet s = get(input);
      if (s && s->empty())
        allNonEmpty = false;
      if (kind)
        if (Operation *def = input.getDefiningOp())
          if (auto it = reductions.find(def);
              it != reductions.end() && it->second == *kind)
            operandIsSameReduction = true;
      meet = intersectSrc(meet, s);
    }
    if (kind && allNonEmpty &&
        ((meet && meet->empty()) || operandIsSameReduction ||
         reductions.contains(op))) {
      // The union of the constrained operands: an operand without a
      // src_set (a constant) can be computed anywhere and adds nothing.
      SrcSet all;
      for (Value input : reduced)
        if (SrcSet s = get(input)) {
          if (!all)
            all.emplace();
          all->unionWith(*s);
        }
      reductions[op] = *kind;
      return setOp(op, all);
    }
    reductions.erase(op);
    setOp(op, meet);
  }

  SrcSet computeUnassign(UnassignOp unassign) {
    Value source = unassign.getTensor();
    MeshSet src;
    if (std::optional<unsigned> mesh =
            program.meshes.lookup(getMeshName(source.getType()))) {
      src.insert(*mesh);
      if (StringAttr origin = unassign.getOriginAttr())
        src.insert(*mesh, origin);
    }
    for (Operation *user : source.getUsers())
      if (auto transfer = dyn_cast<TransferOp>(user))
        if (std::optional<unsigned> mesh = program.meshes.lookup(
                getMeshName(transfer.getResult().getType())))
          src.insert(*mesh, transferLabel);
    if (auto arg = dyn_cast<BlockArgument>(source)) {
      auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (f && program.isEntry(f)) {
        // Named: the entries live in the set (a temporary would die before
        // the loop body).
        MeshSet use = getOpUseSet(unassign, program.meshes);
        for (const MeshSet::Entry &e : use.getEntries())
          src.insert(e.mesh, inferredInLabel);
      }
    }
    return src;
  }

  void write() {
    MLIRContext *ctx = program.module.getContext();
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        if (auto loop = dyn_cast<ForOp>(&op)) {
          Block &body = loop.getRegion().front();
          setArgAttrs(loop, kSrcSetAttr, [&](unsigned i) -> Attribute {
            if (isa<MeshTensorType>(body.getArgument(i).getType()))
              return {};
            SrcSet s = get(body.getArgument(i));
            return s ? s->toAttr(ctx, program.meshes) : Attribute();
          });
          continue;
        }
        // An assign can be where its operand can: the validation checks
        // its own mesh against that like the use_set of a meshless op.
        if (auto assign = dyn_cast<AssignOp>(&op)) {
          setOpSrcSet(&op, get(assign.getTensor()), program.meshes);
          continue;
        }
        if (!hasInferredSets(&op) && !isa<UnassignOp>(op))
          continue;
        auto it = opSrc.find(&op);
        setOpSrcSet(&op, it == opSrc.end() ? SrcSet() : it->second,
                    program.meshes);
        auto red = reductions.find(&op);
        if (red != reductions.end())
          op.setAttr(kReduceAttr, ReductionTypeAttr::get(ctx, red->second));
        else
          op.removeAttr(kReduceAttr);
      }
    });
    for (func::FuncOp f : program.functions) {
      setArgAttrs(f, kSrcSetAttr, [&](unsigned i) -> Attribute {
        SrcSet s = get(f.getArgument(i));
        return s ? s->toAttr(ctx, program.meshes) : Attribute();
      });
      if (program.isEntry(f))
        continue;
      Operation *ret = f.getBody().front().getTerminator();
      setResultAttrs(f, kSrcSetAttr, [&](unsigned j) -> Attribute {
        SrcSet s = get(ret->getOperand(j));
        return s ? s->toAttr(ctx, program.meshes) : Attribute();
      });
    }
  }

  Program &program;
  /// Set during the final reordering walk: sets are replaced, nothing is
  /// re-evaluated.
  bool ordering = false;
  StringAttr transferLabel, inferredInLabel, broadcastLabel;
  DenseMap<Value, SrcSet> argSrc;
  DenseMap<Operation *, SrcSet> opSrc;
  DenseMap<Operation *, ReductionType> reductions;
  DenseMap<Operation *, SmallVector<Value>> inputCache;
  std::deque<Item> worklist;
  DenseSet<Item> inWorklist;
};

} // namespace

void populateUseSets(Program &program) { UseSetAnalysis(program).run(); }
void populateSrcSets(Program &program) { SrcSetAnalysis(program).run(); }

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<InFlightDiagnostic> ErrorReporter::emit(Location loc) {
  ++count;
  if (limit >= 0 && count > limit)
    return std::nullopt;
  return mlir::emitError(loc);
}

LogicalResult checkErrorLimit(Operation *op, int limit) {
  if (limit == 0 || limit < -1)
    return op->emitError("error-limit must be -1 (no limit) or positive, got ")
           << limit;
  return success();
}

std::optional<unsigned> pickMesh(const SrcSet &src, const MeshSet &preferred,
                                 const MeshIndex &index) {
  if (!src) {
    if (!preferred.empty())
      return preferred.meshes().front();
    if (index.size() == 0)
      return std::nullopt;
    return 0u;
  }
  if (src->empty())
    return std::nullopt;
  SmallVector<unsigned> candidates = src->meshes();
  for (unsigned mesh : candidates)
    if (preferred.contains(mesh))
      return mesh;
  for (unsigned mesh : candidates) {
    ArrayRef<StringAttr> origins = src->find(mesh)->origins;
    if (origins.empty() || llvm::any_of(origins, [](StringAttr o) {
          return o.getValue() != kBroadcastIn;
        }))
      return mesh;
  }
  return candidates.front();
}

Type getMeshType(Type type, StringRef mesh) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return MeshTensorType::get(type.getContext(), mesh, tensor);
  return type;
}

Value assignToMesh(OpBuilder &builder, Value input, StringRef mesh) {
  if (!isa<RankedTensorType>(input.getType()))
    return input;
  return AssignOp::create(builder, input.getLoc(),
                          getMeshType(input.getType(), mesh), input,
                          StringAttr());
}

StringRef getMeshName(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    return meshTensor.getMeshName();
  return {};
}

Type getLocalType(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    return meshTensor.getRankedTensorType();
  return type;
}

void retypeToMesh(Value value, Type meshType) {
  Type local = value.getType();
  value.setType(meshType);
  UnassignOp unassign;
  for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
    auto assign = dyn_cast<AssignOp>(use.getOwner());
    if (assign && assign.getType() == meshType) {
      assign.getResult().replaceAllUsesWith(value);
      assign->erase();
      continue;
    }
    if (!unassign) {
      OpBuilder builder(value.getContext());
      if (auto arg = dyn_cast<BlockArgument>(value))
        builder.setInsertionPointToStart(arg.getOwner());
      else
        builder.setInsertionPointAfter(value.getDefiningOp());
      unassign = UnassignOp::create(builder, value.getLoc(), local, value,
                                    StringAttr());
    }
    use.set(unassign.getResult());
  }
}

void describeInputs(InFlightDiagnostic &diag, Operation *op,
                    const Program &program) {
  for (auto [i, input] : llvm::enumerate(getInputs(op))) {
    diag << "\n  input " << i << " ";
    if (Operation *def = input.getDefiningOp())
      diag << "(" << def->getName() << ") ";
    else
      diag << "(block argument) ";
    diag << "can be on "
         << srcStr(getValueSrcSet(input, program), program.meshes);
  }
}

} // namespace mlir::mpmd::infer
