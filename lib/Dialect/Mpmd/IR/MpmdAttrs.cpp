//===- MpmdAttrs.cpp - mpmd attribute printers, parsers, verifiers --------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mpmd;

#include "mpmd/Dialect/Mpmd/IR/MpmdEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mpmd/Dialect/Mpmd/IR/MpmdAttrs.cpp.inc"

void MpmdDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mpmd/Dialect/Mpmd/IR/MpmdAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// NamedMeshAttr and TopologyAttr
//===----------------------------------------------------------------------===//

namespace {

/// Parses `<"m1" : <["x"=2]>>` (the colon may hug the name).
NamedMeshAttr parseNamedMesh(AsmParser &parser) {
  std::string name;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseColon())
    return {};
  auto mesh = dyn_cast_or_null<sdy::MeshAttr>(sdy::MeshAttr::parse(parser, {}));
  if (!mesh || parser.parseGreater())
    return {};
  return NamedMeshAttr::get(parser.getContext(), name, mesh);
}

} // namespace

Attribute NamedMeshAttr::parse(AsmParser &parser, Type) {
  return parseNamedMesh(parser);
}

void NamedMeshAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getName());
  printer << " : ";
  getMesh().print(printer);
  printer << ">";
}

Attribute TopologyAttr::parse(AsmParser &parser, Type) {
  SmallVector<NamedMeshAttr> meshes;
  SMLoc loc = parser.getCurrentLocation();
  auto parseOne = [&]() -> ParseResult {
    NamedMeshAttr mesh = parseNamedMesh(parser);
    if (!mesh)
      return failure();
    meshes.push_back(mesh);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseOne))
    return {};
  return TopologyAttr::getChecked([&] { return parser.emitError(loc); },
                                  parser.getContext(), meshes);
}

void TopologyAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(getMeshes(), printer,
                        [&](NamedMeshAttr mesh) { mesh.print(printer); });
  printer << ">";
}

LogicalResult TopologyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<NamedMeshAttr> meshes) {
  if (meshes.empty())
    return emitError() << "topology must have at least one mesh";
  llvm::SmallSet<StringRef, 8> names;
  for (NamedMeshAttr mesh : meshes) {
    if (!names.insert(mesh.getName()).second)
      return emitError() << "duplicate mesh name in topology: \""
                         << mesh.getName() << "\"";
    if (mesh.getName().contains('@') || mesh.getName().contains('#'))
      return emitError() << "mesh name \"" << mesh.getName()
                         << "\" may not contain '@' or '#'";
  }
  return success();
}

std::optional<unsigned> TopologyAttr::getMeshIndex(StringRef name) const {
  for (auto [index, mesh] : llvm::enumerate(getMeshes()))
    if (mesh.getName() == name)
      return index;
  return std::nullopt;
}

sdy::MeshAttr TopologyAttr::getMesh(StringRef name) const {
  if (std::optional<unsigned> index = getMeshIndex(name))
    return getMeshes()[*index].getMesh();
  return {};
}

//===----------------------------------------------------------------------===//
// Origins
//===----------------------------------------------------------------------===//

Attribute UserOriginAttr::parse(AsmParser &parser, Type) {
  std::string name;
  int64_t transposeCount = 0;
  if (parser.parseLess() || parser.parseString(&name))
    return {};
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseInteger(transposeCount) || parser.parseRParen()))
    return {};
  if (parser.parseGreater())
    return {};
  return UserOriginAttr::get(parser.getContext(), name, transposeCount);
}

void UserOriginAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getUserName());
  if (getTransposeCount() != 0)
    printer << "(" << getTransposeCount() << ")";
  printer << ">";
}

namespace {

/// `"m3"` or `"m3"["o1", "o2"]`.
MeshWithOriginsAttr parseMeshWithOrigins(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  std::string mesh;
  if (parser.parseString(&mesh))
    return {};
  SmallVector<OriginAttr> origins;
  auto parseOrigin = [&]() -> ParseResult {
    std::string label;
    if (parser.parseString(&label))
      return failure();
    origins.push_back(OriginAttr::get(ctx, label));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::OptionalSquare,
                                     parseOrigin))
    return {};
  return MeshWithOriginsAttr::get(ctx, mesh, origins);
}

void printMeshWithOrigins(AsmPrinter &printer, MeshWithOriginsAttr attr) {
  printer.printString(attr.getMainMesh());
  if (attr.getOrigins().empty())
    return;
  printer << "[";
  llvm::interleaveComma(attr.getOrigins(), printer, [&](OriginAttr origin) {
    printer.printString(origin.getOriginLabel());
  });
  printer << "]";
}

} // namespace

Attribute MeshWithOriginsAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  MeshWithOriginsAttr attr = parseMeshWithOrigins(parser);
  if (!attr || parser.parseGreater())
    return {};
  return attr;
}

void MeshWithOriginsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printMeshWithOrigins(printer, *this);
  printer << ">";
}

Attribute MeshesWithOriginsAttr::parse(AsmParser &parser, Type) {
  SmallVector<MeshWithOriginsAttr> meshes;
  auto parseOne = [&]() -> ParseResult {
    MeshWithOriginsAttr mesh = parseMeshWithOrigins(parser);
    if (!mesh)
      return failure();
    meshes.push_back(mesh);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseOne))
    return {};
  return MeshesWithOriginsAttr::get(parser.getContext(), meshes);
}

void MeshesWithOriginsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(getMeshes(), printer, [&](MeshWithOriginsAttr mesh) {
    printMeshWithOrigins(printer, mesh);
  });
  printer << ">";
}
