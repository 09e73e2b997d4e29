//===- DeviceIds.h - Device and channel ids of partitioned code -*- C++ -*-===//
//
// What every partitioner pass that builds per-device code needs: the id of
// the device running the program (`partition_id` or `replica_id`), a
// device's offset along some mesh axes computed from that id, and channel
// handles for the collectives it builds, unique in the module.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_DEVICEIDS_H
#define MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_DEVICEIDS_H

#include "MeshDevices.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"

#include <cstdint>

namespace mlir::sdy {

/// Channel handles for new collectives. Handles are unique in the module
/// (sdy-notes 5.4, 5.7): a counter is made once per module and counts on
/// from the largest handle already in it.
class ChannelCounter {
public:
  /// Starts after the largest `channel_handle` under `root`, the module
  /// the new collectives go to. O(ops).
  explicit ChannelCounter(Operation *root);
  /// The largest `channel_handle` under `root`, 0 when there is none.
  /// O(ops under `root`).
  static int64_t getLargestHandle(Operation *root);
  /// The next handle; saturates at the largest int64 rather than overflow.
  int64_t take();
  /// The next handle as a device-to-device channel (type 1).
  stablehlo::ChannelHandleAttr takeDeviceToDevice(MLIRContext *ctx) {
    return stablehlo::ChannelHandleAttr::get(ctx, take(), /*type=*/1);
  }

private:
  int64_t next = 1;
};

/// The id of the device running the program as a `tensor<i64>`:
/// `replica_id` when `useReplicaId`, else `partition_id`.
Value buildDeviceId(OpBuilder &builder, Location loc, bool useReplicaId);

/// How a program computes a function of its device id.
enum class DeviceIndexForm {
  /// Div/rem arithmetic on the id on meshes without explicit device ids
  /// (the id is the row-major position), a lookup table otherwise.
  kClosedFormIfIota,
  /// Always a lookup table: one i64 per device, indexed by the id.
  kTable,
};

/// `index * scale + offset` as a `tensor<i64>`, where `index` is the shard
/// index along `axes` (major first) of the device whose id is `deviceId`
/// on `devices`. O(N) for a table of N devices, O(|axes|) ops otherwise.
Value buildShardOffset(OpBuilder &builder, Location loc,
                       const MeshDevices &devices, ArrayRef<AxisRefAttr> axes,
                       int64_t scale, int64_t offset, Value deviceId,
                       DeviceIndexForm form);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_DEVICEIDS_H
