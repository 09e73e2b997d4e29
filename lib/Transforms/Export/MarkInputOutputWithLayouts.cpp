//===- MarkInputOutputWithLayouts.cpp - -mpmd-mark-input-output-with-layouts ===//
//
// The user may ask for the memory layout of @main's inputs and outputs
// (`mhlo.layout_mode`: "default", "auto" for the compiler's choice, or an
// explicit minor-to-major order such as "{0,1}"). The buffers are made and
// consumed by fragment programs compiled one by one, so the request must
// reach the fragments' `arg_attrs` / `res_attrs`, and must be made
// consistent: one buffer cannot be laid out two ways.
//
// Layouts combine like this: "default" is the absence of the attribute (and
// is always written as absence), "auto" agrees with every layout, and two
// explicit layouts agree only when equal. Inputs are decided first, then
// fragment results; each decision is written on the value and on every use
// (fragment operands, outputs, and through transfers to their uses, where a
// transfer to a CPU mesh turns the layout into "default").
// O(uses of the inputs and fragment results + fragment signatures).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::mpmd {
#define GEN_PASS_DEF_MARKINPUTOUTPUTWITHLAYOUTSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// A layout: null for "default", else "auto" or an explicit layout.
using Layout = StringAttr;

bool isAuto(Layout layout) {
  return layout && layout.getValue() == kLayoutModeAuto;
}

bool isTransferToCpu(Operation *op) {
  auto transfer = dyn_cast<TransferOp>(op);
  return transfer &&
         isCpuMesh(cast<MeshTensorType>(transfer.getType()).getMeshName());
}

bool isTransferredToCpu(Value value) {
  return llvm::any_of(value.getUsers(), isTransferToCpu);
}

/// Uses of `value` by fragments and transfers: where a buffer is handed to
/// a program or a copy, which then needs one agreed layout.
unsigned countFragmentOrTransferUses(Value value) {
  return llvm::count_if(value.getUses(), [](OpOperand &use) {
    return isa<FragmentOp, TransferOp>(use.getOwner());
  });
}

std::string describe(Layout layout) {
  return layout ? ("\"" + layout.getValue() + "\"").str()
                : ("\"" + kLayoutModeDefault + "\"").str();
}

class MarkInputOutputWithLayoutsPass
    : public impl::MarkInputOutputWithLayoutsPassBase<
          MarkInputOutputWithLayoutsPass> {
  void runOnOperation() override {
    function = getOperation();
    if (!isEntryPointFunction(function) || !isMpmdFunction(function))
      return;
    Block &body = function.getBody().front();
    ret = body.getTerminator();
    unsigned numInputs = function.getNumArguments();
    unsigned numOutputs = ret->getNumOperands();

    SmallVector<Layout> inputLayouts, outputLayouts;
    bool valid = true;
    for (unsigned index = 0; index < numInputs; ++index)
      valid &= succeeded(
          readLayout(function.getArgAttr(index, kLayoutModeAttrName),
                     inputLayouts, [&] {
                       return function.emitError() << "input " << index;
                     }));
    for (unsigned index = 0; index < numOutputs; ++index)
      valid &= succeeded(
          readLayout(function.getResultAttr(index, kLayoutModeAttrName),
                     outputLayouts, [&] {
                       return function.emitError() << "output " << index;
                     }));
    if (!valid)
      return signalPassFailure();
    requestedOutputs = outputLayouts;
    outputWrites.assign(numOutputs, std::nullopt);
    operandLayouts.clear();
    resultLayouts.clear();
    SmallVector<std::optional<Layout>> inputWrites(numInputs);

    for (BlockArgument arg : function.getArguments()) {
      if (arg.use_empty())
        continue;
      FailureOr<Layout> layout = decideInputLayout(
          arg, inputLayouts[arg.getArgNumber()]);
      if (failed(layout)) {
        valid = false;
        continue;
      }
      inputWrites[arg.getArgNumber()] = *layout;
      writeOnUses(arg, *layout);
    }
    for (auto fragment : body.getOps<FragmentOp>()) {
      for (OpResult result : fragment->getResults()) {
        FailureOr<Layout> layout = decideResultLayout(fragment, result);
        if (failed(layout)) {
          valid = false;
          continue;
        }
        resultLayouts[result] = *layout;
        writeOnUses(result, *layout);
      }
    }
    if (!valid)
      return signalPassFailure();

    for (auto fragment : body.getOps<FragmentOp>()) {
      setFragmentArgAttrs(
          fragment, kLayoutModeAttrName,
          [&](unsigned index) -> Attribute {
            auto it = operandLayouts.find(&fragment->getOpOperand(index));
            if (it != operandLayouts.end())
              return it->second;
            return getFragmentArgAttr(fragment, index, kLayoutModeAttrName);
          },
          EmptyAttrArrays::kKeep);
      setFragmentResAttrs(
          fragment, kLayoutModeAttrName,
          [&](unsigned index) -> Attribute {
            auto it = resultLayouts.find(fragment->getResult(index));
            if (it != resultLayouts.end())
              return it->second;
            return getFragmentResAttr(fragment, index, kLayoutModeAttrName);
          },
          EmptyAttrArrays::kKeep);
    }
    setArgAttrs(function, kLayoutModeAttrName, [&](unsigned index) {
      if (inputWrites[index])
        return Attribute(*inputWrites[index]);
      return function.getArgAttr(index, kLayoutModeAttrName);
    });
    setResultAttrs(function, kLayoutModeAttrName, [&](unsigned index) {
      if (outputWrites[index])
        return Attribute(*outputWrites[index]);
      return function.getResultAttr(index, kLayoutModeAttrName);
    });
  }

  /// Appends the layout `attr` asks for ("default" as null); an attribute
  /// that is not a string is an error.
  LogicalResult readLayout(Attribute attr, SmallVectorImpl<Layout> &layouts,
                           function_ref<InFlightDiagnostic()> emitError) {
    if (attr && !isa<StringAttr>(attr))
      return emitError() << " has " << kLayoutModeAttrName << " " << attr
                         << "; expected a string";
    auto layout = dyn_cast_or_null<StringAttr>(attr);
    layouts.push_back(layout && layout.getValue() == kLayoutModeDefault
                          ? Layout()
                          : layout);
    return success();
  }

  /// Combines `layout` with the layouts requested for the outputs that
  /// return `value`; an output that does not agree is reported through
  /// `emitError` with every return position and its layout.
  FailureOr<Layout>
  combineWithOutputs(Value value, Layout layout,
                     function_ref<InFlightDiagnostic()> emitError) {
    SmallVector<unsigned> positions;
    Layout combined = layout;
    bool agree = true;
    for (OpOperand &use : value.getUses()) {
      if (use.getOwner() != ret)
        continue;
      positions.push_back(use.getOperandNumber());
      Layout requested = requestedOutputs[use.getOperandNumber()];
      if (isAuto(requested))
        continue;
      if (isAuto(combined))
        combined = requested;
      else if (combined != requested)
        agree = false;
    }
    if (agree)
      return combined;
    llvm::sort(positions);
    InFlightDiagnostic diag = emitError();
    diag << " (layout " << describe(layout)
         << ") is returned at outputs whose layouts do not agree:";
    for (unsigned position : positions)
      diag << " output " << position << " "
           << describe(requestedOutputs[position]) << ";";
    return failure();
  }

  /// A value transferred to a CPU mesh is laid out by default; asking for
  /// anything else is overridden, with a warning.
  Layout applyCpuRule(Value value, Layout layout,
                      function_ref<InFlightDiagnostic()> emitWarning) {
    if (!layout || !isTransferredToCpu(value))
      return layout;
    emitWarning() << " has layout " << describe(layout)
                  << " but is transferred to a CPU mesh: using \""
                  << kLayoutModeDefault << "\"";
    return Layout();
  }

  FailureOr<Layout> decideInputLayout(BlockArgument arg, Layout layout) {
    unsigned index = arg.getArgNumber();
    FailureOr<Layout> combined = combineWithOutputs(arg, layout, [&] {
      return function.emitError() << "input " << index;
    });
    if (failed(combined))
      return failure();
    if (isTransferredToCpu(arg))
      return applyCpuRule(arg, *combined, [&] {
        return function.emitWarning() << "input " << index;
      });
    if (isAuto(*combined) && countFragmentOrTransferUses(arg) > 1)
      return Layout();
    return *combined;
  }

  FailureOr<Layout> decideResultLayout(FragmentOp fragment, OpResult result) {
    if (result.use_empty())
      return StringAttr::get(&getContext(), kLayoutModeAuto);
    FailureOr<Layout> combined = combineWithOutputs(
        result, StringAttr::get(&getContext(), kLayoutModeAuto), [&] {
          return ret->emitError()
                 << "result " << result.getResultNumber() << " of fragment "
                 << fragment.getMeshName();
        });
    if (failed(combined))
      return failure();
    if (isTransferredToCpu(result))
      return applyCpuRule(result, *combined, [&] {
        return fragment.emitWarning() << "result " << result.getResultNumber();
      });
    if (isAuto(*combined) && countFragmentOrTransferUses(result) > 0)
      return Layout();
    return *combined;
  }

  /// Records `layout` for every use of `value`: fragment operands, outputs,
  /// and the uses of transfers of it (a transfer to a CPU mesh hands over a
  /// default layout).
  void writeOnUses(Value value, Layout layout) {
    SmallVector<std::pair<Value, Layout>> worklist = {{value, layout}};
    while (!worklist.empty()) {
      auto [current, currentLayout] = worklist.pop_back_val();
      for (OpOperand &use : current.getUses()) {
        Operation *user = use.getOwner();
        if (isa<FragmentOp>(user))
          operandLayouts[&use] = currentLayout;
        else if (user == ret)
          outputWrites[use.getOperandNumber()] = currentLayout;
        else if (isa<TransferOp>(user))
          worklist.push_back({user->getResult(0), isTransferToCpu(user)
                                                      ? Layout()
                                                      : currentLayout});
      }
    }
  }

  func::FuncOp function;
  Operation *ret = nullptr;
  /// The outputs' layouts as the user asked for them.
  SmallVector<Layout> requestedOutputs;
  /// Decided layouts: outputs, fragment operands and fragment results.
  SmallVector<std::optional<Layout>> outputWrites;
  llvm::DenseMap<OpOperand *, Layout> operandLayouts;
  llvm::DenseMap<Value, Layout> resultLayouts;
};

} // namespace
} // namespace mlir::mpmd
