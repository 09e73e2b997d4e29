//===- SdyAttrs.cpp - sdy attribute printers, parsers, verifiers ----------===//

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::sdy;

#define GET_ATTRDEF_CLASSES
#include "mpmd/Dialect/Sdy/IR/SdyAttrs.cpp.inc"

#include "mpmd/Dialect/Sdy/IR/SdyEnums.cpp.inc"

void SdyDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mpmd/Dialect/Sdy/IR/SdyAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Shared pieces of syntax
//===----------------------------------------------------------------------===//

namespace {

ParseResult parseAxisRef(AsmParser &parser, AxisRefAttr &result) {
  std::string name;
  if (parser.parseString(&name))
    return failure();
  SubAxisInfoAttr subAxis;
  if (succeeded(parser.parseOptionalColon())) {
    int64_t preSize = 0, size = 0;
    if (parser.parseLParen() || parser.parseInteger(preSize) ||
        parser.parseRParen() || parser.parseInteger(size))
      return failure();
    subAxis = SubAxisInfoAttr::get(parser.getContext(), preSize, size);
  }
  result = AxisRefAttr::get(parser.getContext(), name, subAxis);
  return success();
}

void printAxisRef(AsmPrinter &printer, AxisRefAttr axis) {
  printer.printString(axis.getName());
  if (SubAxisInfoAttr subAxis = axis.getSubAxisInfo())
    printer << ":(" << subAxis.getPreSize() << ")" << subAxis.getSize();
}

/// Parses `{"a", "b":(1)2}`; with `isClosed` non-null a trailing `?` marks an
/// open list.
ParseResult parseAxisRefBraces(AsmParser &parser,
                               SmallVectorImpl<AxisRefAttr> &axes,
                               bool *isClosed = nullptr) {
  if (isClosed)
    *isClosed = true;
  if (parser.parseLBrace())
    return failure();
  if (succeeded(parser.parseOptionalRBrace()))
    return success();
  auto parseElement = [&]() -> ParseResult {
    if (isClosed && *isClosed && succeeded(parser.parseOptionalQuestion())) {
      *isClosed = false;
      return success();
    }
    if (isClosed && !*isClosed)
      return parser.emitError(parser.getCurrentLocation(),
                              "'?' must be the last element of a dimension "
                              "sharding");
    return parseAxisRef(parser, axes.emplace_back());
  };
  if (parser.parseCommaSeparatedList(parseElement) || parser.parseRBrace())
    return failure();
  return success();
}

void printAxisRefBraces(AsmPrinter &printer, ArrayRef<AxisRefAttr> axes,
                        bool isClosed = true) {
  printer << "{";
  llvm::interleaveComma(axes, printer,
                        [&](AxisRefAttr axis) { printAxisRef(printer, axis); });
  if (!isClosed)
    printer << (axes.empty() ? "?" : ", ?");
  printer << "}";
}

ParseResult parseMeshAxis(AsmParser &parser, MeshAxisAttr &result) {
  std::string name;
  int64_t size = 0;
  if (parser.parseString(&name) || parser.parseEqual() ||
      parser.parseInteger(size))
    return failure();
  result = MeshAxisAttr::get(parser.getContext(), name, size);
  return success();
}

bool isIota(ArrayRef<int64_t> values) {
  for (auto [index, value] : llvm::enumerate(values))
    if (value != static_cast<int64_t>(index))
      return false;
  return true;
}

/// The number of devices of a mesh with `axes`; none when it overflows.
std::optional<int64_t> getDeviceCount(ArrayRef<MeshAxisAttr> axes) {
  return mpmd::checkedProduct(
      llvm::map_range(axes, [](MeshAxisAttr axis) { return axis.getSize(); }));
}

} // namespace

//===----------------------------------------------------------------------===//
// MeshAxisAttr, SubAxisInfoAttr, AxisRefAttr
//===----------------------------------------------------------------------===//

Attribute MeshAxisAttr::parse(AsmParser &parser, Type) {
  MeshAxisAttr axis;
  if (parser.parseLess() || parseMeshAxis(parser, axis) ||
      parser.parseGreater())
    return {};
  return axis;
}

void MeshAxisAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getName());
  printer << "=" << getSize() << ">";
}

Attribute SubAxisInfoAttr::parse(AsmParser &parser, Type) {
  int64_t preSize = 0, size = 0;
  if (parser.parseLParen() || parser.parseInteger(preSize) ||
      parser.parseRParen() || parser.parseInteger(size))
    return {};
  return SubAxisInfoAttr::get(parser.getContext(), preSize, size);
}

void SubAxisInfoAttr::print(AsmPrinter &printer) const {
  printer << "(" << getPreSize() << ")" << getSize();
}

Attribute AxisRefAttr::parse(AsmParser &parser, Type) {
  AxisRefAttr axis;
  if (parser.parseLess() || parseAxisRef(parser, axis) || parser.parseGreater())
    return {};
  return axis;
}

void AxisRefAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printAxisRef(printer, *this);
  printer << ">";
}

int64_t AxisRefAttr::getSize(MeshAttr mesh) const {
  if (SubAxisInfoAttr subAxis = getSubAxisInfo())
    return subAxis.getSize();
  return mesh.getAxisSize(getName()).value_or(0);
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<MeshAxisAttr> axes;
  SmallVector<int64_t> deviceIds;
  auto parseAxis = [&]() { return parseMeshAxis(parser, axes.emplace_back()); };
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalLSquare())) {
    if (failed(parser.parseOptionalRSquare()) &&
        (parser.parseCommaSeparatedList(parseAxis) || parser.parseRSquare()))
      return {};
    if (succeeded(parser.parseOptionalComma())) {
      auto parseId = [&]() {
        return parser.parseInteger(deviceIds.emplace_back());
      };
      if (parser.parseKeyword("device_ids") || parser.parseEqual() ||
          parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseId))
        return {};
    }
  } else if (failed(parser.parseOptionalGreater())) {
    // The bracket-less `<"x"=2, "y"=4>` form of older texts (e.g. the RFC).
    if (parser.parseCommaSeparatedList(parseAxis) || parser.parseGreater())
      return {};
    return MeshAttr::getChecked([&] { return parser.emitError(loc); }, ctx,
                                axes, deviceIds);
  } else {
    return MeshAttr::get(ctx, axes, deviceIds);
  }
  if (parser.parseGreater())
    return {};
  // Iota device ids are the default: dropping them keeps equal meshes equal.
  // (Only a full iota: a wrong count must still reach the verifier.)
  if (!deviceIds.empty() && !axes.empty() && isIota(deviceIds) &&
      getDeviceCount(axes) == static_cast<int64_t>(deviceIds.size()))
    deviceIds.clear();
  return MeshAttr::getChecked([&] { return parser.emitError(loc); }, ctx, axes,
                              deviceIds);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getAxes(), printer, [&](MeshAxisAttr axis) {
    printer.printString(axis.getName());
    printer << "=" << axis.getSize();
  });
  printer << "]";
  if (!getDeviceIds().empty()) {
    printer << ", device_ids=[";
    llvm::interleaveComma(getDeviceIds(), printer);
    printer << "]";
  }
  printer << ">";
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<MeshAxisAttr> axes,
                               ArrayRef<int64_t> deviceIds) {
  llvm::SmallSet<StringRef, 8> names;
  for (MeshAxisAttr axis : axes) {
    if (!names.insert(axis.getName()).second)
      return emitError() << "duplicate axis name: \"" << axis.getName() << "\"";
    if (axis.getSize() < 1)
      return emitError() << "axis \"" << axis.getName()
                         << "\" must have size at least 1, got "
                         << axis.getSize();
  }
  std::optional<int64_t> deviceCount = getDeviceCount(axes);
  if (!deviceCount)
    return emitError() << "the product of the axis sizes does not fit in "
                          "64 bits";
  int64_t total = *deviceCount;
  if (deviceIds.empty())
    return success();
  if (llvm::any_of(deviceIds, [](int64_t id) { return id < 0; }))
    return emitError() << "device ids must be non-negative";
  if (static_cast<int64_t>(deviceIds.size()) != total)
    return emitError() << "total product of axis sizes (" << total
                       << ") must match the number of device ids ("
                       << deviceIds.size() << ")";
  SmallVector<int64_t> sorted(deviceIds);
  llvm::sort(sorted);
  if (!axes.empty() && !isIota(sorted))
    return emitError() << "device ids must be a permutation of 0.."
                       << total - 1;
  return success();
}

int64_t MeshAttr::getTotalSize() const {
  // The verifier rejects meshes whose device count overflows.
  return *getDeviceCount(getAxes());
}

std::optional<unsigned> MeshAttr::getAxisIndex(StringRef name) const {
  for (auto [index, axis] : llvm::enumerate(getAxes()))
    if (axis.getName() == name)
      return index;
  return std::nullopt;
}

std::optional<int64_t> MeshAttr::getAxisSize(StringRef name) const {
  if (std::optional<unsigned> index = getAxisIndex(name))
    return getAxes()[*index].getSize();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Axis lists
//===----------------------------------------------------------------------===//

Attribute AxisRefListAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefAttr> axes;
  if (parseAxisRefBraces(parser, axes))
    return {};
  return AxisRefListAttr::get(parser.getContext(), axes);
}

void AxisRefListAttr::print(AsmPrinter &printer) const {
  printAxisRefBraces(printer, getValue());
}

Attribute ListOfAxisRefListsAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefListAttr> lists;
  auto parseList = [&]() -> ParseResult {
    SmallVector<AxisRefAttr> axes;
    if (parseAxisRefBraces(parser, axes))
      return failure();
    lists.push_back(AxisRefListAttr::get(parser.getContext(), axes));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseList))
    return {};
  return ListOfAxisRefListsAttr::get(parser.getContext(), lists);
}

void ListOfAxisRefListsAttr::print(AsmPrinter &printer) const {
  printer << "[";
  llvm::interleaveComma(getValue(), printer, [&](AxisRefListAttr list) {
    printAxisRefBraces(printer, list.getValue());
  });
  printer << "]";
}

Attribute ManualAxesAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  auto parseName = [&]() -> ParseResult {
    std::string name;
    if (parser.parseString(&name))
      return failure();
    names.push_back(StringAttr::get(parser.getContext(), name));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, parseName))
    return {};
  return ManualAxesAttr::get(parser.getContext(), names);
}

void ManualAxesAttr::print(AsmPrinter &printer) const {
  printer << "{";
  llvm::interleaveComma(getValue(), printer,
                        [&](StringAttr name) { printer.printString(name); });
  printer << "}";
}

//===----------------------------------------------------------------------===//
// DimensionShardingAttr
//===----------------------------------------------------------------------===//

Attribute DimensionShardingAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefAttr> axes;
  bool isClosed = true;
  if (parseAxisRefBraces(parser, axes, &isClosed))
    return {};
  std::optional<int64_t> priority;
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&keyword))) {
    int64_t value = 0;
    if (!keyword.consume_front("p") || keyword.getAsInteger(10, value) ||
        value < 0) {
      parser.emitError(loc, "expected a priority of the form 'p<N>'");
      return {};
    }
    priority = value;
  }
  return DimensionShardingAttr::get(parser.getContext(), axes, isClosed,
                                    priority);
}

void DimensionShardingAttr::print(AsmPrinter &printer) const {
  printAxisRefBraces(printer, getAxes(), getIsClosed());
  if (std::optional<int64_t> priority = getPriority())
    printer << "p" << *priority;
}

int64_t DimensionShardingAttr::getShardedSize(MeshAttr mesh) const {
  int64_t size = 1;
  for (AxisRefAttr axis : getAxes())
    size *= axis.getSize(mesh);
  return size;
}

//===----------------------------------------------------------------------===//
// TensorShardingAttr
//===----------------------------------------------------------------------===//

Attribute TensorShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  Attribute meshOrRef;
  StringAttr symbol;
  if (succeeded(parser.parseOptionalSymbolName(symbol))) {
    meshOrRef = FlatSymbolRefAttr::get(symbol);
  } else {
    if (parser.parseKeyword("mesh"))
      return {};
    meshOrRef = MeshAttr::parse(parser, Type());
    if (!meshOrRef)
      return {};
  }
  SmallVector<DimensionShardingAttr> dims;
  auto parseDim = [&]() -> ParseResult {
    auto dim = dyn_cast_or_null<DimensionShardingAttr>(
        DimensionShardingAttr::parse(parser, Type()));
    if (!dim)
      return failure();
    dims.push_back(dim);
    return success();
  };
  if (parser.parseComma() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim))
    return {};
  SmallVector<AxisRefAttr> replicated, unreduced;
  ReductionKind unreducedKind = ReductionKind::Sum;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc keywordLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    SmallVectorImpl<AxisRefAttr> *target = nullptr;
    if (keyword == "replicated")
      target = &replicated;
    else if (keyword == "unreduced")
      target = &unreduced;
    if (!target) {
      parser.emitError(keywordLoc, "expected 'replicated' or 'unreduced'");
      return {};
    }
    if (parser.parseEqual())
      return {};
    // `unreduced=max{...}` / `min{...}`; a sum is written without keyword.
    if (target == &unreduced) {
      SMLoc kindLoc = parser.getCurrentLocation();
      StringRef kindKeyword;
      if (succeeded(parser.parseOptionalKeyword(&kindKeyword))) {
        std::optional<ReductionKind> kind = symbolizeReductionKind(kindKeyword);
        if (!kind || *kind == ReductionKind::Sum) {
          parser.emitError(kindLoc, "expected 'max' or 'min' before the "
                                    "unreduced axes (a sum has no keyword)");
          return {};
        }
        unreducedKind = *kind;
      }
    }
    if (parseAxisRefBraces(parser, *target))
      return {};
    if (target == &unreduced && unreduced.empty() &&
        unreducedKind != ReductionKind::Sum) {
      parser.emitError(keywordLoc)
          << "reduction kind '" << stringifyReductionKind(unreducedKind)
          << "' needs unreduced axes";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return TensorShardingAttr::getChecked([&] { return parser.emitError(loc); },
                                        ctx, meshOrRef, dims, replicated,
                                        unreduced, unreducedKind);
}

void TensorShardingAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (auto mesh = dyn_cast<MeshAttr>(getMeshOrRef())) {
    printer << "mesh";
    mesh.print(printer);
  } else {
    printer.printAttributeWithoutType(getMeshOrRef());
  }
  printer << ", [";
  llvm::interleaveComma(getDimShardings(), printer,
                        [&](DimensionShardingAttr dim) { dim.print(printer); });
  printer << "]";
  if (!getReplicatedAxes().empty()) {
    printer << ", replicated=";
    printAxisRefBraces(printer, getReplicatedAxes());
  }
  if (!getUnreducedAxes().empty()) {
    printer << ", unreduced=";
    if (getUnreducedKind() != ReductionKind::Sum)
      printer << stringifyReductionKind(getUnreducedKind());
    printAxisRefBraces(printer, getUnreducedAxes());
  }
  printer << ">";
}

LogicalResult TensorShardingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, Attribute meshOrRef,
    ArrayRef<DimensionShardingAttr> dimShardings, ArrayRef<AxisRefAttr>,
    ArrayRef<AxisRefAttr>, ReductionKind) {
  if (!isa<FlatSymbolRefAttr, MeshAttr>(meshOrRef))
    return emitError() << "expected a mesh symbol reference or an inlined mesh";
  for (auto [index, dim] : llvm::enumerate(dimShardings))
    if (dim.getIsClosed() && dim.getAxes().empty() && dim.getPriority())
      return emitError() << "dim " << index
                         << " is empty and closed but has a priority";
  return success();
}

StringRef TensorShardingAttr::getMeshName() const {
  if (auto ref = dyn_cast<FlatSymbolRefAttr>(getMeshOrRef()))
    return ref.getValue();
  return {};
}

MeshAttr TensorShardingAttr::getMesh(Operation *op) const {
  if (auto mesh = dyn_cast<MeshAttr>(getMeshOrRef()))
    return mesh;
  // Up through every symbol table, past unregistered ops: those might be
  // symbol tables, which stops `lookupNearestSymbolFrom` inside them.
  StringAttr name = cast<FlatSymbolRefAttr>(getMeshOrRef()).getAttr();
  for (Operation *scope = op; scope; scope = scope->getParentOp())
    if (scope->hasTrait<OpTrait::SymbolTable>())
      if (auto meshOp = dyn_cast_or_null<MeshOp>(
              SymbolTable::lookupSymbolIn(scope, name)))
        return meshOp.getMesh();
  return MeshAttr();
}

bool TensorShardingAttr::isFullyReplicated() const {
  return getUnreducedAxes().empty() &&
         llvm::all_of(getDimShardings(), [](DimensionShardingAttr dim) {
           return dim.getAxes().empty();
         });
}

SmallVector<int64_t>
TensorShardingAttr::getLocalShape(MeshAttr mesh,
                                  ArrayRef<int64_t> globalShape) const {
  SmallVector<int64_t> local(globalShape);
  for (auto [dim, sharding] : llvm::zip(local, getDimShardings())) {
    int64_t shards = sharding.getShardedSize(mesh);
    if (!ShapedType::isDynamic(dim) && shards > 0)
      dim = llvm::divideCeil(dim, shards);
  }
  return local;
}

TensorShardingAttr TensorShardingAttr::getFullyOpen(MLIRContext *ctx,
                                                    Attribute meshOrRef,
                                                    int64_t rank) {
  SmallVector<DimensionShardingAttr> dims(
      rank,
      DimensionShardingAttr::get(ctx, {}, /*isClosed=*/false, std::nullopt));
  return TensorShardingAttr::get(ctx, meshOrRef, dims, {}, {});
}

TensorShardingAttr mlir::sdy::getFullyClosedSharding(Attribute meshOrRef,
                                                     int64_t rank) {
  MLIRContext *ctx = meshOrRef.getContext();
  SmallVector<DimensionShardingAttr> dims(
      rank,
      DimensionShardingAttr::get(ctx, {}, /*isClosed=*/true, std::nullopt));
  return TensorShardingAttr::get(ctx, meshOrRef, dims, {}, {});
}

LogicalResult
TensorShardingAttr::verifyForMesh(MeshAttr mesh, Type type,
                                  function_ref<InFlightDiagnostic()> emitError,
                                  bool checkDivisibility) const {
  auto shapedType = dyn_cast<ShapedType>(type);
  // A maximal sharding (the whole value on one device) needs no dimension
  // shardings, whatever the rank.
  bool isMaximal = mesh.getAxes().empty() && mesh.getDeviceIds().size() == 1;
  if (isMaximal && getDimShardings().empty() && getReplicatedAxes().empty() &&
      getUnreducedAxes().empty())
    return success();
  if (shapedType && shapedType.hasRank()) {
    if (static_cast<int64_t>(getDimShardings().size()) != shapedType.getRank())
      return emitError() << "sharding doesn't match tensor rank: "
                         << getDimShardings().size()
                         << " != " << shapedType.getRank();
  } else if (!getDimShardings().empty()) {
    return emitError() << "non-ranked type " << type
                       << " can only have an empty sharding";
  }

  // Every (sub-)axis must exist, be well formed and be used at most once.
  llvm::SmallSet<std::pair<StringRef, std::pair<int64_t, int64_t>>, 8> seen;
  auto checkAxis = [&](AxisRefAttr axis) -> LogicalResult {
    std::optional<int64_t> axisSize = mesh.getAxisSize(axis.getName());
    if (!axisSize)
      return emitError() << "unknown axis name: \"" << axis.getName() << "\"";
    std::pair<int64_t, int64_t> range{0, *axisSize};
    if (SubAxisInfoAttr sub = axis.getSubAxisInfo()) {
      if (sub.getPreSize() < 1 || sub.getSize() <= 1)
        return emitError() << "sub-axis of \"" << axis.getName()
                           << "\" needs pre-size >= 1 and size > 1";
      // pre-size * size is the extent the sub-axis spans in its axis.
      std::optional<int64_t> extent =
          mpmd::checkedMul(sub.getPreSize(), sub.getSize());
      if (!extent || *axisSize % *extent != 0)
        return emitError() << "sub-axis \"" << axis.getName() << "\":("
                           << sub.getPreSize() << ")" << sub.getSize()
                           << " does not divide axis size " << *axisSize;
      if (sub.getSize() == *axisSize)
        return emitError() << "sub-axis \"" << axis.getName() << "\":("
                           << sub.getPreSize() << ")" << sub.getSize()
                           << " is the whole axis; write \"" << axis.getName()
                           << "\"";
      range = {sub.getPreSize(), sub.getSize()};
    }
    // A full axis conflicts with any sub-axis of it and vice versa.
    for (const auto &entry : seen) {
      if (entry.first != axis.getName())
        continue;
      bool entryFull = entry.second.first == 0;
      bool thisFull = range.first == 0;
      if (entryFull || thisFull || entry.second == range)
        return emitError() << "axis \"" << axis.getName()
                           << "\" is used more than once";
      // Sub-axes [pre, pre*size) must not overlap.
      int64_t aLo = entry.second.first,
              aHi = entry.second.first * entry.second.second;
      int64_t bLo = range.first, bHi = range.first * range.second;
      if (aLo < bHi && bLo < aHi)
        return emitError() << "overlapping sub-axes of \"" << axis.getName()
                           << "\"";
    }
    seen.insert({axis.getName(), range});
    return success();
  };

  // Two sub-axes of one axis that follow each other and are contiguous
  // ("x":(1)2, "x":(2)2) must be written as one.
  auto checkMerged = [&](ArrayRef<AxisRefAttr> axes) -> LogicalResult {
    if (axes.size() < 2)
      return success();
    for (auto [major, minor] : llvm::zip(axes, axes.drop_front())) {
      SubAxisInfoAttr a = major.getSubAxisInfo(), b = minor.getSubAxisInfo();
      if (a && b && major.getName() == minor.getName() &&
          a.getPreSize() * a.getSize() == b.getPreSize())
        return emitError() << "sub-axes \"" << major.getName() << "\":("
                           << a.getPreSize() << ")" << a.getSize() << " and \""
                           << minor.getName() << "\":(" << b.getPreSize() << ")"
                           << b.getSize()
                           << " are contiguous and must be merged";
    }
    return success();
  };
  if (failed(checkMerged(getReplicatedAxes())) ||
      failed(checkMerged(getUnreducedAxes())))
    return failure();
  for (auto [index, dim] : llvm::enumerate(getDimShardings())) {
    for (AxisRefAttr axis : dim.getAxes())
      if (failed(checkAxis(axis)))
        return failure();
    if (failed(checkMerged(dim.getAxes())))
      return failure();
    if (!checkDivisibility || !shapedType)
      continue;
    int64_t size = shapedType.getDimSize(index);
    int64_t shards = dim.getShardedSize(mesh);
    if (!ShapedType::isDynamic(size) && shards > 0 && size % shards != 0)
      return emitError() << "dim " << index << " with size " << size
                         << " is not divisible by its sharded size " << shards;
  }
  for (AxisRefAttr axis : getReplicatedAxes())
    if (failed(checkAxis(axis)))
      return failure();
  for (AxisRefAttr axis : getUnreducedAxes())
    if (failed(checkAxis(axis)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// TensorShardingPerValueAttr and all-to-all params
//===----------------------------------------------------------------------===//

ParseResult mlir::sdy::parseStrippedTensorShardingPerValueAttr(
    AsmParser &parser, TensorShardingPerValueAttr &result) {
  SmallVector<TensorShardingAttr> shardings;
  // Each entry is stripped (`<@mesh, ...>`) or a full attribute, e.g. an
  // alias (`#shard`) that printers emit for repeated shardings.
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    Attribute full;
    OptionalParseResult parsedFull = parser.parseOptionalAttribute(full);
    TensorShardingAttr sharding;
    if (parsedFull.has_value()) {
      if (failed(*parsedFull))
        return failure();
      sharding = dyn_cast<TensorShardingAttr>(full);
      if (!sharding)
        return parser.emitError(loc, "expected a #sdy.sharding, got ") << full;
    } else {
      sharding = dyn_cast_or_null<TensorShardingAttr>(
          TensorShardingAttr::parse(parser, Type()));
      if (!sharding)
        return failure();
    }
    shardings.push_back(sharding);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseOne))
    return failure();
  result = TensorShardingPerValueAttr::get(parser.getContext(), shardings);
  return success();
}

void mlir::sdy::printStrippedTensorShardingPerValueAttr(
    AsmPrinter &printer, TensorShardingPerValueAttr shardings) {
  printer << "[";
  llvm::interleaveComma(shardings.getShardings(), printer,
                        [&](TensorShardingAttr s) { s.print(printer); });
  printer << "]";
}

Attribute TensorShardingPerValueAttr::parse(AsmParser &parser, Type) {
  TensorShardingPerValueAttr result;
  if (parser.parseLess() ||
      parseStrippedTensorShardingPerValueAttr(parser, result) ||
      parser.parseGreater())
    return {};
  return result;
}

void TensorShardingPerValueAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printStrippedTensorShardingPerValueAttr(printer, *this);
  printer << ">";
}

Attribute AllToAllParamAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefAttr> axes;
  int64_t srcDim = 0, tgtDim = 0;
  if (parseAxisRefBraces(parser, axes) || parser.parseColon() ||
      parser.parseInteger(srcDim) || parser.parseArrow() ||
      parser.parseInteger(tgtDim))
    return {};
  return AllToAllParamAttr::get(parser.getContext(), axes, srcDim, tgtDim);
}

void AllToAllParamAttr::print(AsmPrinter &printer) const {
  printAxisRefBraces(printer, getAxes());
  printer << ": " << getSrcDim() << "->" << getTgtDim();
}

Attribute AllToAllParamListAttr::parse(AsmParser &parser, Type) {
  SmallVector<AllToAllParamAttr> params;
  auto parseOne = [&]() -> ParseResult {
    auto param = dyn_cast_or_null<AllToAllParamAttr>(
        AllToAllParamAttr::parse(parser, Type()));
    if (!param)
      return failure();
    params.push_back(param);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseOne))
    return {};
  return AllToAllParamListAttr::get(parser.getContext(), params);
}

void AllToAllParamListAttr::print(AsmPrinter &printer) const {
  printer << "[";
  llvm::interleaveComma(getValue(), printer,
                        [&](AllToAllParamAttr p) { p.print(printer); });
  printer << "]";
}
