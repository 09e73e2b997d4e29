//===- MarkInputOutputWithLayouts.cpp - -mpmd-mark-input-output-with-layouts ===//
//
// The user may ask for the memory layout of @main's inputs and outputs
// (`mhlo.layout_mode`: "default", "auto" for the compiler's choice, or an
// explicit minor-to-major order such as "{0,1}"). The buffers are made and
// consumed by fragment programs compiled one by one, so the request must
// reach the fragments' `arg_attrs` / `res_attrs`, and must be made
// consistent: one buffer cannot be laid out two ways.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MARKINPUTOUTPUTWITHLAYOUTSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

bool isAuto(StringAttr layout) {
  return layout && layout.getValue() == kLayoutModeAuto;
}

/// True if `value` is transferred to a CPU mesh, whose programs only take
/// the default layout.
bool isTransferredToCpu(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    auto transfer = dyn_cast<TransferOp>(user);
    return transfer && isCpuMesh(cast<MeshTensorType>(transfer.getType())
                                     .getMeshName());
  });
}

class MarkInputOutputWithLayoutsPass
    : public impl::MarkInputOutputWithLayoutsPassBase<
          MarkInputOutputWithLayoutsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isEntryPointFunction(function) || !isMpmdFunction(function))
      return;
    Operation *ret = function.getBody().front().getTerminator();
    unsigned numInputs = function.getNumArguments();
    // Layouts of the inputs, then of the outputs.
    SmallVector<StringAttr> layouts;
    bool valid = true;
    auto read = [&](Attribute layout, auto emitError) {
      if (layout && !isa<StringAttr>(layout)) {
        emitError() << " has " << kLayoutModeAttrName << " " << layout
                    << "; expected a string";
        valid = false;
      }
      layouts.push_back(dyn_cast_or_null<StringAttr>(layout));
    };
    for (unsigned index = 0; index < numInputs; ++index)
      read(function.getArgAttr(index, kLayoutModeAttrName),
           [&] { return function.emitError() << "input " << index; });
    for (unsigned index = 0; index < ret->getNumOperands(); ++index)
      read(function.getResultAttr(index, kLayoutModeAttrName),
           [&] { return function.emitError() << "output " << index; });
    if (!valid)
      return signalPassFailure();
    auto describe = [&](unsigned slot) {
      return slot < numInputs
                 ? "input " + std::to_string(slot)
                 : "output " + std::to_string(slot - numInputs);
    };
    auto defaultLayout = StringAttr::get(&getContext(), kLayoutModeDefault);
    // `auto` becomes `default` where the buffer has constraints besides the
    // one program; an explicit layout there is an error.
    auto forceDefault = [&](unsigned slot, StringRef why) {
      StringAttr &layout = layouts[slot];
      if (!layout || layout == defaultLayout)
        return;
      if (isAuto(layout)) {
        layout = defaultLayout;
        return;
      }
      function.emitError() << describe(slot) << " has layout " << layout
                           << " but " << why << ", which needs \""
                           << kLayoutModeDefault << "\"";
      valid = false;
    };

    // An input returned as an output is one buffer: one layout.
    for (OpOperand &output : ret->getOpOperands()) {
      auto arg = dyn_cast<BlockArgument>(output.get());
      if (!arg)
        continue;
      StringAttr &in = layouts[arg.getArgNumber()];
      StringAttr &out = layouts[numInputs + output.getOperandNumber()];
      if (!in || isAuto(in))
        in = out ? out : in;
      else if (!out || isAuto(out))
        out = in;
      else if (in != out) {
        function.emitError()
            << "input " << arg.getArgNumber() << " is returned as output "
            << output.getOperandNumber() << " but has layout " << in
            << " there and " << out << " here";
        valid = false;
      }
    }
    for (BlockArgument arg : function.getArguments()) {
      unsigned fragmentUsers = llvm::count_if(
          arg.getUsers(), [](Operation *user) { return isa<FragmentOp>(user); });
      if (isAuto(layouts[arg.getArgNumber()]) && fragmentUsers > 1)
        layouts[arg.getArgNumber()] = defaultLayout;
      if (isTransferredToCpu(arg))
        forceDefault(arg.getArgNumber(), "it is transferred to a CPU mesh");
    }
    // The fragment result each output is, with the output's layout.
    llvm::DenseMap<Value, StringAttr> resultLayouts;
    for (OpOperand &output : ret->getOpOperands()) {
      Value value = output.get();
      unsigned slot = numInputs + output.getOperandNumber();
      if (!value.getDefiningOp<FragmentOp>())
        continue;
      bool usedElsewhere = llvm::any_of(value.getUsers(), [&](Operation *user) {
        return user != ret;
      });
      if (isAuto(layouts[slot]) && usedElsewhere)
        layouts[slot] = defaultLayout;
      if (isTransferredToCpu(value))
        forceDefault(slot, "it is transferred to a CPU mesh");
      if (layouts[slot])
        resultLayouts.try_emplace(value, layouts[slot]);
    }
    if (!valid)
      return signalPassFailure();

    for (auto fragment : function.getBody().front().getOps<FragmentOp>()) {
      setFragmentArgAttrs(fragment, kLayoutModeAttrName, [&](unsigned index) {
        auto arg = dyn_cast<BlockArgument>(fragment->getOperand(index));
        if (arg && arg.getOwner() == &function.getBody().front() &&
            layouts[arg.getArgNumber()])
          return Attribute(layouts[arg.getArgNumber()]);
        return getFragmentArgAttr(fragment, index, kLayoutModeAttrName);
      });
      setFragmentResAttrs(fragment, kLayoutModeAttrName, [&](unsigned index) {
        if (StringAttr layout = resultLayouts.lookup(fragment->getResult(index)))
          return Attribute(layout);
        return getFragmentResAttr(fragment, index, kLayoutModeAttrName);
      });
    }
    setArgAttrs(function, kLayoutModeAttrName,
                [&](unsigned index) { return layouts[index]; });
    setResultAttrs(function, kLayoutModeAttrName,
                   [&](unsigned index) { return layouts[numInputs + index]; });
  }
};

} // namespace
} // namespace mlir::mpmd
