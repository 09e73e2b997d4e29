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
              arg.getArgNumber(), kShardingAttrName))
        arg.setType(withSharding(arg.getType(), sharding));
    // Removed all at once: per-argument removal is quadratic.
    setArgAttrs(function, kShardingAttrName,
                [](unsigned) { return Attribute(); });
    SmallVector<TransferOp> transfers;
    SmallVector<ForOp> loops;
    for (Block *block : getBlocksWithFragments(function))
      for (Operation &op : *block) {
        if (auto fragment = dyn_cast<FragmentOp>(op))
          convertFragment(fragment);
        else if (auto transfer = dyn_cast<TransferOp>(op))
          transfers.push_back(convertTransfer(transfer));
        else if (auto loop = dyn_cast<ForOp>(op))
          loops.push_back(loop);
      }
    // Loops last: a fragment takes an operand of any sharding (its body
    // reshards), a loop only the one it carries, so a loop's choice must
    // win over a fragment's for a value both consume.
    for (ForOp loop : loops)
      convertLoop(loop);
    bool failed = false;
    for (ForOp loop : loops)
      failed |= !verifyLoopCarriedTypes(loop);
    // Once every value has its final type: a transfer that would have to
    // reshard within one sdy mesh is reported, as upstream does, without
    // failing the pass.
    for (TransferOp transfer : transfers)
      reportReshardingTransfer(transfer);
    // A sharding that does not divide its dimensions (a user's, or one
    // propagation chose) makes no valid mesh tensor type: an error here
    // rather than invalid IR behind a successful pass.
    failed |= !verifyMeshTensorTypes(function);
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
    }
    setResultAttrs(function, kShardingAttrName,
                   [](unsigned) { return Attribute(); });
    if (failed)
      return signalPassFailure();
    function.setType(FunctionType::get(
        &getContext(), function.getBody().front().getArgumentTypes(),
        ret->getOperandTypes()));
  }

  /// Verifies the mesh tensor types of the function's arguments and of
  /// the results of its fragments, transfers and loops against the
  /// topology; reports each offending value at its op.
  bool verifyMeshTensorTypes(func::FuncOp function) {
    bool valid = true;
    auto verify = [&](Operation *op, TypeRange types) {
      for (Type type : types)
        if (auto meshTensor = dyn_cast<MeshTensorType>(type))
          if (failed(meshTensor.verifyForTopology(op))) {
            valid = false;
            return;
          }
    };
    verify(function, function.getBody().front().getArgumentTypes());
    for (Block *block : getBlocksWithFragments(function))
      for (Operation &op : *block)
        if (isa<FragmentOp, TransferOp, ForOp>(op))
          verify(&op, op.getResultTypes());
    return valid;
  }

  void convertFragment(FragmentOp fragment) {
    // An operand whose consumer asks for a sharding is retyped with it: the
    // last consumer to ask wins, as upstream decides.
    if (sdy::TensorShardingPerValueAttr in = fragment.getInShardingsAttr()) {
      for (auto [sharding, operand] :
           llvm::zip(in.getShardings(), fragment->getOperands()))
        if (!isUnconstrained(sharding))
          operand.setType(withSharding(operand.getType(), sharding));
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
  }

  /// A loop-carried value has one type: operand, block argument and result
  /// take the loop's sharding for it.
  void convertLoop(ForOp loop) {
    auto shardings = loop->getAttrOfType<sdy::TensorShardingPerValueAttr>(
        kShardingAttrName);
    if (!shardings)
      return;
    Block &body = loop.getRegion().front();
    for (auto [index, sharding] : llvm::enumerate(shardings.getShardings())) {
      if (isUnconstrained(sharding))
        continue;
      for (Value value : {loop->getOperand(index),
                          Value(body.getArgument(index)),
                          Value(loop->getResult(index))})
        value.setType(withSharding(value.getType(), sharding));
    }
    loop->removeAttr(kShardingAttrName);
  }

  /// One value carried by a loop at two places (or by two loops) with
  /// different shardings cannot take both types.
  bool verifyLoopCarriedTypes(ForOp loop) {
    for (auto [index, operand, result] :
         llvm::enumerate(loop->getOperands(), loop->getResults()))
      if (operand.getType() != result.getType()) {
        loop.emitError() << "loop-carried value #" << index
                         << " is carried with sharding "
                         << describe(getTypeSharding(result.getType()))
                         << " but its operand has "
                         << describe(getTypeSharding(operand.getType()))
                         << ", which another loop-carried use of the same "
                            "value asks for";
        return false;
      }
    return true;
  }

  TransferOp convertTransfer(TransferOp transfer) {
    if (auto shardings = transfer->getAttrOfType<sdy::TensorShardingPerValueAttr>(
            kShardingAttrName)) {
      if (shardings.getShardings().size() == 1)
        transfer->getResult(0).setType(withSharding(
            transfer.getType(), shardings.getShardings().front()));
      transfer->removeAttr(kShardingAttrName);
    }
    return transfer;
  }

  /// Reports `transfer` when its operand and result shardings differ on one
  /// sdy mesh (replicated is on any mesh): resharding is not a transfer.
  void reportReshardingTransfer(TransferOp transfer) {
    sdy::TensorShardingAttr source =
        getTypeSharding(transfer.getTensor().getType());
    sdy::TensorShardingAttr target = getTypeSharding(transfer.getType());
    if (source == target ||
        (source && target && source.getMeshOrRef() != target.getMeshOrRef()))
      return;
    // Between meshes of different shapes the shards are laid out anew
    // anyway: no sdy mesh is shared.
    auto sourceType = cast<MeshTensorType>(transfer.getTensor().getType());
    auto targetType = cast<MeshTensorType>(transfer.getType());
    if (TopologyAttr topology = getTopology(transfer)) {
      auto meshOf = [&](StringRef name) {
        for (NamedMeshAttr mesh : topology.getMeshes())
          if (mesh.getName() == name)
            return mesh.getMesh();
        return sdy::MeshAttr();
      };
      if (meshOf(sourceType.getMeshName()) != meshOf(targetType.getMeshName()))
        return;
    }
    transfer.emitError() << "transfers from " << describe(source) << " to "
                         << describe(target)
                         << " on one mesh: a reshard is not a transfer";
  }
};

} // namespace
} // namespace mlir::mpmd
