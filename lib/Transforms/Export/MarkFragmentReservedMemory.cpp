//===- MarkFragmentReservedMemory.cpp - -mpmd-mark-fragment-reserved-memory ===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
#include "mlir/IR/Builders.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MARKFRAGMENTRESERVEDMEMORYPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

int64_t getElementBitWidth(Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    return 2 * getElementBitWidth(complex.getElementType());
  if (elementType.isIntOrFloat())
    return elementType.getIntOrFloatBitWidth();
  return 0;
}

class MarkFragmentReservedMemoryPass
    : public impl::MarkFragmentReservedMemoryPassBase<
          MarkFragmentReservedMemoryPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function) || !isEntryPointFunction(function))
      return;
    topology = getTopology(function);
    liveBits.clear();
    Block &body = function.getBody().front();
    for (BlockArgument arg : body.getArguments())
      if (!(isDonatedArgument(function, arg.getArgNumber()) && arg.use_empty()))
        addLive(arg);

    llvm::DenseMap<Value, OpOperand *> lastUses = getLastUses(body);
    for (Operation &op : body) {
      if (isa<func::ReturnOp>(op))
        continue;
      if (!isa<FragmentOp, TransferOp>(op)) {
        op.emitError() << "is not supported by the reserved-memory analysis: "
                          "an entry-point MPMD function may only hold "
                          "fragments and transfers when it is exported";
        return signalPassFailure();
      }
      llvm::SmallSetVector<Value, 8> operands(op.operand_begin(),
                                              op.operand_end());
      if (auto fragment = dyn_cast<FragmentOp>(op)) {
        int64_t operandBits = 0;
        for (Value operand : operands)
          operandBits += getDeviceBits(operand);
        // Operands are live until their last use, so this is never negative.
        int64_t reservedBits = liveBits[fragment.getMeshName()] - operandBits;
        assert(reservedBits >= 0 && "operands must be live");
        fragment->setAttr(kReservedHbmBytesAttrName,
                          Builder(&getContext())
                              .getI64IntegerAttr(llvm::divideCeil(
                                  static_cast<uint64_t>(reservedBits), 8)));
      }
      for (Value operand : operands) {
        auto arg = dyn_cast<BlockArgument>(operand);
        if (lastUses.lookup(operand)->getOwner() == &op &&
            (!arg || isDonatedArgument(function, arg.getArgNumber())))
          removeLive(operand);
      }
      for (Value result : op.getResults())
        if (!result.use_empty())
          addLive(result);
    }
  }

  /// Per-device size of `value` in bits; 0 for host values and tokens.
  int64_t getDeviceBits(Value value) {
    auto type = dyn_cast<MeshTensorType>(value.getType());
    if (!type || type.isOnHost())
      return 0;
    RankedTensorType local =
        type.getLocalTensorType(topology.getMesh(type.getMeshName()));
    return local.getNumElements() * getElementBitWidth(local.getElementType());
  }

  void addLive(Value value) {
    if (auto type = dyn_cast<MeshTensorType>(value.getType()))
      liveBits[type.getMeshName()] += getDeviceBits(value);
  }

  void removeLive(Value value) {
    if (auto type = dyn_cast<MeshTensorType>(value.getType()))
      liveBits[type.getMeshName()] -= getDeviceBits(value);
  }

  TopologyAttr topology;
  llvm::StringMap<int64_t> liveBits;
};

} // namespace
} // namespace mlir::mpmd
