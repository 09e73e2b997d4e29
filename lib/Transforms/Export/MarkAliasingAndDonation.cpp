//===- MarkAliasingAndDonation.cpp - -mpmd-mark-aliasing-and-donation -----===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/Builders.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MARKALIASINGANDDONATIONPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// The result of `fragment` that output `outputIndex` of `ret` is computed
/// from through single-operand ops (e.g. transfers), if any.
std::optional<unsigned> getResultReachingOutput(FragmentOp fragment,
                                                func::ReturnOp ret,
                                                int64_t outputIndex) {
  if (outputIndex < 0 || outputIndex >= ret->getNumOperands())
    return std::nullopt;
  Value value = ret->getOperand(outputIndex);
  while (Operation *producer = value.getDefiningOp()) {
    if (producer == fragment.getOperation())
      return cast<OpResult>(value).getResultNumber();
    if (producer->getNumOperands() != 1)
      return std::nullopt;
    value = producer->getOperand(0);
  }
  return std::nullopt;
}

class FragmentBufferMarker {
public:
  FragmentBufferMarker(FragmentOp fragment)
      : fragment(fragment), aliasedResults(fragment->getNumResults()),
        aliasTo(fragment->getNumOperands()),
        donated(fragment->getNumOperands()) {
    for (unsigned result = 0; result < fragment->getNumResults(); ++result)
      if (canAliasResult(result))
        candidates[getResultKey(result)].results.push_back(result);
  }

  /// Aliases operand `operandIndex` to `preferred` if compatible, else to the
  /// first compatible result, else donates it.
  void aliasOrDonate(unsigned operandIndex, std::optional<unsigned> preferred) {
    if (preferred && isCompatible(operandIndex, *preferred)) {
      alias(operandIndex, *preferred);
      return;
    }
    auto it = candidates.find(getOperandKey(operandIndex));
    if (it != candidates.end()) {
      Candidates &same = it->second;
      while (same.next < same.results.size() &&
             aliasedResults.test(same.results[same.next]))
        ++same.next;
      if (same.next < same.results.size()) {
        alias(operandIndex, same.results[same.next]);
        return;
      }
    }
    donated.set(operandIndex);
  }

  void writeAttributes() {
    Builder builder(fragment.getContext());
    setFragmentArgAttrs(fragment, kAliasingOutputAttrName, [&](unsigned i) {
      if (aliasTo[i])
        return Attribute(builder.getI32IntegerAttr(*aliasTo[i]));
      return getFragmentArgAttr(fragment, i, kAliasingOutputAttrName);
    });
    setFragmentArgAttrs(fragment, kBufferDonorAttrName, [&](unsigned i) {
      if (donated.test(i))
        return Attribute(builder.getBoolAttr(true));
      return getFragmentArgAttr(fragment, i, kBufferDonorAttrName);
    });
  }

private:
  /// An operand and a result can share a buffer when their types and layout
  /// modes are equal.
  using Key = std::pair<Type, Attribute>;
  Key getOperandKey(unsigned operandIndex) {
    return {fragment->getOperand(operandIndex).getType(),
            getFragmentArgAttr(fragment, operandIndex, kLayoutModeAttrName)};
  }
  Key getResultKey(unsigned resultIndex) {
    return {fragment->getResult(resultIndex).getType(),
            getFragmentResAttr(fragment, resultIndex, kLayoutModeAttrName)};
  }
  /// Whether a result in device memory may take an operand's buffer.
  bool canAliasResult(unsigned resultIndex) {
    return !isOnHost(fragment->getResult(resultIndex).getType()) &&
           !isHostMemoryKind(
               getFragmentResAttr(fragment, resultIndex, MpmdDialect::kMemoryKindAttrName));
  }

  bool isCompatible(unsigned operandIndex, unsigned resultIndex) {
    return !aliasedResults.test(resultIndex) && canAliasResult(resultIndex) &&
           getOperandKey(operandIndex) == getResultKey(resultIndex);
  }

  void alias(unsigned operandIndex, unsigned resultIndex) {
    aliasTo[operandIndex] = resultIndex;
    aliasedResults.set(resultIndex);
  }

  /// The results of one key in order, those before `next` all aliased: the
  /// first compatible result is found in amortized O(1), not by a scan of
  /// all results per operand (quadratic for merged fragments with thousands
  /// of weights).
  struct Candidates {
    SmallVector<unsigned> results;
    unsigned next = 0;
  };

  FragmentOp fragment;
  llvm::BitVector aliasedResults;
  SmallVector<std::optional<unsigned>> aliasTo;
  llvm::BitVector donated;
  llvm::DenseMap<Key, Candidates> candidates;
};

class MarkAliasingAndDonationPass
    : public impl::MarkAliasingAndDonationPassBase<
          MarkAliasingAndDonationPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function) || !isEntryPointFunction(function))
      return;
    for (Block &block : function.getBody())
      markBlock(function, block);
  }

  void markBlock(func::FuncOp function, Block &block) {
    llvm::DenseMap<Value, OpOperand *> lastUses = getLastUses(block);
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    for (auto fragment : block.getOps<FragmentOp>()) {
      FragmentBufferMarker marker(fragment);
      llvm::DenseMap<Value, unsigned> timesPassed;
      for (Value operand : fragment->getOperands())
        ++timesPassed[operand];
      for (OpOperand &operand : fragment->getOpOperands()) {
        Value value = operand.get();
        unsigned index = operand.getOperandNumber();
        if (lastUses.lookup(value) != &operand ||
            !isa<MeshTensorType>(value.getType()) || isOnHost(value.getType()) ||
            isHostMemoryKind(
                getFragmentArgAttr(fragment, index, MpmdDialect::kMemoryKindAttrName)) ||
            timesPassed[value] > 1 ||
            llvm::any_of(value.getUsers(),
                         [](Operation *user) { return isa<TransferOp>(user); }))
          continue;
        std::optional<unsigned> preferred;
        if (auto arg = dyn_cast<BlockArgument>(value)) {
          if (arg.getOwner() != &function.getBody().front() ||
              !isDonatedArgument(function, arg.getArgNumber()))
            continue;
          if (auto output = function.getArgAttrOfType<IntegerAttr>(
                  arg.getArgNumber(), kAliasingOutputAttrName);
              output && ret)
            preferred = getResultReachingOutput(fragment, ret, output.getInt());
        }
        marker.aliasOrDonate(index, preferred);
      }
      marker.writeAttributes();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
