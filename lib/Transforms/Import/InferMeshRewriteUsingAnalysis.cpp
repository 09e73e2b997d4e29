//===- InferMeshRewriteUsingAnalysis.cpp ----------------------------------===//
//
// -mpmd-infer-mesh-rewrite-using-analysis
//
//===----------------------------------------------------------------------===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHREWRITEUSINGANALYSISPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

/// `op` cloned into a fragment body. The analysis sets describe meshless ops
/// of the function; inside a fragment the op has its mesh, and upstream's
/// rewrite leaves no set on it.
Operation *cloneWithoutAnalysisSets(OpBuilder &builder, Operation &op,
                                    IRMapping &mapping) {
  Operation *clone = builder.clone(op, mapping);
  clone->removeAttr(kUseSetAttr);
  clone->removeAttr(kSrcSetAttr);
  return clone;
}

/// Pure, one result, at most one operand, no regions: cheap to duplicate.
bool isTrivial(Operation *op) {
  return op->getNumOperands() <= 1 && op->getNumResults() == 1 &&
         op->getNumRegions() == 0 && isPure(op);
}

class Rewriter {
public:
  Rewriter(Program &program, int maxClones)
      : program(program), maxClones(maxClones) {}

  LogicalResult run() {
    for (func::FuncOp f : program.functions)
      if (!program.isEntry(f) && failed(rewriteCallee(f)))
        return failure();
    for (func::FuncOp f : program.functions)
      if (program.isEntry(f) && failed(rewriteBlock(f.getBody().front())))
        return failure();
    return success();
  }

private:
  /// How a callee's signature changed: the old argument each new argument
  /// copies, and for every old result its (new index, mesh) copies, the
  /// first of which keeps the old position.
  struct CalleeSignature {
    SmallVector<unsigned> argSources;
    SmallVector<SmallVector<std::pair<unsigned, StringRef>>> results;
  };

  /// Each tensor result and argument of the callee gets one mesh type per
  /// mesh it is needed on. The first mesh (in mesh-name order) keeps the
  /// original position; each further one is a copy appended after all
  /// existing results (arguments), and the original records the positions
  /// of its copies in an `mpmd.copies` result (argument) attribute.
  LogicalResult rewriteCallee(func::FuncOp f) {
    const MeshIndex &meshes = program.meshes;
    MLIRContext *ctx = f.getContext();
    Block &body = f.getBody().front();
    Operation *ret = body.getTerminator();
    CalleeSignature &signature = signatures[f];
    unsigned numResults = ret->getNumOperands();
    SmallVector<Value> returned(numResults);
    SmallVector<Value> resultCopies;
    SmallVector<DictionaryAttr> resultAttrs;
    for (unsigned j = 0; j < numResults; ++j)
      resultAttrs.push_back(f.getResultAttrDict(j)
                                ? f.getResultAttrDict(j)
                                : DictionaryAttr::get(ctx));
    OpBuilder builder(ret);
    for (unsigned j = 0; j < numResults; ++j) {
      Value value = ret->getOperand(j);
      auto &entry = signature.results.emplace_back();
      if (!isa<RankedTensorType>(value.getType())) {
        entry.push_back({j, getMeshName(value.getType())});
        returned[j] = value;
        continue;
      }
      SmallVector<unsigned> targets =
          getResultUseSet(f, j, meshes).meshes();
      if (targets.empty())
        targets.push_back(0);
      SmallVector<int64_t> copyPositions;
      for (auto [k, mesh] : llvm::enumerate(targets)) {
        StringRef name = meshes.name(mesh);
        Value assign =
            AssignOp::create(builder, value.getLoc(),
                             getMeshType(value.getType(), name), value,
                             StringAttr());
        if (k == 0) {
          entry.push_back({j, name});
          returned[j] = assign;
          continue;
        }
        unsigned position = numResults + resultCopies.size();
        entry.push_back({position, name});
        copyPositions.push_back(position);
        resultCopies.push_back(assign);
      }
      if (!copyPositions.empty())
        resultAttrs[j] = withCopies(resultAttrs[j], copyPositions);
    }
    returned.append(resultCopies);
    resultAttrs.append(resultCopies.size(), DictionaryAttr::get(ctx));
    ret->setOperands(returned);
    if (failed(rewriteBlock(body)))
      return failure();

    unsigned numArgs = body.getNumArguments();
    SmallVector<DictionaryAttr> argAttrs;
    for (unsigned i = 0; i < numArgs; ++i) {
      argAttrs.push_back(f.getArgAttrDict(i) ? f.getArgAttrDict(i)
                                             : DictionaryAttr::get(ctx));
      signature.argSources.push_back(i);
    }
    for (unsigned i = 0; i < numArgs; ++i) {
      BlockArgument arg = body.getArgument(i);
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      // The meshes the assigns in the callee need the argument on.
      SmallVector<unsigned> targets;
      for (Operation *user : arg.getUsers())
        if (auto assign = dyn_cast<AssignOp>(user))
          if (std::optional<unsigned> mesh =
                  meshes.lookup(getMeshName(assign.getType())))
            if (!llvm::is_contained(targets, *mesh))
              targets.push_back(*mesh);
      llvm::sort(targets);
      if (targets.size() == 1) {
        retypeToMesh(
            arg, getMeshType(arg.getType(), meshes.name(targets.front())));
        continue;
      }
      if (targets.empty()) {
        // Unused in the callee: the mesh of the use_set leaf assignment
        // gave it, or one its callers' operands can be on.
        MeshSet use = getArgUseSet(f, i, meshes);
        SrcSet src = getArgSrcSet(f, i, meshes);
        std::optional<unsigned> mesh = pickMesh(src, use, meshes);
        if (!use.empty() && (!mesh || !use.contains(*mesh)))
          mesh = use.meshes().front();
        retypeToMesh(
            arg, getMeshType(arg.getType(), meshes.name(mesh.value_or(0))));
        continue;
      }
      // One copy per further mesh; its assigns read it through an
      // unassign, which finalize folds away.
      SmallVector<int64_t> copyPositions;
      for (unsigned mesh : llvm::drop_begin(targets)) {
        StringRef name = meshes.name(mesh);
        copyPositions.push_back(body.getNumArguments());
        BlockArgument copy = body.addArgument(
            getMeshType(arg.getType(), name), arg.getLoc());
        argAttrs.push_back(DictionaryAttr::get(ctx));
        signature.argSources.push_back(i);
        OpBuilder atStart = OpBuilder::atBlockBegin(&body);
        auto unassign = UnassignOp::create(atStart, arg.getLoc(),
                                           arg.getType(), copy, StringAttr());
        for (OpOperand &use : llvm::make_early_inc_range(arg.getUses()))
          if (auto assign = dyn_cast<AssignOp>(use.getOwner()))
            if (getMeshName(assign.getType()) == name)
              use.set(unassign.getResult());
      }
      argAttrs[i] = withCopies(argAttrs[i], copyPositions);
      retypeToMesh(
          arg, getMeshType(arg.getType(), meshes.name(targets.front())));
    }
    f.setType(FunctionType::get(ctx, body.getArgumentTypes(),
                                ret->getOperandTypes()));
    f.setAllArgAttrs(argAttrs);
    f.setAllResultAttrs(resultAttrs);
    return success();
  }

  static DictionaryAttr withCopies(DictionaryAttr attrs,
                                   ArrayRef<int64_t> positions) {
    NamedAttrList list(attrs);
    Builder builder(attrs.getContext());
    list.set(kCopiesAttr, builder.getI64ArrayAttr(positions));
    return list.getDictionary(attrs.getContext());
  }

  LogicalResult rewriteBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      if (auto call = dyn_cast<CallOp>(&op)) {
        rewriteCall(call);
        continue;
      }
      if (auto loop = dyn_cast<ForOp>(&op)) {
        if (failed(rewriteLoop(loop)))
          return failure();
        continue;
      }
      if (isMeshlessOp(&op))
        rewriteOp(&op);
    }
    return success();
  }

  /// A loop-carried value gets one mesh type, shared by its operand, block
  /// argument and result: a mesh of its use_set it can be on (its src_set),
  /// as for any value. What the body returns is assigned to it before the
  /// body is rewritten; the index stays a local tensor, assigned onto the
  /// mesh of each of its consumers.
  LogicalResult rewriteLoop(ForOp loop) {
    Block &body = loop.getRegion().front();
    if (loop->getNumOperands() == 0 ||
        isa<MeshTensorType>(loop->getOperand(0).getType()))
      return rewriteBlock(body);
    const MeshIndex &meshes = program.meshes;
    SmallVector<Type> meshTypes;
    for (unsigned i = 0; i < loop->getNumOperands(); ++i) {
      MeshSet use = getLoopUseSet(loop, i, meshes);
      std::optional<unsigned> mesh =
          pickMesh(getLoopSrcSet(loop, i, meshes), use, meshes);
      if (!use.empty() && (!mesh || !use.contains(*mesh)))
        mesh = use.meshes().front();
      meshTypes.push_back(getMeshType(loop->getOperand(i).getType(),
                                      meshes.name(mesh.value_or(0))));
    }
    Operation *ret = body.getTerminator();
    OpBuilder builder(ret);
    for (OpOperand &returned : ret->getOpOperands())
      returned.set(AssignOp::create(builder, returned.get().getLoc(),
                                    meshTypes[returned.getOperandNumber()],
                                    returned.get(), StringAttr()));
    if (failed(rewriteBlock(body)))
      return failure();
    builder.setInsertionPoint(loop);
    for (auto [i, meshType] : llvm::enumerate(meshTypes)) {
      retypeToMesh(body.getArgument(i), meshType);
      retypeToMesh(loop->getResult(i), meshType);
      OpOperand &operand = loop->getOpOperand(i);
      Value local = operand.get();
      if (local.getType() == meshType)
        continue;
      if (isa<MeshTensorType>(local.getType()))
        local = UnassignOp::create(builder, loop.getLoc(), local, StringAttr());
      operand.set(AssignOp::create(builder, loop.getLoc(), meshType, local,
                                   StringAttr()));
    }
    return success();
  }

  void rewriteCall(CallOp call) {
    func::FuncOp callee = program.getCallee(call);
    auto it = signatures.find(callee);
    if (!callee || it == signatures.end())
      return;
    const CalleeSignature &signature = it->second;
    OpBuilder builder(call);
    // One operand per callee argument: a copy of argument i takes the
    // caller's operand i onto the copy's mesh.
    SmallVector<Value> operands;
    for (auto [source, argType] :
         llvm::zip(signature.argSources, callee.getArgumentTypes())) {
      Value operand = call->getOperand(source);
      if (operand.getType() == argType) {
        operands.push_back(operand);
        continue;
      }
      Value local = operand;
      if (isa<MeshTensorType>(local.getType()))
        local = UnassignOp::create(builder, call.getLoc(), local, StringAttr());
      operands.push_back(
          AssignOp::create(builder, call.getLoc(), argType, local, StringAttr()));
    }
    auto newCall = CallOp::create(
        builder, call.getLoc(), callee.getResultTypes(), call.getCalleeAttr(),
        operands, extendAttrs(call.getArgAttrsAttr(), operands.size()),
        extendAttrs(call.getResAttrsAttr(), callee.getNumResults()));
    for (NamedAttribute attr : call->getDiscardableAttrs())
      newCall->setAttr(attr.getName(), attr.getValue());
    builder.setInsertionPointAfter(newCall);
    for (auto [j, result] : llvm::enumerate(call->getResults())) {
      const auto &entries = signature.results[j];
      // A result the callee already returned on a mesh keeps its type, so
      // its users (unassigns, fragments, the return, other calls) take the
      // new result as they are.
      if (isa<MeshTensorType>(result.getType())) {
        result.replaceAllUsesWith(newCall->getResult(entries.front().first));
        continue;
      }
      UnassignOp unassign;
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        auto assign = dyn_cast<AssignOp>(use.getOwner());
        if (assign) {
          auto match = llvm::find_if(entries, [&](const auto &e) {
            return newCall->getResult(e.first).getType() == assign.getType();
          });
          if (match != entries.end()) {
            assign.getResult().replaceAllUsesWith(
                newCall->getResult(match->first));
            assign->erase();
            continue;
          }
        }
        Value first = newCall->getResult(entries.front().first);
        if (!isa<MeshTensorType>(first.getType())) {
          use.set(first);
          continue;
        }
        if (!unassign)
          unassign = UnassignOp::create(builder, call.getLoc(), first,
                                        StringAttr());
        use.set(unassign.getResult());
      }
    }
    call->erase();
  }

  /// Moves (clones) `op` into `fragment`: the fragment operands that are
  /// assigns of op's results are replaced by the clone's results, and op's
  /// inputs become fragment operands.
  void absorbInto(Operation *op, FragmentOp fragment) {
    StringRef mesh = fragment.getMeshName();
    Block &body = fragment.getRegion().front();
    OpBuilder builder(fragment);
    IRMapping mapping;
    for (Value input : getInputs(op)) {
      Type meshType = getMeshType(input.getType(), mesh);
      bool isTensor = isa<RankedTensorType>(input.getType());
      // Reuse an existing operand that assigns the same value (or is the
      // same token).
      BlockArgument arg;
      for (OpOperand &operand : fragment->getOpOperands()) {
        auto assign = operand.get().getDefiningOp<AssignOp>();
        if (isTensor ? assign && assign.getTensor() == input &&
                           assign.getType() == meshType
                     : operand.get() == input) {
          arg = body.getArgument(operand.getOperandNumber());
          break;
        }
      }
      if (!arg) {
        fragment->insertOperands(fragment->getNumOperands(),
                                 assignToMesh(builder, input, mesh));
        arg = body.addArgument(input.getType(), input.getLoc());
      }
      mapping.map(input, arg);
    }
    OpBuilder inner = OpBuilder::atBlockBegin(&body);
    Operation *clone = cloneWithoutAnalysisSets(inner, *op, mapping);
    // The assigns of op's results that fed the fragment are left for the
    // caller to erase once no other consumer uses them: it still holds them.
    for (int k = fragment->getNumOperands() - 1; k >= 0; --k) {
      auto assign = fragment->getOperand(k).getDefiningOp<AssignOp>();
      if (!assign)
        continue;
      auto result = dyn_cast<OpResult>(assign.getTensor());
      if (!result || result.getOwner() != op)
        continue;
      body.getArgument(k).replaceAllUsesWith(
          clone->getResult(result.getResultNumber()));
      fragment->eraseOperand(k);
      body.eraseArgument(k);
    }
  }

  void rewriteOp(Operation *op) {
    SmallVector<AssignOp> assigns;
    llvm::SetVector<Operation *> consumers;
    bool hasNonFragmentConsumer = false;
    // Token results are never assigned: their users take them from the
    // fragment that computes the op's tensor results.
    bool hasUsedToken = false;
    for (OpOperand &use : op->getUses()) {
      Operation *user = use.getOwner();
      if (!isa<RankedTensorType>(use.get().getType())) {
        hasUsedToken = true;
        continue;
      }
      auto assign = dyn_cast<AssignOp>(user);
      if (!assign) {
        // Left for finalize to report.
        return;
      }
      if (!llvm::is_contained(assigns, assign))
        assigns.push_back(assign);
      for (Operation *consumer : assign->getUsers()) {
        consumers.insert(consumer);
        if (!isa<FragmentOp>(consumer))
          hasNonFragmentConsumer = true;
      }
    }
    if (assigns.empty()) {
      if (isOpTriviallyDead(op))
        op->erase();
      return;
    }
    if (!hasNonFragmentConsumer && !hasUsedToken && !consumers.empty()) {
      bool clone = consumers.size() == 1 ||
                   static_cast<int>(consumers.size()) <= maxClones ||
                   op->getNumOperands() == 0 || isTrivial(op);
      if (clone) {
        for (Operation *consumer : consumers)
          absorbInto(op, cast<FragmentOp>(consumer));
        for (AssignOp assign : assigns)
          if (assign->use_empty())
            assign->erase();
        if (op->use_empty()) {
          op->erase();
          return;
        }
        // Some assign still used (e.g. twice by a fragment): fall through.
        assigns.clear();
        for (Operation *user : op->getUsers())
          if (!llvm::is_contained(assigns, cast<AssignOp>(user)))
            assigns.push_back(cast<AssignOp>(user));
      }
    }
    wrap(op, assigns);
  }

  /// One inferred fragment per destination mesh, in mesh order.
  void wrap(Operation *op, ArrayRef<AssignOp> assigns) {
    const MeshIndex &meshes = program.meshes;
    SmallVector<unsigned> targets;
    for (AssignOp assign : assigns) {
      std::optional<unsigned> mesh =
          meshes.lookup(getMeshName(assign.getType()));
      if (mesh && !llvm::is_contained(targets, *mesh))
        targets.push_back(*mesh);
    }
    llvm::sort(targets);
    SmallVector<Value> inputs = getInputs(op);
    OpBuilder builder(op);
    for (unsigned mesh : targets) {
      StringRef name = meshes.name(mesh);
      // The tensor results assigned to this mesh; the used tokens come out
      // of the first fragment.
      SmallVector<unsigned> needed;
      for (OpResult result : op->getResults())
        if (isa<RankedTensorType>(result.getType())
                ? llvm::any_of(result.getUsers(),
                               [&](Operation *user) {
                                 return getMeshName(
                                            cast<AssignOp>(user).getType()) ==
                                        name;
                               })
                : mesh == targets.front() && !result.use_empty())
          needed.push_back(result.getResultNumber());
      SmallVector<Value> operands;
      for (Value input : inputs)
        operands.push_back(assignToMesh(builder, input, name));
      SmallVector<Type> resultTypes = llvm::map_to_vector(needed, [&](unsigned r) {
        return getMeshType(op->getResult(r).getType(), name);
      });
      FragmentOp fragment = createFragment(
          builder, op->getLoc(), name, builder.getArrayAttr({}), operands,
          resultTypes, [&](OpBuilder &b, ValueRange args) {
            IRMapping mapping;
            mapping.map(inputs, args);
            Operation *clone = cloneWithoutAnalysisSets(b, *op, mapping);
            SmallVector<Value> returned;
            for (unsigned r : needed)
              returned.push_back(clone->getResult(r));
            return returned;
          });
      addInferredBy(fragment, kWrapMeshlessOps);
      for (auto [k, r] : llvm::enumerate(needed)) {
        if (!isa<RankedTensorType>(op->getResult(r).getType())) {
          op->getResult(r).replaceAllUsesWith(fragment->getResult(k));
          continue;
        }
        for (Operation *user :
             llvm::make_early_inc_range(op->getResult(r).getUsers())) {
          auto assign = cast<AssignOp>(user);
          if (getMeshName(assign.getType()) != name)
            continue;
          if (assign.getType() == fragment->getResult(k).getType()) {
            assign.getResult().replaceAllUsesWith(fragment->getResult(k));
            assign->erase();
          } else {
            // Another memory kind or sharding: keep the assign, finalize
            // turns assign(unassign) into a transfer.
            OpBuilder after(assign);
            assign.getTensorMutable().set(UnassignOp::create(
                after, assign.getLoc(), fragment->getResult(k), StringAttr()));
          }
        }
      }
    }
    if (op->use_empty())
      op->erase();
  }

  /// `attrs` padded with empty dictionaries to `size` entries (null stays
  /// null).
  static ArrayAttr extendAttrs(ArrayAttr attrs, unsigned size) {
    if (!attrs || attrs.size() >= size)
      return attrs;
    SmallVector<Attribute> padded(attrs.begin(), attrs.end());
    padded.append(size - attrs.size(), DictionaryAttr::get(attrs.getContext()));
    return ArrayAttr::get(attrs.getContext(), padded);
  }

  Program &program;
  int maxClones;
  DenseMap<Operation *, CalleeSignature> signatures;
};

class InferMeshRewriteUsingAnalysisPass
    : public impl::InferMeshRewriteUsingAnalysisPassBase<
          InferMeshRewriteUsingAnalysisPass> {
  using Base::Base;

  void runOnOperation() override {
        std::vector<Program> units =
        Program::buildUnits(getOperation());
    for (Program &unit : units)
      if (failed(Rewriter(unit, maxClones).run()))
        signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
