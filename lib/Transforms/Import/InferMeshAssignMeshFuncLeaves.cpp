//===- InferMeshAssignMeshFuncLeaves.cpp ----------------------------------===//
//
// -mpmd-infer-mesh-assign-mesh-func-leaves
//
//===----------------------------------------------------------------------===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHASSIGNMESHFUNCLEAVESPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

class InferMeshAssignMeshFuncLeavesPass
    : public impl::InferMeshAssignMeshFuncLeavesPassBase<
          InferMeshAssignMeshFuncLeavesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkErrorLimit(getOperation(), errorLimit)))
      return signalPassFailure();
        std::vector<Program> units =
        Program::buildUnits(getOperation());
    ErrorReporter reporter(errorLimit);
    for (const Program &program : units) {
      for (func::FuncOp f : program.functions) {
        if (program.isEntry(f))
          assignEntryLeaves(f, program, reporter);
        else
          assignCalleeLeaves(f, program, reporter);
        SmallVector<Block *> blocks;
        blocks.push_back(&f.getBody().front());
        f.walk(
            [&](ForOp loop) { blocks.push_back(&loop.getRegion().front()); });
        for (Block *block : blocks)
          assignBlockLeaves(*block, program, reporter);
      }
    }
    if (reporter.hadError())
      signalPassFailure();
  }

  /// The mesh for a value with src_set `src`, or the first mesh (with
  /// infer-transfers) / nullopt when there is none.
  std::optional<unsigned> choose(const SrcSet &src, const MeshSet &preferred,
                                 const MeshIndex &meshes) {
    std::optional<unsigned> mesh = pickMesh(src, preferred, meshes);
    if (!mesh && inferTransfers)
      return 0u;
    return mesh;
  }

  void assignEntryLeaves(func::FuncOp f, const Program &program,
                         ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    Block &body = f.getBody().front();
    for (BlockArgument arg : body.getArguments())
      if (isa<RankedTensorType>(arg.getType()) && arg.use_empty())
        arg.setType(getMeshType(arg.getType(), meshes.name(0)));
    Operation *ret = body.getTerminator();
    OpBuilder builder(ret);
    StringAttr origin = builder.getStringAttr(kInferredOut);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value value = operand.get();
      if (!isa<RankedTensorType>(value.getType()))
        continue;
      std::optional<unsigned> mesh =
          choose(getValueSrcSet(value, program),
                 getValueUseSet(value, program), meshes);
      if (!mesh) {
        if (auto diag = reporter.emit(value.getLoc()))
          *diag << "Func output " << operand.getOperandNumber()
                << " has no mesh to be assigned to. Its inputs are on "
                   "conflicting meshes; set `mpmd_infer_transfers=True` to "
                   "let mesh inference introduce transfers.";
        continue;
      }
      auto assign = AssignOp::create(
          builder, value.getLoc(),
          getMeshType(value.getType(), meshes.name(*mesh)), value, origin);
      operand.set(assign.getResult());
    }
    f.setType(FunctionType::get(f.getContext(), body.getArgumentTypes(),
                                ret->getOperandTypes()));
  }

  /// Callee arguments nobody uses, and callee results no caller uses, get
  /// a use_set of their own (a mesh from their src_set) so that the rewrite
  /// types them; an unused argument that can live nowhere is an error.
  void assignCalleeLeaves(func::FuncOp f, const Program &program,
                          ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    MLIRContext *ctx = f.getContext();
    setArgAttrs(f, kUseSetAttr, [&](unsigned i) -> Attribute {
      Attribute current = f.getArgAttr(i, kUseSetAttr);
      BlockArgument arg = f.getArgument(i);
      if (!isa<RankedTensorType>(arg.getType()) || !arg.use_empty())
        return current;
      std::optional<unsigned> mesh =
          choose(getArgSrcSet(f, i, meshes), {}, meshes);
      if (!mesh) {
        if (auto diag = reporter.emit(f.getLoc()))
          *diag << "Unused argument " << i << " of " << f.getSymName()
                << " has no mesh to be assigned to: its callers' operands "
                   "are on conflicting meshes.";
        return current;
      }
      MeshSet use;
      use.insert(*mesh, StringAttr::get(ctx, kInferredUnusedCalleeIn));
      return use.toAttr(ctx, meshes);
    });
    ArrayRef<CallOp> calls = program.getCallSites(f);
    setResultAttrs(f, kUseSetAttr, [&](unsigned j) -> Attribute {
      Attribute current = f.getResultAttr(j, kUseSetAttr);
      bool usedByACaller = llvm::any_of(
          calls, [&](CallOp call) { return !call->getResult(j).use_empty(); });
      if (!isa<RankedTensorType>(f.getResultTypes()[j]) || usedByACaller)
        return current;
      std::optional<unsigned> mesh =
          choose(getResultSrcSet(f, j, meshes), {}, meshes);
      MeshSet use;
      use.insert(mesh.value_or(0),
                 StringAttr::get(ctx, kInferredUnusedCalleeOut));
      return use.toAttr(ctx, meshes);
    });
  }

  void reportConflict(Operation *op, const Program &program,
                      ErrorReporter &reporter) {
    if (auto diag = reporter.emit(op->getLoc())) {
      *diag << "Mesh assignment is not possible for op as its operands are "
               "on conflicting meshes. "
            << kConflictHint;
      describeInputs(*diag, op, program);
    }
  }

  void assignBlockLeaves(Block &block, const Program &program,
                         ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<BroadcastOp, ReduceOp>(op)) {
        MeshSet preferred = getOpUseSet(&op, meshes);
        StringAttr origin = StringAttr::get(
            op.getContext(),
            isa<BroadcastOp>(op) ? kBroadcastOrigin : kReduceOrigin);
        for (OpOperand &operand : op.getOpOperands()) {
          Value value = operand.get();
          if (value.getDefiningOp<UnassignOp>())
            continue;
          std::optional<unsigned> mesh =
              choose(getValueSrcSet(value, program), preferred, meshes);
          if (!mesh) {
            if (Operation *def = value.getDefiningOp())
              reportConflict(def, program, reporter);
            continue;
          }
          OpBuilder builder(&op);
          auto assign = AssignOp::create(
              builder, value.getLoc(),
              getMeshType(value.getType(), meshes.name(*mesh)), value,
              origin);
          auto unassign = UnassignOp::create(builder, value.getLoc(),
                                             assign.getResult(), StringAttr());
          operand.set(unassign.getResult());
        }
        continue;
      }
      if (!isMeshlessOp(&op))
        continue;
      // Handled here: the use_sets of meshless ops are recomputed after
      // leaf assignment.
      op.removeAttr(kUseSetAttr);
      bool hasTensorResult = llvm::any_of(op.getResultTypes(), [](Type t) {
        return isa<RankedTensorType>(t);
      });
      SrcSet src = getOpSrcSet(&op, meshes);
      if (!hasTensorResult) {
        wrapResultless(&op, src, program, reporter);
        continue;
      }
      if (!op.use_empty())
        continue;
      std::optional<unsigned> mesh = choose(src, {}, meshes);
      if (!mesh) {
        reportConflict(&op, program, reporter);
        continue;
      }
      OpBuilder builder(op.getContext());
      builder.setInsertionPointAfter(&op);
      StringAttr origin = builder.getStringAttr(kInferredUnused);
      for (Value result : op.getResults())
        if (isa<RankedTensorType>(result.getType()))
          AssignOp::create(builder, result.getLoc(),
                           getMeshType(result.getType(), meshes.name(*mesh)),
                           result, origin);
    }
  }

  /// Ops without tensor results are wrapped where their inputs live: once
  /// when pure, once per src mesh otherwise (e.g. sdy.sharding_group).
  void wrapResultless(Operation *op, const SrcSet &src, const Program &program,
                      ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    SmallVector<unsigned> targets;
    if (isPure(op)) {
      if (std::optional<unsigned> mesh = choose(src, {}, meshes))
        targets.push_back(*mesh);
    } else if (!src) {
      for (unsigned m = 0; m < meshes.size(); ++m)
        targets.push_back(m);
    } else {
      targets = src->meshes();
      if (targets.empty() && inferTransfers)
        targets.push_back(0);
    }
    if (targets.empty()) {
      reportConflict(op, program, reporter);
      return;
    }
    SmallVector<Value> inputs = getInputs(op);
    OpBuilder builder(op);
    SmallVector<Value> replacements;
    for (unsigned mesh : targets) {
      StringRef name = meshes.name(mesh);
      SmallVector<Value> operands;
      for (Value input : inputs)
        operands.push_back(assignToMesh(builder, input, name));
      FragmentOp fragment = createFragment(
          builder, op->getLoc(), name, builder.getArrayAttr({}), operands,
          op->getResultTypes(), [&](OpBuilder &b, ValueRange args) {
            IRMapping mapping;
            mapping.map(inputs, args);
            Operation *clone = b.clone(*op, mapping);
            return SmallVector<Value>(clone->getResults());
          });
      addInferredBy(fragment, kWrapResultlessOps);
      if (replacements.empty())
        replacements = SmallVector<Value>(fragment.getResults());
    }
    op->replaceAllUsesWith(replacements);
    op->erase();
  }
};

} // namespace
} // namespace mlir::mpmd
