//===- MarkFragmentReservedMemory.cpp - -mpmd-mark-fragment-reserved-memory ===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Mpmd/IR/TensorSizes.h"
#include "mpmd/Support/CheckedArithmetic.h"
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
        if (failed(addLive(arg, function)))
          return signalPassFailure();

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
          operandBits += *getDeviceBits(operand);
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
        if (!result.use_empty() && failed(addLive(result, &op)))
          return signalPassFailure();
    }
  }

  /// Per-device size of `value` in bits; 0 for host values and tokens; none
  /// when it does not fit in int64 (types made by passes are not verified).
  std::optional<int64_t> getDeviceBits(Value value) {
    auto type = dyn_cast<MeshTensorType>(value.getType());
    if (!type || type.isOnHost())
      return 0;
    return getSizeInBits(
        type.getLocalTensorType(topology.getMesh(type.getMeshName())));
  }

  /// Counts `value` as live on its mesh; an error at `at` when its size or
  /// the live total leaves int64. The sizes of live values are then known
  /// to fit, and so are the operand sums above, bounded by the total.
  LogicalResult addLive(Value value, Operation *at) {
    auto type = dyn_cast<MeshTensorType>(value.getType());
    if (!type)
      return success();
    int64_t &live = liveBits[type.getMeshName()];
    std::optional<int64_t> bits = getDeviceBits(value);
    std::optional<int64_t> total = bits ? checkedAdd(live, *bits) : bits;
    if (!total)
      return at->emitError()
             << "the tensors live on mesh \"" << type.getMeshName()
             << "\" take more than 2^63 - 1 bits";
    live = *total;
    return success();
  }

  void removeLive(Value value) {
    if (auto type = dyn_cast<MeshTensorType>(value.getType()))
      liveBits[type.getMeshName()] -= *getDeviceBits(value);
  }

  TopologyAttr topology;
  llvm::StringMap<int64_t> liveBits;
};

} // namespace
} // namespace mlir::mpmd
