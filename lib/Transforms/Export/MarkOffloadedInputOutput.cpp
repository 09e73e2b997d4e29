//===- MarkOffloadedInputOutput.cpp - -mpmd-mark-offloaded-input-output ---===//
//
// A compiled fragment program must know which of its parameters and outputs
// live in host memory (activation offloading, host-resident optimizer
// state): the runtime allocates them there and the compiler emits the
// host<->device copies. That placement is spread over mesh tensor types,
// `mhlo.memory_kind` attributes of @main and `annotate_device_placement`
// custom calls in fragment bodies; this pass writes it where the outlined
// functions take it from, the fragments' `arg_attrs` / `res_attrs`.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MARKOFFLOADEDINPUTOUTPUTPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

constexpr StringLiteral kAnnotateDevicePlacement = "annotate_device_placement";
constexpr StringLiteral kFrontendAttributesAttrName =
    "mhlo.frontend_attributes";
constexpr StringLiteral kBufferPlacementAttrName = "_xla_buffer_placement";

/// Checks an `mhlo.memory_kind` attribute (null: none) against the type of
/// its value; returns whether the value is on the host.
FailureOr<bool> isHostValue(Type type, Attribute memoryKind,
                            function_ref<InFlightDiagnostic()> emitError) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  if (!memoryKind)
    return isOnHost(type);
  auto kind = dyn_cast<StringAttr>(memoryKind);
  if (!kind || (kind.getValue() != MeshTensorType::kMemoryKindPinnedHost &&
                kind.getValue() != MeshTensorType::kMemoryKindDevice))
    return emitError() << " has unknown memory kind " << memoryKind
                       << "; expected \""
                       << MeshTensorType::kMemoryKindPinnedHost << "\" or \""
                       << MeshTensorType::kMemoryKindDevice << "\"";
  if (meshTensor && meshTensor.getMemoryKind() &&
      meshTensor.getMemoryKind() != kind)
    return emitError() << " is in memory kind " << kind
                       << " but its type says " << meshTensor.getMemoryKind();
  return isHostMemoryKind(kind);
}

/// The `_xla_buffer_placement` a body value is annotated with by an
/// `annotate_device_placement` custom call producing it, looking through
/// `stablehlo.optimization_barrier`; and that custom call.
std::pair<StringAttr, Operation *> getBufferPlacement(Value value) {
  while (auto barrier = value.getDefiningOp<stablehlo::OptimizationBarrierOp>())
    value = barrier->getOperand(cast<OpResult>(value).getResultNumber());
  auto call = value.getDefiningOp<stablehlo::CustomCallOp>();
  if (!call || call.getCallTargetName() != kAnnotateDevicePlacement)
    return {};
  auto frontend =
      call->getAttrOfType<DictionaryAttr>(kFrontendAttributesAttrName);
  if (!frontend)
    return {};
  return {frontend.getAs<StringAttr>(kBufferPlacementAttrName), call};
}

class MarkOffloadedInputOutputPass
    : public impl::MarkOffloadedInputOutputPassBase<
          MarkOffloadedInputOutputPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isEntryPointFunction(function) || !isMpmdFunction(function))
      return;
    llvm::DenseSet<Value> onHost;
    bool valid = true;
    auto check = [&](Value value, Attribute memoryKind,
                     function_ref<InFlightDiagnostic()> emitError) {
      FailureOr<bool> host = isHostValue(value.getType(), memoryKind, emitError);
      if (failed(host))
        valid = false;
      else if (*host)
        onHost.insert(value);
    };

    for (BlockArgument arg : function.getArguments())
      check(arg, function.getArgAttr(arg.getArgNumber(), kMemoryKindAttrName),
            [&] {
              return function.emitError()
                     << "input " << arg.getArgNumber();
            });
    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands())
      check(output.get(),
            function.getResultAttr(output.getOperandNumber(),
                                   kMemoryKindAttrName),
            [&] {
              return function.emitError()
                     << "output " << output.getOperandNumber();
            });
    for (auto fragment : function.getBody().front().getOps<FragmentOp>()) {
      Operation *body = fragment.getRegion().front().getTerminator();
      for (OpResult result : fragment->getResults()) {
        auto [placement, call] =
            getBufferPlacement(body->getOperand(result.getResultNumber()));
        if (!placement)
          continue;
        check(result, placement, [&, call = call] {
          return call->emitError()
                 << "result " << result.getResultNumber() << " of the fragment";
        });
      }
    }
    if (!valid)
      return signalPassFailure();

    auto memoryKindIf = [&](Value value, Attribute existing) -> Attribute {
      if (!onHost.contains(value))
        return existing;
      return StringAttr::get(&getContext(),
                             MeshTensorType::kMemoryKindPinnedHost);
    };
    for (auto fragment : function.getBody().front().getOps<FragmentOp>()) {
      setFragmentArgAttrs(fragment, kMemoryKindAttrName, [&](unsigned index) {
        return memoryKindIf(
            fragment->getOperand(index),
            getFragmentArgAttr(fragment, index, kMemoryKindAttrName));
      }, EmptyAttrArrays::kKeep);
      setFragmentResAttrs(fragment, kMemoryKindAttrName, [&](unsigned index) {
        return memoryKindIf(
            fragment->getResult(index),
            getFragmentResAttr(fragment, index, kMemoryKindAttrName));
      }, EmptyAttrArrays::kKeep);
    }
    setArgAttrs(function, kMemoryKindAttrName, [&](unsigned index) {
      return memoryKindIf(function.getArgument(index),
                          function.getArgAttr(index, kMemoryKindAttrName));
    });
    setResultAttrs(function, kMemoryKindAttrName, [&](unsigned index) {
      return memoryKindIf(ret->getOperand(index),
                          function.getResultAttr(index, kMemoryKindAttrName));
    });
  }
};

} // namespace
} // namespace mlir::mpmd
