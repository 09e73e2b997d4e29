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

std::string describeKind(Attribute kind) {
  if (auto name = dyn_cast_or_null<StringAttr>(kind))
    return ("\"" + name.getValue() + "\"").str();
  return "none";
}

/// Upstream's consistency rules for the memory kinds written as attributes
/// once marked (absent and "device" are both device memory):
///  * the users of a used input agree on the kind they expect (a fragment's
///    `arg_attrs` entry, the output attribute for a returned input; other
///    users expect nothing), and that kind is on the same side (host or
///    device) as the input's own;
///  * an output is on the same side as its producer (an input's attribute,
///    a fragment's `res_attrs` entry).
/// Every violation is reported. O(uses of the inputs + outputs).
LogicalResult validateMemoryKindAttributes(func::FuncOp function) {
  bool valid = true;
  Operation *ret = function.getBody().front().getTerminator();
  for (BlockArgument arg : function.getArguments()) {
    if (arg.use_empty())
      continue;
    std::optional<Attribute> expected;
    bool agree = true;
    for (OpOperand &use : arg.getUses()) {
      Attribute kind;
      if (auto fragment = dyn_cast<FragmentOp>(use.getOwner()))
        kind = getFragmentArgAttr(fragment, use.getOperandNumber(),
                                  MpmdDialect::kMemoryKindAttrName);
      else if (use.getOwner() == ret)
        kind = function.getResultAttr(use.getOperandNumber(),
                                      MpmdDialect::kMemoryKindAttrName);
      else
        continue;
      if (expected && *expected != kind) {
        emitError(arg.getLoc())
            << "input " << arg.getArgNumber()
            << " is used with different memory kinds ("
            << describeKind(*expected) << " and " << describeKind(kind) << ")";
        valid = agree = false;
        break;
      }
      expected = kind;
    }
    Attribute own = function.getArgAttr(arg.getArgNumber(), MpmdDialect::kMemoryKindAttrName);
    if (agree && expected &&
        isHostMemoryKind(own) != isHostMemoryKind(*expected)) {
      emitError(arg.getLoc())
          << "input " << arg.getArgNumber() << " has memory kind "
          << describeKind(own) << " but its users expect "
          << describeKind(*expected);
      valid = false;
    }
  }
  for (OpOperand &output : ret->getOpOperands()) {
    Value value = output.get();
    Attribute producerKind;
    if (auto arg = dyn_cast<BlockArgument>(value))
      producerKind =
          function.getArgAttr(arg.getArgNumber(), MpmdDialect::kMemoryKindAttrName);
    else if (auto fragment = value.getDefiningOp<FragmentOp>())
      producerKind = getFragmentResAttr(
          fragment, cast<OpResult>(value).getResultNumber(),
          MpmdDialect::kMemoryKindAttrName);
    else
      continue;
    Attribute kind =
        function.getResultAttr(output.getOperandNumber(), MpmdDialect::kMemoryKindAttrName);
    if (isHostMemoryKind(kind) != isHostMemoryKind(producerKind)) {
      ret->emitError() << "output " << output.getOperandNumber()
                       << " has memory kind " << describeKind(kind)
                       << " but its producer's is "
                       << describeKind(producerKind);
      valid = false;
    }
  }
  return success(valid);
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
      check(arg, function.getArgAttr(arg.getArgNumber(), MpmdDialect::kMemoryKindAttrName),
            [&] {
              return function.emitError()
                     << "input " << arg.getArgNumber();
            });
    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands())
      check(output.get(),
            function.getResultAttr(output.getOperandNumber(),
                                   MpmdDialect::kMemoryKindAttrName),
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
      setFragmentArgAttrs(fragment, MpmdDialect::kMemoryKindAttrName, [&](unsigned index) {
        return memoryKindIf(
            fragment->getOperand(index),
            getFragmentArgAttr(fragment, index, MpmdDialect::kMemoryKindAttrName));
      }, EmptyAttrArrays::kKeep);
      setFragmentResAttrs(fragment, MpmdDialect::kMemoryKindAttrName, [&](unsigned index) {
        return memoryKindIf(
            fragment->getResult(index),
            getFragmentResAttr(fragment, index, MpmdDialect::kMemoryKindAttrName));
      }, EmptyAttrArrays::kKeep);
    }
    setArgAttrs(function, MpmdDialect::kMemoryKindAttrName, [&](unsigned index) {
      return memoryKindIf(function.getArgument(index),
                          function.getArgAttr(index, MpmdDialect::kMemoryKindAttrName));
    });
    setResultAttrs(function, MpmdDialect::kMemoryKindAttrName, [&](unsigned index) {
      return memoryKindIf(ret->getOperand(index),
                          function.getResultAttr(index, MpmdDialect::kMemoryKindAttrName));
    });
    // What the marking could not reconcile (kinds written before this pass
    // that it keeps) is an error, as upstream validates after marking.
    if (failed(validateMemoryKindAttributes(function)))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
