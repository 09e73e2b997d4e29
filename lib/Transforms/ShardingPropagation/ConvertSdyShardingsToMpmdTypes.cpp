//===- ConvertSdyShardingsToMpmdTypes.cpp ---------------------------------===//
//
// -mpmd-convert-sdy-shardings-to-mpmd-types
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"
#include "ShardingUtils.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_CONVERTSDYSHARDINGSTOMPMDTYPESPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

constexpr StringLiteral kShardingAttrName = sdy::SdyDialect::kShardingAttrName;

/// True if `sharding` asks for nothing: every dimension open and unsharded.
bool isUnconstrained(sdy::TensorShardingAttr sharding) {
  return sharding.getUnreducedAxes().empty() &&
         llvm::all_of(sharding.getDimShardings(),
                      [](sdy::DimensionShardingAttr dim) {
                        return !dim.getIsClosed() && dim.getAxes().empty();
                      });
}

std::string describe(sdy::TensorShardingAttr sharding) {
  if (!sharding)
    return "replicated";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << sharding;
  return text;
}

class ConvertSdyShardingsToMpmdTypesPass
    : public impl::ConvertSdyShardingsToMpmdTypesPassBase<
          ConvertSdyShardingsToMpmdTypesPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    for (BlockArgument arg : function.getArguments())
      if (auto sharding = function.getArgAttrOfType<sdy::TensorShardingAttr>(
              arg.getArgNumber(), kShardingAttrName)) {
        arg.setType(withSharding(arg.getType(), sharding));
        function.removeArgAttr(arg.getArgNumber(), kShardingAttrName);
      }
    bool failed = false;
    for (Block *block : getBlocksWithFragments(function))
      for (Operation &op : *block) {
        if (auto fragment = dyn_cast<FragmentOp>(op))
          failed |= ::mlir::failed(convertFragment(fragment));
        else if (auto transfer = dyn_cast<TransferOp>(op))
          failed |= ::mlir::failed(convertTransfer(transfer));
      }
    Operation *ret = function.getBody().front().getTerminator();
    for (OpOperand &output : ret->getOpOperands()) {
      unsigned index = output.getOperandNumber();
      auto sharding = function.getResultAttrOfType<sdy::TensorShardingAttr>(
          index, kShardingAttrName);
      if (!sharding)
        continue;
      sdy::TensorShardingAttr actual = getTypeSharding(output.get().getType());
      if (!isUnconstrained(sharding) && canonicalizeSharding(sharding) != actual) {
        function.emitError() << "output " << index << " asks for sharding "
                             << describe(canonicalizeSharding(sharding))
                             << " but its value is " << describe(actual);
        failed = true;
      }
      function.removeResultAttr(index,
                                StringAttr::get(&getContext(),
                                                kShardingAttrName));
    }
    if (failed)
      return signalPassFailure();
    function.setType(FunctionType::get(
        &getContext(), function.getBody().front().getArgumentTypes(),
        ret->getOperandTypes()));
  }

  LogicalResult convertFragment(FragmentOp fragment) {
    if (sdy::TensorShardingPerValueAttr in = fragment.getInShardingsAttr()) {
      for (auto [index, sharding, operand] :
           llvm::enumerate(in.getShardings(), fragment->getOperands())) {
        if (isUnconstrained(sharding))
          continue;
        sdy::TensorShardingAttr actual = getTypeSharding(operand.getType());
        if (canonicalizeSharding(sharding) != actual)
          return fragment.emitError()
                 << "operand " << index << " must be "
                 << describe(canonicalizeSharding(sharding)) << " but its value is "
                 << describe(actual) << "; a reshard would be needed";
      }
      fragment.removeInShardingsAttr();
    }
    if (sdy::TensorShardingPerValueAttr out = fragment.getOutShardingsAttr()) {
      for (auto [sharding, result] :
           llvm::zip(out.getShardings(), fragment->getResults()))
        result.setType(withSharding(result.getType(), sharding));
      fragment.removeOutShardingsAttr();
    }
    // Inside, shardings said where to propagate; they are in the types now.
    fragment.getRegion().walk([](Operation *op) {
      if (!isa<stablehlo::SendOp, stablehlo::RecvOp>(op))
        op->removeAttr(kShardingAttrName);
    });
    return success();
  }

  LogicalResult convertTransfer(TransferOp transfer) {
    if (auto shardings = transfer->getAttrOfType<sdy::TensorShardingPerValueAttr>(
            kShardingAttrName)) {
      if (shardings.getShardings().size() == 1)
        transfer->getResult(0).setType(withSharding(
            transfer.getType(), shardings.getShardings().front()));
      transfer->removeAttr(kShardingAttrName);
    }
    auto source = cast<MeshTensorType>(transfer.getTensor().getType());
    auto target = cast<MeshTensorType>(transfer.getType());
    if (source.getMeshName() == target.getMeshName() &&
        getTypeSharding(source) != getTypeSharding(target))
      return transfer.emitError()
             << "transfers within mesh \"" << source.getMeshName()
             << "\" from " << describe(getTypeSharding(source)) << " to "
             << describe(getTypeSharding(target))
             << ": a reshard within a mesh is not a transfer";
    return success();
  }
};

} // namespace
} // namespace mlir::mpmd
