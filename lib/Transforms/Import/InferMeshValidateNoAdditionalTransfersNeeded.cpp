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

  void validate(const Program &program, ErrorReporter &reporter) {
    const MeshIndex &meshes = program.meshes;
    for (func::FuncOp f : program.functions) {
      if (program.isEntry(f))
        continue;
      for (unsigned i = 0; i < f.getNumArguments(); ++i) {
        if (isa<MeshTensorType>(f.getArgument(i).getType()))
          continue;
        MeshSet use = getArgUseSet(f, i, meshes);
        SrcSet src = getArgSrcSet(f, i, meshes);
        bool notAvailable = src && !use.isSubsetOf(*src);
        if (use.size() <= 1 && !notAvailable)
          continue;
        if (auto diag = reporter.emit(f.getArgument(i).getLoc())) {
          *diag << "Mesh assignment is not possible for arg " << i
                << " of mpmd.call \"" << f.getSymName() << "\" as it is used in "
                << use.str(meshes) << " but its caller operands can only be on "
                << srcStr(src, meshes)
                << " and a callee argument lives on a single mesh. Add an "
                   "explicit transfer to fix this, or set "
                   "`mpmd_infer_transfers=True`.";
        }
      }
    }
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        if (!hasInferredSets(&op))
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
