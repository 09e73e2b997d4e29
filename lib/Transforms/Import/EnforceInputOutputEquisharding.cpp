//===- EnforceInputOutputEquisharding.cpp ---------------------------------===//
//
// -mpmd-enforce-input-output-equisharding
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_ENFORCEINPUTOUTPUTEQUISHARDINGPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

class EnforceInputOutputEquishardingPass
    : public impl::EnforceInputOutputEquishardingPassBase<
          EnforceInputOutputEquishardingPass> {
  using EnforceInputOutputEquishardingPassBase::
      EnforceInputOutputEquishardingPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (constraints.empty() || !isEntryPointFunction(function) ||
        !isMpmdFunction(function) || function.isExternal())
      return;
    if (!function.getBody().hasOneBlock()) {
      function.emitError("expected an entry point with a single block");
      return signalPassFailure();
    }
    auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
    SmallVector<Type> resultTypes(function.getResultTypes());
    OpBuilder builder(ret);
    for (const InputOutputEquishardingConstraint &constraint : constraints) {
      std::string name = std::to_string(constraint.input) + ":" +
                         std::to_string(constraint.output);
      if (constraint.input >=
              static_cast<int64_t>(function.getNumArguments()) ||
          constraint.output >= static_cast<int64_t>(function.getNumResults())) {
        function.emitError() << "equisharding constraint " << name
                             << " is out of range: the function has "
                             << function.getNumArguments() << " inputs and "
                             << function.getNumResults() << " outputs";
        return signalPassFailure();
      }
      Type inputType = function.getArgumentTypes()[constraint.input];
      Type outputType = resultTypes[constraint.output];
      if (inputType == outputType)
        continue;
      auto input = dyn_cast<MeshTensorType>(inputType);
      auto output = dyn_cast<MeshTensorType>(outputType);
      if (!input || !output) {
        function.emitError()
            << "equisharding constraint " << name
            << " needs mesh tensors, but input " << constraint.input
            << " has type " << inputType << " and output " << constraint.output
            << " has type " << outputType;
        return signalPassFailure();
      }
      if (input.getRankedTensorType() != output.getRankedTensorType()) {
        function.emitError()
            << "equisharding constraint " << name << ": input "
            << constraint.input << " and output " << constraint.output
            << " have different global types " << input.getRankedTensorType()
            << " and " << output.getRankedTensorType();
        return signalPassFailure();
      }
      Value returned = ret.getOperand(constraint.output);
      auto transfer =
          TransferOp::create(builder, returned.getLoc(), input, returned);
      ret.setOperand(constraint.output, transfer.getResult());
      resultTypes[constraint.output] = input;
    }
    function.setType(FunctionType::get(
        &getContext(), function.getArgumentTypes(), resultTypes));
  }
};

} // namespace
} // namespace mlir::mpmd
