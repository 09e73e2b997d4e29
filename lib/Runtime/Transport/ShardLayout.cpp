//===- ShardLayout.cpp - Shards of a value and the pieces between them ----===//

#include "mpmd/Runtime/ShardLayout.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <map>

namespace mlir::mpmd::runtime {

namespace {

llvm::Error makeLayoutError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string describePart(const MeshAxisPart &part) {
  return "axis " + std::to_string(part.axis) + " (" +
         std::to_string(part.preSize) + ")" + std::to_string(part.size);
}

} // namespace

llvm::Expected<ShardLayout>
ShardLayout::create(Shape globalShape, llvm::ArrayRef<int64_t> axisSizes,
                    llvm::ArrayRef<std::vector<MeshAxisPart>> dimensionParts,
                    llvm::ArrayRef<int64_t> deviceIds) {
  const int64_t rank = globalShape.size();
  const int64_t numAxes = axisSizes.size();
  if (static_cast<int64_t>(dimensionParts.size()) > rank)
    return makeLayoutError("the sharding has " +
                           llvm::Twine(dimensionParts.size()) +
                           " dimensions, the value " + llvm::Twine(rank));
  for (int64_t size : axisSizes)
    if (size < 1)
      return makeLayoutError("a mesh axis has size " + llvm::Twine(size));
  std::optional<int64_t> numDevices = checkedProduct(axisSizes);
  if (!numDevices)
    return makeLayoutError("the mesh's device count overflows int64");
  if (!deviceIds.empty()) {
    bool isPermutation = deviceIds.size() == static_cast<size_t>(*numDevices);
    std::vector<bool> seen(isPermutation ? deviceIds.size() : 0);
    for (int64_t id : deviceIds) {
      if (!isPermutation || id < 0 || id >= *numDevices || seen[id]) {
        isPermutation = false;
        break;
      }
      seen[id] = true;
    }
    if (!isPermutation)
      return makeLayoutError("the mesh's " + llvm::Twine(deviceIds.size()) +
                             " device ids are not a permutation of its " +
                             llvm::Twine(*numDevices) + " positions");
  }

  // Each part must lie in its axis, and no two parts may share devices of
  // an axis: [preSize, preSize * size) intervals of pre-sizes are disjoint.
  std::vector<std::vector<std::pair<int64_t, int64_t>>> taken(numAxes);
  for (const std::vector<MeshAxisPart> &parts : dimensionParts)
    for (const MeshAxisPart &part : parts) {
      if (part.axis < 0 || part.axis >= numAxes || part.preSize < 1 ||
          part.size < 1)
        return makeLayoutError(describePart(part) + " is not in the mesh");
      std::optional<int64_t> end = checkedMul(part.preSize, part.size);
      if (!end || axisSizes[part.axis] % *end != 0)
        return makeLayoutError(describePart(part) +
                               " does not divide the axis's size " +
                               llvm::Twine(axisSizes[part.axis]));
      for (auto [otherBegin, otherEnd] : taken[part.axis])
        if (part.preSize < otherEnd && otherBegin < *end)
          return makeLayoutError(describePart(part) +
                                 " shares devices with another part");
      taken[part.axis].push_back({part.preSize, *end});
    }

  ShardLayout layout;
  layout.globalShape = globalShape;
  layout.localShape = globalShape;
  for (auto [dimension, parts] : llvm::enumerate(dimensionParts)) {
    // Products of distinct divisors of the mesh size: no overflow past the
    // device count, which fits.
    int64_t shards = 1;
    for (const MeshAxisPart &part : parts)
      shards *= part.size;
    if (globalShape[dimension] % shards != 0)
      return makeLayoutError("dimension " + llvm::Twine(dimension) +
                             " of size " + llvm::Twine(globalShape[dimension]) +
                             " does not divide into " + llvm::Twine(shards) +
                             " shards");
    layout.localShape[dimension] = globalShape[dimension] / shards;
  }

  std::vector<int64_t> axisStrides(numAxes, 1);
  for (int64_t axis = numAxes - 2; axis >= 0; --axis)
    axisStrides[axis] = axisStrides[axis + 1] * axisSizes[axis + 1];
  std::optional<int64_t> numBegins = checkedMul(*numDevices, rank);
  if (!numBegins)
    return makeLayoutError("the mesh's devices times the rank overflow int64");
  layout.begins.assign(*numBegins, 0);
  for (int64_t position = 0; position < *numDevices; ++position) {
    int64_t device = deviceIds.empty() ? position : deviceIds[position];
    for (auto [dimension, parts] : llvm::enumerate(dimensionParts)) {
      int64_t index = 0;
      for (const MeshAxisPart &part : parts) {
        int64_t coordinate =
            position / axisStrides[part.axis] % axisSizes[part.axis];
        int64_t minor = axisSizes[part.axis] / (part.preSize * part.size);
        index = index * part.size + coordinate / minor % part.size;
      }
      // Within the dimension's size: no overflow.
      layout.begins[device * rank + dimension] =
          index * layout.localShape[dimension];
    }
  }
  layout.groupShards(*numDevices);
  return layout;
}

ShardLayout ShardLayout::replicated(Shape globalShape, int64_t numDevices) {
  ShardLayout layout;
  layout.localShape = globalShape;
  layout.begins.assign(numDevices * globalShape.size(), 0);
  layout.globalShape = std::move(globalShape);
  layout.groupShards(numDevices);
  return layout;
}

void ShardLayout::groupShards(int64_t numDevices) {
  std::map<std::vector<int64_t>, int64_t> shardAt;
  shardOf.resize(numDevices);
  for (int64_t device = 0; device < numDevices; ++device) {
    auto [at, inserted] =
        shardAt.try_emplace(getBegin(device).vec(), holders.size());
    if (inserted)
      holders.emplace_back();
    shardOf[device] = at->second;
    holders[at->second].push_back(device);
  }
}

std::vector<RelayoutPiece> planRelayout(const ShardLayout &source,
                                        const ShardLayout &destination) {
  const size_t rank = source.getGlobalShape().size();
  std::vector<RelayoutPiece> pieces;
  for (int64_t device = 0; device < destination.getNumDevices(); ++device) {
    llvm::ArrayRef<int64_t> needed = destination.getBegin(device);
    for (int64_t shard = 0; shard < source.getNumShards(); ++shard) {
      llvm::ArrayRef<int64_t> holders = source.getHolders(shard);
      llvm::ArrayRef<int64_t> held = source.getBegin(holders.front());
      RelayoutPiece piece;
      piece.sourceDevice = holders[device % holders.size()];
      piece.device = device;
      bool overlaps = true;
      for (size_t dimension = 0; dimension < rank && overlaps; ++dimension) {
        int64_t begin = std::max(needed[dimension], held[dimension]);
        int64_t end =
            std::min(needed[dimension] + destination.getLocalShape()[dimension],
                     held[dimension] + source.getLocalShape()[dimension]);
        // An empty dimension (size 0) overlaps everything: the value has
        // no bytes, but each receiver still gets its (empty) pieces.
        overlaps = begin < end || source.getGlobalShape()[dimension] == 0;
        piece.sourceBox.begin.push_back(begin - held[dimension]);
        piece.destinationBox.begin.push_back(begin - needed[dimension]);
        piece.sourceBox.shape.push_back(std::max<int64_t>(end - begin, 0));
      }
      if (!overlaps)
        continue;
      piece.destinationBox.shape = piece.sourceBox.shape;
      pieces.push_back(std::move(piece));
    }
  }
  return pieces;
}

Tensor extractBox(const Tensor &tensor, const TensorBox &box) {
  if (box.shape == tensor.shape())
    return tensor;
  std::vector<int64_t> limit(box.begin.size()), strides(box.begin.size(), 1);
  for (size_t dimension = 0; dimension < box.begin.size(); ++dimension)
    limit[dimension] = box.begin[dimension] + box.shape[dimension];
  return slice(tensor, box.begin, limit, strides);
}

} // namespace mlir::mpmd::runtime
