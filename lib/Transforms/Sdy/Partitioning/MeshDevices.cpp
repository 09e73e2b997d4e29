//===- MeshDevices.cpp - Devices of a mesh and their groups ---------------===//

#include "MeshDevices.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <cassert>

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Pre-size of `axis`: the product of the sizes of the parts of its mesh
/// axis that are more major (1 for a full axis). `"x":(m)k` of an axis of
/// size n is the middle dimension of x seen as [m, k, n / (m * k)].
int64_t getPreSize(AxisRefAttr axis) {
  SubAxisInfoAttr sub = axis.getSubAxisInfo();
  return sub ? sub.getPreSize() : 1;
}

} // namespace

MeshDevices::MeshDevices(MeshAttr mesh)
    : mesh(mesh), numDevices(mesh.getTotalSize()),
      deviceIds(mesh.getDeviceIds()) {
  ArrayRef<MeshAxisAttr> axes = mesh.getAxes();
  axisStrides.resize(axes.size());
  int64_t stride = 1;
  for (int64_t i = static_cast<int64_t>(axes.size()) - 1; i >= 0; --i) {
    axisStrides[i] = stride;
    stride *= axes[i].getSize();
  }
}

int64_t MeshDevices::getSize(AxisRefAttr axis) const {
  return axis.getSize(mesh);
}

int64_t MeshDevices::getSize(ArrayRef<AxisRefAttr> axes) const {
  int64_t size = 1;
  for (AxisRefAttr axis : axes)
    size *= getSize(axis);
  return size;
}

int64_t MeshDevices::getLinearIndex(int64_t position,
                                    ArrayRef<AxisRefAttr> axes) const {
  int64_t index = 0;
  for (AxisRefAttr axis : axes) {
    unsigned meshAxis = *mesh.getAxisIndex(axis.getName());
    int64_t axisSize = mesh.getAxes()[meshAxis].getSize();
    int64_t coordinate = (position / axisStrides[meshAxis]) % axisSize;
    int64_t size = getSize(axis);
    int64_t minorSize = axisSize / (getPreSize(axis) * size);
    index = index * size + (coordinate / minorSize) % size;
  }
  return index;
}

SmallVector<AxisRefAttr>
MeshDevices::getComplement(ArrayRef<AxisRefAttr> axes) const {
  MLIRContext *ctx = mesh.getContext();
  SmallVector<AxisRefAttr> complement;
  for (MeshAxisAttr meshAxis : mesh.getAxes()) {
    // The used parts of this axis as [pre-size, pre-size * size), major
    // first; the gaps between them, major first, are the complement.
    SmallVector<std::pair<int64_t, int64_t>> used;
    for (AxisRefAttr axis : axes)
      if (axis.getName() == meshAxis.getName())
        used.emplace_back(getPreSize(axis), getPreSize(axis) * getSize(axis));
    if (used.empty()) {
      complement.push_back(AxisRefAttr::get(ctx, meshAxis.getName(), {}));
      continue;
    }
    llvm::sort(used);
    auto addGap = [&](int64_t preSize, int64_t end) {
      if (end > preSize)
        complement.push_back(AxisRefAttr::get(
            ctx, meshAxis.getName(),
            SubAxisInfoAttr::get(ctx, preSize, end / preSize)));
    };
    int64_t lower = 1;
    for (auto [preSize, end] : used) {
      addGap(lower, preSize);
      lower = end;
    }
    addGap(lower, meshAxis.getSize());
  }
  return complement;
}

SmallVector<SmallVector<int64_t>>
MeshDevices::getReplicaGroups(ArrayRef<AxisRefAttr> axes) const {
  SmallVector<AxisRefAttr> others = getComplement(axes);
  int64_t groupSize = getSize(axes);
  SmallVector<SmallVector<int64_t>> groups(
      numDevices / groupSize, SmallVector<int64_t>(groupSize, 0));
  for (int64_t position = 0; position < numDevices; ++position)
    groups[getLinearIndex(position, others)][getLinearIndex(position, axes)] =
        getDeviceId(position);
  return groups;
}

SmallVector<int64_t> MeshDevices::getIndexTableById(ArrayRef<AxisRefAttr> axes,
                                                    int64_t scale) const {
  SmallVector<int64_t> table(numDevices, 0);
  for (int64_t position = 0; position < numDevices; ++position)
    table[getDeviceId(position)] = getLinearIndex(position, axes) * scale;
  return table;
}

SmallVector<MeshDevices::IndexDigit>
MeshDevices::getIndexDigits(ArrayRef<AxisRefAttr> axes) const {
  // As getLinearIndex: the coordinate on the mesh axis is
  // (position / stride) % axisSize, and the part of it `axis` covers is
  // (coordinate / minorSize) % size; minorSize * size divides axisSize, so
  // that is (position / (stride * minorSize)) % size.
  SmallVector<IndexDigit> digits;
  for (AxisRefAttr axis : axes) {
    unsigned meshAxis = *mesh.getAxisIndex(axis.getName());
    int64_t axisSize = mesh.getAxes()[meshAxis].getSize();
    int64_t size = getSize(axis);
    int64_t minorSize = axisSize / (getPreSize(axis) * size);
    int64_t divisor = axisStrides[meshAxis] * minorSize;
    // Adjacent parts of the position (say "x", "y" of one mesh) read as one.
    if (!digits.empty() && digits.back().divisor == divisor * size) {
      digits.back() = {divisor, digits.back().size * size};
      continue;
    }
    digits.push_back({divisor, size});
  }
  return digits;
}

SmallVector<std::pair<int64_t, int64_t>>
mlir::sdy::getPermutePairs(const MeshDevices &inputMesh,
                           ArrayRef<SmallVector<AxisRefAttr>> inputDims,
                           const MeshDevices &outputMesh,
                           ArrayRef<SmallVector<AxisRefAttr>> outputDims) {
  auto fullOrder = [](const MeshDevices &devices,
                      ArrayRef<SmallVector<AxisRefAttr>> dims) {
    SmallVector<AxisRefAttr> order;
    for (const SmallVector<AxisRefAttr> &dim : dims)
      llvm::append_range(order, dim);
    SmallVector<AxisRefAttr> rest = devices.getComplement(order);
    llvm::append_range(order, rest);
    return order;
  };
  SmallVector<AxisRefAttr> inputOrder = fullOrder(inputMesh, inputDims);
  SmallVector<AxisRefAttr> outputOrder = fullOrder(outputMesh, outputDims);
  int64_t numDevices = inputMesh.getNumDevices();
  assert(numDevices == outputMesh.getNumDevices() && "meshes differ in size");
  // The output position holding each shard, then one pair per sender.
  SmallVector<int64_t> positionOfShard(numDevices, 0);
  for (int64_t position = 0; position < numDevices; ++position)
    positionOfShard[outputMesh.getLinearIndex(position, outputOrder)] =
        position;
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  pairs.reserve(numDevices);
  for (int64_t position = 0; position < numDevices; ++position) {
    int64_t target =
        positionOfShard[inputMesh.getLinearIndex(position, inputOrder)];
    pairs.emplace_back(inputMesh.getDeviceId(position),
                       outputMesh.getDeviceId(target));
  }
  return pairs;
}
