//===- InferMeshValidateNoAdditionalTransfersNeeded.cpp -------------------===//
//
// -mpmd-infer-mesh-validate-no-additional-transfers-needed
//
//===----------------------------------------------------------------------===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHVALIDATENOADDITIONALTRANSFERSNEEDEDPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

class InferMeshValidateNoAdditionalTransfersNeededPass
    : public impl::InferMeshValidateNoAdditionalTransfersNeededPassBase<
          InferMeshValidateNoAdditionalTransfersNeededPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkErrorLimit(getOperation(), errorLimit)))
      return signalPassFailure();
        std::vector<Program> units =
        Program::buildUnits(getOperation());
    ErrorReporter reporter(errorLimit);
    for (const Program &program : units)
      validate(program, reporter);
    if (reporter.hadError())
      signalPassFailure();
  }

  /// The use sets of a callee are the union over its call sites. When call
  /// k's result r is call k+1's operand a, r is copied to the meshes of its
  /// use set and a to those of its own: unless the two sets are equal, some
  /// copy of r has no matching copy of a (or the reverse), which would need
  /// a transfer. One error per (result, argument) pair, on the callee.
  void validateCallChains(const Program &program, func::FuncOp f,
                          ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    llvm::SmallDenseSet<std::pair<unsigned, unsigned>> reported;
    for (CallOp call : program.getCallSites(f)) {
      for (OpOperand &operand : call->getOpOperands()) {
        auto producer = operand.get().getDefiningOp<CallOp>();
        if (!producer || program.getCallee(producer) != f)
          continue;
        unsigned result = cast<OpResult>(operand.get()).getResultNumber();
        unsigned arg = operand.getOperandNumber();
        if (isa<MeshTensorType>(f.getArgument(arg).getType()))
          continue;
        MeshSet resultUse = getResultUseSet(f, result, meshes);
        MeshSet argUse = getArgUseSet(f, arg, meshes);
        if (resultUse.meshes() == argUse.meshes() ||
            !reported.insert({result, arg}).second)
          continue;
        if (auto diag = reporter.emit(f.getLoc())) {
          *diag << "Mesh assignment is not possible for mpmd.call \""
                << f.getSymName() << "\" as it passes result " << result
                << " (used in " << resultUse.str(meshes) << ") to arg " << arg
                << " (used in " << argUse.str(meshes)
                << ") but they have mismatching mesh assignments. Add an "
                   "explicit transfer to fix this, or set "
                   "`mpmd_infer_transfers=True`.";
        }
      }
    }
  }

  /// A loop-carried value has one mesh type (operand, block argument and
  /// result): it must be used on one mesh, where its operand can be.
  void validateLoop(ForOp loop, const MeshIndex &meshes,
                    ErrorReporter &reporter) {
    for (unsigned i = 0; i < loop->getNumOperands(); ++i) {
      if (isa<MeshTensorType>(loop->getOperand(i).getType()))
        continue;
      MeshSet use = getLoopUseSet(loop, i, meshes);
      SrcSet src = getLoopSrcSet(loop, i, meshes);
      bool available = !src || use.isSubsetOf(*src);
      if (use.size() <= 1 && available)
        continue;
      if (auto diag = reporter.emit(loop.getLoc())) {
        *diag << "Mesh assignment is not possible for loop-carried value " << i
              << " of mpmd.for as it is used in " << use.str(meshes);
        if (!available)
          *diag << " but its operand can only be on " << src->str(meshes);
        else
          *diag << " but a loop-carried value lives on a single mesh";
        *diag << ". Add an explicit transfer to fix this, or set "
                 "`mpmd_infer_transfers=True`.";
      }
    }
  }

  void validate(const Program &program, ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    for (func::FuncOp f : program.functions) {
      if (program.isEntry(f))
        continue;
      // A callee argument is copied onto every mesh it is used on, so it
      // is valid when its callers' operands can be on all of them.
      for (unsigned i = 0; i < f.getNumArguments(); ++i) {
        if (isa<MeshTensorType>(f.getArgument(i).getType()))
          continue;
        MeshSet use = getArgUseSet(f, i, meshes);
        SrcSet src = getArgSrcSet(f, i, meshes);
        if (!src || use.isSubsetOf(*src))
          continue;
        if (auto diag = reporter.emit(f.getArgument(i).getLoc())) {
          *diag << "Mesh assignment is not possible for arg " << i
                << " of mpmd.call \"" << f.getSymName() << "\" as it is used in "
                << use.str(meshes) << " but its caller operands can only be on "
                << src->str(meshes)
                << ". Add an explicit transfer to fix this, or set "
                   "`mpmd_infer_transfers=True`.";
        }
      }
      validateCallChains(program, f, reporter);
    }
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        if (auto loop = dyn_cast<ForOp>(&op)) {
          validateLoop(loop, meshes, reporter);
          continue;
        }
        // Assigns are checked like meshless ops: the mesh they put their
        // operand on must be one it can be on.
        if (!hasInferredSets(&op) && !isa<AssignOp>(op))
          continue;
        MeshSet use = getOpUseSet(&op, meshes);
        SrcSet src = getOpSrcSet(&op, meshes);
        // Empty src_sets are reported by validate-src-set-not-empty.
        if (!src || src->empty() || use.isSubsetOf(*src))
          continue;
        if (auto diag = reporter.emit(op.getLoc())) {
          *diag << "Mesh assignment is not possible for op as it is used in "
                << use.str(meshes) << " but it can only be placed on "
                << src->str(meshes)
                << " without introducing a transfer. Add an explicit "
                   "transfer to fix this, or set `mpmd_infer_transfers=True`.";
          describeInputs(*diag, &op, program);
        }
      }
    });
  }
};

} // namespace
} // namespace mlir::mpmd
