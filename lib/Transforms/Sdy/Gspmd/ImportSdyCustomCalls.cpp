//===- ImportSdyCustomCalls.cpp - -xla-sdy-import-sdy-custom-calls --------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_IMPORTSDYCUSTOMCALLSPASS
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h.inc"

namespace {

/// The dimensions `backend_config = "unspecified_dims=[0,2]"` names (JAX's
/// unconstrained dimensions of a sharding constraint); none without it.
FailureOr<SmallVector<int64_t>> getUnspecifiedDims(stablehlo::CustomCallOp call,
                                                   int64_t rank) {
  SmallVector<int64_t> dims;
  auto config = dyn_cast_or_null<StringAttr>(call.getBackendConfigAttr());
  if (!config || config.getValue().trim().empty())
    return dims;
  StringRef text = config.getValue().trim();
  auto fail = [&]() {
    return call.emitError("@")
           << kShardingCustomCallTarget << " backend_config \""
           << config.getValue()
           << "\" is not \"unspecified_dims=[d, ...]\" with dimensions below "
           << rank;
  };
  if (!text.consume_front("unspecified_dims"))
    return fail();
  text = text.ltrim();
  if (!text.consume_front("="))
    return fail();
  text = text.ltrim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return fail();
  if (text.trim().empty())
    return dims;
  SmallVector<StringRef> items;
  text.split(items, ',');
  for (StringRef item : items) {
    int64_t dim;
    if (item.trim().getAsInteger(10, dim) || dim < 0 || dim >= rank)
      return fail();
    dims.push_back(dim);
  }
  return dims;
}

class ImportSdyCustomCallsPass
    : public impl::ImportSdyCustomCallsPassBase<ImportSdyCustomCallsPass> {
  using ImportSdyCustomCallsPassBase::ImportSdyCustomCallsPassBase;

  void runOnOperation() override {
    SmallVector<stablehlo::CustomCallOp> calls;
    getOperation().walk([&](stablehlo::CustomCallOp call) {
      if (call.getCallTargetName() == kShardingCustomCallTarget)
        calls.push_back(call);
    });
    bool failed = false;
    for (stablehlo::CustomCallOp call : calls) {
      if (call->getNumOperands() != 1 || call->getNumResults() != 1 ||
          call->getOperand(0).getType() != call->getResult(0).getType()) {
        call.emitError("@")
            << kShardingCustomCallTarget
            << " must have one operand and one result of the same type";
        failed = true;
        continue;
      }
      Value input = call->getOperand(0);
      auto shardings = call->getAttrOfType<TensorShardingPerValueAttr>(
          SdyDialect::kShardingAttrName);
      if (!shardings || shardings.getShardings().size() != 1) {
        // `{manual}` or `{unknown}`: nothing to constrain.
        call.getResult(0).replaceAllUsesWith(input);
        call.erase();
        continue;
      }
      TensorShardingAttr sharding = shardings.getShardings().front();
      FailureOr<SmallVector<int64_t>> openDims =
          getUnspecifiedDims(call, sharding.getDimShardings().size());
      if (mlir::failed(openDims)) {
        failed = true;
        continue;
      }
      if (!openDims->empty()) {
        SmallVector<DimensionShardingAttr> dims(sharding.getDimShardings());
        for (int64_t dim : *openDims)
          dims[dim] = DimensionShardingAttr::get(
              call.getContext(), dims[dim].getAxes(), /*isClosed=*/false,
              dims[dim].getPriority());
        sharding = TensorShardingAttr::get(
            call.getContext(), sharding.getMeshOrRef(), dims,
            sharding.getReplicatedAxes(), sharding.getUnreducedAxes(),
            sharding.getUnreducedKind());
      }
      OpBuilder builder(call);
      auto constraint = ShardingConstraintOp::create(
          builder, call.getLoc(), input.getType(), input, sharding);
      call.getResult(0).replaceAllUsesWith(constraint.getResult());
      call.erase();
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
