//===- ValidateNoInferredFragments.cpp - -mpmd-validate-no-inferred-fragments ===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_VALIDATENOINFERREDFRAGMENTSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// Passes whose inferred fragments may legitimately survive merging (copies
/// of outputs, ops no user fragment consumes, reshards, cross-mesh
/// reductions): they only get a warning.
constexpr StringLiteral kWarnOnlyCreators[] = {
    "uniquify",
    "infer_mesh_wrap_meshless_ops",
    "infer_mesh_wrap_resultless_ops",
    "infer_mesh_convert_reduce_ops",
    "extract_reshards",
    "introduce_transfers"};

bool isWarnOnlyCreator(StringRef name) {
  return llvm::is_contained(kWarnOnlyCreators, name);
}

class ValidateNoInferredFragmentsPass
    : public impl::ValidateNoInferredFragmentsPassBase<
          ValidateNoInferredFragmentsPass> {
  using ValidateNoInferredFragmentsPassBase::
      ValidateNoInferredFragmentsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    bool failed = false;
    function.walk([&](FragmentOp fragment) {
      if (fragment.isUserFragment())
        return;
      SmallVector<StringRef> creators = getInferredBy(fragment);
      if (creators.empty()) {
        fragment.emitError()
            << "inferred fragment without mpmd.inferred_by: this is an "
               "internal error, every pass that creates an inferred fragment "
               "must record itself there";
        failed = true;
        return;
      }
      bool warnOnly = llvm::all_of(creators, isWarnOnlyCreator);
      InFlightDiagnostic diagnostic = warnOnly || !failOnInferredFragments
                                          ? fragment.emitWarning()
                                          : fragment.emitError();
      diagnostic << "inferred fragment created by "
                 << llvm::join(creators, ", ")
                 << " was not merged into a user fragment; it will be "
                    "compiled as a program of its own";
      failed |= !warnOnly && failOnInferredFragments;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
