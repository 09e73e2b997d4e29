//===- AxisRefUtils.h - Arithmetic on (sub-)axes ----------------*- C++ -*-===//
//
// Sub-axis arithmetic shared by the sdy op verifiers, the factor projection
// of propagation and the partitioner: overlap and containment of
// (sub-)axes, prefixes, merging contiguous pieces, and cutting the axes of
// several lists into pieces that are pairwise equal or disjoint.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_SDY_IR_AXISREFUTILS_H
#define MPMD_DIALECT_SDY_IR_AXISREFUTILS_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir::sdy {

//===----------------------------------------------------------------------===//
// (Sub-)axis arithmetic. A sub-axis "x":(m)k covers the devices of axis "x"
// whose index, in the mixed radix [m, k, n/(m*k)], has middle digit varying:
// the interval [m, m*k) of "pre-sizes". Full axes cover [1, n).
//===----------------------------------------------------------------------===//

/// The pre-size of `axis`: 1 for a full axis.
int64_t getPreSize(AxisRefAttr axis);

/// The (sub-)axis of `name` covering [preSize, preSize*size); the full axis
/// when that is all of it.
AxisRefAttr getAxisRef(MeshAttr mesh, StringRef name, int64_t preSize,
                       int64_t size);

/// Whether `a` and `b` share devices of one mesh axis.
bool overlaps(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

/// Whether every device index of `inner` is one of `outer`.
bool contains(AxisRefAttr outer, AxisRefAttr inner, MeshAttr mesh);

/// Whether `prefix` is the major part of `axis` and smaller than it:
/// "x":(1)2 of "x" (size 4), "x":(2)2 of "x":(2)4.
bool isStrictPrefix(AxisRefAttr prefix, AxisRefAttr axis, MeshAttr mesh);

/// The major part of `axis` of `size` devices.
AxisRefAttr getPrefix(AxisRefAttr axis, int64_t size, MeshAttr mesh);

/// `major` and `minor` as one (sub-)axis when they are contiguous pieces of
/// the same axis, e.g. "y":(1)2 and "y":(2)2 of "y" (size 4) give "y".
std::optional<AxisRefAttr> mergeContiguous(AxisRefAttr major,
                                           AxisRefAttr minor, MeshAttr mesh);

/// The largest major part of `axis` that overlaps none of `others`, or
/// nullopt when even its first devices are taken.
std::optional<AxisRefAttr>
getPrefixNotOverlapping(AxisRefAttr axis, ArrayRef<AxisRefAttr> others,
                        MeshAttr mesh);

/// `"a"` or `"b":(1)2`, as diagnostics write a (sub-)axis.
std::string formatAxis(AxisRefAttr axis);

/// `{"a", "b":(1)2}`, as diagnostics write a list of axes.
std::string formatAxes(ArrayRef<AxisRefAttr> axes);

/// Product of the sizes of `axes`.
int64_t getTotalSize(ArrayRef<AxisRefAttr> axes, MeshAttr mesh);

/// Whether `axes` is a proper prefix of `longer`, where the last axis of
/// `axes` may itself be a strict prefix of the matching axis of `longer`.
bool isStrictPrefix(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> longer,
                    MeshAttr mesh);

/// `axes` with every two neighbours that are contiguous pieces of one axis
/// merged ("x":(1)2, "x":(2)2 on "x"=4 give "x"): the form a dimension
/// sharding must be written in. O(axes).
SmallVector<AxisRefAttr> mergeNeighbours(ArrayRef<AxisRefAttr> axes,
                                         MeshAttr mesh);

/// Cuts (sub-)axes into pieces such that any two pieces of one mesh axis are
/// equal or disjoint: every (sub-)axis registered with `addBoundaries`
/// contributes its two ends as cut points of its mesh axis. A mesh axis
/// whose cut points do not each divide the next (possible only with
/// non-power-of-two sizes, e.g. "x":(1)2 and "x":(1)3 of "x"=6) has no such
/// pieces and is left whole.
class AxisRefDecomposition {
public:
  explicit AxisRefDecomposition(MeshAttr mesh) : mesh(mesh) {}

  /// Registers the ends of every axis of `axes`. O(axes * cuts).
  void addBoundaries(ArrayRef<AxisRefAttr> axes);

  /// The pieces of `axis`, major to minor. O(cuts of its mesh axis).
  SmallVector<AxisRefAttr> split(AxisRefAttr axis) const;

  /// The pieces of every axis of `axes`, in order.
  SmallVector<AxisRefAttr> split(ArrayRef<AxisRefAttr> axes) const;

private:
  MeshAttr mesh;
  /// Sorted cut points (pre-sizes) of each mesh axis.
  llvm::StringMap<SmallVector<int64_t>> cuts;
};

/// `axes` without `suffix`, merged, when `axes` ends with `suffix` once
/// both are cut into common pieces (so "x":(2)2 ends "x" of size 4, leaving
/// "x":(1)2); nullopt otherwise.
std::optional<SmallVector<AxisRefAttr>>
removeAxesSuffix(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> suffix,
                 MeshAttr mesh);

} // namespace mlir::sdy

#endif // MPMD_DIALECT_SDY_IR_AXISREFUTILS_H
