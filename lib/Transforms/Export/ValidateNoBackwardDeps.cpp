//===- ValidateNoBackwardDeps.cpp - -mpmd-validate-no-backward-deps -------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_VALIDATENOBACKWARDDEPSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// The fragment call `value` comes from, looking through transfers, or null.
FragmentCallOp getProducingCall(Value value) {
  while (auto transfer = value.getDefiningOp<TransferOp>())
    value = transfer.getTensor();
  return value.getDefiningOp<FragmentCallOp>();
}

bool isForwardOnly(FragmentCallOp call) {
  return llvm::all_of(call.getOrigin(), [](Attribute origin) {
    return cast<UserOriginAttr>(origin).getTransposeCount() == 0;
  });
}

class ValidateNoBackwardDepsPass
    : public impl::ValidateNoBackwardDepsPassBase<ValidateNoBackwardDepsPass> {
  using ValidateNoBackwardDepsPassBase::ValidateNoBackwardDepsPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    TopologyAttr topology = getTopology(function);
    if (!isMpmdFunction(function) || !topology)
      return;
    SmallVector<FragmentCallOp> calls =
        llvm::to_vector(function.getOps<FragmentCallOp>());
    if (!llvm::all_of(calls, isForwardOnly)) {
      // Backward fragments make dependencies on later meshes expected; a
      // caller that demands none treats their presence as the error itself.
      if (failOnBackwardDeps) {
        function.emitError("the program has backward (transposed) fragment "
                           "calls, and fail-on-backward-deps forbids any "
                           "dependency on a later mesh");
        signalPassFailure();
      }
      return;
    }
    bool failed = false;
    for (FragmentCallOp consumer : calls) {
      std::optional<unsigned> consumerMesh =
          topology.getMeshIndex(consumer.getMeshName());
      for (Value operand : consumer.getTensors()) {
        FragmentCallOp producer = getProducingCall(operand);
        if (!producer)
          continue;
        std::optional<unsigned> producerMesh =
            topology.getMeshIndex(producer.getMeshName());
        if (!consumerMesh || !producerMesh || *producerMesh <= *consumerMesh)
          continue;
        InFlightDiagnostic diagnostic = failOnBackwardDeps
                                            ? consumer.emitError()
                                            : consumer.emitWarning();
        diagnostic << "Detected backward dependency in a forward-only "
                      "program: this fragment on mesh \""
                   << consumer.getMeshName()
                   << "\" uses a value computed on mesh \""
                   << producer.getMeshName()
                   << "\", which comes later in the topology (computed at "
                   << producer.getLoc() << ")";
        failed |= failOnBackwardDeps;
      }
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
