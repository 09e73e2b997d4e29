//===- MarkFragmentReservedMemory.cpp - -mpmd-mark-fragment-reserved-memory ===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Mpmd/IR/TensorSizes.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/DenseSet.h"
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
    liveValues.clear();
    Block &body = function.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      unsigned index = arg.getArgNumber();
      if ((isDonated(function, index) && arg.use_empty()) ||
          isHostMemoryKind(function.getArgAttr(index, MpmdDialect::kMemoryKindAttrName)))
        continue;
      if (failed(addLive(arg, function)))
        return signalPassFailure();
    }

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
      // Operands the fragment takes in host memory (its arg_attrs say so)
      // are neither part of what it frees nor subtracted from its reserve.
      llvm::SmallSetVector<Value, 8> operands;
      for (OpOperand &operand : op.getOpOperands()) {
        auto fragment = dyn_cast<FragmentOp>(op);
        if (!fragment ||
            !isHostMemoryKind(getFragmentArgAttr(
                fragment, operand.getOperandNumber(), MpmdDialect::kMemoryKindAttrName)))
          operands.insert(operand.get());
      }
      if (auto fragment = dyn_cast<FragmentOp>(op)) {
        int64_t operandBits = 0;
        for (Value operand : operands)
          if (liveValues.contains(operand))
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
            (!arg || isDonated(function, arg.getArgNumber())))
          removeLive(operand);
      }
      for (OpResult result : op.getResults())
        if (!result.use_empty() && !isHostResult(result) &&
            failed(addLive(result, &op)))
          return signalPassFailure();
    }
  }

  /// Whether the buffer of argument `index` is given away, as upstream
  /// decides it here: `jax.buffer_donor = true`, or a `tf.aliasing_output`
  /// that is a string (an integer one is not honoured by this analysis).
  static bool isDonated(func::FuncOp function, unsigned index) {
    auto donor =
        function.getArgAttrOfType<BoolAttr>(index, kBufferDonorAttrName);
    return (donor && donor.getValue()) ||
           function.getArgAttrOfType<StringAttr>(index,
                                                 kAliasingOutputAttrName);
  }

  /// A fragment result its res_attrs put in host memory, or the result of a
  /// transfer marked `mhlo.memory_kind = "pinned_host"`.
  static bool isHostResult(OpResult result) {
    Operation *op = result.getOwner();
    if (auto fragment = dyn_cast<FragmentOp>(op))
      return isHostMemoryKind(getFragmentResAttr(
          fragment, result.getResultNumber(), MpmdDialect::kMemoryKindAttrName));
    return isHostMemoryKind(op->getAttr(MpmdDialect::kMemoryKindAttrName));
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
    liveValues.insert(value);
    return success();
  }

  void removeLive(Value value) {
    if (!liveValues.erase(value))
      return;
    auto type = cast<MeshTensorType>(value.getType());
    liveBits[type.getMeshName()] -= *getDeviceBits(value);
  }

  TopologyAttr topology;
  llvm::StringMap<int64_t> liveBits;
  /// The values counted in `liveBits`.
  llvm::DenseSet<Value> liveValues;
};

} // namespace
} // namespace mlir::mpmd
