//===- MpmdTypes.cpp - !mpmd.mesh_tensor ----------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/TensorSizes.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mpmd;

#define GET_TYPEDEF_CLASSES
#include "mpmd/Dialect/Mpmd/IR/MpmdTypes.cpp.inc"

void MpmdDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "mpmd/Dialect/Mpmd/IR/MpmdTypes.cpp.inc"
      >();
}

TopologyAttr mlir::mpmd::getTopology(Operation *op) {
  auto function = dyn_cast<func::FuncOp>(op);
  if (!function)
    function = op->getParentOfType<func::FuncOp>();
  if (!function)
    return {};
  return function->getAttrOfType<TopologyAttr>(MpmdDialect::kTopologyAttrName);
}

bool mlir::mpmd::isTokenType(Type type) {
  return type.getAbstractType().getName() == "stablehlo.token";
}

// `<"m1", tensor<4x8xf32>(, sharding=<...>)?(, memory_kind="...")?>`
Type MeshTensorType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  std::string meshName;
  RankedTensorType tensorType;
  if (parser.parseLess() || parser.parseString(&meshName) ||
      parser.parseComma() || parser.parseType(tensorType))
    return {};
  sdy::TensorShardingAttr sharding;
  StringAttr memoryKind;
  if (succeeded(parser.parseOptionalComma())) {
    bool parseMemoryKind = true;
    if (succeeded(parser.parseOptionalKeyword("sharding"))) {
      if (parser.parseEqual())
        return {};
      sharding = dyn_cast_or_null<sdy::TensorShardingAttr>(
          sdy::TensorShardingAttr::parse(parser, {}));
      if (!sharding)
        return {};
      parseMemoryKind = succeeded(parser.parseOptionalComma());
    }
    if (parseMemoryKind) {
      std::string kind;
      if (parser.parseKeyword("memory_kind") || parser.parseEqual() ||
          parser.parseString(&kind))
        return {};
      memoryKind = parser.getBuilder().getStringAttr(kind);
    }
  }
  if (parser.parseGreater())
    return {};
  return MeshTensorType::getChecked([&] { return parser.emitError(loc); },
                                    parser.getContext(), meshName, tensorType,
                                    sharding, memoryKind);
}

LogicalResult
MeshTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       StringRef meshName, RankedTensorType rankedTensorType,
                       sdy::TensorShardingAttr, StringAttr) {
  if (meshName.empty())
    return emitError() << "mesh tensor needs a non-empty mesh name";
  if (!rankedTensorType.hasStaticShape())
    return emitError() << "mesh tensor needs a statically shaped tensor, got "
                       << rankedTensorType;
  if (!getSizeInBits(rankedTensorType))
    return emitError() << "tensor type " << rankedTensorType
                       << " is too large: its size in bits does not fit in "
                          "64 bits";
  return success();
}

void MeshTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getMeshName());
  printer << ", " << getRankedTensorType();
  if (getSharding()) {
    printer << ", sharding=";
    getSharding().print(printer);
  }
  if (getMemoryKind()) {
    printer << ", memory_kind=";
    printer.printString(getMemoryKind().getValue());
  }
  printer << ">";
}

// ShapedTypeInterface: shape and element type are the global tensor's.
ArrayRef<int64_t> MeshTensorType::getShape() const {
  return getRankedTensorType().getShape();
}

Type MeshTensorType::getElementType() const {
  return getRankedTensorType().getElementType();
}

bool MeshTensorType::hasRank() const { return true; }

ShapedType MeshTensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                     Type elementType) const {
  // A new shape invalidates the sharding, so it is dropped.
  RankedTensorType tensorType = getRankedTensorType();
  auto newTensorType = RankedTensorType::get(
      shape.value_or(tensorType.getShape()),
      elementType ? elementType : tensorType.getElementType());
  return MeshTensorType::get(getContext(), getMeshName(), newTensorType,
                             shape ? sdy::TensorShardingAttr() : getSharding(),
                             getMemoryKind());
}

bool MeshTensorType::isOnHost() const {
  return getMemoryKind() && getMemoryKind().getValue() == kMemoryKindPinnedHost;
}

bool MeshTensorType::isFullyReplicated() const {
  return !getSharding() || getSharding().isFullyReplicated();
}

RankedTensorType MeshTensorType::getLocalTensorType(sdy::MeshAttr mesh) const {
  RankedTensorType global = getRankedTensorType();
  if (!getSharding())
    return global;
  return RankedTensorType::get(
      getSharding().getLocalShape(mesh, global.getShape()),
      global.getElementType());
}

RankedTensorType MeshTensorType::getLocalTensorType(Operation *op) const {
  if (!getSharding())
    return getRankedTensorType();
  sdy::MeshAttr mesh = getSharding().getMesh(op);
  if (!mesh)
    return {};
  return getLocalTensorType(mesh);
}

LogicalResult MeshTensorType::verifyForTopology(Operation *op) const {
  TopologyAttr topology = getTopology(op);
  if (!topology)
    return success(); // Outside an MPMD function there is nothing to resolve.
  sdy::MeshAttr mesh = topology.getMesh(getMeshName());
  if (!mesh)
    return op->emitOpError() << "refers to mesh \"" << getMeshName()
                             << "\", which is not in the topology";
  if (!getSharding())
    return success();
  return getSharding().verifyForMesh(
      mesh, getRankedTensorType(),
      [&] {
        return op->emitOpError()
               << "has an invalid sharding for mesh \"" << getMeshName()
               << "\" on type " << *this << ": ";
      },
      /*checkDivisibility=*/true);
}

//===----------------------------------------------------------------------===//
// Tensor sizes
//===----------------------------------------------------------------------===//

int64_t mlir::mpmd::getElementBitWidth(Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    return 2 * getElementBitWidth(complex.getElementType());
  if (elementType.isIntOrFloat())
    return elementType.getIntOrFloatBitWidth();
  return 0;
}

std::optional<int64_t> mlir::mpmd::getSizeInBits(RankedTensorType type) {
  return checkedProduct(type.getShape(),
                        getElementBitWidth(type.getElementType()));
}
