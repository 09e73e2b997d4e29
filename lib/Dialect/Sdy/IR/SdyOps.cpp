//===- SdyOps.cpp - sdy operations ----------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

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

namespace {

/// `"a"` or `"b":(1)2` for diagnostics.
std::string formatAxis(AxisRefAttr axis) {
  std::string text = "\"" + axis.getName().str() + "\"";
  if (SubAxisInfoAttr sub = axis.getSubAxisInfo())
    text += ":(" + std::to_string(sub.getPreSize()) + ")" +
            std::to_string(sub.getSize());
  return text;
}

/// `{"a", "b":(1)2}` for diagnostics.
std::string formatAxes(ArrayRef<AxisRefAttr> axes) {
  std::string text = "{";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(axes, os,
                        [&](AxisRefAttr axis) { os << formatAxis(axis); });
  os << "}";
  return text;
}

/// Checks that `axes` name axes of `mesh`, are well formed and are distinct.
LogicalResult verifyAxes(Operation *op, MeshAttr mesh,
                         ArrayRef<AxisRefAttr> axes, StringRef what) {
  // A rank-0 sharding replicated over `axes` gets exactly the axis checks.
  auto probe = TensorShardingAttr::get(op->getContext(), mesh, {}, axes, {});
  return probe.verifyForMesh(
      mesh, NoneType::get(op->getContext()),
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

bool endsWith(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> suffix) {
  return axes.size() >= suffix.size() &&
         axes.take_back(suffix.size()) == suffix;
}

/// Checks the out_sharding of a collective and returns the operand's
/// sharding when it is known and comparable (same mesh, right rank), else
/// null. Fails when out_sharding is invalid or the meshes differ.
FailureOr<TensorShardingAttr> verifyCollectiveShardings(Operation *op,
                                                        Value tensor,
                                                        TensorShardingAttr out,
                                                        MeshAttr &mesh) {
  if (failed(verifyShardingOfValue(op, out, tensor.getType(), "result")))
    return failure();
  mesh = out.getMesh(op);
  TensorShardingAttr in = getSharding(tensor);
  if (!in)
    return TensorShardingAttr();
  MeshAttr inMesh = in.getMesh(op);
  if (!inMesh)
    return TensorShardingAttr();
  if (inMesh != mesh)
    return op->emitOpError()
           << "operand sharding and out_sharding must be on the same mesh";
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
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  if (static_cast<int64_t>(perDim.getValue().size()) != rank)
    return op->emitOpError()
           << "expected " << rank << " " << what
           << " lists (one per dimension), got " << perDim.getValue().size();
  SmallVector<AxisRefAttr> all;
  for (AxisRefListAttr list : perDim.getValue())
    llvm::append_range(all, list.getValue());
  if (failed(verifyAxes(op, mesh, all, what)))
    return failure();
  if (!*in) {
    for (auto [index, dim, list] :
         llvm::enumerate(out.getDimShardings(), perDim.getValue()))
      if (!endsWith(dim.getAxes(), list.getValue()))
        return op->emitOpError()
               << "out_sharding dim " << index << " "
               << formatAxes(dim.getAxes()) << " does not end with the " << what
               << " " << formatAxes(list.getValue());
    return success();
  }
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  for (auto [dim, list] : llvm::zip(expected, perDim.getValue()))
    llvm::append_range(dim, list.getValue());
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

LogicalResult ReshardOp::canonicalize(ReshardOp op, PatternRewriter &rewriter) {
  // reshard(reshard(x, a), b) -> reshard(x, b): the middle sharding is
  // never observed by the outer reshard.
  auto producer = op.getInput().getDefiningOp<ReshardOp>();
  if (!producer || producer.getSharding() == op.getSharding())
    return failure();
  rewriter.modifyOpInPlace(
      op, [&] { op.getInputMutable().assign(producer.getInput()); });
  return success();
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
  ArrayRef<AxisRefListAttr> perDim = getGatheringAxes().getValue();
  int64_t rank = getType().getRank();
  if (static_cast<int64_t>(perDim.size()) != rank)
    return emitOpError() << "expected " << rank
                         << " gathering axes lists (one per dimension), got "
                         << perDim.size();
  SmallVector<AxisRefAttr> all;
  for (AxisRefListAttr list : perDim)
    llvm::append_range(all, list.getValue());
  if (failed(verifyAxes(*this, mesh, all, "gathering axes")))
    return failure();
  // A gathered axis no longer shards the result.
  for (auto [index, dim] : llvm::enumerate(getOutSharding().getDimShardings()))
    for (AxisRefAttr axis : dim.getAxes())
      if (llvm::is_contained(all, axis))
        return emitOpError()
               << "gathered axis " << formatAxis(axis) << " still shards dim "
               << index << " of out_sharding";
  if (!*in)
    return success();
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  for (auto [index, dim, list] : llvm::enumerate(expected, perDim)) {
    if (!endsWith(dim, list.getValue()))
      return emitOpError() << "gathering axes " << formatAxes(list.getValue())
                           << " of dim " << index
                           << " are not a suffix of the operand's dim sharding "
                           << formatAxes(dim);
    dim.resize(dim.size() - list.getValue().size());
  }
  return verifyExpectedDims(*this, getOutSharding(), expected,
                            "gathering the operand sharding");
}

LogicalResult AllSliceOp::verify() {
  return verifyAppendAxes(*this, getTensor(), getOutSharding(),
                          getSlicingAxes(), "slicing axes");
}

LogicalResult ReduceScatterOp::verify() {
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
  for (auto [index, dim] : llvm::enumerate(getOutSharding().getDimShardings()))
    for (AxisRefAttr axis : dim.getAxes())
      if (llvm::is_contained(reduction, axis))
        return emitOpError() << "reduction axis " << formatAxis(axis)
                             << " shards dim " << index << " of out_sharding";
  if (!*in)
    return success();
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
  llvm::SmallSet<int64_t, 4> srcDims, tgtDims;
  SmallVector<AxisRefAttr> all;
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
    if (!srcDims.insert(src).second)
      return emitOpError() << "dim " << src
                           << " is the source of more than one param";
    tgtDims.insert(tgt);
    llvm::append_range(all, param.getAxes());
  }
  for (int64_t dim : srcDims)
    if (tgtDims.contains(dim))
      return emitOpError() << "dim " << dim << " is both a source and a target";
  if (failed(verifyAxes(*this, mesh, all, "all-to-all axes")))
    return failure();

  // Axes moved to a dim are appended to it, in param order.
  SmallVector<SmallVector<AxisRefAttr>> appended(rank);
  for (AllToAllParamAttr param : params)
    llvm::append_range(appended[param.getTgtDim()], param.getAxes());
  if (!*in) {
    for (auto [index, dim] :
         llvm::enumerate(getOutSharding().getDimShardings()))
      if (!endsWith(dim.getAxes(), appended[index]))
        return emitOpError() << "out_sharding dim " << index << " "
                             << formatAxes(dim.getAxes())
                             << " does not end with the axes moved to it "
                             << formatAxes(appended[index]);
    return success();
  }
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  for (AllToAllParamAttr param : params) {
    SmallVector<AxisRefAttr> &src = expected[param.getSrcDim()];
    if (!endsWith(src, param.getAxes()))
      return emitOpError() << "axes " << formatAxes(param.getAxes())
                           << " moved from dim " << param.getSrcDim()
                           << " are not a suffix of the operand's dim "
                              "sharding "
                           << formatAxes(src);
    src.resize(src.size() - param.getAxes().size());
  }
  for (auto [dim, extra] : llvm::zip(expected, appended))
    llvm::append_range(dim, extra);
  return verifyExpectedDims(*this, getOutSharding(), expected,
                            "moving the axes of the operand sharding");
}

LogicalResult CollectivePermuteOp::verify() {
  MeshAttr mesh;
  FailureOr<TensorShardingAttr> in =
      verifyCollectiveShardings(*this, getTensor(), getOutSharding(), mesh);
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

/// Whether the devices of the (sub-)axis `inner` are among those of
/// `outer` (both of `mesh`).
bool containsAxis(AxisRefAttr outer, AxisRefAttr inner, MeshAttr mesh) {
  auto preSize = [](AxisRefAttr axis) -> int64_t {
    SubAxisInfoAttr sub = axis.getSubAxisInfo();
    return sub ? sub.getPreSize() : 1;
  };
  return outer.getName() == inner.getName() &&
         preSize(outer) <= preSize(inner) &&
         preSize(inner) * inner.getSize(mesh) <=
             preSize(outer) * outer.getSize(mesh);
}

/// Checks that the unreduced axes of `out` are exactly those of `in` plus
/// `added`: every one of them is covered by an axis of `out`, and the
/// device counts agree (so `out` holds nothing else).
LogicalResult verifyAddedUnreducedAxes(Operation *op, TensorShardingAttr in,
                                       TensorShardingAttr out,
                                       ArrayRef<AxisRefAttr> added,
                                       MeshAttr mesh) {
  SmallVector<AxisRefAttr> expected(in.getUnreducedAxes());
  llvm::append_range(expected, added);
  int64_t expectedSize = 1, outSize = 1;
  for (AxisRefAttr axis : expected) {
    expectedSize *= axis.getSize(mesh);
    if (llvm::none_of(out.getUnreducedAxes(), [&](AxisRefAttr outAxis) {
          return containsAxis(outAxis, axis, mesh);
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
        if (containsAxis(used, axis, mesh) || containsAxis(axis, used, mesh))
          return emitOpError()
                 << "axis " << formatAxis(axis) << " shards dim " << index
                 << " of the operand, so it is not replicated";
    for (AxisRefAttr used : (*in).getUnreducedAxes())
      if (containsAxis(used, axis, mesh) || containsAxis(axis, used, mesh))
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
  ArrayRef<AxisRefListAttr> perDim = getAxes().getValue();
  int64_t rank = getType().getRank();
  if (static_cast<int64_t>(perDim.size()) != rank)
    return emitOpError() << "expected " << rank
                         << " axes lists (one per dimension), got "
                         << perDim.size();
  SmallVector<AxisRefAttr> all;
  for (AxisRefListAttr list : perDim)
    llvm::append_range(all, list.getValue());
  if (failed(verifyAxes(*this, mesh, all, "axes")))
    return failure();
  if (!*in)
    return success();
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(*in);
  for (auto [index, dim, list] : llvm::enumerate(expected, perDim)) {
    if (!endsWith(dim, list.getValue()))
      return emitOpError() << "axes " << formatAxes(list.getValue())
                           << " of dim " << index
                           << " are not a suffix of the operand's dim sharding "
                           << formatAxes(dim);
    dim.resize(dim.size() - list.getValue().size());
  }
  if (failed(verifyExpectedDims(*this, getOutSharding(), expected,
                                "removing the axes from the operand sharding")))
    return failure();
  return verifyAddedUnreducedAxes(*this, *in, getOutSharding(), all, mesh);
}
