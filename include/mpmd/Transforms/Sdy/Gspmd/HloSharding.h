//===- HloSharding.h - GSPMD's `mhlo.sharding` strings ----------*- C++ -*-===//
//
// Modules from GSPMD-era JAX (and XLA's HLO text) spell shardings as HLO
// sharding strings: `{replicated}`, `{maximal device=0}`, `{manual}`,
// `{devices=[4,2]<=[8]}`, `{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}`,
// `{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}`, tuples
// `{{replicated}, {devices=[2]<=[2]}}`, with optional `metadata={...}`,
// `shard_as N` / `shard_like N`. This is the parser (a user-facing one: every
// malformed string is an error naming the offset, never a crash) and the
// device-order analysis the import into sdy meshes builds on. Plain C++ with
// LLVM ADT; no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_GSPMD_HLOSHARDING_H
#define MPMD_TRANSFORMS_SDY_GSPMD_HLOSHARDING_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::sdy::gspmd {

/// The largest device count a tile assignment may have: larger ones are
/// rejected before anything is allocated for them.
constexpr int64_t kMaxDevices = int64_t(1) << 20;

/// What the trailing tile dimensions after the data dimensions are.
enum class SubgroupKind { kReplicated, kManual };

/// One parsed sharding.
struct HloSharding {
  enum class Kind { kReplicated, kManual, kUnknown, kMaximal, kTiled, kTuple };
  Kind kind = Kind::kReplicated;

  /// kMaximal: the device the value lives on.
  int64_t device = 0;

  /// kTiled: the tile assignment's dimensions, the data dimensions followed
  /// by one dimension per subgroup kind.
  llvm::SmallVector<int64_t> tileDims;
  /// kTiled, iota form `<=[reshape]T(perm)`: device ids are
  /// iota(product) reshaped to `iotaReshapeDims`, transposed by
  /// `iotaTranspose` (identity when empty), then reshaped to `tileDims`.
  bool isIota = false;
  llvm::SmallVector<int64_t> iotaReshapeDims;
  llvm::SmallVector<int64_t> iotaTranspose;
  /// kTiled, explicit form: the device ids in row-major tile order.
  llvm::SmallVector<int64_t> deviceList;
  /// kTiled: the kinds of the trailing subgroup dimensions
  /// (`last_tile_dim_replicate` is one kReplicated).
  llvm::SmallVector<SubgroupKind> subgroups;

  /// `shard_as N` (false: `shard_like N`).
  std::optional<int64_t> shardGroup;
  bool shardGroupIsShardAs = true;

  /// kTuple: one sharding per tuple element.
  std::vector<HloSharding> elements;

  /// kTiled: the number of data dimensions (tile dims without subgroups).
  int64_t getDataRank() const {
    return int64_t(tileDims.size()) - int64_t(subgroups.size());
  }
  /// kTiled: the number of devices (product of the tile dims; checked by
  /// the parser to be at most kMaxDevices).
  int64_t getDeviceCount() const;
  /// Whether some subgroup dimension is manual.
  bool isPartiallyManual() const;
};

/// Parses one sharding string. Errors name the byte offset of the problem.
llvm::Expected<HloSharding> parseHloSharding(llvm::StringRef text);

/// One run of consecutive device-order digits of a tile dimension: the
/// devices along it step by `stride` in the mesh's device order, `size`
/// times.
struct DevicePiece {
  int64_t stride = 1;
  int64_t size = 1;
  bool operator==(const DevicePiece &other) const {
    return stride == other.stride && size == other.size;
  }
};

/// A tiled sharding laid out as mixed-radix digits of a device order.
/// `deviceOrder` is empty when the devices are iota order (device id =
/// position in the mesh); otherwise the mesh needs those device ids.
/// Every tile dimension (data and subgroup ones) is a list of pieces, major
/// first; the pieces of all dimensions together cover each digit of the
/// device order once.
struct DeviceLayout {
  int64_t deviceCount = 1;
  llvm::SmallVector<int64_t> deviceOrder;
  std::vector<llvm::SmallVector<DevicePiece>> dimPieces;
};

/// The layout of a kTiled sharding: the iota form directly when its tile
/// dimensions split the transposed iota dimensions evenly; explicit device
/// lists recognised as an iota order transposed (so that they share a mesh
/// with iota shardings); otherwise the list itself is the device order and
/// every tile dimension is one piece. O(devices x tile rank).
DeviceLayout computeDeviceLayout(const HloSharding &sharding);

/// Mesh axis sizes (major first) whose boundaries refine every layout's
/// piece boundaries, or none when they cannot all be axes of one mesh (a
/// boundary that does not divide the next). `boundaries` are strides in
/// device order: 1, each piece's stride and stride x size, the count.
std::optional<llvm::SmallVector<int64_t>>
getCommonAxisSizes(llvm::ArrayRef<int64_t> boundaries);

/// The boundaries of a layout (see getCommonAxisSizes).
llvm::SmallVector<int64_t> getBoundaries(const DeviceLayout &layout);

} // namespace mlir::sdy::gspmd

#endif // MPMD_TRANSFORMS_SDY_GSPMD_HLOSHARDING_H
