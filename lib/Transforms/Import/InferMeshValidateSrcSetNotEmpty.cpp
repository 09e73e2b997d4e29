//===- InferMeshValidateSrcSetNotEmpty.cpp --------------------------------===//
//
// -mpmd-infer-mesh-validate-src-set-not-empty
//
//===----------------------------------------------------------------------===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHVALIDATESRCSETNOTEMPTYPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

class InferMeshValidateSrcSetNotEmptyPass
    : public impl::InferMeshValidateSrcSetNotEmptyPassBase<
          InferMeshValidateSrcSetNotEmptyPass> {
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
    auto isEmpty = [](const SrcSet &s) { return s && s->empty(); };
    for (func::FuncOp f : program.functions) {
      if (program.isEntry(f))
        continue;
      for (unsigned i = 0; i < f.getNumArguments(); ++i) {
        SrcSet src = getArgSrcSet(f, i, program.meshes);
        if (!isEmpty(src))
          continue;
        if (auto diag = reporter.emit(f.getArgument(i).getLoc())) {
          *diag << "Mesh assignment is not possible for arg " << i
                << " of mpmd.call \"" << f.getSymName()
                << "\" as its caller operands are on conflicting meshes. "
                << kConflictHint;
          for (CallOp call : program.getCallSites(f))
            *diag << "\n  call at " << call.getLoc() << " passes a value on "
                  << srcStr(getValueSrcSet(call->getOperand(i), program),
                            program.meshes);
        }
      }
    }
    SmallVector<Operation *> conflicts;
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        if (!hasInferredSets(&op) || !isEmpty(getOpSrcSet(&op, program.meshes)))
          continue;
        // Only report where the conflict arises, not everything downstream.
        if (llvm::any_of(getInputs(&op), [&](Value input) {
              return isEmpty(getValueSrcSet(input, program));
            }))
          continue;
        conflicts.push_back(&op);
      }
    });
    // Latest first, as upstream's walk: under an error limit the conflicts
    // reported are the last ones of the program.
    for (Operation *op : llvm::reverse(conflicts)) {
      if (auto diag = reporter.emit(op->getLoc())) {
        *diag << "Mesh assignment is not possible for op as its operands "
                 "are on conflicting meshes. "
              << kConflictHint;
        describeInputs(*diag, op, program);
      }
    }
  }
};

} // namespace
} // namespace mlir::mpmd
