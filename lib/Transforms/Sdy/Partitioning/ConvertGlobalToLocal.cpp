//===- ConvertGlobalToLocal.cpp - -sdy-convert-global-to-local ------------===//
//
// Rewrites a globally typed, sharded program into the program each device
// runs: local types everywhere and StableHLO collectives in place of the
// sdy ones. Ops are visited once, in program order (regions before the op
// that holds them), so every operand already has its local type when its
// user is converted; most ops only get new result types, the collectives
// and the ops whose attributes depend on sizes are rebuilt.
//
//===----------------------------------------------------------------------===//

#include "../Propagation/ShardingUtils.h"
#include "DeviceIds.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CONVERTGLOBALTOLOCALPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

using DimAxes = SmallVector<SmallVector<AxisRefAttr>>;

/// The axes of every dimension of `sharding`, major to minor.
DimAxes getDimAxes(TensorShardingAttr sharding, int64_t rank) {
  DimAxes axes(rank);
  if (!sharding)
    return axes;
  for (auto [index, dim] : llvm::enumerate(sharding.getDimShardings()))
    if (static_cast<int64_t>(index) < rank)
      axes[index].assign(dim.getAxes().begin(), dim.getAxes().end());
  return axes;
}

RankedTensorType getI64ScalarType(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 64));
}

/// Converts one module; see the pass description.
class GlobalToLocalConverter {
public:
  GlobalToLocalConverter(ModuleOp module, bool perDimAllGather,
                         bool combineReduceScatter, bool enableRgv3,
                         bool useReplicaId)
      : module(module), perDimAllGather(perDimAllGather),
        combineReduceScatter(combineReduceScatter), enableRgv3(enableRgv3),
        useReplicaId(useReplicaId), channels(module) {}

  LogicalResult convertSignature(func::FuncOp function);
  LogicalResult convertBody(func::FuncOp function) {
    if (function.isExternal())
      return success();
    return convertRegion(function.getBody());
  }

private:
  // Types.
  TensorShardingAttr getShardingOf(Value value);
  MeshAttr getMesh(TensorShardingAttr sharding, Operation *anchor);
  /// getMesh, for building replica groups or lookup tables: one entry per
  /// device, so meshes above kMaxListedDevices are an error on `anchor`.
  MeshAttr getListableMesh(TensorShardingAttr sharding, Operation *anchor);
  /// The type of a value of `type` on each device under `sharding`; an
  /// error at `loc` naming `what` when a sharded dimension does not divide.
  FailureOr<Type> getLocalType(Type type, TensorShardingAttr sharding,
                               Operation *anchor, Location loc,
                               const Twine &what = "the value");
  LogicalResult setLocalResultTypes(Operation *op);

  // Traversal.
  LogicalResult convertRegion(Region &region);
  LogicalResult convertOp(Operation *op);
  LogicalResult convertStablehloOp(Operation *op);

  // Building blocks.
  Value buildDeviceId(OpBuilder &builder, Location loc) {
    return sdy::buildDeviceId(builder, loc, useReplicaId);
  }
  Value buildReshape(OpBuilder &builder, Location loc, Value value,
                     ArrayRef<int64_t> shape);
  Value buildTranspose(OpBuilder &builder, Location loc, Value value,
                       ArrayRef<int64_t> permutation);
  Value buildShardSlice(OpBuilder &builder, Location loc, Value value,
                        const MeshDevices &devices, const DimAxes &axes,
                        ArrayRef<int64_t> localShape);
  FailureOr<DenseIntElementsAttr>
  buildReplicaGroups(Operation *op, const MeshDevices &devices,
                     ArrayRef<AxisRefAttr> axes);
  hlo::ChannelHandleAttr takeChannel() {
    return channels.takeDeviceToDevice(module.getContext());
  }
  /// A body combining two scalars of `elementType` by `kind` (add, maximum
  /// or minimum).
  void buildReductionBody(OpBuilder &builder, Region &region, Type elementType,
                          ReductionKind kind, Location loc);

  // sdy ops.
  LogicalResult convertAllGather(AllGatherOp op);
  LogicalResult convertAllSlice(AllSliceOp op);
  LogicalResult convertAllReduce(AllReduceOp op);
  LogicalResult convertReduceScatter(ReduceScatterOp op);
  LogicalResult convertAllToAll(AllToAllOp op);
  LogicalResult convertCollectivePermute(CollectivePermuteOp op);
  LogicalResult convertConstant(Operation *op, ElementsAttr value);
  LogicalResult inlineManualComputation(ManualComputationOp op);

  // StableHLO ops with size-dependent attributes or sharding conditions.
  LogicalResult convertIota(hlo::IotaOp op);
  LogicalResult convertRngBitGenerator(hlo::RngBitGeneratorOp op);
  LogicalResult convertSlice(hlo::SliceOp op);
  LogicalResult convertPad(hlo::PadOp op);
  LogicalResult checkContractingFollowedByAllReduce(
      Operation *op, Value lhs, ArrayRef<int64_t> lhsContractingDims);
  LogicalResult convertConvolution(hlo::ConvolutionOp op);
  LogicalResult checkIndexedDims(Operation *op, Value operand,
                                 ArrayRef<int64_t> indexedDims, Value indices,
                                 int64_t indexVectorDim);
  LogicalResult convertGather(hlo::GatherOp op);
  LogicalResult checkScatter(hlo::ScatterOp op);
  LogicalResult checkWindowsStayLocal(Operation *op, Value input,
                                      Type localOutput,
                                      ArrayRef<int64_t> window,
                                      std::optional<ArrayRef<int64_t>> strides,
                                      std::optional<ArrayRef<int64_t>> baseDil,
                                      std::optional<ArrayRef<int64_t>> winDil,
                                      std::optional<DenseIntElementsAttr> pad);

  /// Replaces the values of `op` by `local` (of its sharding `sharding`) and
  /// erases `op` (unless `local` is computed from it).
  void replace(Operation *op, Value local, TensorShardingAttr sharding) {
    replacementShardings[local] = sharding;
    if (local.getDefiningOp() != op)
      op->getResult(0).replaceAllUsesExcept(local, local.getDefiningOp());
    if (op->use_empty())
      op->erase();
  }

  ModuleOp module;
  /// Shardings of the values that replaced sharded values: they are not
  /// written on the ops that compute them.
  DenseMap<Value, TensorShardingAttr> replacementShardings;
  bool perDimAllGather, combineReduceScatter, enableRgv3, useReplicaId;
  ChannelCounter channels;
};

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

TensorShardingAttr GlobalToLocalConverter::getShardingOf(Value value) {
  if (TensorShardingAttr sharding = replacementShardings.lookup(value))
    return sharding;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return getSharding(value);
  Operation *parent = arg.getOwner()->getParentOp();
  unsigned index = arg.getArgNumber();
  auto fromList = [&](TensorShardingPerValueAttr shardings) {
    if (!shardings || index >= shardings.getShardings().size())
      return TensorShardingAttr();
    return shardings.getShardings()[index];
  };
  return TypeSwitch<Operation *, TensorShardingAttr>(parent)
      .Case<func::FuncOp>([&](auto) { return getSharding(value); })
      .Case<NamedComputationOp>(
          [&](auto op) { return fromList(op.getInShardingsAttr()); })
      .Case<ManualComputationOp>([&](auto op) {
        TensorShardingAttr sharding = fromList(op.getInShardings());
        return sharding ? stripManualAxes(sharding, op.getManualAxes())
                        : sharding;
      })
      // The loop-carried values have the shardings of the loop results.
      .Case<hlo::WhileOp>([&](auto op) {
        return index < op->getNumResults() ? getSharding(op->getResult(index))
                                           : TensorShardingAttr();
      })
      .Default([](Operation *) { return TensorShardingAttr(); });
}

MeshAttr GlobalToLocalConverter::getMesh(TensorShardingAttr sharding,
                                         Operation *anchor) {
  MeshAttr mesh = sharding.getMesh(anchor);
  if (!mesh)
    anchor->emitError() << "sharding " << sharding
                        << " names a mesh that does not exist";
  return mesh;
}

/// Replica groups and device tables list every device: bound their size
/// (8 MiB of ids) so that a mesh of absurd size is an error, not an abort.
constexpr int64_t kMaxListedDevices = int64_t(1) << 20;

MeshAttr GlobalToLocalConverter::getListableMesh(TensorShardingAttr sharding,
                                                 Operation *anchor) {
  MeshAttr mesh = getMesh(sharding, anchor);
  if (mesh && mesh.getTotalSize() > kMaxListedDevices) {
    anchor->emitError() << "mesh of " << mesh.getTotalSize()
                        << " devices is too large to list its devices (at "
                           "most "
                        << kMaxListedDevices << ")";
    return MeshAttr();
  }
  return mesh;
}

FailureOr<Type> GlobalToLocalConverter::getLocalType(Type type,
                                                     TensorShardingAttr sharding,
                                                     Operation *anchor,
                                                     Location loc,
                                                     const Twine &what) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!sharding || !tensorType)
    return type;
  MeshAttr mesh = getMesh(sharding, anchor);
  if (!mesh)
    return failure();
  if (static_cast<int64_t>(sharding.getDimShardings().size()) !=
      tensorType.getRank())
    return emitError(loc) << "sharding " << sharding << " of " << what
                          << " does not match " << type << " (rank "
                          << tensorType.getRank() << ")";
  SmallVector<int64_t> shape(tensorType.getShape());
  for (auto [index, dim] : llvm::enumerate(sharding.getDimShardings())) {
    int64_t shards = dim.getShardedSize(mesh);
    if (ShapedType::isDynamic(shape[index]))
      return emitError(loc) << "dimension " << index << " of " << what
                            << " (" << type
                            << ") is dynamic; only static shapes can be "
                               "made local";
    if (shards <= 1)
      continue;
    if (shape[index] % shards != 0)
      return emitError(loc)
             << "dimension " << index << " of " << what << " (" << type
             << ") has size " << shape[index] << ", not divisible by its "
             << shards << " shards in " << sharding
             << "; run -sdy-pad-for-divisibility first";
    shape[index] /= shards;
  }
  return Type(tensorType.clone(shape));
}

LogicalResult GlobalToLocalConverter::setLocalResultTypes(Operation *op) {
  for (OpResult result : op->getResults()) {
    FailureOr<Type> local =
        getLocalType(result.getType(), getShardingOf(result), op, op->getLoc(),
                     "result #" + Twine(result.getResultNumber()));
    if (failed(local))
      return failure();
    result.setType(*local);
  }
  return success();
}

LogicalResult GlobalToLocalConverter::convertSignature(func::FuncOp function) {
  SmallVector<Type> inputs, outputs;
  for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i) {
    Type type = function.getArgumentTypes()[i];
    auto sharding = function.getArgAttrOfType<TensorShardingAttr>(
        i, SdyDialect::kShardingAttrName);
    Location loc = function.isExternal() ? function.getLoc()
                                         : function.getArgument(i).getLoc();
    FailureOr<Type> local = getLocalType(type, sharding, function, loc,
                                         "argument #" + Twine(i));
    if (failed(local))
      return failure();
    inputs.push_back(*local);
    if (!function.isExternal())
      function.getArgument(i).setType(*local);
  }
  for (unsigned i = 0, e = function.getNumResults(); i < e; ++i) {
    auto sharding = function.getResultAttrOfType<TensorShardingAttr>(
        i, SdyDialect::kShardingAttrName);
    FailureOr<Type> local =
        getLocalType(function.getResultTypes()[i], sharding, function,
                     function.getLoc(), "result #" + Twine(i));
    if (failed(local))
      return failure();
    outputs.push_back(*local);
  }
  function.setFunctionType(
      FunctionType::get(function.getContext(), inputs, outputs));
  return success();
}

//===----------------------------------------------------------------------===//
// Traversal
//===----------------------------------------------------------------------===//

LogicalResult GlobalToLocalConverter::convertRegion(Region &region) {
  for (Block &block : region) {
    // Entry arguments of functions are converted with the signature.
    if (!isa<func::FuncOp>(region.getParentOp()))
      for (BlockArgument arg : block.getArguments()) {
        FailureOr<Type> local =
            getLocalType(arg.getType(), getShardingOf(arg),
                         region.getParentOp(), arg.getLoc());
        if (failed(local))
          return failure();
        arg.setType(*local);
      }
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(convertOp(&op)))
        return failure();
  }
  return success();
}

LogicalResult GlobalToLocalConverter::convertOp(Operation *op) {
  if (auto manual = dyn_cast<ManualComputationOp>(op)) {
    if (failed(convertRegion(manual.getBody())))
      return failure();
    return inlineManualComputation(manual);
  }
  for (Region &region : op->getRegions())
    if (failed(convertRegion(region)))
      return failure();

  if (isa<SdyDialect>(op->getDialect())) {
    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](AllGatherOp op) { return convertAllGather(op); })
        .Case([&](AllSliceOp op) { return convertAllSlice(op); })
        .Case([&](AllReduceOp op) { return convertAllReduce(op); })
        .Case([&](ReduceScatterOp op) { return convertReduceScatter(op); })
        .Case([&](AllToAllOp op) { return convertAllToAll(op); })
        .Case([&](CollectivePermuteOp op) {
          return convertCollectivePermute(op);
        })
        .Case([&](ConstantOp op) { return convertConstant(op, op.getValue()); })
        .Case([&](NamedComputationOp op) { return setLocalResultTypes(op); })
        .Case([&](ReturnOp) { return success(); })
        .Case([&](ReshardOp op) {
          return op.emitError()
                 << "'sdy.reshard' is left; run -sdy-reshard-to-collectives "
                    "before -sdy-convert-global-to-local";
        })
        .Default([&](Operation *op) {
          return op->emitError()
                 << "'" << op->getName()
                 << "' is not supported by -sdy-convert-global-to-local";
        });
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee)
      return call.emitError() << "calls an unknown function";
    for (auto [result, type] :
         llvm::zip(call.getResults(), callee.getResultTypes()))
      result.setType(type);
    return success();
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    auto function = ret->getParentOfType<func::FuncOp>();
    for (auto [index, types] : llvm::enumerate(
             llvm::zip(ret.getOperandTypes(), function.getResultTypes())))
      if (std::get<0>(types) != std::get<1>(types))
        return ret.emitError()
               << "returns " << std::get<0>(types) << " as result #" << index
               << ", whose sharding makes it " << std::get<1>(types)
               << " on each device";
    return success();
  }
  if (isa<hlo::StablehloDialect>(op->getDialect()))
    return convertStablehloOp(op);
  // Other dialects: fine as long as nothing is sharded.
  for (OpResult result : op->getResults())
    if (TensorShardingAttr sharding = getShardingOf(result))
      if (!sharding.isFullyReplicated())
        return op->emitError()
               << "'" << op->getName()
               << "' with a sharded result is not supported by "
                  "-sdy-convert-global-to-local";
  return success();
}

/// Whether only the result types of `op` depend on the sizes of its
/// values: giving it local result types is all the conversion needs.
bool onlyTypesDependOnSizes(Operation *op) {
  if (op->hasTrait<hlo::OpTrait::CompatibleOperandsAndResultType>() ||
      op->hasTrait<OpTrait::SameOperandsAndResultShape>())
    return true;
  return isa<hlo::ClampOp, hlo::SelectOp, hlo::CompareOp, hlo::ConvertOp,
             hlo::BitcastConvertOp, hlo::TransposeOp, hlo::BroadcastInDimOp,
             hlo::ReshapeOp, hlo::ReduceOp, hlo::WhileOp, hlo::IfOp,
             hlo::CaseOp, hlo::OptimizationBarrierOp, hlo::ReturnOp,
             hlo::AllReduceOp, hlo::AllGatherOp,
             hlo::ReduceScatterOp, hlo::AllToAllOp, hlo::CollectivePermuteOp,
             hlo::CollectiveBroadcastOp, hlo::PartitionIdOp, hlo::ReplicaIdOp,
             hlo::CreateTokenOp, hlo::AfterAllOp, hlo::CustomCallOp>(op);
}

LogicalResult GlobalToLocalConverter::convertStablehloOp(Operation *op) {
  if (auto constant = dyn_cast<hlo::ConstantOp>(op))
    return convertConstant(op, constant.getValue());
  if (auto iota = dyn_cast<hlo::IotaOp>(op))
    return convertIota(iota);
  if (auto rng = dyn_cast<hlo::RngBitGeneratorOp>(op))
    return convertRngBitGenerator(rng);
  if (auto slice = dyn_cast<hlo::SliceOp>(op))
    return convertSlice(slice);
  if (auto pad = dyn_cast<hlo::PadOp>(op))
    return convertPad(pad);
  if (auto conv = dyn_cast<hlo::ConvolutionOp>(op))
    return convertConvolution(conv);

  SmallVector<Type> globalTypes(op->getResultTypes());
  if (failed(setLocalResultTypes(op)))
    return failure();
  bool changed = globalTypes != SmallVector<Type>(op->getResultTypes()) ||
                 llvm::any_of(op->getOperands(), [&](Value operand) {
                   return getShardingOf(operand) &&
                          !getShardingOf(operand).isFullyReplicated();
                 });
  if (!changed)
    return success();

  if (auto concat = dyn_cast<hlo::ConcatenateOp>(op)) {
    int64_t dim = concat.getDimension();
    for (Value value : llvm::concat<Value>(concat.getInputs(),
                                           concat->getResults())) {
      TensorShardingAttr sharding = getShardingOf(value);
      if (sharding && !getDimAxes(sharding, dim + 1)[dim].empty())
        return concat.emitError()
               << "concatenates along dimension " << dim
               << ", which is sharded; -sdy-insert-explicit-reshards should "
                  "have made it replicated";
    }
    return success();
  }
  if (auto dot = dyn_cast<hlo::DotGeneralOp>(op))
    return checkContractingFollowedByAllReduce(
        op, dot.getLhs(),
        dot.getDotDimensionNumbers().getLhsContractingDimensions());
  if (auto dot = dyn_cast<hlo::DotOp>(op)) {
    int64_t rank = cast<RankedTensorType>(dot.getLhs().getType()).getRank();
    int64_t lastDim = rank - 1;
    return checkContractingFollowedByAllReduce(op, dot.getLhs(), {lastDim});
  }
  // Dynamic slices and updates stay local on a sharded dimension they
  // cover entirely: equal axes and equal local sizes on both sides.
  auto coversShardedDims = [&](Value whole, Value part) -> LogicalResult {
    auto wholeType = cast<RankedTensorType>(whole.getType());
    auto partType = cast<RankedTensorType>(part.getType());
    DimAxes wholeAxes = getDimAxes(getShardingOf(whole), wholeType.getRank());
    DimAxes partAxes = getDimAxes(getShardingOf(part), wholeType.getRank());
    for (int64_t d = 0; d < wholeType.getRank(); ++d)
      if ((!wholeAxes[d].empty() || !partAxes[d].empty()) &&
          (wholeAxes[d] != partAxes[d] ||
           wholeType.getDimSize(d) != partType.getDimSize(d)))
        return op->emitError()
               << "takes part of sharded dimension " << d
               << "; only whole sharded dimensions stay local";
    return success();
  };
  if (auto slice = dyn_cast<hlo::DynamicSliceOp>(op)) {
    if (failed(coversShardedDims(slice.getOperand(), slice.getResult())))
      return failure();
    slice.setSliceSizes(cast<RankedTensorType>(slice.getType()).getShape());
    return success();
  }
  if (auto update = dyn_cast<hlo::DynamicUpdateSliceOp>(op))
    return coversShardedDims(update.getOperand(), update.getUpdate());
  if (auto window = dyn_cast<hlo::ReduceWindowOp>(op)) {
    return checkWindowsStayLocal(
        op, window.getInputs().front(), window->getResultTypes().front(),
        window.getWindowDimensions(), window.getWindowStrides(),
        window.getBaseDilations(), window.getWindowDilations(),
        window.getPadding());
  }
  if (auto scatter = dyn_cast<hlo::SelectAndScatterOp>(op)) {
    SmallVector<int64_t> ones(
        cast<RankedTensorType>(scatter.getOperand().getType()).getRank(), 1);
    ArrayRef<int64_t> window = scatter.getWindowDimensions()
                                   ? *scatter.getWindowDimensions()
                                   : ArrayRef<int64_t>(ones);
    return checkWindowsStayLocal(op, scatter.getOperand(),
                                 scatter.getSource().getType(), window,
                                 scatter.getWindowStrides(), std::nullopt,
                                 std::nullopt, scatter.getPadding());
  }
  // Reversing or sorting a sharded dimension moves data between devices.
  auto checkDimsUnsharded = [&](Value value, ArrayRef<int64_t> dims,
                                StringRef action) -> LogicalResult {
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    DimAxes axes = getDimAxes(getShardingOf(value), rank);
    for (int64_t dim : dims)
      if (dim >= 0 && dim < rank && !axes[dim].empty())
        return op->emitError()
               << action << " sharded dimension " << dim
               << "; -sdy-insert-explicit-reshards should have replicated it";
    return success();
  };
  if (auto reverse = dyn_cast<hlo::ReverseOp>(op))
    return checkDimsUnsharded(reverse.getOperand(), reverse.getDimensions(),
                              "reverses");
  if (auto sort = dyn_cast<hlo::SortOp>(op)) {
    Value input = sort.getInputs().front();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    // `dimension` is an I64Attr, read back as unsigned: -1 is the last.
    auto dim = static_cast<int64_t>(sort.getDimension());
    if (dim < 0)
      dim += rank;
    return checkDimsUnsharded(input, {dim}, "sorts along");
  }
  if (auto gather = dyn_cast<hlo::GatherOp>(op))
    return convertGather(gather);
  if (auto scatter = dyn_cast<hlo::ScatterOp>(op))
    return checkScatter(scatter);
  if (onlyTypesDependOnSizes(op))
    return success();
  return op->emitError() << "'" << op->getName()
                         << "' with a sharded operand or result is not "
                            "supported by -sdy-convert-global-to-local";
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

Value GlobalToLocalConverter::buildReshape(OpBuilder &builder, Location loc,
                                           Value value,
                                           ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  return hlo::ReshapeOp::create(builder, loc, type.clone(shape), value);
}

Value GlobalToLocalConverter::buildTranspose(OpBuilder &builder, Location loc,
                                             Value value,
                                             ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  return hlo::TransposeOp::create(builder, loc, type.clone(shape), value,
                                  permutation);
}

Value GlobalToLocalConverter::buildShardSlice(OpBuilder &builder, Location loc,
                                              Value value,
                                              const MeshDevices &devices,
                                              const DimAxes &axes,
                                              ArrayRef<int64_t> localShape) {
  Value deviceId = buildDeviceId(builder, loc);
  Value zero;
  SmallVector<Value> offsets;
  for (auto [dimAxes, size] : llvm::zip(axes, localShape)) {
    if (dimAxes.empty()) {
      if (!zero)
        zero = hlo::ConstantOp::create(
            builder, loc,
            DenseIntElementsAttr::get(getI64ScalarType(builder.getContext()),
                                      ArrayRef<int64_t>{0}));
      offsets.push_back(zero);
      continue;
    }
    offsets.push_back(buildShardOffset(builder, loc, devices, dimAxes, size,
                                       /*offset=*/0, deviceId,
                                       DeviceIndexForm::kTable));
  }
  auto type = cast<RankedTensorType>(value.getType());
  return hlo::DynamicSliceOp::create(builder, loc, type.clone(localShape),
                                     value, offsets, localShape);
}

FailureOr<DenseIntElementsAttr>
GlobalToLocalConverter::buildReplicaGroups(Operation *op,
                                           const MeshDevices &devices,
                                           ArrayRef<AxisRefAttr> axes) {
  if (enableRgv3)
    return op->emitError()
           << "enable-rgv3 asks for mesh-axes replica groups, which this "
              "StableHLO dialect cannot express (replica_groups is a dense "
              "i64 matrix); run without enable-rgv3";
  SmallVector<SmallVector<int64_t>> groups = devices.getReplicaGroups(axes);
  SmallVector<int64_t> flat;
  for (const SmallVector<int64_t> &group : groups)
    llvm::append_range(flat, group);
  auto type = RankedTensorType::get(
      {static_cast<int64_t>(groups.size()),
       static_cast<int64_t>(groups.front().size())},
      IntegerType::get(op->getContext(), 64));
  return DenseIntElementsAttr::get(type, flat);
}

void GlobalToLocalConverter::buildReductionBody(OpBuilder &builder,
                                                Region &region,
                                                Type elementType,
                                                ReductionKind kind,
                                                Location loc) {
  OpBuilder::InsertionGuard guard(builder);
  auto scalar = RankedTensorType::get({}, elementType);
  Block *block = builder.createBlock(&region, {}, {scalar, scalar}, {loc, loc});
  Value lhs = block->getArgument(0), rhs = block->getArgument(1);
  Value combined;
  switch (kind) {
  case ReductionKind::Sum:
    combined = hlo::AddOp::create(builder, loc, lhs, rhs);
    break;
  case ReductionKind::Max:
    combined = hlo::MaxOp::create(builder, loc, lhs, rhs);
    break;
  case ReductionKind::Min:
    combined = hlo::MinOp::create(builder, loc, lhs, rhs);
    break;
  }
  hlo::ReturnOp::create(builder, loc, ValueRange{combined});
}

//===----------------------------------------------------------------------===//
// sdy ops
//===----------------------------------------------------------------------===//

LogicalResult GlobalToLocalConverter::convertAllGather(AllGatherOp op) {
  MeshAttr mesh = getListableMesh(op.getOutSharding(), op);
  if (!mesh)
    return failure();
  MeshDevices devices(mesh);
  auto inType = cast<RankedTensorType>(op.getTensor().getType());
  FailureOr<Type> outType =
      getLocalType(op.getType(), op.getOutSharding(), op, op.getLoc());
  if (failed(outType))
    return failure();
  SmallVector<int64_t> gatheredDims;
  SmallVector<AxisRefAttr> allAxes;
  for (auto [dim, axes] :
       llvm::enumerate(op.getGatheringAxes().getValue())) {
    if (axes.getValue().empty())
      continue;
    gatheredDims.push_back(dim);
    llvm::append_range(allAxes, axes.getValue());
  }
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value result = op.getTensor();
  if (gatheredDims.size() <= 1 || perDimAllGather) {
    // One all-gather per dimension, the last dimension first.
    for (int64_t dim : llvm::reverse(gatheredDims)) {
      ArrayRef<AxisRefAttr> axes = op.getGatheringAxes().getValue()[dim].getValue();
      FailureOr<DenseIntElementsAttr> groups =
          buildReplicaGroups(op, devices, axes);
      if (failed(groups))
        return failure();
      auto type = cast<RankedTensorType>(result.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[dim] *= devices.getSize(axes);
      result = hlo::AllGatherOp::create(
                   builder, loc, TypeRange{type.clone(shape)},
                   ValueRange{result}, builder.getI64IntegerAttr(dim), *groups,
                   takeChannel(), builder.getUnitAttr())
                   ->getResult(0);
    }
  } else {
    // One all-gather over every axis on a new leading dimension, whose
    // per-dimension factors are then moved in front of their dimensions.
    FailureOr<DenseIntElementsAttr> groups =
        buildReplicaGroups(op, devices, allAxes);
    if (failed(groups))
      return failure();
    SmallVector<int64_t> shape{1};
    llvm::append_range(shape, inType.getShape());
    Value expanded = buildReshape(builder, loc, result, shape);
    shape[0] = devices.getSize(allAxes);
    Value gathered =
        hlo::AllGatherOp::create(
            builder, loc, TypeRange{inType.clone(shape)}, ValueRange{expanded},
            builder.getI64IntegerAttr(0), *groups, takeChannel(),
            builder.getUnitAttr())
            ->getResult(0);
    // [k_0, ..., k_m, d_0, ..., d_r-1] then each k_i before its dimension.
    SmallVector<int64_t> split;
    for (int64_t dim : gatheredDims)
      split.push_back(devices.getSize(
          op.getGatheringAxes().getValue()[dim].getValue()));
    int64_t numFactors = split.size();
    llvm::append_range(split, inType.getShape());
    Value factored = buildReshape(builder, loc, gathered, split);
    SmallVector<int64_t> permutation;
    for (int64_t dim = 0, factor = 0; dim < inType.getRank(); ++dim) {
      if (factor < numFactors && gatheredDims[factor] == dim)
        permutation.push_back(factor++);
      permutation.push_back(numFactors + dim);
    }
    Value moved = buildTranspose(builder, loc, factored, permutation);
    result = buildReshape(builder, loc, moved,
                          cast<RankedTensorType>(*outType).getShape());
  }
  replace(op, result, op.getOutSharding());
  return success();
}

LogicalResult GlobalToLocalConverter::convertAllSlice(AllSliceOp op) {
  MeshAttr mesh = getListableMesh(op.getOutSharding(), op);
  if (!mesh)
    return failure();
  FailureOr<Type> outType =
      getLocalType(op.getType(), op.getOutSharding(), op, op.getLoc());
  if (failed(outType))
    return failure();
  DimAxes axes;
  for (AxisRefListAttr list : op.getSlicingAxes().getValue())
    axes.emplace_back(list.getValue().begin(), list.getValue().end());
  OpBuilder builder(op);
  Value slice = buildShardSlice(builder, op.getLoc(), op.getTensor(),
                                MeshDevices(mesh), axes,
                                cast<RankedTensorType>(*outType).getShape());
  replace(op, slice, op.getOutSharding());
  return success();
}

LogicalResult GlobalToLocalConverter::convertAllReduce(AllReduceOp op) {
  MeshAttr mesh = getListableMesh(op.getOutSharding(), op);
  if (!mesh)
    return failure();
  ArrayRef<AxisRefAttr> axes = op.getReductionAxes().getValue();
  if (axes.empty()) {
    replace(op, op.getTensor(), op.getOutSharding());
    return success();
  }
  FailureOr<DenseIntElementsAttr> groups =
      buildReplicaGroups(op, MeshDevices(mesh), axes);
  if (failed(groups))
    return failure();
  OpBuilder builder(op);
  Type type = op.getTensor().getType();
  auto reduce = hlo::AllReduceOp::create(
      builder, op.getLoc(), TypeRange{type}, ValueRange{op.getTensor()},
      *groups, takeChannel(), builder.getUnitAttr());
  buildReductionBody(builder, reduce.getComputation(),
                     cast<RankedTensorType>(type).getElementType(),
                     op.getReductionKind(), op.getLoc());
  replace(op, reduce->getResult(0), op.getOutSharding());
  return success();
}

LogicalResult GlobalToLocalConverter::convertReduceScatter(ReduceScatterOp op) {
  MeshAttr mesh = getListableMesh(op.getOutSharding(), op);
  if (!mesh)
    return failure();
  MeshDevices devices(mesh);
  FailureOr<Type> outType =
      getLocalType(op.getType(), op.getOutSharding(), op, op.getLoc());
  if (failed(outType))
    return failure();
  auto inType = cast<RankedTensorType>(op.getTensor().getType());
  auto localOut = cast<RankedTensorType>(*outType);
  DimAxes axes;
  SmallVector<int64_t> scatteredDims;
  SmallVector<AxisRefAttr> allAxes;
  for (auto [dim, list] :
       llvm::enumerate(op.getReduceScatterAxes().getValue())) {
    axes.emplace_back(list.getValue().begin(), list.getValue().end());
    if (!list.getValue().empty()) {
      scatteredDims.push_back(dim);
      llvm::append_range(allAxes, list.getValue());
    }
  }
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Type elementType = inType.getElementType();
  Value result;
  if (scatteredDims.empty()) {
    result = op.getTensor();
  } else if (scatteredDims.size() == 1 || combineReduceScatter) {
    FailureOr<DenseIntElementsAttr> groups =
        buildReplicaGroups(op, devices, allAxes);
    if (failed(groups))
      return failure();
    Value operand = op.getTensor();
    int64_t scatterDim = scatteredDims.front();
    if (scatteredDims.size() > 1) {
      // Split each scattered dimension into [k_i, d_i / k_i], move the k_i
      // to the front and merge them: device j keeps part j of it.
      SmallVector<int64_t> split, factorPositions, rest;
      for (int64_t dim = 0; dim < inType.getRank(); ++dim) {
        if (!axes[dim].empty()) {
          int64_t shards = devices.getSize(axes[dim]);
          factorPositions.push_back(split.size());
          split.push_back(shards);
          rest.push_back(split.size());
          split.push_back(inType.getDimSize(dim) / shards);
        } else {
          rest.push_back(split.size());
          split.push_back(inType.getDimSize(dim));
        }
      }
      Value factored = buildReshape(builder, loc, operand, split);
      SmallVector<int64_t> permutation(factorPositions);
      llvm::append_range(permutation, rest);
      Value moved = buildTranspose(builder, loc, factored, permutation);
      SmallVector<int64_t> merged{devices.getSize(allAxes)};
      for (int64_t position : rest)
        merged.push_back(split[position]);
      operand = buildReshape(builder, loc, moved, merged);
      scatterDim = 0;
    }
    auto operandType = cast<RankedTensorType>(operand.getType());
    SmallVector<int64_t> shape(operandType.getShape());
    shape[scatterDim] /= devices.getSize(scatteredDims.size() > 1
                                             ? ArrayRef<AxisRefAttr>(allAxes)
                                             : axes[scatterDim]);
    auto scatter = hlo::ReduceScatterOp::create(
        builder, loc, operandType.clone(shape), operand,
        builder.getI64IntegerAttr(scatterDim), *groups, takeChannel(),
        builder.getUnitAttr());
    buildReductionBody(builder, scatter.getComputation(), elementType,
                       ReductionKind::Sum, loc);
    result = buildReshape(builder, loc, scatter.getResult(),
                          localOut.getShape());
  } else {
    // An all-reduce over every axis, then each device keeps its shard.
    FailureOr<DenseIntElementsAttr> groups =
        buildReplicaGroups(op, devices, allAxes);
    if (failed(groups))
      return failure();
    auto reduce = hlo::AllReduceOp::create(
        builder, loc, TypeRange{inType}, ValueRange{op.getTensor()}, *groups,
        takeChannel(), builder.getUnitAttr());
    buildReductionBody(builder, reduce.getComputation(), elementType,
                       ReductionKind::Sum, loc);
    result = buildShardSlice(builder, loc, reduce->getResult(0), devices, axes,
                             localOut.getShape());
  }
  replace(op, result, op.getOutSharding());
  return success();
}

LogicalResult GlobalToLocalConverter::convertAllToAll(AllToAllOp op) {
  MeshAttr mesh = getListableMesh(op.getOutSharding(), op);
  if (!mesh)
    return failure();
  MeshDevices devices(mesh);
  FailureOr<Type> outType =
      getLocalType(op.getType(), op.getOutSharding(), op, op.getLoc());
  if (failed(outType))
    return failure();
  auto inType = cast<RankedTensorType>(op.getTensor().getType());
  ArrayRef<AllToAllParamAttr> params = op.getParams().getValue();
  SmallVector<AxisRefAttr> allAxes;
  llvm::SmallDenseSet<int64_t> usedDims;
  for (AllToAllParamAttr param : params) {
    llvm::append_range(allAxes, param.getAxes());
    if (!usedDims.insert(param.getSrcDim()).second ||
        !usedDims.insert(param.getTgtDim()).second)
      return op.emitError() << "dimension " << param.getSrcDim() << " or "
                            << param.getTgtDim()
                            << " appears in two all-to-all params";
  }
  FailureOr<DenseIntElementsAttr> groups =
      buildReplicaGroups(op, devices, allAxes);
  if (failed(groups))
    return failure();
  OpBuilder builder(op);
  Location loc = op.getLoc();
  int64_t groupSize = devices.getSize(allAxes);
  Value result;
  if (params.size() == 1) {
    AllToAllParamAttr param = params.front();
    result = hlo::AllToAllOp::create(
                 builder, loc, TypeRange{*outType}, ValueRange{op.getTensor()},
                 builder.getI64IntegerAttr(param.getTgtDim()),
                 builder.getI64IntegerAttr(param.getSrcDim()),
                 builder.getI64IntegerAttr(groupSize), *groups, takeChannel())
                 ->getResult(0);
  } else {
    // Split every target dimension into [k_i, d_i / k_i] and gather the k_i
    // in front (param order); one all-to-all on that leading dimension; then
    // the leading dimension indexes the senders: split it back into the k_i
    // and put each in front of its source dimension.
    int64_t rank = inType.getRank();
    SmallVector<int64_t> factorOfTarget(rank, -1), factorOfSource(rank, -1);
    for (auto [index, param] : llvm::enumerate(params)) {
      factorOfTarget[param.getTgtDim()] = index;
      factorOfSource[param.getSrcDim()] = index;
    }
    SmallVector<int64_t> split, factorPositions(params.size()), rest;
    for (int64_t dim = 0; dim < rank; ++dim) {
      if (factorOfTarget[dim] >= 0) {
        int64_t shards = devices.getSize(params[factorOfTarget[dim]].getAxes());
        factorPositions[factorOfTarget[dim]] = split.size();
        split.push_back(shards);
        split.push_back(inType.getDimSize(dim) / shards);
      } else {
        split.push_back(inType.getDimSize(dim));
      }
      rest.push_back(split.size() - 1);
    }
    Value factored = buildReshape(builder, loc, op.getTensor(), split);
    SmallVector<int64_t> permutation(factorPositions);
    llvm::append_range(permutation, rest);
    Value moved = buildTranspose(builder, loc, factored, permutation);
    SmallVector<int64_t> merged{groupSize};
    for (int64_t position : rest)
      merged.push_back(split[position]);
    Value operand = buildReshape(builder, loc, moved, merged);
    Value exchanged =
        hlo::AllToAllOp::create(
            builder, loc, TypeRange{operand.getType()}, ValueRange{operand},
            builder.getI64IntegerAttr(0), builder.getI64IntegerAttr(0),
            builder.getI64IntegerAttr(groupSize), *groups, takeChannel())
            ->getResult(0);
    // [k_0, ..., k_m, rest...] with each k_i moved before its source dim.
    SmallVector<int64_t> senders;
    for (AllToAllParamAttr param : params)
      senders.push_back(devices.getSize(param.getAxes()));
    int64_t numFactors = senders.size();
    llvm::append_range(senders, ArrayRef<int64_t>(merged).drop_front());
    Value unmerged = buildReshape(builder, loc, exchanged, senders);
    SmallVector<int64_t> back;
    for (int64_t dim = 0; dim < rank; ++dim) {
      if (factorOfSource[dim] >= 0)
        back.push_back(factorOfSource[dim]);
      back.push_back(numFactors + dim);
    }
    Value placed = buildTranspose(builder, loc, unmerged, back);
    result = buildReshape(builder, loc, placed,
                          cast<RankedTensorType>(*outType).getShape());
  }
  replace(op, result, op.getOutSharding());
  return success();
}

LogicalResult
GlobalToLocalConverter::convertCollectivePermute(CollectivePermuteOp op) {
  TensorShardingAttr outSharding = op.getOutSharding();
  TensorShardingAttr inSharding = getShardingOf(op.getTensor());
  MeshAttr outMesh = getListableMesh(outSharding, op);
  if (!outMesh)
    return failure();
  MeshAttr inMesh = inSharding ? getListableMesh(inSharding, op) : outMesh;
  if (!inMesh)
    return failure();
  if (inMesh.getTotalSize() != outMesh.getTotalSize())
    return op.emitError() << "permutes between meshes of "
                          << inMesh.getTotalSize() << " and "
                          << outMesh.getTotalSize() << " devices";
  int64_t rank = cast<RankedTensorType>(op.getType()).getRank();
  MeshDevices inDevices(inMesh), outDevices(outMesh);
  SmallVector<std::pair<int64_t, int64_t>> pairs =
      getPermutePairs(inDevices, getDimAxes(inSharding, rank), outDevices,
                      getDimAxes(outSharding, rank));
  SmallVector<int64_t> flat;
  for (auto [source, target] : pairs) {
    flat.push_back(source);
    flat.push_back(target);
  }
  auto pairsType = RankedTensorType::get(
      {static_cast<int64_t>(pairs.size()), 2},
      IntegerType::get(op.getContext(), 64));
  OpBuilder builder(op);
  auto permute = hlo::CollectivePermuteOp::create(
      builder, op.getLoc(), op.getTensor().getType(), op.getTensor(),
      DenseIntElementsAttr::get(pairsType, flat), takeChannel());
  replace(op, permute.getResult(), outSharding);
  return success();
}

LogicalResult GlobalToLocalConverter::convertConstant(Operation *op,
                                                      ElementsAttr value) {
  auto globalType = cast<RankedTensorType>(op->getResult(0).getType());
  TensorShardingAttr sharding = getShardingOf(op->getResult(0));
  FailureOr<Type> localType =
      getLocalType(globalType, sharding, op, op->getLoc());
  if (failed(localType))
    return failure();
  OpBuilder builder(op);
  Value local;
  if (*localType == globalType) {
    if (isa<hlo::ConstantOp>(op))
      return success();
    local = hlo::ConstantOp::create(builder, op->getLoc(), value);
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value);
             dense && dense.isSplat()) {
    local = hlo::ConstantOp::create(
        builder, op->getLoc(),
        dense.resizeSplat(cast<ShapedType>(*localType)));
  } else {
    // Every device holds the whole constant and keeps its shard of it.
    Value global = hlo::ConstantOp::create(builder, op->getLoc(), value);
    MeshAttr mesh = getListableMesh(sharding, op);
    if (!mesh)
      return failure();
    local = buildShardSlice(builder, op->getLoc(), global, MeshDevices(mesh),
                            getDimAxes(sharding, globalType.getRank()),
                            cast<RankedTensorType>(*localType).getShape());
  }
  replace(op, local, sharding);
  return success();
}

LogicalResult
GlobalToLocalConverter::inlineManualComputation(ManualComputationOp op) {
  Block &body = op.getBody().front();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(op.getTensors(), body.getArguments()))) {
    auto [operand, arg] = pair;
    if (operand.getType() != arg.getType())
      return op.emitError()
             << "operand #" << index << " is " << operand.getType()
             << " on each device but the body expects " << arg.getType();
    arg.replaceAllUsesWith(operand);
  }
  Operation *terminator = body.getTerminator();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(op.getResults(), terminator->getOperands()))) {
    auto [result, returned] = pair;
    FailureOr<Type> local = getLocalType(result.getType(), getShardingOf(result),
                                         op, op.getLoc());
    if (failed(local))
      return failure();
    if (*local != returned.getType())
      return op.emitError()
             << "result #" << index << " is " << *local
             << " on each device but the body returns " << returned.getType();
    // Users outside read the value with the result's sharding (a value
    // the body computes has none of its own).
    if (Operation *def = returned.getDefiningOp(); def && op->isAncestor(def))
      if (TensorShardingAttr sharding = getShardingOf(result))
        replacementShardings[returned] = sharding;
    result.replaceAllUsesWith(returned);
  }
  terminator->erase();
  op->getBlock()->getOperations().splice(op->getIterator(),
                                         body.getOperations());
  op.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// StableHLO ops
//===----------------------------------------------------------------------===//

LogicalResult GlobalToLocalConverter::convertIota(hlo::IotaOp op) {
  auto globalType = cast<RankedTensorType>(op.getType());
  TensorShardingAttr sharding = getShardingOf(op);
  if (failed(setLocalResultTypes(op)))
    return failure();
  int64_t dim = op.getIotaDimension();
  auto localType = cast<RankedTensorType>(op.getType());
  if (localType.getDimSize(dim) == globalType.getDimSize(dim))
    return success();
  // Shard k counts from k * (local size) on.
  MeshAttr mesh = getListableMesh(sharding, op);
  if (!mesh)
    return failure();
  OpBuilder builder(op);
  builder.setInsertionPointAfter(op);
  Location loc = op.getLoc();
  Value offset =
      buildShardOffset(builder, loc, MeshDevices(mesh),
                       getDimAxes(sharding, globalType.getRank())[dim],
                       localType.getDimSize(dim), /*offset=*/0,
                       buildDeviceId(builder, loc), DeviceIndexForm::kTable);
  Value converted = hlo::ConvertOp::create(
      builder, loc, RankedTensorType::get({}, localType.getElementType()),
      offset);
  Value broadcast = hlo::BroadcastInDimOp::create(
      builder, loc, localType, converted, ArrayRef<int64_t>{});
  Value shifted = hlo::AddOp::create(builder, loc, op.getResult(), broadcast);
  replace(op, shifted, sharding);
  return success();
}

/// The bits a state draws depend on the whole output shape, so each device
/// draws the whole output from the state (replicated by the op's sharding
/// rule) and keeps its shard: the partitioned program draws the numbers the
/// unpartitioned one does.
LogicalResult
GlobalToLocalConverter::convertRngBitGenerator(hlo::RngBitGeneratorOp op) {
  for (Value state : {op.getInitialState(), op.getOutputState()})
    if (TensorShardingAttr sharding = getShardingOf(state);
        sharding && !sharding.isFullyReplicated())
      return op.emitError()
             << "draws from a sharded state " << sharding
             << "; -sdy-insert-explicit-reshards should have replicated it";
  Value output = op.getOutput();
  TensorShardingAttr sharding = getShardingOf(output);
  if (!sharding || sharding.isFullyReplicated())
    return success();
  auto globalType = cast<RankedTensorType>(output.getType());
  FailureOr<Type> localType =
      getLocalType(globalType, sharding, op, op.getLoc());
  if (failed(localType))
    return failure();
  MeshAttr mesh = getListableMesh(sharding, op);
  if (!mesh)
    return failure();
  OpBuilder builder(op);
  builder.setInsertionPointAfter(op);
  Value local = buildShardSlice(
      builder, op.getLoc(), output, MeshDevices(mesh),
      getDimAxes(sharding, globalType.getRank()),
      cast<RankedTensorType>(*localType).getShape());
  replacementShardings[local] = sharding;
  output.replaceAllUsesExcept(local, local.getDefiningOp());
  return success();
}

LogicalResult GlobalToLocalConverter::convertSlice(hlo::SliceOp op) {
  int64_t rank = cast<RankedTensorType>(op.getType()).getRank();
  DimAxes inAxes = getDimAxes(getShardingOf(op.getOperand()), rank);
  DimAxes outAxes = getDimAxes(getShardingOf(op.getResult()), rank);
  if (failed(setLocalResultTypes(op)))
    return failure();
  auto inLocal = cast<RankedTensorType>(op.getOperand().getType());
  auto outLocal = cast<RankedTensorType>(op.getType());
  SmallVector<int64_t> limits(op.getLimitIndices());
  for (int64_t d = 0; d < rank; ++d) {
    if (inAxes[d].empty() && outAxes[d].empty())
      continue;
    // A sharded dimension stays local only if it is not sliced at all:
    // equal axes, so equal global sizes mean equal local sizes.
    bool whole = op.getStartIndices()[d] == 0 && op.getStrides()[d] == 1 &&
                 outLocal.getDimSize(d) == inLocal.getDimSize(d);
    if (inAxes[d] != outAxes[d] || !whole)
      return op.emitError()
             << "slices sharded dimension " << d
             << ", which needs data from other devices; "
                "-sdy-resolve-permutation-factors should have resharded it";
    limits[d] = inLocal.getDimSize(d);
  }
  op.setLimitIndices(limits);
  return success();
}

LogicalResult GlobalToLocalConverter::convertPad(hlo::PadOp op) {
  int64_t rank = cast<RankedTensorType>(op.getType()).getRank();
  DimAxes inAxes = getDimAxes(getShardingOf(op.getOperand()), rank);
  DimAxes outAxes = getDimAxes(getShardingOf(op.getResult()), rank);
  if (failed(setLocalResultTypes(op)))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (inAxes[d].empty() && outAxes[d].empty())
      continue;
    if (inAxes[d] != outAxes[d] || op.getEdgePaddingLow()[d] != 0 ||
        op.getEdgePaddingHigh()[d] != 0 || op.getInteriorPadding()[d] != 0)
      return op.emitError()
             << "pads sharded dimension " << d
             << ", which needs data from other devices; "
                "-sdy-resolve-permutation-factors should have resharded it";
  }
  return success();
}

LogicalResult GlobalToLocalConverter::checkContractingFollowedByAllReduce(
    Operation *op, Value lhs, ArrayRef<int64_t> lhsContractingDims) {
  TensorShardingAttr sharding = getShardingOf(lhs);
  if (!sharding)
    return success();
  int64_t rank = cast<RankedTensorType>(lhs.getType()).getRank();
  DimAxes axes = getDimAxes(sharding, rank);
  SmallVector<AxisRefAttr> contracting;
  for (int64_t dim : lhsContractingDims)
    llvm::append_range(contracting, axes[dim]);
  if (contracting.empty())
    return success();
  MeshAttr mesh = getMesh(sharding, op);
  if (!mesh)
    return failure();
  // The partial sums must be summed over exactly those axes, by an
  // all-reduce or by the reduce-scatter it may have been fused into.
  SmallVector<AxisRefAttr> reduced;
  bool reducedByUser = false;
  if (op->hasOneUse()) {
    Operation *user = *op->getUsers().begin();
    auto allReduce = dyn_cast<AllReduceOp>(user);
    if (allReduce && allReduce.getReductionKind() == ReductionKind::Sum) {
      llvm::append_range(reduced, allReduce.getReductionAxes().getValue());
      reducedByUser = true;
    } else if (auto scatter = dyn_cast<ReduceScatterOp>(user)) {
      for (AxisRefListAttr list : scatter.getReduceScatterAxes().getValue())
        llvm::append_range(reduced, list.getValue());
      reducedByUser = true;
    }
  }
  if (!reducedByUser ||
      sortAndMergeAxes(reduced, mesh) != sortAndMergeAxes(contracting, mesh))
    return op->emitError()
           << "contracts a dimension sharded on "
           << AxisRefListAttr::get(op->getContext(), contracting)
           << " but its only user is not a summing 'sdy.all_reduce' or "
              "'sdy.reduce_scatter' over exactly those axes";
  return success();
}

LogicalResult GlobalToLocalConverter::convertConvolution(hlo::ConvolutionOp op) {
  hlo::ConvDimensionNumbersAttr dims = op.getDimensionNumbers();
  int64_t rank = cast<RankedTensorType>(op.getLhs().getType()).getRank();
  TensorShardingAttr lhsSharding = getShardingOf(op.getLhs());
  DimAxes lhsAxes = getDimAxes(lhsSharding, rank);
  if (failed(setLocalResultTypes(op)))
    return failure();
  if (!lhsSharding)
    return success();
  MeshAttr mesh = getMesh(lhsSharding, op);
  if (!mesh)
    return failure();
  MeshDevices devices(mesh);
  // Sharded spatial dimensions stay local only with 1-wide windows.
  for (auto [index, dim] : llvm::enumerate(dims.getInputSpatialDimensions())) {
    if (lhsAxes[dim].empty())
      continue;
    auto kernel = cast<RankedTensorType>(op.getRhs().getType());
    auto isOne = [&](std::optional<ArrayRef<int64_t>> values) {
      return !values || (*values)[index] == 1;
    };
    bool padded = op.getPadding() &&
                  llvm::any_of(op.getPadding()->getValues<int64_t>(),
                               [](int64_t value) { return value != 0; });
    if (kernel.getDimSize(dims.getKernelSpatialDimensions()[index]) != 1 ||
        !isOne(op.getWindowStrides()) || !isOne(op.getLhsDilation()) ||
        !isOne(op.getRhsDilation()) || padded)
      return op.emitError()
             << "convolves over sharded spatial dimension " << dim
             << " with a window that crosses shards; "
                "-sdy-resolve-permutation-factors should have resharded it";
  }
  // Groups: each device holds whole groups of the grouped dimension.
  auto divideGroups = [&](int64_t count, int64_t dim,
                          StringRef name) -> FailureOr<int64_t> {
    if (count == 1)
      return count;
    int64_t shards = devices.getSize(lhsAxes[dim]);
    if (count % shards != 0)
      return op.emitError() << name << " " << count
                            << " is not divisible by the " << shards
                            << " shards of dimension " << dim;
    return count / shards;
  };
  FailureOr<int64_t> featureGroups =
      divideGroups(op.getFeatureGroupCount(), dims.getInputFeatureDimension(),
                   "feature_group_count");
  FailureOr<int64_t> batchGroups =
      divideGroups(op.getBatchGroupCount(), dims.getInputBatchDimension(),
                   "batch_group_count");
  if (failed(featureGroups) || failed(batchGroups))
    return failure();
  bool grouped = op.getFeatureGroupCount() > 1 || op.getBatchGroupCount() > 1;
  op.setFeatureGroupCount(*featureGroups);
  op.setBatchGroupCount(*batchGroups);
  if (grouped)
    return success();
  return checkContractingFollowedByAllReduce(
      op, op.getLhs(), {dims.getInputFeatureDimension()});
}

/// Gather and scatter stay local when the operand dimensions they index
/// (or drop) are unsharded: a sharded operand dimension must be taken
/// whole by every slice, or be a batching dimension (sharded like the
/// indices' matching one, which -sdy-insert-explicit-reshards ensures).
LogicalResult GlobalToLocalConverter::checkIndexedDims(
    Operation *op, Value operand, ArrayRef<int64_t> indexedDims,
    Value indices, int64_t indexVectorDim) {
  int64_t rank = cast<RankedTensorType>(operand.getType()).getRank();
  DimAxes axes = getDimAxes(getShardingOf(operand), rank);
  for (int64_t dim : indexedDims)
    if (dim >= 0 && dim < rank && !axes[dim].empty())
      return op->emitError()
             << "indexes operand dimension " << dim
             << ", which is sharded; -sdy-insert-explicit-reshards should "
                "have replicated it";
  int64_t indicesRank = cast<RankedTensorType>(indices.getType()).getRank();
  DimAxes indexAxes = getDimAxes(getShardingOf(indices), indicesRank);
  if (indexVectorDim < indicesRank && !indexAxes[indexVectorDim].empty())
    return op->emitError() << "has its index vector dimension "
                           << indexVectorDim << " sharded";
  return success();
}

LogicalResult GlobalToLocalConverter::convertGather(hlo::GatherOp op) {
  hlo::GatherDimensionNumbersAttr dims = op.getDimensionNumbers();
  SmallVector<int64_t> indexed(dims.getStartIndexMap());
  llvm::append_range(indexed, dims.getCollapsedSliceDims());
  if (failed(checkIndexedDims(op, op.getOperand(), indexed,
                              op.getStartIndices(), dims.getIndexVectorDim())))
    return failure();
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  DimAxes axes =
      getDimAxes(getShardingOf(op.getOperand()), operandType.getRank());
  SmallVector<int64_t> sizes(op.getSliceSizes());
  for (int64_t dim = 0; dim < operandType.getRank(); ++dim) {
    if (axes[dim].empty() || llvm::is_contained(dims.getOperandBatchingDims(),
                                                dim))
      continue;
    // A whole sharded dimension: the global slice size is the local size
    // times the shard count.
    MeshAttr mesh = getMesh(getShardingOf(op.getOperand()), op);
    if (!mesh)
      return failure();
    int64_t shards = MeshDevices(mesh).getSize(axes[dim]);
    if (sizes[dim] != operandType.getDimSize(dim) * shards)
      return op.emitError()
             << "takes slices of size " << sizes[dim]
             << " of sharded operand dimension " << dim
             << "; only whole sharded dimensions stay local";
    sizes[dim] = operandType.getDimSize(dim);
  }
  op.setSliceSizes(sizes);
  return success();
}

LogicalResult GlobalToLocalConverter::checkScatter(hlo::ScatterOp op) {
  hlo::ScatterDimensionNumbersAttr dims = op.getScatterDimensionNumbers();
  SmallVector<int64_t> indexed(dims.getScatterDimsToOperandDims());
  llvm::append_range(indexed, dims.getInsertedWindowDims());
  for (Value input : op.getInputs())
    if (failed(checkIndexedDims(op, input, indexed, op.getScatterIndices(),
                                dims.getIndexVectorDim())))
      return failure();
  // The update windows cover every sharded input dimension whole: the
  // window dimensions of the updates, in order, are the input dimensions
  // that are neither inserted nor batching.
  auto inputType = cast<RankedTensorType>(op.getInputs().front().getType());
  auto updateType = cast<RankedTensorType>(op.getUpdates().front().getType());
  ArrayRef<int64_t> windowDims = dims.getUpdateWindowDims();
  DimAxes axes =
      getDimAxes(getShardingOf(op.getInputs().front()), inputType.getRank());
  DimAxes updateAxes =
      getDimAxes(getShardingOf(op.getUpdates().front()), updateType.getRank());
  size_t window = 0;
  for (int64_t dim = 0; dim < inputType.getRank(); ++dim) {
    if (llvm::is_contained(dims.getInsertedWindowDims(), dim) ||
        llvm::is_contained(dims.getInputBatchingDims(), dim))
      continue;
    if (window >= windowDims.size())
      break;
    int64_t updateDim = windowDims[window++];
    if (!axes[dim].empty() &&
        (updateAxes[updateDim] != axes[dim] ||
         updateType.getDimSize(updateDim) != inputType.getDimSize(dim)))
      return op.emitError()
             << "updates part of sharded input dimension " << dim
             << "; only whole sharded dimensions stay local";
  }
  return success();
}

LogicalResult GlobalToLocalConverter::checkWindowsStayLocal(
    Operation *op, Value input, Type localOutput, ArrayRef<int64_t> window,
    std::optional<ArrayRef<int64_t>> strides,
    std::optional<ArrayRef<int64_t>> baseDilations,
    std::optional<ArrayRef<int64_t>> windowDilations,
    std::optional<DenseIntElementsAttr> padding) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  DimAxes axes = getDimAxes(getShardingOf(input), rank);
  auto inLocal = cast<RankedTensorType>(input.getType());
  auto outLocal = cast<RankedTensorType>(localOutput);
  SmallVector<int64_t> pads;
  if (padding)
    pads = llvm::to_vector(padding->getValues<int64_t>());
  for (int64_t d = 0; d < rank; ++d) {
    if (axes[d].empty())
      continue;
    int64_t stride = strides ? (*strides)[d] : 1;
    bool local = window[d] <= stride &&
                 (!baseDilations || (*baseDilations)[d] == 1) &&
                 (!windowDilations || (*windowDilations)[d] == 1) &&
                 (pads.empty() || (pads[2 * d] == 0 && pads[2 * d + 1] == 0)) &&
                 inLocal.getDimSize(d) == outLocal.getDimSize(d) * stride;
    if (!local)
      return op->emitError()
             << "has windows across the shards of sharded dimension " << d
             << "; -sdy-insert-explicit-reshards should have replicated it";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class ConvertGlobalToLocalPass
    : public impl::ConvertGlobalToLocalPassBase<ConvertGlobalToLocalPass> {
  using ConvertGlobalToLocalPassBase::ConvertGlobalToLocalPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (replicaCount > 1 && partitionCount > 1) {
      module.emitError() << "-sdy-convert-global-to-local needs replica-count "
                            "or partition-count to be 1, got "
                         << static_cast<int64_t>(replicaCount) << " and "
                         << static_cast<int64_t>(partitionCount);
      return signalPassFailure();
    }
    GlobalToLocalConverter converter(module, perDimAllGather,
                                     combineMultiDimensionReduceScatter,
                                     enableRgv3, replicaCount > 1);
    // Signatures first: calls take their result types from the callee.
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions)
      if (failed(converter.convertSignature(function)))
        return signalPassFailure();
    for (func::FuncOp function : functions)
      if (failed(converter.convertBody(function)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
