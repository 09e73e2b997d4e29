//===- DeviceIds.cpp - Device and channel ids of partitioned code ---------===//

#include "DeviceIds.h"

#include <limits>

namespace mlir::sdy {

namespace hlo = ::mlir::stablehlo;

namespace {

RankedTensorType getI64ScalarType(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 64));
}

Value buildI64Constant(OpBuilder &builder, Location loc, int64_t value) {
  return hlo::ConstantOp::create(
      builder, loc,
      DenseIntElementsAttr::get(getI64ScalarType(builder.getContext()),
                                ArrayRef<int64_t>{value}));
}

} // namespace

ChannelCounter::ChannelCounter(Operation *root) {
  int64_t largest = getLargestHandle(root);
  next = largest == std::numeric_limits<int64_t>::max() ? largest : largest + 1;
}

int64_t ChannelCounter::getLargestHandle(Operation *root) {
  int64_t largest = 0;
  root->walk([&](Operation *op) {
    std::optional<Attribute> attr = op->getInherentAttr("channel_handle");
    if (auto handle =
            dyn_cast_or_null<hlo::ChannelHandleAttr>(attr.value_or(nullptr)))
      largest = std::max(largest, handle.getHandle());
  });
  return largest;
}

int64_t ChannelCounter::take() {
  int64_t handle = next;
  if (next < std::numeric_limits<int64_t>::max())
    ++next;
  return handle;
}

Value buildDeviceId(OpBuilder &builder, Location loc, bool useReplicaId) {
  auto u32 = RankedTensorType::get({}, builder.getIntegerType(32, false));
  Value id = useReplicaId
                 ? hlo::ReplicaIdOp::create(builder, loc, u32).getResult()
                 : hlo::PartitionIdOp::create(builder, loc, u32).getResult();
  return hlo::ConvertOp::create(builder, loc,
                                getI64ScalarType(builder.getContext()), id);
}

Value buildShardOffset(OpBuilder &builder, Location loc,
                       const MeshDevices &devices, ArrayRef<AxisRefAttr> axes,
                       int64_t scale, int64_t offset, Value deviceId,
                       DeviceIndexForm form) {
  if (scale == 0)
    return buildI64Constant(builder, loc, offset);
  if (form == DeviceIndexForm::kTable || devices.hasExplicitDeviceIds()) {
    SmallVector<int64_t> table = devices.getIndexTableById(axes, scale);
    for (int64_t &entry : table)
      entry += offset;
    auto tableType = RankedTensorType::get({static_cast<int64_t>(table.size())},
                                           builder.getI64Type());
    Value constant = hlo::ConstantOp::create(
        builder, loc, DenseIntElementsAttr::get(tableType, table));
    Value entry = hlo::DynamicSliceOp::create(
        builder, loc, RankedTensorType::get({1}, builder.getI64Type()),
        constant, ValueRange{deviceId}, ArrayRef<int64_t>{1});
    return hlo::ReshapeOp::create(
        builder, loc, getI64ScalarType(builder.getContext()), entry);
  }
  // The id is the row-major position: fold its digits along `axes`.
  Value index;
  for (MeshDevices::IndexDigit digit : devices.getIndexDigits(axes)) {
    Value part = deviceId;
    if (digit.divisor != 1)
      part = hlo::DivOp::create(builder, loc, part,
                                buildI64Constant(builder, loc, digit.divisor));
    if (digit.divisor * digit.size < devices.getNumDevices())
      part = hlo::RemOp::create(builder, loc, part,
                                buildI64Constant(builder, loc, digit.size));
    index = index ? hlo::AddOp::create(
                        builder, loc,
                        hlo::MulOp::create(
                            builder, loc, index,
                            buildI64Constant(builder, loc, digit.size)),
                        part)
                  : part;
  }
  if (!index) // No axes: every device is shard 0.
    return buildI64Constant(builder, loc, offset);
  if (scale != 1)
    index = hlo::MulOp::create(builder, loc, index,
                               buildI64Constant(builder, loc, scale));
  if (offset != 0)
    index = hlo::AddOp::create(builder, loc, index,
                               buildI64Constant(builder, loc, offset));
  return index;
}

} // namespace mlir::sdy
