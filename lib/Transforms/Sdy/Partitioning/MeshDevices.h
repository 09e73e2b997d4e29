//===- MeshDevices.h - Devices of a mesh and their groups -------*- C++ -*-===//
//
// The arithmetic the partitioner needs to turn axis lists into device
// numbers: where a device sits along a (sub-)axis, which devices form the
// replica groups of a collective over some axes, which shard of a
// dimension each device holds, and which device takes over a shard when
// the axes sharding a tensor change.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_MESHDEVICES_H
#define MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_MESHDEVICES_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "llvm/ADT/SmallVector.h"

namespace mlir::sdy {

/// The devices of a non-maximal mesh. A device has a *position*: its
/// row-major index over the mesh axes (first axis most major), and an *id*:
/// `device_ids[position]`, or the position itself for an iota mesh. Ids are
/// what `partition_id` / `replica_id` return and what replica groups list.
class MeshDevices {
public:
  explicit MeshDevices(MeshAttr mesh);

  int64_t getNumDevices() const { return numDevices; }
  int64_t getDeviceId(int64_t position) const {
    return deviceIds.empty() ? position : deviceIds[position];
  }
  /// Size of `axis` (a full axis or a sub-axis).
  int64_t getSize(AxisRefAttr axis) const;
  /// Product of the sizes of `axes`.
  int64_t getSize(ArrayRef<AxisRefAttr> axes) const;

  /// Index of the device at `position` along `axes`, the first axis most
  /// major: the shard it holds of a dimension sharded by `axes`, or its
  /// place in a replica group over `axes`. O(|axes|).
  int64_t getLinearIndex(int64_t position, ArrayRef<AxisRefAttr> axes) const;

  /// The parts of the mesh `axes` do not cover, in mesh order and major to
  /// minor within an axis, as full axes or sub-axes: with `axes`, they
  /// index every device exactly once. `axes` must not overlap.
  /// O(|axes| log |axes| + mesh axes).
  SmallVector<AxisRefAttr> getComplement(ArrayRef<AxisRefAttr> axes) const;

  /// Replica groups of a collective over `axes`: a [N / |axes|, |axes|]
  /// matrix of device ids, one row per combination of the other axes (in
  /// mesh order), members ordered by their index along `axes`.
  /// O(N * (mesh axes + |axes|)).
  SmallVector<SmallVector<int64_t>>
  getReplicaGroups(ArrayRef<AxisRefAttr> axes) const;

  /// `getLinearIndex(position, axes) * scale` for every device, indexed by
  /// device id (a lookup table the program reads at its own id).
  /// O(N * |axes|).
  SmallVector<int64_t> getIndexTableById(ArrayRef<AxisRefAttr> axes,
                                         int64_t scale) const;

  /// One digit of a device's index along some axes: `(id / divisor) % size`.
  struct IndexDigit {
    int64_t divisor;
    int64_t size;
  };
  /// For a mesh without explicit device ids (id = position): the digits of
  /// `getLinearIndex(id, axes)`, most major first, so that the index is
  /// the fold `index = index * size + (id / divisor) % size`: closed-form
  /// arithmetic a program can evaluate on its own id. O(|axes|).
  SmallVector<IndexDigit> getIndexDigits(ArrayRef<AxisRefAttr> axes) const;
  bool hasExplicitDeviceIds() const { return !deviceIds.empty(); }

private:
  MeshAttr mesh;
  int64_t numDevices;
  ArrayRef<int64_t> deviceIds;
  /// Per mesh axis: the distance in positions between neighbours on it.
  SmallVector<int64_t> axisStrides;
};

/// The pairs (source id, target id) of a collective permute that changes
/// the sharding of a tensor from `inputDims` on `inputMesh` to `outputDims`
/// on `outputMesh` (per dimension axes, equal shard counts per dimension;
/// meshes with the same axes, possibly different device orders). Every
/// device appears once as a source and once as a target: a device sends its
/// shard to the device whose index over the output dimension axes followed
/// by the remaining axes equals the sender's index over the input dimension
/// axes followed by its remaining axes. O(N * mesh axes).
SmallVector<std::pair<int64_t, int64_t>>
getPermutePairs(const MeshDevices &inputMesh,
                ArrayRef<SmallVector<AxisRefAttr>> inputDims,
                const MeshDevices &outputMesh,
                ArrayRef<SmallVector<AxisRefAttr>> outputDims);

} // namespace mlir::sdy

#endif // MPMD_LIB_TRANSFORMS_SDY_PARTITIONING_MESHDEVICES_H
