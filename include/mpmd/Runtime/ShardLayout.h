//===- ShardLayout.h - Which part of a value each device holds --*- C++ -*-===//
//
// A mesh runs SPMD: each device of a mesh holds one shard of a value, a box
// (hyper-rectangle) of the global tensor, and the shards of a dimension
// sharded by mesh axes [a, b] are laid out major to minor (a's index, then
// b's). Device d of a mesh has coordinates in the mesh's axes row-major
// (first axis most major); a sub-axis "x":(m)k of an axis of size n is the
// middle digit of the coordinate along "x" in the mixed radix
// [m, k, n/(m*k)] (docs/sdy.md). Axes that shard no dimension replicate:
// the devices that differ only along them hold the same shard.
//
// The executor builds one layout per value from the value's sharding (the
// only MLIR-facing step, in Executor.cpp) and then moves boxes: inputs are
// cut into shards, outputs assembled from them, and a transfer between two
// layouts becomes pieces, each the intersection of a source shard and a
// destination shard, sent from one device holding it to the device needing
// it (`planRelayout`). Plain C++: no MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_SHARDLAYOUT_H
#define MPMD_RUNTIME_SHARDLAYOUT_H

#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace mlir::mpmd::runtime {

/// A box of a row-major tensor: `shape` elements from `begin` along each
/// dimension.
struct TensorBox {
  std::vector<int64_t> begin;
  Shape shape;

  bool operator==(const TensorBox &other) const {
    return begin == other.begin && shape == other.shape;
  }
};

/// One (sub-)axis sharding a dimension: the digit of a device's coordinate
/// along mesh axis `axis` in the mixed radix [preSize, size, rest].
struct MeshAxisPart {
  int64_t axis = 0;
  int64_t preSize = 1;
  int64_t size = 1;
};

/// The shards of one value over the devices of one mesh. Every device holds
/// a box of the same shape (the local shape); devices holding the same box
/// are its holders.
class ShardLayout {
public:
  /// The layout of a value of `globalShape` whose dimension i is sharded by
  /// `dimensionParts[i]` (major to minor; fewer lists than dimensions leave
  /// the rest unsharded) over a mesh of `axisSizes` whose device at
  /// position p has id `deviceIds[p]` (p when empty). Errors: an axis or
  /// sub-axis outside the mesh, an axis used twice, a dimension whose size
  /// does not divide by the product of its parts, sizes that overflow, ids
  /// that are not a permutation of the positions. O(devices x rank + parts).
  static llvm::Expected<ShardLayout>
  create(Shape globalShape, llvm::ArrayRef<int64_t> axisSizes,
         llvm::ArrayRef<std::vector<MeshAxisPart>> dimensionParts,
         llvm::ArrayRef<int64_t> deviceIds = {});
  /// Every one of `numDevices` devices holds the whole value.
  static ShardLayout replicated(Shape globalShape, int64_t numDevices);

  const Shape &getGlobalShape() const { return globalShape; }
  const Shape &getLocalShape() const { return localShape; }
  int64_t getNumDevices() const { return shardOf.size(); }
  /// True when every device holds the whole value.
  bool isReplicated() const { return localShape == globalShape; }
  /// Where `device`'s shard starts in the global tensor.
  llvm::ArrayRef<int64_t> getBegin(int64_t device) const {
    return llvm::ArrayRef(begins).slice(device * globalShape.size(),
                                        globalShape.size());
  }
  TensorBox getBox(int64_t device) const {
    return {getBegin(device).vec(), localShape};
  }
  /// The distinct shards, numbered in the order of their first holder.
  int64_t getNumShards() const { return holders.size(); }
  int64_t getShardOf(int64_t device) const { return shardOf[device]; }
  /// The devices holding `shard`, increasing.
  llvm::ArrayRef<int64_t> getHolders(int64_t shard) const {
    return holders[shard];
  }

private:
  ShardLayout() = default;
  /// Numbers the distinct shards and lists their holders.
  void groupShards(int64_t numDevices);

  Shape globalShape, localShape;
  /// Per device, rank entries.
  std::vector<int64_t> begins;
  std::vector<int64_t> shardOf;
  std::vector<std::vector<int64_t>> holders;
};

/// One piece of a relayout: `sourceDevice` (of the source layout's mesh)
/// sends the part `sourceBox` of its shard; `device` (of the destination
/// layout's mesh) writes it at `destinationBox` of its shard. Both boxes
/// have the same shape.
struct RelayoutPiece {
  int64_t sourceDevice = 0;
  int64_t device = 0;
  TensorBox sourceBox;
  TensorBox destinationBox;
};

/// The pieces that give every device of `destination` its shard from the
/// shards of `source` (same global shape), by destination device, then by
/// source shard. Each part of the value comes from one holder of the source
/// shard containing it: of a shard's h holders, destination device d takes
/// holder d mod h, so that receivers spread over the replicas. A device
/// receives at most one piece from each source device. O(destination
/// devices x source shards x rank).
std::vector<RelayoutPiece> planRelayout(const ShardLayout &source,
                                        const ShardLayout &destination);

/// The part `box` of `tensor` (a copy; `tensor` itself when the box is all
/// of it).
Tensor extractBox(const Tensor &tensor, const TensorBox &box);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_SHARDLAYOUT_H
