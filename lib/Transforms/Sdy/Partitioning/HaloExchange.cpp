//===- HaloExchange.cpp - Pad and slice by neighbour exchange -------------===//
//
// Along a sharded dimension of size I split in n shards of a = ceil(I / n)
// elements, output shard k (b = ceil(O / n) elements) of a pad or slice
// reads a contiguous window of the input. Both ops are described alike:
// output element j reads coordinate j * stride + start of a *source*, the
// input (slice) or the input dilated by the interior padding (pad, stride
// 1, start = -low); source coordinates that are no input element are
// padding. From the windows of all shards follow the halo sizes: how many
// elements each device needs from the shards before and after its own.
//
// Each device then holds C = [halo from the left | own shard | halo from
// the right], received with one collective_permute per hop (shards away;
// the farthest hop sends only the part needed), masks what lies outside
// the input (pad), dilates C by the interior padding, and cuts its b output
// elements at an offset that is affine in its shard index k, read with
// dynamic_slice (strided slices take a window and then a strided slice).
// The window is first padded so that no device's offset is clamped.
//
//===----------------------------------------------------------------------===//

#include "HaloExchange.h"

#include "ExplicitReshards.h"
#include "MeshDevices.h"

#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/IR/Builders.h"

#include <limits>

namespace mlir::sdy {

namespace hlo = ::mlir::stablehlo;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// What happens to one sharded dimension inside the manual computation.
enum class DimAction {
  /// Pad or slice: exchange halos, cut the output shard.
  kCut,
  /// Reverse: shift the high-end padding to the low end, swap shards with
  /// the mirror device; the local reverse follows.
  kMirror,
  /// Not touched by the op (a reverse's other dimensions).
  kKeep,
};

/// One sharded dimension of the op: how its output reads its input, and
/// the halos that follows.
struct DimPlan {
  DimAction action = DimAction::kCut;
  int64_t dim;
  SmallVector<AxisRefAttr> axes;
  int64_t shards;   // n
  int64_t inSize;   // I
  int64_t outSize;  // O
  int64_t inShard;  // a = ceil(I / n)
  int64_t outShard; // b = ceil(O / n)
  // Output element j reads source coordinate j * stride + start; input
  // element i is source coordinate i * dilation.
  int64_t stride;
  int64_t start;
  int64_t dilation;
  // Elements each device needs from the shards before and after its own.
  int64_t leftHalo = 0;
  int64_t rightHalo = 0;

  /// Sets the halos from the window every output shard reads. O(n).
  void computeHalos() {
    int64_t lastSource = (inSize - 1) * dilation;
    for (int64_t k = 0; k < shards; ++k) {
      int64_t begin = k * outShard;
      int64_t end = std::min((k + 1) * outShard, outSize);
      if (begin >= end)
        continue;
      int64_t first = std::max<int64_t>(begin * stride + start, 0);
      int64_t last = std::min((end - 1) * stride + start, lastSource);
      if (first > last)
        continue;
      // The input elements among those source coordinates.
      int64_t firstElement = ceilDiv(first, dilation);
      int64_t lastElement = last / dilation;
      if (firstElement > lastElement)
        continue;
      leftHalo = std::max(leftHalo, k * inShard - firstElement);
      rightHalo = std::max(rightHalo, lastElement - ((k + 1) * inShard - 1));
    }
  }

  /// Whether the coordinates the plan computes with (source coordinates of
  /// up to twice the padded output, the dilated window of up to twice the
  /// padded input, and sums of a few of those) fit in int64.
  bool fitsInt64() const {
    auto twice = [](int64_t count, int64_t size) -> std::optional<int64_t> {
      std::optional<int64_t> padded = mpmd::checkedMul(count, size);
      return padded ? mpmd::checkedMul(*padded, 2) : std::nullopt;
    };
    std::optional<int64_t> outSpan = twice(shards, outShard);
    std::optional<int64_t> inSpan = twice(shards, inShard);
    if (!outSpan || !inSpan)
      return false;
    std::optional<int64_t> source = mpmd::checkedMul(*outSpan, stride);
    std::optional<int64_t> dilated = mpmd::checkedMul(*inSpan, dilation);
    constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 8;
    return source && dilated && *source < kLimit && *dilated < kLimit &&
           start > -kLimit && start < kLimit;
  }

  /// Whether every device would receive at least as many elements as an
  /// all-gather of the dimension brings it: replication is no worse then.
  bool exchangesAsMuchAsAllGather() const {
    int64_t halo = leftHalo + rightHalo;
    return halo > 0 && halo >= (shards - 1) * inShard;
  }
};

RankedTensorType getI64Scalar(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 64));
}

/// Builds the body of the manual computation, one sharded dimension after
/// the other.
class HaloBuilder {
public:
  /// Builds at the builder's insertion point, the start of the body; a
  /// null `fill` is a zero built when first needed.
  HaloBuilder(OpBuilder &builder, Location loc, MeshAttr mesh, Value fill,
              RankedTensorType scalarType, bool masksOutside, bool useReplicaId,
              ChannelCounter &channels)
      : builder(builder), loc(loc), devices(mesh), fill(fill),
        scalarType(scalarType), body(builder.getInsertionBlock()),
        masksOutside(masksOutside), useReplicaId(useReplicaId),
        channels(channels) {
    deviceId = buildDeviceId(builder, loc, useReplicaId);
  }

  /// `value` (local, dimension `plan.dim` holding the device's input
  /// shard) with that dimension replaced by the device's output shard.
  Value exchangeAndCut(Value value, const DimPlan &plan);
  /// `value` with dimension `plan.dim` holding the shard a reverse reads,
  /// still in input order.
  Value mirror(Value value, const DimPlan &plan);
  Value getFill() {
    if (!fill) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(body);
      fill = hlo::ConstantOp::create(
          builder, loc, cast<ElementsAttr>(builder.getZeroAttr(scalarType)));
    }
    return fill;
  }

private:
  Value constantI64(int64_t value) {
    return hlo::ConstantOp::create(
        builder, loc,
        DenseIntElementsAttr::get(getI64Scalar(builder.getContext()),
                                  ArrayRef<int64_t>{value}));
  }
  /// `shardIndex * scale + offset` as an i64 scalar, for the shard index
  /// along `axes` of the device running the program.
  Value buildAffineOfShardIndex(ArrayRef<AxisRefAttr> axes, int64_t scale,
                                int64_t offset) {
    return buildShardOffset(builder, loc, devices, axes, scale, offset,
                            deviceId, DeviceIndexForm::kClosedFormIfIota);
  }
  Value sliceDim(Value value, int64_t dim, int64_t begin, int64_t end,
                 int64_t stride = 1);
  Value padDim(Value value, int64_t dim, int64_t low, int64_t high,
               int64_t interior);
  /// `part` of the device at index `source(index)` along `plan.axes`, for
  /// the device at `index`; devices whose source is out of range receive
  /// zeros.
  Value permute(Value part, const DimPlan &plan,
                function_ref<int64_t(int64_t)> source);
  /// The `width` elements from `begin` on of the shard `hop` shards away
  /// (negative: before).
  Value fetch(Value value, const DimPlan &plan, int64_t hop, int64_t begin,
              int64_t width) {
    return permute(sliceDim(value, plan.dim, begin, begin + width), plan,
                   [&](int64_t index) { return index + hop; });
  }
  /// A constant of `type` (i64 elements) with every element `value`.
  Value splatI64(RankedTensorType type, int64_t value) {
    return hlo::ConstantOp::create(
        builder, loc,
        DenseIntElementsAttr::get(type, ArrayRef<int64_t>{value}));
  }
  Value maskOutsideInput(Value window, const DimPlan &plan);

  OpBuilder &builder;
  Location loc;
  MeshDevices devices;
  Value fill;
  RankedTensorType scalarType;
  Block *body;
  bool masksOutside;
  bool useReplicaId;
  ChannelCounter &channels;
  Value deviceId;
};

Value HaloBuilder::sliceDim(Value value, int64_t dim, int64_t begin,
                            int64_t end, int64_t stride) {
  auto type = cast<RankedTensorType>(value.getType());
  if (begin == 0 && end == type.getDimSize(dim) && stride == 1)
    return value;
  SmallVector<int64_t> starts(type.getRank(), 0);
  SmallVector<int64_t> limits(type.getShape());
  SmallVector<int64_t> strides(type.getRank(), 1);
  starts[dim] = begin;
  limits[dim] = end;
  strides[dim] = stride;
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = ceilDiv(end - begin, stride);
  return hlo::SliceOp::create(builder, loc, type.clone(shape), value, starts,
                              limits, strides);
}

Value HaloBuilder::padDim(Value value, int64_t dim, int64_t low, int64_t high,
                          int64_t interior) {
  if (low == 0 && high == 0 && interior == 0)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> lows(type.getRank(), 0), highs(type.getRank(), 0),
      interiors(type.getRank(), 0);
  lows[dim] = low;
  highs[dim] = high;
  interiors[dim] = interior;
  SmallVector<int64_t> shape(type.getShape());
  int64_t size = shape[dim];
  shape[dim] = low + high + size + std::max<int64_t>(size - 1, 0) * interior;
  return hlo::PadOp::create(builder, loc, type.clone(shape), value, getFill(),
                            lows, highs, interiors);
}

Value HaloBuilder::permute(Value part, const DimPlan &plan,
                           function_ref<int64_t(int64_t)> source) {
  SmallVector<int64_t> pairs;
  for (const SmallVector<int64_t> &group : devices.getReplicaGroups(plan.axes))
    for (int64_t index = 0; index < plan.shards; ++index) {
      int64_t from = source(index);
      if (from >= 0 && from < plan.shards) {
        pairs.push_back(group[from]);
        pairs.push_back(group[index]);
      }
    }
  auto pairsType = RankedTensorType::get(
      {static_cast<int64_t>(pairs.size()) / 2, 2}, builder.getI64Type());
  // Pairs of replica ids need a permute without channel (cross-replica);
  // with a channel, pairs name partitions (cross-partition).
  hlo::ChannelHandleAttr channel =
      useReplicaId ? hlo::ChannelHandleAttr()
                   : channels.takeDeviceToDevice(builder.getContext());
  return hlo::CollectivePermuteOp::create(
      builder, loc, part.getType(), part,
      DenseIntElementsAttr::get(pairsType, pairs), channel);
}

Value HaloBuilder::maskOutsideInput(Value window, const DimPlan &plan) {
  // Window element p is input element k * a - leftHalo + p.
  auto type = cast<RankedTensorType>(window.getType());
  auto indexType = type.clone(builder.getI64Type());
  auto predType = type.clone(builder.getI1Type());
  Value iota = hlo::IotaOp::create(builder, loc, indexType,
                                   builder.getI64IntegerAttr(plan.dim));
  auto broadcast = [&](Value scalar, RankedTensorType to) -> Value {
    return hlo::BroadcastInDimOp::create(builder, loc, to, scalar,
                                         ArrayRef<int64_t>{});
  };
  Value first =
      buildAffineOfShardIndex(plan.axes, plan.inShard, -plan.leftHalo);
  Value element =
      hlo::AddOp::create(builder, loc, iota, broadcast(first, indexType));
  auto compare = [&](int64_t bound, hlo::ComparisonDirection direction) {
    return hlo::CompareOp::create(
        builder, loc, predType, element, splatI64(indexType, bound),
        hlo::ComparisonDirectionAttr::get(builder.getContext(), direction),
        hlo::ComparisonTypeAttr::get(builder.getContext(),
                                     hlo::ComparisonType::SIGNED));
  };
  Value inside = hlo::AndOp::create(
      builder, loc, predType, compare(0, hlo::ComparisonDirection::GE),
      compare(plan.inSize, hlo::ComparisonDirection::LT));
  return hlo::SelectOp::create(builder, loc, type, inside, window,
                               broadcast(getFill(), type));
}

Value HaloBuilder::exchangeAndCut(Value value, const DimPlan &plan) {
  int64_t a = plan.inShard, b = plan.outShard;
  SmallVector<Value> pieces;
  int64_t leftHops = ceilDiv(plan.leftHalo, a);
  for (int64_t hop = leftHops; hop >= 1; --hop) {
    int64_t width = hop == leftHops ? plan.leftHalo - (leftHops - 1) * a : a;
    pieces.push_back(fetch(value, plan, -hop, a - width, width));
  }
  pieces.push_back(value);
  int64_t rightHops = ceilDiv(plan.rightHalo, a);
  for (int64_t hop = 1; hop <= rightHops; ++hop) {
    int64_t width = hop == rightHops ? plan.rightHalo - (rightHops - 1) * a : a;
    pieces.push_back(fetch(value, plan, hop, 0, width));
  }
  Value window = value;
  if (pieces.size() > 1) {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[plan.dim] = a + plan.leftHalo + plan.rightHalo;
    window = hlo::ConcatenateOp::create(builder, loc, type.clone(shape), pieces,
                                        plan.dim);
  }
  // Neighbours that do not exist sent nothing (zeros), and the last shard
  // may run past the input: a pad must see its padding value there.
  if (masksOutside &&
      (plan.leftHalo > 0 || plan.shards * a + plan.rightHalo > plan.inSize))
    window = maskOutsideInput(window, plan);
  int64_t length = a + plan.leftHalo + plan.rightHalo;
  window = padDim(window, plan.dim, 0, 0, plan.dilation - 1);
  int64_t sourceLength = (length - 1) * plan.dilation + 1;
  // Device k's output starts at source coordinate k * b * stride + start;
  // its window starts at (k * a - leftHalo) * dilation.
  int64_t scale = b * plan.stride - a * plan.dilation;
  int64_t offset = plan.start + plan.leftHalo * plan.dilation;
  int64_t span = (b - 1) * plan.stride + 1;
  int64_t lowest = std::min(offset, (plan.shards - 1) * scale + offset);
  int64_t highest = std::max(offset, (plan.shards - 1) * scale + offset);
  int64_t extraLow = std::max<int64_t>(-lowest, 0);
  int64_t extraHigh = std::max<int64_t>(highest + span - sourceLength, 0);
  window = padDim(window, plan.dim, extraLow, extraHigh, 0);
  auto type = cast<RankedTensorType>(window.getType());
  Value zero;
  SmallVector<Value> starts;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (dim == plan.dim) {
      starts.push_back(
          buildAffineOfShardIndex(plan.axes, scale, offset + extraLow));
      continue;
    }
    if (!zero)
      zero = constantI64(0);
    starts.push_back(zero);
  }
  SmallVector<int64_t> sizes(type.getShape());
  sizes[plan.dim] = span;
  Value cut = hlo::DynamicSliceOp::create(builder, loc, type.clone(sizes),
                                          window, starts, sizes);
  if (plan.stride > 1)
    cut = sliceDim(cut, plan.dim, 0, span, plan.stride);
  return cut;
}

Value HaloBuilder::mirror(Value value, const DimPlan &plan) {
  // With the padding of the last shard moved to the front (a shift by
  // n * a - I, itself a halo exchange), the elements device k outputs, in
  // reverse, are exactly the shard of device n - 1 - k.
  int64_t shift = plan.shards * plan.inShard - plan.inSize;
  if (shift > 0) {
    DimPlan shifted = plan;
    shifted.action = DimAction::kCut;
    shifted.outSize = plan.shards * plan.inShard;
    shifted.outShard = plan.inShard;
    shifted.start = -shift;
    shifted.leftHalo = shifted.rightHalo = 0;
    shifted.computeHalos();
    value = exchangeAndCut(value, shifted);
  }
  return permute(value, plan,
                 [&](int64_t index) { return plan.shards - 1 - index; });
}

} // namespace

bool rewriteWithHaloExchange(const OpFactorView &view, bool useReplicaId,
                             ChannelCounter &channels) {
  Operation *op = view.op;
  auto pad = dyn_cast<hlo::PadOp>(op);
  auto slice = dyn_cast<hlo::SliceOp>(op);
  auto reverse = dyn_cast<hlo::ReverseOp>(op);
  if (!pad && !slice && !reverse)
    return false;
  auto inType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!inType || !outType || !inType.hasStaticShape() ||
      !outType.hasStaticShape())
    return false;
  TensorShardingAttr inSharding = view.operandShardings[0];
  TensorShardingAttr outSharding = view.resultShardings[0];
  // Operand and result sharded alike on the op's mesh, full axes only (the
  // manual computation is over whole axes), nothing unreduced.
  if (!inSharding || !outSharding ||
      inSharding.getMeshOrRef() != view.mesh.meshOrRef ||
      outSharding.getMeshOrRef() != view.mesh.meshOrRef ||
      !inSharding.getUnreducedAxes().empty() ||
      !outSharding.getUnreducedAxes().empty())
    return false;
  MeshAttr mesh = view.mesh.mesh;
  int64_t rank = inType.getRank();
  SmallVector<DimPlan> plans;
  for (int64_t dim = 0; dim < rank; ++dim) {
    ArrayRef<AxisRefAttr> axes = inSharding.getDimShardings()[dim].getAxes();
    if (axes != outSharding.getDimShardings()[dim].getAxes())
      return false;
    if (axes.empty())
      continue;
    if (llvm::any_of(axes, [](AxisRefAttr axis) {
          return static_cast<bool>(axis.getSubAxisInfo());
        }))
      return false;
    DimPlan plan;
    plan.dim = dim;
    plan.axes.assign(axes.begin(), axes.end());
    plan.shards = getTotalSize(axes, mesh);
    plan.inSize = inType.getDimSize(dim);
    plan.outSize = outType.getDimSize(dim);
    if (plan.inSize == 0 || plan.outSize == 0)
      return false;
    plan.inShard = ceilDiv(plan.inSize, plan.shards);
    plan.outShard = ceilDiv(plan.outSize, plan.shards);
    plan.stride = 1;
    plan.start = 0;
    plan.dilation = 1;
    if (pad) {
      plan.start = -pad.getEdgePaddingLow()[dim];
      plan.dilation = pad.getInteriorPadding()[dim] + 1;
    } else if (slice) {
      plan.stride = slice.getStrides()[dim];
      plan.start = slice.getStartIndices()[dim];
    } else {
      plan.action = llvm::is_contained(reverse.getDimensions(), dim)
                        ? DimAction::kMirror
                        : DimAction::kKeep;
    }
    if (!plan.fitsInt64())
      return false;
    if (plan.action == DimAction::kCut) {
      plan.computeHalos();
      if (plan.exchangesAsMuchAsAllGather())
        return false;
    }
    plans.push_back(std::move(plan));
  }
  if (plans.empty())
    return false;

  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  OpBuilder builder(op);
  auto scalarType = RankedTensorType::get({}, inType.getElementType());
  // What a pad fills with, or zeros for a slice (read only past the input,
  // by the devices whose output runs past the result).
  auto buildFill = [&]() -> Value {
    if (pad)
      return pad.getPaddingValue();
    auto zero = dyn_cast_or_null<ElementsAttr>(builder.getZeroAttr(scalarType));
    if (!zero)
      return nullptr;
    return hlo::ConstantOp::create(builder, loc, zero);
  };
  if (!pad && !builder.getZeroAttr(scalarType))
    return false;
  TensorShardingAttr closedIn = getClosedForm(inSharding);
  TensorShardingAttr closedOut = getClosedForm(outSharding);

  // Make the sharded input dimensions divisible (the manual computation
  // needs it); the padding is never read as input.
  SmallVector<int64_t> paddedIn(inType.getShape()), localIn(inType.getShape());
  SmallVector<int64_t> paddedOut(outType.getShape());
  SmallVector<int64_t> zeros(rank, 0), high(rank, 0);
  for (const DimPlan &plan : plans) {
    paddedIn[plan.dim] = plan.shards * plan.inShard;
    localIn[plan.dim] = plan.inShard;
    paddedOut[plan.dim] = plan.shards * plan.outShard;
    high[plan.dim] = paddedIn[plan.dim] - plan.inSize;
  }
  Value input = op->getOperand(0);
  if (paddedIn != inType.getShape()) {
    Value outsideFill = buildFill();
    auto padded = hlo::PadOp::create(builder, loc, inType.clone(paddedIn),
                                     input, outsideFill, zeros, high, zeros);
    padded->setAttr(SdyDialect::kShardingAttrName,
                    TensorShardingPerValueAttr::get(ctx, {closedIn}));
    input = padded;
  }

  SmallVector<Value> operands{input};
  SmallVector<TensorShardingAttr> inShardings{closedIn};
  if (pad) {
    operands.push_back(pad.getPaddingValue());
    inShardings.push_back(getFullyClosedSharding(view.mesh.meshOrRef, 0));
  }
  SmallVector<StringAttr> manualAxes;
  for (MeshAxisAttr axis : mesh.getAxes())
    if (llvm::any_of(plans, [&](const DimPlan &plan) {
          return llvm::any_of(plan.axes, [&](AxisRefAttr used) {
            return used.getName() == axis.getName();
          });
        }))
      manualAxes.push_back(StringAttr::get(ctx, axis.getName()));
  auto manual = ManualComputationOp::create(
      builder, loc, TypeRange{outType.clone(paddedOut)}, operands,
      TensorShardingPerValueAttr::get(ctx, inShardings),
      TensorShardingPerValueAttr::get(ctx, {closedOut}),
      ManualAxesAttr::get(ctx, manualAxes));
  Block *body = builder.createBlock(&manual.getBody());
  Value local = body->addArgument(inType.clone(localIn), loc);
  Value fill = pad ? body->addArgument(scalarType, loc) : Value();
  HaloBuilder halo(builder, loc, mesh, fill, scalarType,
                   /*masksOutside=*/bool(pad), useReplicaId, channels);
  for (const DimPlan &plan : plans) {
    if (plan.action == DimAction::kCut)
      local = halo.exchangeAndCut(local, plan);
    else if (plan.action == DimAction::kMirror)
      local = halo.mirror(local, plan);
  }
  // Unsharded dimensions: the op itself, on those dimensions only.
  auto localType = cast<RankedTensorType>(local.getType());
  SmallVector<int64_t> localOut(localType.getShape());
  if (pad) {
    SmallVector<int64_t> lows(rank, 0), highs(rank, 0), interiors(rank, 0);
    bool any = false;
    for (int64_t dim = 0; dim < rank; ++dim) {
      if (!closedIn.getDimShardings()[dim].getAxes().empty())
        continue;
      lows[dim] = pad.getEdgePaddingLow()[dim];
      highs[dim] = pad.getEdgePaddingHigh()[dim];
      interiors[dim] = pad.getInteriorPadding()[dim];
      localOut[dim] = outType.getDimSize(dim);
      any |= lows[dim] != 0 || highs[dim] != 0 || interiors[dim] != 0;
    }
    if (any)
      local = hlo::PadOp::create(builder, loc, localType.clone(localOut), local,
                                 fill, lows, highs, interiors);
  } else if (reverse) {
    // Every reversed dimension: the sharded ones now hold their mirror
    // shard in input order.
    local = hlo::ReverseOp::create(builder, loc, localType, local,
                                   reverse.getDimensions());
  } else {
    SmallVector<int64_t> starts(rank, 0), limits(localType.getShape()),
        strides(rank, 1);
    bool any = false;
    for (int64_t dim = 0; dim < rank; ++dim) {
      if (!closedIn.getDimShardings()[dim].getAxes().empty())
        continue;
      starts[dim] = slice.getStartIndices()[dim];
      limits[dim] = slice.getLimitIndices()[dim];
      strides[dim] = slice.getStrides()[dim];
      localOut[dim] = outType.getDimSize(dim);
      any |= localOut[dim] != localType.getDimSize(dim) || starts[dim] != 0 ||
             strides[dim] != 1;
    }
    if (any)
      local = hlo::SliceOp::create(builder, loc, localType.clone(localOut),
                                   local, starts, limits, strides);
  }
  ReturnOp::create(builder, loc, local);

  builder.setInsertionPointAfter(manual);
  Value result = manual.getResult(0);
  if (paddedOut != outType.getShape()) {
    SmallVector<int64_t> ones(rank, 1);
    auto trimmed = hlo::SliceOp::create(builder, loc, outType, result, zeros,
                                        outType.getShape(), ones);
    trimmed->setAttr(SdyDialect::kShardingAttrName,
                     TensorShardingPerValueAttr::get(ctx, {outSharding}));
    result = trimmed;
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return true;
}

} // namespace mlir::sdy
