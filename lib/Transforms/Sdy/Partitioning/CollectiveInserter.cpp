//===- CollectiveInserter.cpp - sdy collectives for one reshard -----------===//

#include "CollectiveInserter.h"

#include "mpmd/Dialect/Sdy/IR/AxisRefUtils.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace mlir::sdy {
namespace {

using AxisList = SmallVector<AxisRefAttr>;

/// Where a piece sits in the output sharding.
struct TargetPosition {
  int64_t dim;
  size_t index;
};

class CollectiveInserter {
public:
  CollectiveInserter(OpBuilder &builder, Location loc, Value input,
                     TensorShardingAttr in, TensorShardingAttr out,
                     Operation *scope)
      : builder(builder), loc(loc), value(input), out(out),
        mesh(out.getMesh(scope)), targetMeshOrRef(out.getMeshOrRef()) {
    int64_t rank = out.getDimShardings().size();
    // The current state starts on the input's mesh; a replicated input has
    // no device order to keep and starts on the output's.
    currentMeshOrRef = in ? in.getMeshOrRef() : targetMeshOrRef;
    meshDiffers = in && in.getMesh(scope) != mesh;

    AxisRefDecomposition decomposition(mesh);
    for (DimensionShardingAttr dim : out.getDimShardings())
      decomposition.addBoundaries(dim.getAxes());
    if (in)
      for (DimensionShardingAttr dim : in.getDimShardings())
        decomposition.addBoundaries(dim.getAxes());
    current.resize(rank);
    target.resize(rank);
    for (int64_t d = 0; d < rank; ++d) {
      target[d] = decomposition.split(out.getDimShardings()[d].getAxes());
      if (in)
        current[d] = decomposition.split(in.getDimShardings()[d].getAxes());
    }
  }

  Value run() {
    for (int round = 0; round < 2 && !isDone(); ++round) {
      insertAllSlice();
      insertCollectivePermute();
      insertAllToAlls(/*exactOnly=*/true);
      insertAllToAlls(/*exactOnly=*/false);
      insertAllGather();
    }
    if (!isDone())
      gatherThenSlice();
    return value;
  }

private:
  int64_t rank() const { return current.size(); }

  int64_t size(ArrayRef<AxisRefAttr> axes) const {
    return getTotalSize(axes, mesh);
  }

  /// Length of the common prefix of the current and output axes of `dim`.
  size_t inPlace(int64_t dim) const {
    size_t length = 0;
    while (length < current[dim].size() && length < target[dim].size() &&
           current[dim][length] == target[dim][length])
      ++length;
    return length;
  }

  /// The current axes of `dim` that are not yet in place.
  ArrayRef<AxisRefAttr> remainingIn(int64_t dim) const {
    return ArrayRef(current[dim]).drop_front(inPlace(dim));
  }

  bool isDone() const { return !meshDiffers && current == target; }

  std::optional<TargetPosition> findInTarget(AxisRefAttr piece) const {
    for (int64_t d = 0; d < rank(); ++d)
      for (auto [index, axis] : llvm::enumerate(target[d]))
        if (axis == piece)
          return TargetPosition{d, index};
    return std::nullopt;
  }

  /// Where the output wants the minor-most axis `src` still has out of
  /// place, when that is another dimension (an all-to-all's destination).
  std::optional<TargetPosition> findMoveOut(int64_t src) const {
    ArrayRef<AxisRefAttr> remaining = remainingIn(src);
    if (remaining.empty())
      return std::nullopt;
    std::optional<TargetPosition> last = findInTarget(remaining.back());
    if (!last || last->dim == src)
      return std::nullopt;
    return last;
  }

  bool overlapsAny(AxisRefAttr piece,
                   ArrayRef<AxisList> lists) const {
    for (const AxisList &list : lists)
      for (AxisRefAttr axis : list)
        if (overlaps(axis, piece, mesh))
          return true;
    return false;
  }

  /// An output axis no device currently shards the tensor by, so that
  /// slicing by it needs no communication.
  bool isFree(AxisRefAttr piece, ArrayRef<AxisList> pendingSlices) const {
    return !overlapsAny(piece, current) && !overlapsAny(piece, pendingSlices);
  }

  /// How many more times the output shards `dim` than it is sharded now
  /// (with `pending` axes added); 1 when it does not shard it by a multiple.
  int64_t capacity(int64_t dim, ArrayRef<AxisRefAttr> pending) const {
    int64_t have = size(current[dim]) * size(pending);
    int64_t want = size(target[dim]);
    return want % have == 0 ? want / have : 1;
  }

  /// Splits the output piece at `target[dim][index]` so that its major part
  /// has `majorSize` devices, and returns that part.
  AxisRefAttr splitTarget(int64_t dim, size_t index, int64_t majorSize) {
    AxisRefAttr piece = target[dim][index];
    int64_t preSize = getPreSize(piece);
    AxisRefAttr major =
        getAxisRef(mesh, piece.getName(), preSize, majorSize);
    AxisRefAttr minor =
        getAxisRef(mesh, piece.getName(), preSize * majorSize,
                   piece.getSize(mesh) / majorSize);
    target[dim][index] = minor;
    target[dim].insert(target[dim].begin() + index, major);
    return major;
  }

  /// Takes the free output piece `target[dim][index]`, or its largest major
  /// part that fits, into `slices` when `slices` still has capacity in
  /// `sliceDim`. Returns false when nothing fits.
  bool takeIntoSlice(int64_t dim, size_t index, int64_t sliceDim,
                     SmallVector<AxisList> &slices) {
    int64_t room = capacity(sliceDim, slices[sliceDim]);
    int64_t pieceSize = target[dim][index].getSize(mesh);
    if (room % pieceSize == 0 && room > 1) {
      slices[sliceDim].push_back(target[dim][index]);
      return true;
    }
    int64_t common = std::gcd(room, pieceSize);
    if (common <= 1)
      return false;
    slices[sliceDim].push_back(splitTarget(dim, index, common));
    return true;
  }

  //===--------------------------------------------------------------------===//
  // The four steps
  //===--------------------------------------------------------------------===//

  void insertAllSlice() {
    SmallVector<AxisList> slices(rank());
    // Free output axes that follow, in their output dimension, axes a later
    // all-to-all will move there from `src`: slicing them at `src` lets the
    // all-to-all carry them along in the right order.
    for (int64_t src = 0; src < rank(); ++src) {
      std::optional<TargetPosition> last = findMoveOut(src);
      if (!last)
        continue;
      for (size_t index = last->index + 1;
           index < target[last->dim].size() &&
           isFree(target[last->dim][index], slices);
           ++index)
        slices[src].push_back(target[last->dim][index]);
    }
    // Free output axes into their own dimension, in order, while they fit.
    for (int64_t dim = 0; dim < rank(); ++dim)
      for (size_t index = inPlace(dim); index < target[dim].size(); ++index) {
        if (!isFree(target[dim][index], slices))
          continue;
        if (!takeIntoSlice(dim, index, dim, slices))
          break;
      }
    // The remaining free axes into the first dimension with room.
    for (int64_t dim = 0; dim < rank(); ++dim)
      for (size_t index = 0; index < target[dim].size(); ++index) {
        if (!isFree(target[dim][index], slices))
          continue;
        for (int64_t sliceDim = 0; sliceDim < rank(); ++sliceDim)
          if (takeIntoSlice(dim, index, sliceDim, slices))
            break;
      }
    if (llvm::all_of(slices, [](const AxisList &list) { return list.empty(); }))
      return;
    for (auto [dim, list] : llvm::enumerate(slices))
      llvm::append_range(current[dim], list);
    value = AllSliceOp::create(builder, loc, value.getType(), value,
                                       toListOfLists(slices),
                                       currentSharding());
  }

  /// A sharding with the current shard count per dimension that puts as
  /// many output axes in place as fit, each dimension filled up with the
  /// axes it has now, then with axes other dimensions do not keep. Emitted
  /// when it puts more axes in place, or when the device order must change.
  void insertCollectivePermute() {
    SmallVector<AxisList> permuted(rank());
    SmallVector<int64_t> room(rank());
    for (int64_t dim = 0; dim < rank(); ++dim) {
      room[dim] = size(current[dim]);
      for (AxisRefAttr piece : target[dim]) {
        int64_t pieceSize = piece.getSize(mesh);
        if (room[dim] % pieceSize != 0)
          break;
        permuted[dim].push_back(piece);
        room[dim] /= pieceSize;
      }
    }
    auto fill = [&](int64_t dim, ArrayRef<AxisRefAttr> candidates) {
      for (AxisRefAttr piece : candidates) {
        int64_t pieceSize = piece.getSize(mesh);
        if (room[dim] == 1)
          return;
        if (room[dim] % pieceSize != 0 || overlapsAny(piece, permuted))
          continue;
        permuted[dim].push_back(piece);
        room[dim] /= pieceSize;
      }
    };
    for (int64_t dim = 0; dim < rank(); ++dim)
      fill(dim, current[dim]);
    for (int64_t dim = 0; dim < rank(); ++dim)
      for (int64_t other = 0; other < rank(); ++other)
        fill(dim, current[other]);
    if (llvm::any_of(room, [](int64_t left) { return left != 1; }))
      permuted = current;

    auto countInPlace = [&](ArrayRef<AxisList> lists) {
      size_t count = 0;
      for (int64_t dim = 0; dim < rank(); ++dim) {
        size_t length = 0;
        while (length < lists[dim].size() && length < target[dim].size() &&
               lists[dim][length] == target[dim][length])
          ++length;
        count += length;
      }
      return count;
    };
    if (countInPlace(permuted) <= countInPlace(current) && !meshDiffers)
      return;
    if (countInPlace(permuted) <= countInPlace(current))
      permuted = current;
    current = std::move(permuted);
    if (meshDiffers) {
      currentMeshOrRef = targetMeshOrRef;
      meshDiffers = false;
    }
    value = CollectivePermuteOp::create(builder, loc, value.getType(), value,
                                                currentSharding());
  }

  /// One all-to-all per source dimension whose trailing axes not in place
  /// all belong to one other output dimension. With `exactOnly` only moves
  /// that continue what is in place there; otherwise also moves into a
  /// dimension holding only axes the output keeps there (a permute can
  /// order them later, nothing needs gathering from under them).
  void insertAllToAlls(bool exactOnly) {
    for (int64_t src = 0; src < rank(); ++src) {
      std::optional<TargetPosition> last = findMoveOut(src);
      if (!last)
        continue;
      ArrayRef<AxisRefAttr> remaining = remainingIn(src);
      int64_t tgt = last->dim;
      size_t length = 1;
      while (length < remaining.size()) {
        std::optional<TargetPosition> position =
            findInTarget(remaining[remaining.size() - length - 1]);
        if (!position || position->dim != tgt)
          break;
        ++length;
      }
      ArrayRef<AxisRefAttr> moved = remaining.take_back(length);
      bool exact = inPlace(tgt) == current[tgt].size() &&
                   ArrayRef(target[tgt])
                           .drop_front(current[tgt].size())
                           .take_front(length) == moved;
      if (exactOnly && !exact)
        continue;
      if (!exact && llvm::any_of(current[tgt], [&](AxisRefAttr piece) {
            return !llvm::is_contained(target[tgt], piece);
          }))
        continue;
      AxisList movedAxes(moved);
      current[src].resize(current[src].size() - length);
      llvm::append_range(current[tgt], movedAxes);
      auto param = AllToAllParamAttr::get(builder.getContext(),
                                          mergeNeighbours(movedAxes, mesh),
                                          src, tgt);
      value = AllToAllOp::create(
          builder, loc, value.getType(), value,
          AllToAllParamListAttr::get(builder.getContext(), {param}),
          currentSharding());
    }
  }

  /// Gathers, per dimension, the trailing axes not in place that the
  /// output does not use at all.
  void insertAllGather() {
    SmallVector<AxisList> gathered(rank());
    for (int64_t dim = 0; dim < rank(); ++dim) {
      ArrayRef<AxisRefAttr> remaining = remainingIn(dim);
      size_t length = 0;
      while (length < remaining.size() &&
             !overlapsAny(remaining[remaining.size() - length - 1], target))
        ++length;
      gathered[dim].assign(remaining.take_back(length).begin(),
                           remaining.take_back(length).end());
    }
    emitAllGather(gathered);
  }

  /// The fallback: gathers every axis not in place, changes the device
  /// order if needed, and slices the output's remaining axes.
  void gatherThenSlice() {
    SmallVector<AxisList> gathered(rank());
    for (int64_t dim = 0; dim < rank(); ++dim)
      gathered[dim].assign(remainingIn(dim).begin(), remainingIn(dim).end());
    emitAllGather(gathered);
    if (meshDiffers) {
      currentMeshOrRef = targetMeshOrRef;
      meshDiffers = false;
      value = CollectivePermuteOp::create(builder, loc, value.getType(), value,
                                                  currentSharding());
    }
    SmallVector<AxisList> slices(rank());
    for (int64_t dim = 0; dim < rank(); ++dim) {
      slices[dim].assign(target[dim].begin() + current[dim].size(),
                         target[dim].end());
      llvm::append_range(current[dim], slices[dim]);
    }
    if (llvm::all_of(slices, [](const AxisList &list) { return list.empty(); }))
      return;
    value = AllSliceOp::create(builder, loc, value.getType(), value,
                                       toListOfLists(slices),
                                       currentSharding());
  }

  //===--------------------------------------------------------------------===//
  // Emission
  //===--------------------------------------------------------------------===//

  void emitAllGather(ArrayRef<AxisList> gathered) {
    if (llvm::all_of(gathered,
                     [](const AxisList &list) { return list.empty(); }))
      return;
    for (auto [dim, list] : llvm::enumerate(gathered))
      current[dim].resize(current[dim].size() - list.size());
    value = AllGatherOp::create(builder, loc, value.getType(), value,
                                        toListOfLists(gathered),
                                        currentSharding());
  }

  ListOfAxisRefListsAttr toListOfLists(ArrayRef<AxisList> perDim) const {
    SmallVector<AxisRefListAttr> lists;
    for (const AxisList &list : perDim)
      lists.push_back(AxisRefListAttr::get(builder.getContext(),
                                           mergeNeighbours(list, mesh)));
    return ListOfAxisRefListsAttr::get(builder.getContext(), lists);
  }

  /// The closed current sharding with the output's unreduced axes (those
  /// that do not collide with axes still sharding a dimension).
  TensorShardingAttr currentSharding() const {
    MLIRContext *context = builder.getContext();
    SmallVector<DimensionShardingAttr> dims;
    for (const AxisList &axes : current)
      dims.push_back(DimensionShardingAttr::get(
          context, mergeNeighbours(axes, mesh), /*isClosed=*/true,
          std::nullopt));
    AxisList unreduced;
    for (AxisRefAttr axis : out.getUnreducedAxes())
      if (!overlapsAny(axis, current))
        unreduced.push_back(axis);
    return TensorShardingAttr::get(context, currentMeshOrRef, dims,
                                   /*replicatedAxes=*/{}, unreduced,
                                   out.getUnreducedKind());
  }

  OpBuilder &builder;
  Location loc;
  Value value;
  TensorShardingAttr out;
  /// The output mesh; its axes are those of the input mesh.
  MeshAttr mesh;
  Attribute currentMeshOrRef, targetMeshOrRef;
  /// Whether the device order of the current mesh still differs from the
  /// output's.
  bool meshDiffers = false;
  /// Per dimension, the (sub-)axis pieces sharding it now and in the output.
  SmallVector<AxisList> current, target;
};

} // namespace

Value insertCollectives(OpBuilder &builder, Location loc, Value input,
                        TensorShardingAttr in, TensorShardingAttr out,
                        Operation *scope) {
  return CollectiveInserter(builder, loc, input, in, out, scope).run();
}

} // namespace mlir::sdy
