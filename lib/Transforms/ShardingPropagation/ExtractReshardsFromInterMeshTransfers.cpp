//===- ExtractReshardsFromInterMeshTransfers.cpp --------------------------===//
//
// -mpmd-extract-reshards-from-inter-mesh-transfers
//
// A transfer whose operand and result shardings differ would reshard while
// copying between meshes; the runtime's transfers only copy shards. The
// reshard becomes an identity fragment (a program of its own, compiled like
// any other) on the side where it moves the fewest bytes between meshes.
//
//===----------------------------------------------------------------------===//

#include "ShardingUtils.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"

#include "mlir/IR/Builders.h"

#include <limits>

namespace mlir::mpmd {
#define GEN_PASS_DEF_EXTRACTRESHARDSFROMINTERMESHTRANSFERSPASS
#include "mpmd/Transforms/ShardingPropagation/Passes.h.inc"

namespace {

constexpr StringLiteral kShardingAttrName = sdy::SdyDialect::kShardingAttrName;
constexpr StringLiteral kExtractReshards = "extract_reshards";

/// The sharding of `value` after propagation, canonical (null: replicated):
/// the attribute that holds it (a function argument's `sdy.sharding`, a
/// fragment's `out_shardings`, a transfer's `sdy.sharding`) or its type.
sdy::TensorShardingAttr getSharding(Value value) {
  sdy::TensorShardingAttr sharding;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      sharding = function.getArgAttrOfType<sdy::TensorShardingAttr>(
          arg.getArgNumber(), kShardingAttrName);
  } else if (auto fragment = value.getDefiningOp<FragmentOp>()) {
    sdy::TensorShardingPerValueAttr out = fragment.getOutShardingsAttr();
    if (out && out.getShardings().size() == fragment->getNumResults())
      sharding = out.getShardings()[cast<OpResult>(value).getResultNumber()];
  } else if (auto transfer = value.getDefiningOp<TransferOp>()) {
    auto shardings = transfer->getAttrOfType<sdy::TensorShardingPerValueAttr>(
        kShardingAttrName);
    if (shardings && shardings.getShardings().size() == 1)
      sharding = shardings.getShardings().front();
  }
  return sharding ? canonicalizeSharding(sharding)
                  : getTypeSharding(value.getType());
}

/// Elements of one shard of `type` under `sharding` on `mesh`; counts past
/// int64 compare as the largest.
int64_t getLocalNumElements(MeshTensorType type,
                            sdy::TensorShardingAttr sharding,
                            sdy::MeshAttr mesh) {
  ArrayRef<int64_t> shape = type.getRankedTensorType().getShape();
  SmallVector<int64_t> localShape =
      sharding ? sharding.getLocalShape(mesh, shape) : llvm::to_vector(shape);
  return checkedProduct(localShape)
      .value_or(std::numeric_limits<int64_t>::max());
}

/// An identity fragment on the mesh of `operand` whose result has `type`
/// (carrying the new sharding).
FragmentOp createReshardFragment(OpBuilder &builder, Location loc,
                                 Value operand, Type type) {
  FragmentOp fragment = createFragment(
      builder, loc, cast<MeshTensorType>(operand.getType()).getMeshName(),
      builder.getArrayAttr({}), operand, type,
      [](OpBuilder &, ValueRange args) { return SmallVector<Value>(args); });
  addInferredBy(fragment, kExtractReshards);
  return fragment;
}

bool isHomogeneous(TopologyAttr topology) {
  return llvm::all_of(topology.getMeshes(), [&](NamedMeshAttr mesh) {
    return mesh.getMesh() == topology.getMeshes().front().getMesh();
  });
}

class ExtractReshardsFromInterMeshTransfersPass
    : public impl::ExtractReshardsFromInterMeshTransfersPassBase<
          ExtractReshardsFromInterMeshTransfersPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    TopologyAttr topology = getTopology(function);
    if (!isMpmdFunction(function) || !topology)
      return;
    bool homogeneous = isHomogeneous(topology);
    SmallVector<TransferOp> transfers(
        function.getBody().front().getOps<TransferOp>());
    for (TransferOp transfer : transfers) {
      Value operand = transfer.getTensor();
      sdy::TensorShardingAttr source = getSharding(operand);
      sdy::TensorShardingAttr target = getSharding(transfer.getResult());
      if (source == target)
        continue;
      OpBuilder builder(transfer);
      Type resultType = withSharding(transfer.getType(), target);
      if (transfer.isIntraMesh()) {
        // Nothing crosses: the transfer is the reshard.
        FragmentOp reshard = createReshardFragment(builder, transfer.getLoc(),
                                                   operand, resultType);
        transfer.getResult().replaceAllUsesWith(reshard->getResult(0));
        transfer.erase();
        continue;
      }
      // Local sizes are only comparable when the meshes are alike.
      if (!homogeneous)
        continue;
      auto sourceType = cast<MeshTensorType>(operand.getType());
      sdy::MeshAttr mesh = topology.getMesh(sourceType.getMeshName());
      transfer->removeAttr(kShardingAttrName);
      if (getLocalNumElements(sourceType, source, mesh) >
          getLocalNumElements(sourceType, target, mesh)) {
        // Smaller shards cross: reshard on the source mesh first.
        FragmentOp reshard = createReshardFragment(
            builder, transfer.getLoc(), operand,
            withSharding(sourceType, target));
        transfer.getTensorMutable().assign(reshard->getResult(0));
        transfer->getResult(0).setType(resultType);
        continue;
      }
      // The shards cross as they are; reshard on the destination mesh.
      transfer->getResult(0).setType(withSharding(transfer.getType(), source));
      builder.setInsertionPointAfter(transfer);
      FragmentOp reshard = createReshardFragment(
          builder, transfer.getLoc(), transfer.getResult(), resultType);
      transfer.getResult().replaceAllUsesExcept(reshard->getResult(0),
                                                reshard);
    }
    // Outputs may now have their sharding in their type.
    function.setType(FunctionType::get(
        &getContext(), function.getArgumentTypes(),
        function.getBody().front().getTerminator()->getOperandTypes()));
  }
};

} // namespace
} // namespace mlir::mpmd
