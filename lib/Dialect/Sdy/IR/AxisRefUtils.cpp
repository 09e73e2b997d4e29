//===- AxisRefUtils.cpp - Arithmetic on (sub-)axes ------------------------===//

#include "mpmd/Dialect/Sdy/IR/AxisRefUtils.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::sdy {

int64_t getPreSize(AxisRefAttr axis) {
  if (SubAxisInfoAttr sub = axis.getSubAxisInfo())
    return sub.getPreSize();
  return 1;
}

AxisRefAttr getAxisRef(MeshAttr mesh, StringRef name, int64_t preSize,
                       int64_t size) {
  MLIRContext *context = mesh.getContext();
  if (preSize == 1 && mesh.getAxisSize(name) == size)
    return AxisRefAttr::get(context, name, SubAxisInfoAttr());
  return AxisRefAttr::get(context, name,
                          SubAxisInfoAttr::get(context, preSize, size));
}

namespace {

/// The exclusive end of the pre-size interval of `axis`.
int64_t getEnd(AxisRefAttr axis, MeshAttr mesh) {
  return getPreSize(axis) * axis.getSize(mesh);
}

} // namespace

bool overlaps(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh) {
  return a.getName() == b.getName() && getPreSize(a) < getEnd(b, mesh) &&
         getPreSize(b) < getEnd(a, mesh);
}

std::string formatAxis(AxisRefAttr axis) {
  std::string text = "\"" + axis.getName().str() + "\"";
  if (SubAxisInfoAttr sub = axis.getSubAxisInfo())
    text += ":(" + std::to_string(sub.getPreSize()) + ")" +
            std::to_string(sub.getSize());
  return text;
}

std::string formatAxes(ArrayRef<AxisRefAttr> axes) {
  std::string text = "{";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(axes, os,
                        [&](AxisRefAttr axis) { os << formatAxis(axis); });
  os << "}";
  return text;
}

bool contains(AxisRefAttr outer, AxisRefAttr inner, MeshAttr mesh) {
  return outer.getName() == inner.getName() &&
         getPreSize(outer) <= getPreSize(inner) &&
         getEnd(inner, mesh) <= getEnd(outer, mesh);
}

bool isStrictPrefix(AxisRefAttr prefix, AxisRefAttr axis, MeshAttr mesh) {
  return prefix.getName() == axis.getName() &&
         getPreSize(prefix) == getPreSize(axis) &&
         getEnd(prefix, mesh) < getEnd(axis, mesh);
}

AxisRefAttr getPrefix(AxisRefAttr axis, int64_t size, MeshAttr mesh) {
  return getAxisRef(mesh, axis.getName(), getPreSize(axis), size);
}

std::optional<AxisRefAttr> mergeContiguous(AxisRefAttr major,
                                           AxisRefAttr minor, MeshAttr mesh) {
  if (major.getName() != minor.getName() ||
      getEnd(major, mesh) != getPreSize(minor))
    return std::nullopt;
  return getAxisRef(mesh, major.getName(), getPreSize(major),
                    major.getSize(mesh) * minor.getSize(mesh));
}

std::optional<AxisRefAttr>
getPrefixNotOverlapping(AxisRefAttr axis, ArrayRef<AxisRefAttr> others,
                        MeshAttr mesh) {
  for (AxisRefAttr other : others) {
    if (!overlaps(axis, other, mesh))
      continue;
    int64_t preSize = getPreSize(axis);
    // Only the devices before `other` starts are free; a prefix must
    // still be a whole number of them.
    if (getPreSize(other) <= preSize || getPreSize(other) % preSize != 0)
      return std::nullopt;
    axis = getPrefix(axis, getPreSize(other) / preSize, mesh);
  }
  return axis;
}

int64_t getTotalSize(ArrayRef<AxisRefAttr> axes, MeshAttr mesh) {
  int64_t size = 1;
  for (AxisRefAttr axis : axes)
    size *= axis.getSize(mesh);
  return size;
}

bool isStrictPrefix(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> longer,
                    MeshAttr mesh) {
  if (axes.size() > longer.size())
    return false;
  if (axes.empty())
    return !longer.empty();
  size_t last = axes.size() - 1;
  if (axes.take_front(last) != longer.take_front(last))
    return false;
  if (axes[last] == longer[last])
    return axes.size() < longer.size();
  return isStrictPrefix(axes[last], longer[last], mesh);
}

SmallVector<AxisRefAttr> mergeNeighbours(ArrayRef<AxisRefAttr> axes,
                                         MeshAttr mesh) {
  SmallVector<AxisRefAttr> merged;
  for (AxisRefAttr axis : axes) {
    if (!merged.empty())
      if (std::optional<AxisRefAttr> joined =
              mergeContiguous(merged.back(), axis, mesh)) {
        merged.back() = *joined;
        continue;
      }
    merged.push_back(axis);
  }
  return merged;
}

void AxisRefDecomposition::addBoundaries(ArrayRef<AxisRefAttr> axes) {
  for (AxisRefAttr axis : axes) {
    SmallVector<int64_t> &points = cuts[axis.getName()];
    for (int64_t point : {getPreSize(axis), getEnd(axis, mesh)}) {
      auto *it = llvm::lower_bound(points, point);
      if (it == points.end() || *it != point)
        points.insert(it, point);
    }
  }
}

SmallVector<AxisRefAttr> AxisRefDecomposition::split(AxisRefAttr axis) const {
  auto it = cuts.find(axis.getName());
  if (it == cuts.end())
    return {axis};
  ArrayRef<int64_t> points = it->second;
  for (auto [lower, upper] : llvm::zip(points, points.drop_front()))
    if (upper % lower != 0)
      return {axis};
  int64_t begin = getPreSize(axis), end = getEnd(axis, mesh);
  SmallVector<AxisRefAttr> pieces;
  for (auto [lower, upper] : llvm::zip(points, points.drop_front()))
    if (begin <= lower && upper <= end)
      pieces.push_back(
          getAxisRef(mesh, axis.getName(), lower, upper / lower));
  return pieces;
}

SmallVector<AxisRefAttr>
AxisRefDecomposition::split(ArrayRef<AxisRefAttr> axes) const {
  SmallVector<AxisRefAttr> pieces;
  for (AxisRefAttr axis : axes)
    llvm::append_range(pieces, split(axis));
  return pieces;
}

std::optional<SmallVector<AxisRefAttr>>
removeAxesSuffix(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> suffix,
                 MeshAttr mesh) {
  AxisRefDecomposition decomposition(mesh);
  decomposition.addBoundaries(axes);
  decomposition.addBoundaries(suffix);
  SmallVector<AxisRefAttr> pieces = decomposition.split(axes);
  SmallVector<AxisRefAttr> suffixPieces = decomposition.split(suffix);
  if (pieces.size() < suffixPieces.size() ||
      ArrayRef(pieces).take_back(suffixPieces.size()) !=
          ArrayRef(suffixPieces))
    return std::nullopt;
  return mergeNeighbours(
      ArrayRef(pieces).drop_back(suffixPieces.size()), mesh);
}

} // namespace mlir::sdy
