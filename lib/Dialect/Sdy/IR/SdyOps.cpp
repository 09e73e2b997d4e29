//===- SdyOps.cpp - sdy operations ----------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

#include "mpmd/Dialect/Sdy/IR/AxisRefUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdy;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

// Adapters from the generic helpers to the custom directive signatures.
static ParseResult parseStrippedShardings(OpAsmParser &parser,
                                          TensorShardingPerValueAttr &result) {
  return sdy::parseStrippedTensorShardingPerValueAttr(parser, result);
}

static void printStrippedShardings(OpAsmPrinter &printer, Operation *,
                                   TensorShardingPerValueAttr shardings) {
  sdy::printStrippedTensorShardingPerValueAttr(printer, shardings);
}

/// The optional `max` / `min` keyword of a collective that reduces; a sum
/// (the default) has none.
static ParseResult parseReductionKindKeyword(OpAsmParser &parser,
                                             ReductionKindAttr &result) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword)))
    return success();
  std::optional<ReductionKind> kind = symbolizeReductionKind(keyword);
  if (!kind || *kind == ReductionKind::Sum)
    return parser.emitError(loc, "expected 'max', 'min' or the reduction "
                                 "axes (a sum has no keyword)");
  result = ReductionKindAttr::get(parser.getContext(), *kind);
  return success();
}

static void printReductionKindKeyword(OpAsmPrinter &printer, Operation *,
                                      ReductionKindAttr kind) {
  if (kind && kind.getValue() != ReductionKind::Sum)
    printer << stringifyReductionKind(kind.getValue());
}

/// `(%arg0: tensor<8xf32>) { ... }`: the block arguments in parentheses and
/// the single block without its label.
static ParseResult parseSingleBlockRegionNoBlockId(OpAsmParser &parser,
                                                   Region &region) {
  SmallVector<OpAsmParser::Argument> arguments;
  if (parser.parseArgumentList(arguments, AsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(region, arguments))
    return failure();
  return success();
}

static void printSingleBlockRegionNoBlockId(OpAsmPrinter &printer, Operation *,
                                            Region &region) {
  printer << "(";
  llvm::interleaveComma(region.getArguments(), printer, [&](BlockArgument arg) {
    printer.printRegionArgument(arg);
  });
  printer << ") ";
  printer.printRegion(region, /*printEntryBlockArgs=*/false);
}

#include "mpmd/Dialect/Sdy/IR/SdyInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Sdy/IR/SdyOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

TensorShardingAttr mlir::sdy::getSharding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *block = arg.getOwner();
    auto function = dyn_cast_or_null<FunctionOpInterface>(block->getParentOp());
    if (!function || !block->isEntryBlock())
      return {};
    return function.getArgAttrOfType<TensorShardingAttr>(
        arg.getArgNumber(), SdyDialect::kShardingAttrName);
  }
  auto result = cast<OpResult>(value);
  unsigned index = result.getResultNumber();
  auto fromPerValue = [&](TensorShardingPerValueAttr perValue) {
    if (!perValue || index >= perValue.getShardings().size())
      return TensorShardingAttr();
    return perValue.getShardings()[index];
  };
  return TypeSwitch<Operation *, TensorShardingAttr>(result.getOwner())
      .Case<ShardingConstraintOp, ReshardOp>(
          [](auto op) { return op.getSharding(); })
      .Case<DataFlowEdgeOp>([](auto op) { return op.getShardingAttr(); })
      .Case<CollectiveOpInterface>([](auto op) { return op.getOutSharding(); })
      .Case<ManualComputationOp>(
          [&](auto op) { return fromPerValue(op.getOutShardings()); })
      .Case<NamedComputationOp>(
          [&](auto op) { return fromPerValue(op.getOutShardingsAttr()); })
      .Default([&](Operation *op) {
        return fromPerValue(op->getAttrOfType<TensorShardingPerValueAttr>(
            SdyDialect::kShardingAttrName));
      });
}

TensorShardingAttr mlir::sdy::getShardingThroughBarriers(Value value) {
  while (true) {
    if (TensorShardingAttr sharding = getSharding(value))
      return sharding;
    auto barrier = value.getDefiningOp<PropagationBarrierOp>();
    if (!barrier)
      return {};
    value = barrier.getInput();
  }
}

namespace {

/// Checks that `axes` name axes of `mesh`, are well formed and are distinct.
LogicalResult verifyAxes(Operation *op, MeshAttr mesh,
                         ArrayRef<AxisRefAttr> axes, StringRef what) {
  // A sharding with one axis per dimension gets exactly the axis checks
  // (names, sub-axis bounds, no overlap); axes of different lists need not
  // be merged with each other.
  SmallVector<DimensionShardingAttr> dims;
  for (AxisRefAttr axis : axes)
    dims.push_back(DimensionShardingAttr::get(op->getContext(), axis,
                                              /*isClosed=*/true, std::nullopt));
  auto probe = TensorShardingAttr::get(op->getContext(), mesh, dims, {}, {});
  return probe.verifyForMesh(
      mesh, RankedTensorType::get(SmallVector<int64_t>(axes.size(), 1),
                            IntegerType::get(op->getContext(), 1)),
      [&] { return op->emitOpError() << what << " are invalid: "; },
      /*checkDivisibility=*/false);
}

/// Verifies a body with one block ending in `sdy.return`: block argument
/// types must be `argTypes` and returned types `resultTypes`.
LogicalResult verifyBody(Operation *op, Region &body, TypeRange argTypes,
                         TypeRange resultTypes) {
  Block &block = body.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError() << "body has " << block.getNumArguments()
                             << " arguments, expected " << argTypes.size();
  for (auto [index, arg, expected] :
       llvm::enumerate(block.getArguments(), argTypes))
    if (arg.getType() != expected)
      return op->emitOpError() << "body argument " << index << " has type "
                               << arg.getType() << ", expected " << expected;
  auto terminator = dyn_cast<ReturnOp>(block.getTerminator());
  if (!terminator)
    return op->emitOpError() << "body must end with sdy.return";
  if (terminator.getNumOperands() != resultTypes.size())
    return op->emitOpError() << "body returns " << terminator.getNumOperands()
                             << " values, expected " << resultTypes.size();
  for (auto [index, returned, expected] :
       llvm::enumerate(terminator.getOperandTypes(), resultTypes))
    if (returned != expected)
      return op->emitOpError() << "body returns value " << index << " of type "
                               << returned << ", expected " << expected;
  return success();
}

SmallVector<SmallVector<AxisRefAttr>> getDimAxes(TensorShardingAttr sharding) {
  SmallVector<SmallVector<AxisRefAttr>> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    dims.emplace_back(dim.getAxes());
  return dims;
}

/// Checks the out_sharding of a collective and returns the operand's
/// sharding (seen through propagation barriers) when it is known and
/// comparable (right rank), else null. Fails when out_sharding is invalid
/// or the meshes differ; with `allowDeviceOrderChange` they may differ in
/// their device ids (collective_permute). `mesh` is the mesh of out_sharding.
FailureOr<TensorShardingAttr>
verifyCollectiveShardings(Operation *op, Value tensor, TensorShardingAttr out,
                          MeshAttr &mesh, bool allowDeviceOrderChange = false) {
  if (failed(verifyShardingOfValue(op, out, tensor.getType(), "result")))
    return failure();
  mesh = out.getMesh(op);
  TensorShardingAttr in = getShardingThroughBarriers(tensor);
  if (!in)
    return TensorShardingAttr();
  MeshAttr inMesh = in.getMesh(op);
  if (!inMesh)
    return TensorShardingAttr();
  if (inMesh != mesh) {
    if (!allowDeviceOrderChange)
      return op->emitOpError()
             << "operand sharding and out_sharding must be on the same mesh";
    if (inMesh.getAxes() != mesh.getAxes())
      return op->emitOpError()
             << "operand sharding and out_sharding must be on meshes with "
                "the same axes (only the device order may change)";
  }
  if (in.getDimShardings().size() != out.getDimShardings().size())
    return TensorShardingAttr();
  return in;
}

/// Compares each dim of `out` with the `expected` axes.
LogicalResult verifyExpectedDims(Operation *op, TensorShardingAttr out,
                                 ArrayRef<SmallVector<AxisRefAttr>> expected,
                                 StringRef how) {
  for (auto [index, dim] : llvm::enumerate(out.getDimShardings()))
    if (dim.getAxes() != ArrayRef<AxisRefAttr>(expected[index]))
      return op->emitOpError() << "out_sharding dim " << index << " is "
                               << formatAxes(dim.getAxes()) << ", but " << how
                               << " gives " << formatAxes(expected[index]);
  return success();
}

/// Checks a collective's per-dimension axis lists (`what`): one per
/// dimension of `rank`, well-formed distinct axes of `mesh`. Returns them
/// all, in order.
FailureOr<SmallVector<AxisRefAttr>>
verifyPerDimAxes(Operation *op, MeshAttr mesh, int64_t rank,
                 ListOfAxisRefListsAttr perDim, StringRef what) {
  if (static_cast<int64_t>(perDim.getValue().size()) != rank)
    return op->emitOpError()
           << "expected " << rank << " " << what
           << " lists (one per dimension), got " << perDim.getValue().size();
  SmallVector<AxisRefAttr> all;
  for (AxisRefListAttr list : perDim.getValue())
    llvm::append_range(all, list.getValue());
  if (failed(verifyAxes(op, mesh, all, what)))
    return failure();
  return all;
}

/// Removes `perDim[d]` from the end of `dims[d]` for every d; each must be
/// a suffix there (of the operand's sharding: the error says so).
LogicalResult removeSuffixes(Operation *op, MeshAttr mesh,
                             SmallVector<SmallVector<AxisRefAttr>> &dims,
                             ListOfAxisRefListsAttr perDim, StringRef what) {
  for (auto [index, dim, list] : llvm::enumerate(dims, perDim.getValue())) {
    std::optional<SmallVector<AxisRefAttr>> rest =
        removeAxesSuffix(dim, list.getValue(), mesh);
    if (!rest)
      return op->emitOpError()
             << what << " " << formatAxes(list.getValue()) << " of dim "
             << index << " are not a suffix of the operand's dim sharding "
             << formatAxes(dim);
    dim = std::move(*rest);
  }
  return success();
}

/// Shared verifier of all_slice and reduce_scatter: `out` is the operand
/// sharding with `perDim[d]` appended to dim d.
LogicalResult verifyAppendAxes(Operation *op, Value tensor,
                               TensorShardingAttr out,
                               ListOfAxisRefListsAttr perDim, StringRef what) {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(op, tensor, out, mesh);
  if (failed(in))
    return failure();
  if (failed(verifyPerDimAxes(
          op, mesh, cast<RankedTensorType>(tensor.getType()).getRank(), perDim,
          what)))
    return failure();
  if (!*in) {
    for (auto [index, dim, list] :
         llvm::enumerate(out.getDimShardings(), perDim.getValue()))
      if (!removeAxesSuffix(dim.getAxes(), list.getValue(), mesh))
        return op->emitOpError()
               << "out_sharding dim " << index << " "
               << formatAxes(dim.getAxes()) << " does not end with the " << what
               << " " << formatAxes(list.getValue());
    return success();
  }
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  for (auto [dim, list] : llvm::zip(expected, perDim.getValue())) {
    llvm::append_range(dim, list.getValue());
    dim = mergeNeighbours(dim, mesh);
  }
  return verifyExpectedDims(op, out, expected,
                            "appending the " + what.str() +
                                " to the operand sharding");
}

/// Local (per-device) type of a value of global type `type` whose sharding
/// is `sharding`: dims divided by the sizes of the manual axes in them.
Type getLocalType(Type type, TensorShardingAttr sharding, MeshAttr mesh,
                  const llvm::SmallSet<StringRef, 4> &manual) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || static_cast<int64_t>(sharding.getDimShardings().size()) !=
                         tensorType.getRank())
    return type;
  SmallVector<int64_t> shape(tensorType.getShape());
  for (auto [size, dim] : llvm::zip(shape, sharding.getDimShardings())) {
    int64_t manualSize = 1;
    for (AxisRefAttr axis : dim.getAxes())
      if (manual.contains(axis.getName()))
        manualSize *= axis.getSize(mesh);
    if (!ShapedType::isDynamic(size) && manualSize > 0)
      size /= manualSize;
  }
  return tensorType.clone(shape);
}

} // namespace

//===----------------------------------------------------------------------===//
// ShardingConstraintOp, ReshardOp, DataFlowEdgeOp
//===----------------------------------------------------------------------===//

LogicalResult ShardingConstraintOp::verify() {
  return verifyShardingOfValue(*this, getSharding(), getType(), "result");
}

LogicalResult ReshardOp::verify() {
  return verifyShardingOfValue(*this, getSharding(), getType(), "result");
}

OpFoldResult ReshardOp::fold(FoldAdaptor) {
  // Resharding what a reshard to the same sharding produced is a no-op.
  if (auto producer = getInput().getDefiningOp<ReshardOp>())
    if (producer.getSharding() == getSharding())
      return getInput();
  return {};
}

namespace {

/// reshard(reshard(x, a), b) -> reshard(x, b) when nothing else uses the
/// inner reshard: the middle sharding is never observed.
struct ReshardOfSingleUseReshard : OpRewritePattern<ReshardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshardOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<ReshardOp>();
    if (!producer || !producer->hasOneUse())
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(producer.getInput()); });
    rewriter.eraseOp(producer);
    return success();
  }
};

} // namespace

void ReshardOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.addWithLabel<ReshardOfSingleUseReshard>({SdyDialect::kReshardPatternLabel},
                                                  context);
}

LogicalResult DataFlowEdgeOp::verify() {
  if (TensorShardingAttr sharding = getShardingAttr())
    return verifyShardingOfValue(*this, sharding, getType(), "result");
  return success();
}

//===----------------------------------------------------------------------===//
// PropagationBarrierOp, ShardingGroupOp
//===----------------------------------------------------------------------===//

LogicalResult PropagationBarrierOp::verify() {
  if (getAllowedDirection() == PropagationDirection::BOTH)
    return emitOpError() << "allowed_direction must be FORWARD, BACKWARD or "
                            "NONE, not BOTH";
  return success();
}

LogicalResult ShardingGroupOp::verify() {
  if (getGroupIdAttr().getValue().isNegative())
    return emitOpError() << "group_id must be non-negative, got "
                         << getGroupIdAttr().getInt();
  return success();
}

//===----------------------------------------------------------------------===//
// ManualComputationOp
//===----------------------------------------------------------------------===//

namespace {

/// Checks one in/out sharding of a manual computation against the manual
/// axes: the axes exist, come first in each dim and divide the dim.
LogicalResult verifyManualSharding(Operation *op, TensorShardingAttr sharding,
                                   Type type, ArrayRef<StringAttr> manualAxes,
                                   const llvm::SmallSet<StringRef, 4> &manual,
                                   const Twine &what) {
  if (failed(verifyShardingOfValue(op, sharding, type, what)))
    return failure();
  MeshAttr mesh = sharding.getMesh(op);
  // A sharding on the empty mesh `<[]>` (a rank-0 or unsharded value) takes
  // the mesh of the others (-sdy-manual-axes-cleanup).
  if (mesh.getAxes().empty() && mesh.getDeviceIds().empty())
    return success();
  for (StringAttr axis : manualAxes)
    if (!mesh.getAxisSize(axis.getValue()))
      return op->emitOpError() << "manual axis \"" << axis.getValue()
                               << "\" is not an axis of the mesh of " << what;
  auto tensorType = dyn_cast<RankedTensorType>(type);
  for (auto [index, dim] : llvm::enumerate(sharding.getDimShardings())) {
    int64_t manualSize = 1;
    std::optional<AxisRefAttr> firstFree;
    for (AxisRefAttr axis : dim.getAxes()) {
      if (!manual.contains(axis.getName())) {
        firstFree = firstFree.value_or(axis);
        continue;
      }
      if (firstFree)
        return op->emitOpError()
               << what << ": manual axis \"" << axis.getName()
               << "\" comes after free axis \"" << firstFree->getName()
               << "\" in dim " << index << " (manual axes must come first)";
      manualSize *= axis.getSize(mesh);
    }
    if (!tensorType)
      continue;
    int64_t size = tensorType.getDimSize(index);
    if (!ShapedType::isDynamic(size) && size % manualSize != 0)
      return op->emitOpError() << what << ": dim " << index << " of size "
                               << size << " is not divisible by the size "
                               << manualSize << " of its manual axes";
  }
  return success();
}

} // namespace

LogicalResult ManualComputationOp::verify() {
  ArrayRef<StringAttr> manualAxes = getManualAxes().getValue();
  llvm::SmallSet<StringRef, 4> manual;
  for (StringAttr axis : manualAxes)
    if (!manual.insert(axis.getValue()).second)
      return emitOpError() << "manual axis \"" << axis.getValue()
                           << "\" is listed more than once";
  ArrayRef<TensorShardingAttr> inShardings = getInShardings().getShardings();
  ArrayRef<TensorShardingAttr> outShardings = getOutShardings().getShardings();
  if (inShardings.size() != getNumOperands())
    return emitOpError() << "has " << inShardings.size() << " in_shardings but "
                         << getNumOperands() << " operands";
  if (outShardings.size() != getNumResults())
    return emitOpError() << "has " << outShardings.size()
                         << " out_shardings but " << getNumResults()
                         << " results";
  for (auto [index, sharding, type] :
       llvm::enumerate(inShardings, getOperandTypes()))
    if (failed(verifyManualSharding(*this, sharding, type, manualAxes, manual,
                                    "operand " + Twine(index))))
      return failure();
  for (auto [index, sharding, type] :
       llvm::enumerate(outShardings, getResultTypes()))
    if (failed(verifyManualSharding(*this, sharding, type, manualAxes, manual,
                                    "result " + Twine(index))))
      return failure();
  return success();
}

LogicalResult ManualComputationOp::verifyRegions() {
  llvm::SmallSet<StringRef, 4> manual;
  for (StringAttr axis : getManualAxes().getValue())
    manual.insert(axis.getValue());
  auto localTypes = [&](TypeRange types,
                        ArrayRef<TensorShardingAttr> shardings) {
    SmallVector<Type> local;
    for (auto [type, sharding] : llvm::zip(types, shardings))
      local.push_back(
          getLocalType(type, sharding, sharding.getMesh(*this), manual));
    return local;
  };
  return verifyBody(
      *this, getBody(),
      localTypes(getOperandTypes(), getInShardings().getShardings()),
      localTypes(getResultTypes(), getOutShardings().getShardings()));
}

//===----------------------------------------------------------------------===//
// NamedComputationOp
//===----------------------------------------------------------------------===//

LogicalResult NamedComputationOp::verify() {
  auto check = [&](TensorShardingPerValueAttr shardings, TypeRange types,
                   StringRef attrName, StringRef valueKind) -> LogicalResult {
    if (!shardings)
      return success();
    if (shardings.getShardings().size() != types.size())
      return emitOpError() << "has " << shardings.getShardings().size() << " "
                           << attrName << " but " << types.size() << " "
                           << valueKind << "s";
    for (auto [index, sharding, type] :
         llvm::enumerate(shardings.getShardings(), types))
      if (failed(verifyShardingOfValue(*this, sharding, type,
                                       valueKind + " " + Twine(index))))
        return failure();
    return success();
  };
  if (failed(check(getInShardingsAttr(), getOperandTypes(), "in_shardings",
                   "operand")) ||
      failed(check(getOutShardingsAttr(), getResultTypes(), "out_shardings",
                   "result")))
    return failure();
  return success();
}

LogicalResult NamedComputationOp::verifyRegions() {
  return verifyBody(*this, getBody(), getOperandTypes(), getResultTypes());
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult AllGatherOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh);
  if (failed(in))
    return failure();
  FailureOr<SmallVector<AxisRefAttr>> all = verifyPerDimAxes(
      *this, mesh, getType().getRank(), getGatheringAxes(), "gathering axes");
  if (failed(all))
    return failure();
  // A gathered axis no longer shards the result.
  for (auto [index, dim] : llvm::enumerate(getOutSharding().getDimShardings()))
    for (AxisRefAttr axis : dim.getAxes())
      for (AxisRefAttr gathered : *all)
        if (overlaps(axis, gathered, mesh))
          return emitOpError()
                 << "gathered axis " << formatAxis(gathered)
                 << " still shards dim " << index << " of out_sharding";
  if (!*in)
    return success();
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  if (failed(removeSuffixes(*this, mesh, expected, getGatheringAxes(),
                            "gathering axes")))
    return failure();
  return verifyExpectedDims(*this, getOutSharding(), expected,
                            "gathering the operand sharding");
}

LogicalResult AllSliceOp::verify() {
  return verifyAppendAxes(*this, getTensor(), getOutSharding(),
                          getSlicingAxes(), "slicing axes");
}

LogicalResult ReduceScatterOp::verify() {
  if (TensorShardingAttr in = getShardingThroughBarriers(getTensor()))
    if (in.getUnreducedKind() != ReductionKind::Sum)
      return emitOpError() << "sums, but the operand's unreduced axes "
                           << formatAxes(in.getUnreducedAxes()) << " hold "
                           << stringifyReductionKind(in.getUnreducedKind())
                           << " partial values";
  return verifyAppendAxes(*this, getTensor(), getOutSharding(),
                          getReduceScatterAxes(), "reduce-scatter axes");
}

LogicalResult AllReduceOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh);
  if (failed(in))
    return failure();
  ArrayRef<AxisRefAttr> reduction = getReductionAxes().getValue();
  if (failed(verifyAxes(*this, mesh, reduction, "reduction axes")))
    return failure();
  auto meshOrder = [&](AxisRefAttr axis) {
    return std::make_pair(mesh.getAxisIndex(axis.getName()).value_or(0),
                          getPreSize(axis));
  };
  for (size_t i = 1; i < reduction.size(); ++i)
    if (meshOrder(reduction[i]) <= meshOrder(reduction[i - 1]))
      return emitOpError() << "reduction axes " << formatAxes(reduction)
                           << " are not sorted in mesh order";
  auto checkDisjoint = [&](ArrayRef<AxisRefAttr> axes,
                           const Twine &where) -> LogicalResult {
    for (AxisRefAttr axis : axes)
      for (AxisRefAttr reduced : reduction)
        if (overlaps(axis, reduced, mesh))
          return emitOpError() << "reduction axis " << formatAxis(reduced)
                               << " overlaps " << formatAxis(axis) << " of "
                               << where;
    return success();
  };
  for (auto [index, dim] : llvm::enumerate(getOutSharding().getDimShardings()))
    if (failed(checkDisjoint(dim.getAxes(),
                             "dim " + Twine(index) + " of out_sharding")))
      return failure();
  if (failed(checkDisjoint(getOutSharding().getUnreducedAxes(),
                           "the unreduced axes of out_sharding")))
    return failure();
  if (!getOutSharding().getUnreducedAxes().empty() &&
      getOutSharding().getUnreducedKind() != getReductionKind())
    return emitOpError() << "reduces with "
                         << stringifyReductionKind(getReductionKind())
                         << " but out_sharding keeps "
                         << stringifyReductionKind(
                                getOutSharding().getUnreducedKind())
                         << " unreduced axes "
                         << formatAxes(getOutSharding().getUnreducedAxes());
  if (!*in)
    return success();
  if (failed(checkDisjoint((*in).getReplicatedAxes(),
                           "the replicated axes of the operand sharding")))
    return failure();
  // The reduction must combine the partial values the way they were made;
  // an operand without unreduced axes (e.g. a sharded contraction's raw
  // result) says nothing about it.
  if (!(*in).getUnreducedAxes().empty() &&
      (*in).getUnreducedKind() != getReductionKind())
    return emitOpError() << "reduces with "
                         << stringifyReductionKind(getReductionKind())
                         << " but the operand's unreduced axes "
                         << formatAxes((*in).getUnreducedAxes()) << " hold "
                         << stringifyReductionKind((*in).getUnreducedKind())
                         << " partial values";
  return verifyExpectedDims(*this, getOutSharding(), getDimAxes(*in),
                            "all_reduce (which keeps the operand sharding)");
}

LogicalResult AllToAllOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh);
  if (failed(in))
    return failure();
  ArrayRef<AllToAllParamAttr> params = getParams().getValue();
  if (params.empty())
    return emitOpError() << "expected at least one all-to-all param";
  int64_t rank = getType().getRank();
  llvm::SmallSet<int64_t, 4> usedDims;
  SmallVector<AxisRefAttr> all;
  std::optional<int64_t> previousSrc;
  for (AllToAllParamAttr param : params) {
    int64_t src = param.getSrcDim(), tgt = param.getTgtDim();
    if (src < 0 || src >= rank || tgt < 0 || tgt >= rank)
      return emitOpError() << "all-to-all dims " << src << "->" << tgt
                           << " are out of range for rank " << rank;
    if (src == tgt)
      return emitOpError() << "all-to-all source and target dim are both "
                           << src;
    if (param.getAxes().empty())
      return emitOpError() << "all-to-all param " << src << "->" << tgt
                           << " moves no axes";
    for (int64_t dim : {src, tgt})
      if (!usedDims.insert(dim).second)
        return emitOpError() << "dim " << dim
                             << " appears in more than one param";
    if (previousSrc && *previousSrc > src)
      return emitOpError() << "params must be sorted by source dim, but "
                           << src << " follows " << *previousSrc;
    previousSrc = src;
    llvm::append_range(all, param.getAxes());
  }
  if (failed(verifyAxes(*this, mesh, all, "all-to-all axes")))
    return failure();

  // Axes moved to a dim are appended to it, in param order.
  SmallVector<SmallVector<AxisRefAttr>> appended(rank);
  for (AllToAllParamAttr param : params)
    llvm::append_range(appended[param.getTgtDim()], param.getAxes());
  if (!*in) {
    for (auto [index, dim] :
         llvm::enumerate(getOutSharding().getDimShardings()))
      if (!removeAxesSuffix(dim.getAxes(), appended[index], mesh))
        return emitOpError() << "out_sharding dim " << index << " "
                             << formatAxes(dim.getAxes())
                             << " does not end with the axes moved to it "
                             << formatAxes(appended[index]);
    return success();
  }
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  for (AllToAllParamAttr param : params) {
    SmallVector<AxisRefAttr> &src = expected[param.getSrcDim()];
    std::optional<SmallVector<AxisRefAttr>> rest =
        removeAxesSuffix(src, param.getAxes(), mesh);
    if (!rest)
      return emitOpError() << "axes " << formatAxes(param.getAxes())
                           << " moved from dim " << param.getSrcDim()
                           << " are not a suffix of the operand's dim "
                              "sharding "
                           << formatAxes(src);
    src = std::move(*rest);
  }
  for (auto [dim, extra] : llvm::zip(expected, appended)) {
    llvm::append_range(dim, extra);
    dim = mergeNeighbours(dim, mesh);
  }
  return verifyExpectedDims(*this, getOutSharding(), expected,
                            "moving the axes of the operand sharding");
}

LogicalResult CollectivePermuteOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh,
                                /*allowDeviceOrderChange=*/true);
  if (failed(in) || !*in)
    return failure(failed(in));
  for (auto [index, before, after] : llvm::enumerate(
           (*in).getDimShardings(), getOutSharding().getDimShardings()))
    if (before.getShardedSize(mesh) != after.getShardedSize(mesh))
      return emitOpError() << "dim " << index << " has "
                           << before.getShardedSize(mesh)
                           << " shards in the operand sharding but "
                           << after.getShardedSize(mesh) << " in out_sharding";
  return success();
}

namespace {

/// Checks that the unreduced axes of `out` are exactly those of `in` plus
/// `added`: every one of them is covered by an axis of `out`, and the
/// device counts agree (so `out` holds nothing else).
LogicalResult verifyAddedUnreducedAxes(Operation *op, TensorShardingAttr in,
                                       TensorShardingAttr out,
                                       ArrayRef<AxisRefAttr> added,
                                       MeshAttr mesh) {
  // Zero-filled copies on the devices that do not hold the value (or the
  // shard) make partial sums, never partial maxima or minima.
  for (TensorShardingAttr sharding : {in, out})
    if (sharding.getUnreducedKind() != ReductionKind::Sum)
      return op->emitOpError()
             << "makes partial sums, but "
             << (sharding == in ? "the operand's" : "out_sharding's")
             << " unreduced axes " << formatAxes(sharding.getUnreducedAxes())
             << " are " << stringifyReductionKind(sharding.getUnreducedKind());
  SmallVector<AxisRefAttr> expected(in.getUnreducedAxes());
  llvm::append_range(expected, added);
  int64_t expectedSize = 1, outSize = 1;
  for (AxisRefAttr axis : expected) {
    expectedSize *= axis.getSize(mesh);
    if (llvm::none_of(out.getUnreducedAxes(), [&](AxisRefAttr outAxis) {
          return contains(outAxis, axis, mesh);
        }))
      return op->emitOpError()
             << "axis " << formatAxis(axis)
             << " is missing from the unreduced axes of out_sharding";
  }
  for (AxisRefAttr axis : out.getUnreducedAxes())
    outSize *= axis.getSize(mesh);
  if (outSize != expectedSize)
    return op->emitOpError()
           << "out_sharding has unreduced axes "
           << formatAxes(out.getUnreducedAxes())
           << ", expected those of the operand plus " << formatAxes(added);
  return success();
}

} // namespace

LogicalResult ReplicatedToUnreducedOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh);
  if (failed(in))
    return failure();
  ArrayRef<AxisRefAttr> axes = getAxes().getValue();
  if (failed(verifyAxes(*this, mesh, axes, "axes")))
    return failure();
  if (!*in)
    return success();
  for (AxisRefAttr axis : axes) {
    for (auto [index, dim] : llvm::enumerate((*in).getDimShardings()))
      for (AxisRefAttr used : dim.getAxes())
        if (contains(used, axis, mesh) || contains(axis, used, mesh))
          return emitOpError()
                 << "axis " << formatAxis(axis) << " shards dim " << index
                 << " of the operand, so it is not replicated";
    for (AxisRefAttr used : (*in).getUnreducedAxes())
      if (contains(used, axis, mesh) || contains(axis, used, mesh))
        return emitOpError() << "axis " << formatAxis(axis)
                             << " is already unreduced in the operand";
  }
  if (failed(verifyExpectedDims(
          *this, getOutSharding(), getDimAxes(*in),
          "replicated_to_unreduced (which keeps the operand's dimensions)")))
    return failure();
  return verifyAddedUnreducedAxes(*this, *in, getOutSharding(), axes, mesh);
}

LogicalResult ShardedToUnreducedOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh);
  if (failed(in))
    return failure();
  FailureOr<SmallVector<AxisRefAttr>> all = verifyPerDimAxes(
      *this, mesh, getType().getRank(), getAxes(), "axes");
  if (failed(all))
    return failure();
  if (!*in)
    return success();
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  if (failed(removeSuffixes(*this, mesh, expected, getAxes(), "axes")) ||
      failed(verifyExpectedDims(*this, getOutSharding(), expected,
                                "removing the axes from the operand sharding")))
    return failure();
  return verifyAddedUnreducedAxes(*this, *in, getOutSharding(), *all, mesh);
}

//===----------------------------------------------------------------------===//
// Collective canonicalization patterns (label `sdy-collective`)
//===----------------------------------------------------------------------===//

namespace {

bool allListsEmpty(ListOfAxisRefListsAttr perDim) {
  return llvm::all_of(perDim.getValue(),
                      [](AxisRefListAttr list) { return list.getValue().empty(); });
}

/// Replaces a collective that leaves its operand's sharding as it is (no
/// axes to gather, slice or reduce; a permute onto the same sharding) by
/// its operand.
template <typename OpTy>
struct EraseNoOpCollective : OpRewritePattern<OpTy> {
  EraseNoOpCollective(MLIRContext *context, bool (*isNoOp)(OpTy))
      : OpRewritePattern<OpTy>(context), isNoOp(isNoOp) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!isNoOp(op))
      return failure();
    rewriter.replaceOp(op, op.getTensor());
    return success();
  }

  bool (*isNoOp)(OpTy);
};

bool isNoOpAllGather(AllGatherOp op) {
  return allListsEmpty(op.getGatheringAxes());
}
bool isNoOpAllSlice(AllSliceOp op) { return allListsEmpty(op.getSlicingAxes()); }
bool isNoOpReduceScatter(ReduceScatterOp op) {
  return allListsEmpty(op.getReduceScatterAxes());
}
bool isNoOpAllReduce(AllReduceOp op) { return op.getReductionAxes().getValue().empty(); }

/// The operand is already sharded (same mesh, same axes per dimension) the
/// way the permute would shard it.
bool isNoOpCollectivePermute(CollectivePermuteOp op) {
  TensorShardingAttr in = getShardingThroughBarriers(op.getTensor());
  TensorShardingAttr out = op.getOutSharding();
  if (!in || in.getMesh(op) != out.getMesh(op) ||
      in.getDimShardings().size() != out.getDimShardings().size())
    return false;
  return llvm::all_of(
      llvm::zip(in.getDimShardings(), out.getDimShardings()),
      [](auto pair) {
        return std::get<0>(pair).getAxes() == std::get<1>(pair).getAxes();
      });
}

/// all_slice(all_gather(x)) over the same axes is x.
struct AllSliceOfAllGather : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = op.getTensor().getDefiningOp<AllGatherOp>();
    if (!gather || gather.getGatheringAxes() != op.getSlicingAxes())
      return failure();
    rewriter.replaceOp(op, gather.getTensor());
    return success();
  }
};

/// all_to_all(all_to_all(x)) whose params touch disjoint dims is one
/// all_to_all with both lists of params, sorted by source dim, when the
/// inner one has no other use.
struct FuseAllToAlls : OpRewritePattern<AllToAllOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllToAllOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getTensor().getDefiningOp<AllToAllOp>();
    if (!inner || !inner->hasOneUse())
      return failure();
    llvm::SmallSet<int64_t, 8> innerDims;
    for (AllToAllParamAttr param : inner.getParams().getValue())
      for (int64_t dim : {param.getSrcDim(), param.getTgtDim()})
        innerDims.insert(dim);
    SmallVector<AllToAllParamAttr> params(inner.getParams().getValue());
    for (AllToAllParamAttr param : op.getParams().getValue()) {
      if (innerDims.contains(param.getSrcDim()) ||
          innerDims.contains(param.getTgtDim()))
        return failure();
      params.push_back(param);
    }
    llvm::sort(params, [](AllToAllParamAttr a, AllToAllParamAttr b) {
      return a.getSrcDim() < b.getSrcDim();
    });
    rewriter.replaceOpWithNewOp<AllToAllOp>(
        op, op.getType(), inner.getTensor(),
        AllToAllParamListAttr::get(op.getContext(), params),
        op.getOutSharding());
    rewriter.eraseOp(inner);
    return success();
  }
};

/// all_reduce followed only by identical all_slices becomes a
/// reduce_scatter over the slicing axes that are reduction axes, and an
/// all_slice over the rest: every reduction axis must lead the slicing axes
/// of some dimension (a prefix of reduction axes per dimension).
struct AllReduceThenAllSliceToReduceScatter : OpRewritePattern<AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    // A reduce_scatter sums; a max or min all-reduce stays as it is.
    if (op->use_empty() || op.getReductionAxes().getValue().empty() ||
        op.getReductionKind() != ReductionKind::Sum)
      return failure();
    AllSliceOp first;
    for (Operation *user : op->getUsers()) {
      auto slice = dyn_cast<AllSliceOp>(user);
      if (!slice || (first && (slice.getSlicingAxes() !=
                                   first.getSlicingAxes() ||
                               slice.getOutSharding() !=
                                   first.getOutSharding())))
        return failure();
      first = first ? first : slice;
    }
    ArrayRef<AxisRefAttr> reduction = op.getReductionAxes().getValue();
    MLIRContext *context = op.getContext();
    SmallVector<AxisRefListAttr> scattered, residual;
    size_t covered = 0;
    for (AxisRefListAttr list : first.getSlicingAxes().getValue()) {
      ArrayRef<AxisRefAttr> axes = list.getValue();
      size_t prefix = 0;
      while (prefix < axes.size() &&
             llvm::is_contained(reduction, axes[prefix]))
        ++prefix;
      covered += prefix;
      scattered.push_back(AxisRefListAttr::get(context, axes.take_front(prefix)));
      residual.push_back(AxisRefListAttr::get(context, axes.drop_front(prefix)));
    }
    if (covered != reduction.size())
      return failure();

    TensorShardingAttr reduced = op.getOutSharding();
    MeshAttr mesh = reduced.getMesh(op);
    SmallVector<DimensionShardingAttr> dims;
    for (auto [dim, list] : llvm::zip(reduced.getDimShardings(), scattered)) {
      SmallVector<AxisRefAttr> axes(dim.getAxes());
      llvm::append_range(axes, list.getValue());
      dims.push_back(DimensionShardingAttr::get(
          context, mergeNeighbours(axes, mesh), /*isClosed=*/true,
          std::nullopt));
    }
    auto scatteredSharding = TensorShardingAttr::get(
        context, reduced.getMeshOrRef(), dims, reduced.getReplicatedAxes(),
        reduced.getUnreducedAxes(), reduced.getUnreducedKind());
    rewriter.setInsertionPoint(op);
    Value result = ReduceScatterOp::create(rewriter, 
        op.getLoc(), op.getType(), op.getTensor(),
        ListOfAxisRefListsAttr::get(context, scattered), scatteredSharding);
    auto residualAxes = ListOfAxisRefListsAttr::get(context, residual);
    if (!allListsEmpty(residualAxes))
      result = AllSliceOp::create(rewriter, op.getLoc(), op.getType(), result,
                                           residualAxes,
                                           first.getOutSharding());
    for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
      rewriter.replaceOp(user, result);
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename OpTy>
void addNoOpPattern(RewritePatternSet &results, MLIRContext *context,
                    bool (*isNoOp)(OpTy)) {
  results.addWithLabel<EraseNoOpCollective<OpTy>>(
      {SdyDialect::kCollectivePatternLabel}, context, isNoOp);
}

} // namespace

void AllGatherOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  addNoOpPattern<AllGatherOp>(results, context, isNoOpAllGather);
}

void AllSliceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  addNoOpPattern<AllSliceOp>(results, context, isNoOpAllSlice);
  results.addWithLabel<AllSliceOfAllGather>({SdyDialect::kCollectivePatternLabel},
                                            context);
}

void ReduceScatterOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  addNoOpPattern<ReduceScatterOp>(results, context, isNoOpReduceScatter);
}

void AllReduceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  addNoOpPattern<AllReduceOp>(results, context, isNoOpAllReduce);
  results.addWithLabel<AllReduceThenAllSliceToReduceScatter>(
      {SdyDialect::kCollectivePatternLabel}, context);
}

void AllToAllOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.addWithLabel<FuseAllToAlls>({SdyDialect::kCollectivePatternLabel}, context);
}

// Turning axes unreduced has no simplification of its own; the collective
// op class declares a canonicalizer for all of them.
void ReplicatedToUnreducedOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {}

void ShardedToUnreducedOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {}

void CollectivePermuteOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  addNoOpPattern<CollectivePermuteOp>(results, context,
                                      isNoOpCollectivePermute);
}
