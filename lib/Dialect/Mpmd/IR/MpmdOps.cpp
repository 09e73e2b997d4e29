//===- MpmdOps.cpp - mpmd operations: syntax, verifiers, canonicalizers ---===//

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mpmd;

//===----------------------------------------------------------------------===//
// Shared syntax helpers
//===----------------------------------------------------------------------===//

namespace {

/// `"name"` or `"name"(N)`: the short form of a user origin inside ops.
ParseResult parseShortUserOrigin(AsmParser &parser, UserOriginAttr &origin) {
  std::string name;
  int64_t transposeCount = 0;
  if (parser.parseString(&name))
    return failure();
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseInteger(transposeCount) || parser.parseRParen()))
    return failure();
  origin = UserOriginAttr::get(parser.getContext(), name, transposeCount);
  return success();
}

void printShortUserOrigin(AsmPrinter &printer, UserOriginAttr origin) {
  printer.printString(origin.getUserName());
  if (origin.getTransposeCount() != 0)
    printer << "(" << origin.getTransposeCount() << ")";
}

/// `["f1", "f1"(1)]`.
ParseResult parseOriginList(AsmParser &parser, ArrayAttr &origins) {
  SmallVector<Attribute> elements;
  auto parseOne = [&]() -> ParseResult {
    UserOriginAttr origin;
    if (parseShortUserOrigin(parser, origin))
      return failure();
    elements.push_back(origin);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseOne))
    return failure();
  origins = parser.getBuilder().getArrayAttr(elements);
  return success();
}

void printOriginList(AsmPrinter &printer, ArrayAttr origins) {
  printer << "[";
  llvm::interleaveComma(origins, printer, [&](Attribute origin) {
    printShortUserOrigin(printer, cast<UserOriginAttr>(origin));
  });
  printer << "]";
}

/// `(%operands) {attr-dict} (%args: types) { body }`: the shape shared by
/// single-block region ops (named_computation, fragment, for).
ParseResult
parseOperandsAttrsAndBody(OpAsmParser &parser, OperationState &result,
                          SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  SmallVector<OpAsmParser::Argument> arguments;
  Region *body = result.addRegion();
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(*body, arguments))
    return failure();
  if (body->empty())
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a non-empty region body");
  return success();
}

void printOperandsAttrsAndBody(OpAsmPrinter &printer, Operation *op,
                               ArrayRef<StringRef> elidedAttrs) {
  printer << " (";
  printer.printOperands(op->getOperands());
  printer << ")";
  printer.printOptionalAttrDict(op->getAttrs(), elidedAttrs);
  printer << " (";
  Block &block = op->getRegion(0).front();
  llvm::interleaveComma(block.getArguments(), printer, [&](BlockArgument arg) {
    printer.printRegionArgument(arg);
  });
  printer << ") ";
  printer.printRegion(op->getRegion(0), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

/// The global tensor type of a mesh tensor; any other type as is.
Type getGlobalType(Type type) {
  if (auto meshTensor = dyn_cast<MeshTensorType>(type))
    return meshTensor.getRankedTensorType();
  return type;
}

/// Checks that `type`, if a mesh tensor, lives on `meshName` (when given) and
/// is valid for the topology.
LogicalResult verifyMeshTensor(Operation *op, Type type, StringRef meshName,
                               StringRef what) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  if (!meshTensor)
    return success();
  if (!meshName.empty() && meshTensor.getMeshName() != meshName)
    return op->emitOpError()
           << what << " must be on mesh \"" << meshName << "\", but has type "
           << type;
  return meshTensor.verifyForTopology(op);
}

/// Checks that every mesh-tensor operand and result of `op` is on `meshName`
/// and valid for the topology.
LogicalResult verifyOperandsAndResultsOnMesh(Operation *op,
                                             StringRef meshName) {
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifyMeshTensor(op, type, meshName,
                                "operand " + std::to_string(index))))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifyMeshTensor(op, type, meshName,
                                "result " + std::to_string(index))))
      return failure();
  return success();
}

/// `<mesh="m1", origin=[...]` (without the closing `>`), the prefix shared by
/// fragments and fragment calls.
ParseResult parseMeshAndOrigin(OpAsmParser &parser, OperationState &result,
                               StringAttr meshAttrName,
                               StringAttr originAttrName) {
  std::string mesh;
  ArrayAttr origin;
  if (parser.parseLess() || parser.parseKeyword("mesh") ||
      parser.parseEqual() || parser.parseString(&mesh) ||
      parser.parseComma() || parser.parseKeyword("origin") ||
      parser.parseEqual() || parseOriginList(parser, origin))
    return failure();
  result.addAttribute(meshAttrName, parser.getBuilder().getStringAttr(mesh));
  result.addAttribute(originAttrName, origin);
  return success();
}

void printMeshAndOrigin(OpAsmPrinter &printer, StringRef mesh,
                        ArrayAttr origin) {
  printer << "<mesh=";
  printer.printString(mesh);
  printer << ", origin=";
  printOriginList(printer, origin);
}

/// Checks the leading block arguments and the terminator of a single-block
/// region op against its operand and result types (mapped through
/// `toBodyType`). Block arguments after the operands' were checked by the
/// caller.
LogicalResult verifyBodySignature(Operation *op, Region &region,
                                  TypeRange operandTypes, TypeRange resultTypes,
                                  function_ref<Type(Type)> toBodyType) {
  Block &block = region.front();
  if (block.getNumArguments() < operandTypes.size())
    return op->emitOpError() << "expected " << operandTypes.size()
                             << " block arguments, got "
                             << block.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(operandTypes, block.getArgumentTypes()))) {
    auto [operandType, argType] = pair;
    if (toBodyType(operandType) != argType)
      return op->emitOpError()
             << "block argument " << index << " has type " << argType
             << ", expected " << toBodyType(operandType);
  }
  Operation *terminator = block.getTerminator();
  if (terminator->getNumOperands() != resultTypes.size())
    return op->emitOpError() << "expected the body to return "
                             << resultTypes.size() << " values, got "
                             << terminator->getNumOperands();
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(resultTypes, terminator->getOperandTypes()))) {
    auto [resultType, returnedType] = pair;
    if (toBodyType(resultType) != returnedType)
      return op->emitOpError()
             << "returned value " << index << " has type " << returnedType
             << ", expected " << toBodyType(resultType);
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// NamedComputationOp
//===----------------------------------------------------------------------===//

ParseResult NamedComputationOp::parse(OpAsmParser &parser,
                                      OperationState &result) {
  UserOriginAttr origin;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parseShortUserOrigin(parser, origin) ||
      parser.parseGreater() ||
      parseOperandsAttrsAndBody(parser, result, operands) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), loc, result.operands))
    return failure();
  result.addAttribute(getOriginAttrName(result.name), origin);
  result.addTypes(type.getResults());
  return success();
}

void NamedComputationOp::print(OpAsmPrinter &printer) {
  printer << "<";
  printShortUserOrigin(printer, getOrigin());
  printer << ">";
  printOperandsAttrsAndBody(printer, *this, {getOriginAttrName()});
  printer << " : ";
  printer.printFunctionalType(*this);
}

StringRef NamedComputationOp::getDefaultDialect() {
  return func::FuncDialect::getDialectNamespace();
}

LogicalResult NamedComputationOp::verify() {
  if (getRegion().getNumArguments() != getNumOperands())
    return emitOpError() << "expected " << getNumOperands()
                         << " block arguments, got "
                         << getRegion().getNumArguments();
  return verifyBodySignature(*this, getRegion(), getOperandTypes(),
                             getResultTypes(), [](Type t) { return t; });
}

//===----------------------------------------------------------------------===//
// NamedTensorOp
//===----------------------------------------------------------------------===//

// `mpmd.named_tensor %x name="n1" : tensor<4x8xf32>`
ParseResult NamedTensorOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand operand;
  std::string name;
  Type type;
  if (parser.parseOperand(operand) || parser.parseKeyword("name") ||
      parser.parseEqual() || parser.parseString(&name) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(operand, type, result.operands))
    return failure();
  result.addAttribute(getNameAttrName(result.name),
                      parser.getBuilder().getStringAttr(name));
  result.addTypes(type);
  return success();
}

void NamedTensorOp::print(OpAsmPrinter &printer) {
  printer << " " << getTensor() << " name=";
  printer.printString(getName());
  printer.printOptionalAttrDict((*this)->getAttrs(), {getNameAttrName()});
  printer << " : " << getType();
}

//===----------------------------------------------------------------------===//
// FragmentOp
//===----------------------------------------------------------------------===//

// `mpmd.fragment<mesh="m1", origin=[...], stage=N, in_shardings=[...],
//  out_shardings=[...]> (%operands) {attrs} (%args: T) {...} : (...) -> ...`
ParseResult FragmentOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  if (parseMeshAndOrigin(parser, result, getMeshNameAttrName(result.name),
                         getOriginAttrName(result.name)))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc keywordLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return failure();
    if (keyword == "stage") {
      int64_t stage = 0;
      if (parser.parseInteger(stage))
        return failure();
      result.addAttribute(getStageIdAttrName(result.name),
                          builder.getI64IntegerAttr(stage));
    } else if (keyword == "in_shardings" || keyword == "out_shardings") {
      sdy::TensorShardingPerValueAttr shardings;
      if (sdy::parseStrippedTensorShardingPerValueAttr(parser, shardings))
        return failure();
      result.addAttribute(keyword == "in_shardings"
                              ? getInShardingsAttrName(result.name)
                              : getOutShardingsAttrName(result.name),
                          shardings);
    } else {
      return parser.emitError(keywordLoc)
             << "expected 'stage', 'in_shardings' or 'out_shardings', got '"
             << keyword << "'";
    }
  }
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseGreater() ||
      parseOperandsAttrsAndBody(parser, result, operands) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), loc, result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

void FragmentOp::print(OpAsmPrinter &printer) {
  printMeshAndOrigin(printer, getMeshName(), getOrigin());
  if (std::optional<int64_t> stage = getStageId())
    printer << ", stage=" << *stage;
  if (sdy::TensorShardingPerValueAttr in = getInShardingsAttr()) {
    printer << ", in_shardings=";
    sdy::printStrippedTensorShardingPerValueAttr(printer, in);
  }
  if (sdy::TensorShardingPerValueAttr out = getOutShardingsAttr()) {
    printer << ", out_shardings=";
    sdy::printStrippedTensorShardingPerValueAttr(printer, out);
  }
  printer << ">";
  printOperandsAttrsAndBody(printer, *this, getAttributeNames());
  printer << " : ";
  printer.printFunctionalType(*this);
}

LogicalResult FragmentOp::verify() {
  if (failed(verifyOperandsAndResultsOnMesh(*this, getMeshName())))
    return failure();
  if (getStageId() && !isUserFragment())
    return emitOpError("only user fragments (non-empty origin) can have a "
                       "stage");
  if (sdy::TensorShardingPerValueAttr in = getInShardingsAttr();
      in && in.getShardings().size() != getNumOperands())
    return emitOpError() << "has " << in.getShardings().size()
                         << " in_shardings for " << getNumOperands()
                         << " operands";
  if (sdy::TensorShardingPerValueAttr out = getOutShardingsAttr();
      out && out.getShardings().size() != getNumResults())
    return emitOpError() << "has " << out.getShardings().size()
                         << " out_shardings for " << getNumResults()
                         << " results";
  if (getRegion().getNumArguments() != getNumOperands())
    return emitOpError() << "expected " << getNumOperands()
                         << " block arguments, got "
                         << getRegion().getNumArguments();
  return verifyBodySignature(*this, getRegion(), getOperandTypes(),
                             getResultTypes(), getGlobalType);
}

namespace {

/// A result that returns a block argument whose operand has the result's
/// exact type is that operand: forward it to the result's users.
struct ForwardFragmentPassThroughResults : OpRewritePattern<FragmentOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FragmentOp op,
                                PatternRewriter &rewriter) const override {
    Operation *terminator = op.getRegion().front().getTerminator();
    bool changed = false;
    for (auto [result, returned] :
         llvm::zip(op.getResults(), terminator->getOperands())) {
      auto arg = dyn_cast<BlockArgument>(returned);
      if (!arg || result.use_empty())
        continue;
      Value operand = op.getOperand(arg.getArgNumber());
      if (operand.getType() != result.getType())
        continue;
      rewriter.replaceAllUsesWith(result, operand);
      changed = true;
    }
    return success(changed);
  }
};

} // namespace

void FragmentOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<ForwardFragmentPassThroughResults>(context);
}

//===----------------------------------------------------------------------===//
// FragmentCallOp
//===----------------------------------------------------------------------===//

// `mpmd.fragment_call<mesh="m1", origin=[...]> @callee(%a) {attrs} : (...) -> ...`
ParseResult FragmentCallOp::parse(OpAsmParser &parser, OperationState &result) {
  FlatSymbolRefAttr callee;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType type;
  SMLoc loc;
  if (parseMeshAndOrigin(parser, result, getMeshNameAttrName(result.name),
                         getOriginAttrName(result.name)) ||
      parser.parseGreater() || parser.parseAttribute(callee))
    return failure();
  loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), loc, result.operands))
    return failure();
  result.addAttribute(getCalleeAttrName(result.name), callee);
  result.addTypes(type.getResults());
  return success();
}

void FragmentCallOp::print(OpAsmPrinter &printer) {
  printMeshAndOrigin(printer, getMeshName(), getOrigin());
  printer << "> ";
  printer.printAttributeWithoutType(getCalleeAttr());
  printer << "(";
  printer.printOperands(getTensors());
  printer << ")";
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getMeshNameAttrName(), getOriginAttrName(), getCalleeAttrName()});
  printer << " : ";
  printer.printFunctionalType(*this);
}

LogicalResult FragmentCallOp::verify() {
  return verifyOperandsAndResultsOnMesh(*this, getMeshName());
}

LogicalResult
FragmentCallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee " << getCalleeAttr()
                         << " is not a func.func in this module";
  FunctionType calleeType = callee.getFunctionType();
  TopologyAttr topology = getTopology(*this);
  auto globalTypes = [](TypeRange types) {
    return llvm::map_to_vector(types, getGlobalType);
  };
  // A callee partitioned for the mesh (SPMD) takes and returns one device's
  // shard of each value instead: the executor runs it on the shards.
  auto localTypes = [&](TypeRange types) {
    return llvm::map_to_vector(types, [&](Type type) -> Type {
      auto meshTensor = dyn_cast<MeshTensorType>(type);
      if (!meshTensor || !topology ||
          !topology.getMesh(meshTensor.getMeshName()))
        return getGlobalType(type);
      return meshTensor.getLocalTensorType(
          topology.getMesh(meshTensor.getMeshName()));
    });
  };
  auto matches = [&](auto toBodyTypes) {
    return TypeRange(toBodyTypes(getOperandTypes())) ==
               calleeType.getInputs() &&
           TypeRange(toBodyTypes(getResultTypes())) == calleeType.getResults();
  };
  if (!matches(globalTypes) && !matches(localTypes))
    return emitOpError() << "callee " << getCalleeAttr() << " has type "
                         << calleeType
                         << ", which does not match the global types of the "
                            "call's operands and results, nor their shards";
  if (!topology)
    return success();
  auto meshShape =
      callee->getAttrOfType<sdy::MeshAttr>(MpmdDialect::kMeshShapeAttrName);
  if (meshShape != topology.getMesh(getMeshName()))
    return emitOpError() << "callee " << getCalleeAttr() << " has mesh_shape "
                         << meshShape << ", but mesh \"" << getMeshName()
                         << "\" of the topology is "
                         << topology.getMesh(getMeshName());
  return success();
}

CallInterfaceCallable FragmentCallOp::getCallableForCallee() {
  return getCalleeAttr();
}

void FragmentCallOp::setCalleeFromCallable(CallInterfaceCallable callee) {
  setCalleeAttr(cast<FlatSymbolRefAttr>(cast<SymbolRefAttr>(callee)));
}

Operation::operand_range FragmentCallOp::getArgOperands() {
  return getTensors();
}

MutableOperandRange FragmentCallOp::getArgOperandsMutable() {
  return getTensorsMutable();
}

//===----------------------------------------------------------------------===//
// TransferOp
//===----------------------------------------------------------------------===//

bool TransferOp::isIntraMesh() {
  auto source = cast<MeshTensorType>(getTensor().getType());
  auto target = cast<MeshTensorType>(getType());
  return source.getMeshName() == target.getMeshName() &&
         source.getMemoryKind() == target.getMemoryKind();
}

namespace {


bool isPinnedHostKind(Attribute kind) {
  auto name = dyn_cast_or_null<StringAttr>(kind);
  return name && name.getValue() == MeshTensorType::kMemoryKindPinnedHost;
}

/// True when attributes, not its type, say `value` is in host memory: an
/// argument of the enclosing function whose argument attribute says so, or
/// a result of a fragment, call, fragment call or loop whose `res_attrs`
/// entry says so.
bool isInHostMemoryByAttributes(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    return function && isPinnedHostKind(function.getArgAttr(
                           arg.getArgNumber(), MpmdDialect::kMemoryKindAttrName));
  }
  Operation *producer = value.getDefiningOp();
  if (!isa<FragmentOp, CallOp, FragmentCallOp, ForOp>(producer))
    return false;
  auto resultAttrs = producer->getAttrOfType<ArrayAttr>("res_attrs");
  unsigned index = cast<OpResult>(value).getResultNumber();
  if (!resultAttrs || index >= resultAttrs.size())
    return false;
  auto dictionary = dyn_cast<DictionaryAttr>(resultAttrs[index]);
  return dictionary && isPinnedHostKind(dictionary.get(MpmdDialect::kMemoryKindAttrName));
}

/// Memory kinds are "pinned_host" and "device" (or none).
LogicalResult verifyMemoryKind(Operation *op, MeshTensorType type) {
  StringAttr kind = type.getMemoryKind();
  if (!kind || kind.getValue() == MeshTensorType::kMemoryKindDevice ||
      kind.getValue() == MeshTensorType::kMemoryKindPinnedHost)
    return success();
  return op->emitOpError() << "has memory kind \"" << kind.getValue()
                           << "\"; valid memory kinds are \""
                           << MeshTensorType::kMemoryKindPinnedHost
                           << "\" and \"" << MeshTensorType::kMemoryKindDevice
                           << "\"";
}

} // namespace

LogicalResult TransferOp::verify() {
  auto source = cast<MeshTensorType>(getTensor().getType());
  auto target = cast<MeshTensorType>(getType());
  if (source.getRankedTensorType() != target.getRankedTensorType())
    return emitOpError() << "must keep the global type, but transfers "
                         << source.getRankedTensorType() << " to "
                         << target.getRankedTensorType();
  for (MeshTensorType type : {source, target})
    if (failed(verifyMemoryKind(*this, type)))
      return failure();
  // Host offloading is expressed in the mesh tensor types by the time
  // values move: a memory kind only known from attributes is rejected, as
  // upstream does.
  if (isInHostMemoryByAttributes(getTensor()))
    return emitOpError()
           << "transfers a value whose attributes put it in host memory ("
           << MpmdDialect::kMemoryKindAttrName << " = \""
           << MeshTensorType::kMemoryKindPinnedHost
           << "\"); a transfer from host needs the memory kind in the "
              "operand's type";
  if (isPinnedHostKind((*this)->getAttr(MpmdDialect::kMemoryKindAttrName)))
    return emitOpError()
           << "has attribute " << MpmdDialect::kMemoryKindAttrName << " = \""
           << MeshTensorType::kMemoryKindPinnedHost
           << "\"; a transfer to host needs the memory kind in the result "
              "type";
  if (failed(source.verifyForTopology(*this)) ||
      failed(target.verifyForTopology(*this)))
    return failure();
  return success();
}

OpFoldResult TransferOp::fold(FoldAdaptor) {
  if (getTensor().getType() == getType())
    return getTensor();
  return {};
}

namespace {

/// transfer(transfer(x)) within one mesh is a single transfer from x. The
/// inner transfer stays if something else uses it.
struct CollapseIntraMeshTransferChain : OpRewritePattern<TransferOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getTensor().getDefiningOp<TransferOp>();
    if (!producer || !op.isIntraMesh() || !producer.isIntraMesh())
      return failure();
    rewriter.replaceOpWithNewOp<TransferOp>(op, op.getType(),
                                            producer.getTensor());
    return success();
  }
};

} // namespace

void TransferOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<CollapseIntraMeshTransferChain>(context);
}

//===----------------------------------------------------------------------===//
// AssignOp and UnassignOp
//===----------------------------------------------------------------------===//

LogicalResult AssignOp::verify() {
  auto meshTensor = cast<MeshTensorType>(getType());
  if (meshTensor.getRankedTensorType() != getTensor().getType())
    return emitOpError() << "assigns " << getTensor().getType()
                         << " to a mesh tensor of global type "
                         << meshTensor.getRankedTensorType();
  if (!meshTensor.isFullyReplicated())
    return emitOpError() << "must produce a fully replicated mesh tensor, got "
                         << meshTensor;
  // Mesh inference turns assigns into transfers, which check the same.
  if (failed(verifyMemoryKind(*this, meshTensor)))
    return failure();
  return meshTensor.verifyForTopology(*this);
}

LogicalResult UnassignOp::verify() {
  auto meshTensor = cast<MeshTensorType>(getTensor().getType());
  TopologyAttr topology = getTopology(*this);
  if (topology && !topology.getMesh(meshTensor.getMeshName()))
    return emitOpError() << "refers to mesh \"" << meshTensor.getMeshName()
                         << "\", which is not in the topology";
  return success();
}

LogicalResult UnassignOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto meshTensor = dyn_cast<MeshTensorType>(operands.front().getType());
  if (!meshTensor)
    return emitOptionalError(location, "expected a mesh tensor operand");
  inferredReturnTypes.push_back(meshTensor.getRankedTensorType());
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//


LogicalResult CallOp::verify() {
  if (Attribute counter = (*this)->getAttr(MpmdDialect::kCallCounterAttrName)) {
    auto integer = dyn_cast<IntegerAttr>(counter);
    if (!integer || !integer.getType().isUnsignedInteger(32))
      return emitOpError("call_counter must be an uint32, got ") << counter;
  }
  Operation *parent = (*this)->getParentOp();
  if (!isa<func::FuncOp, ForOp>(parent))
    return emitOpError("can only be used in a function or for_op block");
  auto caller = dyn_cast<func::FuncOp>(parent);
  if (caller && isMpmdFunction(caller) && !isEntryPointFunction(caller))
    return emitOpError("can only be used directly by the entrypoint function");
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee " << getCalleeAttr()
                         << " is not a func.func in this module";
  FunctionType calleeType = callee.getFunctionType();
  if (calleeType.getNumInputs() != getNumOperands() ||
      calleeType.getNumResults() != getNumResults())
    return emitOpError() << "Type mismatch. Expected "
                         << calleeType.getNumInputs() << " operands and "
                         << calleeType.getNumResults()
                         << " results as the callee, got " << getNumOperands()
                         << " and " << getNumResults();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), calleeType.getInputs())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "Type mismatch. Expected call operand " << index
                           << " to have type " << std::get<1>(pair)
                           << ", but got " << std::get<0>(pair);
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getResultTypes(), calleeType.getResults())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "Type mismatch. Expected call result " << index
                           << " to have type " << std::get<1>(pair)
                           << ", but got " << std::get<0>(pair);
  if (!isMpmdFunction(callee))
    return success();
  if (!callee.isPrivate())
    return emitOpError() << "callee " << getCalleeAttr()
                         << " has a topology and must be private";
  // The callee's values live on the caller's meshes: a caller on other
  // meshes, or on none, would pass and receive mismatching tensors once mesh
  // inference rewrites the callee's types.
  TopologyAttr calleeTopology = getTopology(callee);
  TopologyAttr callerTopology = getTopology(*this);
  if (callerTopology == calleeTopology)
    return success();
  InFlightDiagnostic error = emitOpError()
                             << "callee " << getCalleeAttr() << " has topology "
                             << calleeTopology << ", but its caller has ";
  if (callerTopology)
    return error << "topology " << callerTopology;
  return error << "none";
}

CallInterfaceCallable CallOp::getCallableForCallee() { return getCalleeAttr(); }

void CallOp::setCalleeFromCallable(CallInterfaceCallable callee) {
  setCalleeAttr(cast<FlatSymbolRefAttr>(cast<SymbolRefAttr>(callee)));
}

Operation::operand_range CallOp::getArgOperands() { return getTensors(); }

MutableOperandRange CallOp::getArgOperandsMutable() {
  return getTensorsMutable();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

// `mpmd.for (%a) {iterations = 3 : ui32} (%x: T, %index: tensor<ui32>) {...} : T`
ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  SMLoc loc = parser.getCurrentLocation();
  if (parseOperandsAttrsAndBody(parser, result, operands) ||
      parser.parseColonTypeList(types) ||
      parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  result.addTypes(types);
  return success();
}

void ForOp::print(OpAsmPrinter &printer) {
  printOperandsAttrsAndBody(printer, *this, {});
  printer << " : ";
  llvm::interleaveComma(getResultTypes(), printer);
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  if (!region.empty() && region.front().getNumArguments() > 0)
    setNameFn(region.front().getArguments().back(), "index");
}

LogicalResult ForOp::verify() {
  if (getIterations() == 0)
    return emitOpError("must have at least one iteration");
  if (std::optional<uint32_t> unroll = getUnrollFactor()) {
    if (*unroll == 0)
      return emitOpError("unroll_factor must be positive");
    if (getIterations() % *unroll != 0)
      return emitOpError() << "iterations (" << getIterations()
                           << ") must be divisible by unroll_factor ("
                           << *unroll << ")";
  }
  if (getNumOperands() > 0) {
    TypeID kind = getOperand(0).getType().getTypeID();
    if (llvm::any_of(getOperandTypes(),
                     [&](Type t) { return t.getTypeID() != kind; }))
      return emitOpError("operands must all be tensors or all be mesh tensors");
  }
  Block &block = getRegion().front();
  if (block.getNumArguments() != getNumOperands() + 1)
    return emitOpError() << "expected " << getNumOperands() + 1
                         << " block arguments (operands and the index), got "
                         << block.getNumArguments();
  auto indexType = dyn_cast<RankedTensorType>(getIndexArgument().getType());
  if (!indexType || indexType.getRank() != 0 ||
      !indexType.getElementType().isUnsignedInteger(32))
    return emitOpError() << "the last block argument is the index and must "
                            "be tensor<ui32>, got "
                         << getIndexArgument().getType();
  if (getOperandTypes() != getResultTypes())
    return emitOpError("result types must equal operand types");
  if (ArrayAttr argAttrs = getArgAttrsAttr();
      argAttrs && argAttrs.size() != getNumOperands())
    return emitOpError() << "expected " << getNumOperands()
                         << " arg_attrs entries (one per loop-carried value), "
                            "got "
                         << argAttrs.size();
  return verifyBodySignature(*this, getRegion(), getOperandTypes(),
                             getResultTypes(), [](Type t) { return t; });
}

//===----------------------------------------------------------------------===//
// BroadcastOp and ReduceOp
//===----------------------------------------------------------------------===//

namespace {

struct FoldBroadcastOfBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getTensor().getDefiningOp<BroadcastOp>();
    if (!producer)
      return failure();
    rewriter.replaceOp(op, producer.getResult());
    return success();
  }
};

/// reduce<none>(reduce<K>(...)) is reduce<K>(...).
struct FoldNoneReduceOfReduce : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getReduction() != ReductionType::kNone)
      return failure();
    auto producer = op.getTensors().front().getDefiningOp<ReduceOp>();
    if (!producer)
      return failure();
    rewriter.replaceOp(op, producer.getResult());
    return success();
  }
};

/// reduce<K>(a, reduce<K>(b, c)) is reduce<K>(a, b, c) when the inner
/// reduction has no other user.
struct FlattenNestedReduce : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getReduction() == ReductionType::kNone)
      return failure();
    SmallVector<Value> flattened;
    bool changed = false;
    for (Value operand : op.getTensors()) {
      auto producer = operand.getDefiningOp<ReduceOp>();
      if (producer && producer.getReduction() == op.getReduction() &&
          producer->hasOneUse()) {
        llvm::append_range(flattened, producer.getTensors());
        changed = true;
      } else {
        flattened.push_back(operand);
      }
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op,
                             [&] { op.getTensorsMutable().assign(flattened); });
    return success();
  }
};

} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<FoldBroadcastOfBroadcast>(context);
}

LogicalResult ReduceOp::verify() {
  if (getTensors().empty())
    return emitOpError("must have at least one operand");
  if (getReduction() == ReductionType::kNone && getTensors().size() != 1)
    return emitOpError() << "reduction type none requires exactly one "
                            "operand, got "
                         << getTensors().size();
  return success();
}

void ReduceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldNoneReduceOfReduce, FlattenNestedReduce>(context);
}

static ParseResult parseReductionKind(OpAsmParser &parser,
                                      ReductionTypeAttr &reduction) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&keyword) ||
      parser.parseGreater())
    return failure();
  std::optional<ReductionType> kind = symbolizeReductionType(keyword);
  if (!kind)
    return parser.emitError(loc) << "unknown reduction type '" << keyword
                                 << "'; expected none, add, max, min, mul, or "
                                    "or and";
  reduction = ReductionTypeAttr::get(parser.getContext(), *kind);
  return success();
}

static void printReductionKind(OpAsmPrinter &printer, Operation *,
                               ReductionTypeAttr reduction) {
  printer << "<" << stringifyReductionType(reduction.getValue()) << ">";
}

#define GET_OP_CLASSES
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.cpp.inc"
