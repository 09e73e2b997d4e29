//===- ResolveSingleDeviceSharding.cpp - -sdy-resolve-single-device-sharding =//
//
// An op sharded on a single device (a maximal mesh `<[], device_ids=[D]>`)
// runs on device D only: every device evaluates `device id == D` and runs
// the op, or produces zeros, under a `stablehlo.if`; an all-reduce over the
// global mesh then gives every device the op's results.
//
//===----------------------------------------------------------------------===//

#include "../Propagation/ShardingUtils.h"
#include "DeviceIds.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_RESOLVESINGLEDEVICESHARDINGPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

/// The device of `sharding` if it is on a maximal mesh.
std::optional<int64_t> getSingleDevice(TensorShardingAttr sharding,
                                       Operation *context) {
  if (!sharding)
    return std::nullopt;
  MeshAttr mesh = sharding.getMesh(context);
  if (!mesh || !isMaximalMesh(mesh))
    return std::nullopt;
  return mesh.getDeviceIds().front();
}

/// The global mesh: the first `sdy.mesh` of the module with axes.
MeshOp findGlobalMesh(ModuleOp module) {
  for (auto mesh : module.getOps<MeshOp>())
    if (!mesh.getMesh().getAxes().empty())
      return mesh;
  return {};
}

/// The closed, fully replicated sharding of a rank-`rank` tensor on `mesh`.
TensorShardingAttr getReplicated(MeshOp mesh, int64_t rank) {
  MLIRContext *ctx = mesh.getContext();
  SmallVector<DimensionShardingAttr> dims(
      rank, DimensionShardingAttr::get(ctx, {}, /*isClosed=*/true,
                                       std::nullopt));
  return TensorShardingAttr::get(
      ctx, FlatSymbolRefAttr::get(mesh.getSymNameAttr()), dims, {}, {});
}

class ResolveSingleDeviceShardingPass
    : public impl::ResolveSingleDeviceShardingPassBase<
          ResolveSingleDeviceShardingPass> {
  using ResolveSingleDeviceShardingPassBase::
      ResolveSingleDeviceShardingPassBase;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (replicaCount > 1 && partitionCount > 1) {
      function.emitOpError()
          << "-sdy-resolve-single-device-sharding takes replica-count ("
          << static_cast<int64_t>(replicaCount) << ") or partition-count ("
          << static_cast<int64_t>(partitionCount)
          << ") above 1, not both";
      return signalPassFailure();
    }

    // The outermost ops with a single-device result, and their device.
    SmallVector<std::pair<Operation *, int64_t>> singleDeviceOps;
    WalkResult walked = function.walk<WalkOrder::PreOrder>(
        [&](Operation *op) -> WalkResult {
          if (op == function || isa<SdyDialect>(op->getDialect()))
            return WalkResult::advance();
          auto shardings = op->getAttrOfType<TensorShardingPerValueAttr>(
              SdyDialect::kShardingAttrName);
          if (!shardings)
            return WalkResult::advance();
          std::optional<int64_t> device;
          for (auto [index, sharding] :
               llvm::enumerate(shardings.getShardings())) {
            std::optional<int64_t> onDevice = getSingleDevice(sharding, op);
            if (!onDevice)
              continue;
            if (device && *device != *onDevice) {
              op->emitOpError() << "has results on single devices " << *device
                                << " and " << *onDevice
                                << "; an op runs on at most one device";
              return WalkResult::interrupt();
            }
            device = onDevice;
          }
          if (!device)
            return WalkResult::advance();
          for (auto [index, sharding] :
               llvm::enumerate(shardings.getShardings()))
            if (!getSingleDevice(sharding, op) &&
                !sharding.isFullyReplicated()) {
              op->emitOpError()
                  << "runs on device " << *device << " but result #" << index
                  << " has sharding " << sharding
                  << "; the other results of a single-device op must be "
                     "replicated";
              return WalkResult::interrupt();
            }
          singleDeviceOps.emplace_back(op, *device);
          return WalkResult::skip();
        });
    if (walked.wasInterrupted())
      return signalPassFailure();
    if (singleDeviceOps.empty())
      return;

    MeshOp globalMesh =
        findGlobalMesh(function->getParentOfType<ModuleOp>());
    OpBuilder builder(&getContext());
    // The device id, computed once at the top of the function.
    builder.setInsertionPointToStart(&function.getBody().front());
    Value deviceId =
        buildDeviceId(builder, function.getLoc(), replicaCount > 1);

    for (auto [op, device] : singleDeviceOps)
      if (failed(rewrite(builder, op, device, deviceId, globalMesh)))
        return signalPassFailure();

    // The reshards that moved operands onto the device have no users left.
    function.walk([](ReshardOp reshard) {
      if (reshard.use_empty() && getSingleDevice(reshard.getSharding(), reshard))
        reshard.erase();
    });
  }

  LogicalResult rewrite(OpBuilder &builder, Operation *op, int64_t device,
                        Value deviceId, MeshOp globalMesh) {
    Location loc = op->getLoc();
    builder.setInsertionPoint(op);
    auto i64Scalar = RankedTensorType::get({}, builder.getI64Type());
    Value target = stablehlo::ConstantOp::create(
        builder, loc, i64Scalar,
        DenseElementsAttr::get(i64Scalar, builder.getI64IntegerAttr(device)));
    Value onDevice = stablehlo::CompareOp::create(
        builder, loc, RankedTensorType::get({}, builder.getI1Type()), deviceId,
        target,
        stablehlo::ComparisonDirectionAttr::get(
            builder.getContext(), stablehlo::ComparisonDirection::EQ),
        stablehlo::ComparisonTypeAttr::get(builder.getContext(),
                                           stablehlo::ComparisonType::SIGNED));
    auto guarded = stablehlo::IfOp::create(builder, loc, op->getResultTypes(),
                                           onDevice);

    // On the device: the op itself, reading what the single-device reshards
    // of its operands read.
    builder.createBlock(&guarded.getTrueBranch());
    IRMapping mapping;
    for (Value operand : op->getOperands())
      if (auto reshard = operand.getDefiningOp<ReshardOp>())
        if (getSingleDevice(reshard.getSharding(), reshard))
          mapping.map(operand, reshard.getInput());
    Operation *clone = builder.clone(*op, mapping);
    clone->removeAttr(SdyDialect::kShardingAttrName);
    stablehlo::ReturnOp::create(builder, loc, clone->getResults());

    // Elsewhere: zeros, which the all-reduce adds to the device's values.
    builder.createBlock(&guarded.getFalseBranch());
    SmallVector<Value> zeros;
    for (Type type : op->getResultTypes()) {
      if (isa<stablehlo::TokenType>(type)) {
        zeros.push_back(stablehlo::CreateTokenOp::create(builder, loc));
        continue;
      }
      auto tensor = dyn_cast<RankedTensorType>(type);
      Attribute zero =
          tensor ? builder.getZeroAttr(tensor) : Attribute();
      if (!zero)
        return op->emitOpError()
               << "runs on a single device but its result type " << type
               << " has no zero value for the other devices";
      zeros.push_back(stablehlo::ConstantOp::create(
          builder, loc, tensor, cast<ElementsAttr>(zero)));
    }
    stablehlo::ReturnOp::create(builder, loc, zeros);

    builder.setInsertionPointAfter(guarded);
    for (auto [result, value] :
         llvm::zip(op->getResults(), guarded.getResults())) {
      Value replicated = value;
      TensorShardingAttr sharding;
      auto tensor = dyn_cast<RankedTensorType>(value.getType());
      if (globalMesh && tensor) {
        sharding = getReplicated(globalMesh, tensor.getRank());
        SmallVector<AxisRefAttr> axes;
        for (MeshAxisAttr axis : globalMesh.getMesh().getAxes())
          axes.push_back(
              AxisRefAttr::get(builder.getContext(), axis.getName(), {}));
        replicated = AllReduceOp::create(
            builder, loc, value,
            AxisRefListAttr::get(builder.getContext(), axes), sharding);
      }
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        auto reshard = dyn_cast<ReshardOp>(use.getOwner());
        if (reshard && sharding && reshard.getSharding() == sharding) {
          reshard.getResult().replaceAllUsesWith(replicated);
          reshard.erase();
          continue;
        }
        use.set(replicated);
      }
    }
    op->erase();
    return success();
  }
};

} // namespace
} // namespace mlir::sdy
