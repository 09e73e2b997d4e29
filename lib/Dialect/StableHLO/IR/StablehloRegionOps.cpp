//===- StablehloRegionOps.cpp - region, control and comm ops --------------===//

#include "StablehloAsm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stablehlo;

#define GET_OP_CLASSES
#include "mpmd/Dialect/StableHLO/IR/StablehloRegionOps.cpp.inc"

void mlir::stablehlo::registerRegionOps(StablehloDialect &dialect) {
  insertOps<
#define GET_OP_LIST
#include "mpmd/Dialect/StableHLO/IR/StablehloRegionOps.cpp.inc"
      >(dialect);
}

//===----------------------------------------------------------------------===//
// Shared region checks
//===----------------------------------------------------------------------===//

namespace {

/// The `stablehlo.return` ending `region`, or an error naming the region.
FailureOr<ReturnOp> getReturn(Operation *op, Region &region, StringRef name) {
  if (region.empty() || region.front().empty())
    return op->emitOpError() << name << " region must not be empty";
  auto ret = dyn_cast<ReturnOp>(region.front().back());
  if (!ret)
    return op->emitOpError() << name
                             << " region must end with stablehlo.return";
  return ret;
}

} // namespace

LogicalResult mlir::stablehlo::verifyRegionReturns(Operation *op,
                                                  Region &region,
                                                  StringRef name,
                                                  TypeRange expected) {
  FailureOr<ReturnOp> ret = getReturn(op, region, name);
  if (failed(ret))
    return failure();
  TypeRange actual = ret->getResults().getTypes();
  if (actual.size() != expected.size())
    return op->emitOpError() << name << " region returns " << actual.size()
                             << " values but " << expected.size()
                             << " are expected";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(actual, expected))) {
    auto [a, e] = pair;
    if (a != e)
      return op->emitOpError() << name << " region return value #" << i
                               << " has type " << a << " but expected " << e;
  }
  return success();
}

LogicalResult mlir::stablehlo::verifyRegionArgs(Operation *op, Region &region,
                                               StringRef name,
                                               TypeRange expected) {
  TypeRange actual = region.front().getArgumentTypes();
  if (actual.size() != expected.size())
    return op->emitOpError() << name << " region has " << actual.size()
                             << " arguments but " << expected.size()
                             << " are expected";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(actual, expected))) {
    auto [a, e] = pair;
    if (a != e)
      return op->emitOpError() << name << " region argument #" << i
                               << " has type " << a << " but expected " << e;
  }
  return success();
}

namespace {

/// Reducer bodies: for N accumulators of types `accTypes` (rank-0 tensors),
/// takes (acc..., elem...) and returns N values of the same types.
LogicalResult verifyReducerBody(Operation *op, Region &region, StringRef name,
                                TypeRange accTypes) {
  for (auto [i, type] : llvm::enumerate(accTypes)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getRank() != 0)
      return op->emitOpError() << "init value #" << i
                               << " must be a rank-0 tensor, got " << type;
  }
  SmallVector<Type> args(accTypes);
  llvm::append_range(args, accTypes);
  if (failed(verifyRegionArgs(op, region, name, args)))
    return failure();
  return verifyRegionReturns(op, region, name, accTypes);
}

/// Scalar (rank-0) tensor of the element type of `type`.
Type scalarOf(Type type) {
  return RankedTensorType::get({}, getElementTypeOrSelf(type));
}

/// Binary reducer over the element types of `values` (all-reduce etc.).
LogicalResult verifyScalarReducer(Operation *op, Region &region,
                                  TypeRange valueTypes) {
  SmallVector<Type> accTypes;
  for (Type type : valueTypes)
    accTypes.push_back(scalarOf(type));
  return verifyReducerBody(op, region, "computation", accTypes);
}

} // namespace

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

namespace {

void printIntList(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

/// The single binary op of a reduce body that can print as
/// `applies stablehlo.add`, or null.
Operation *getCompactReducer(ReduceOp op) {
  if (op.getInputs().size() != 1 || op.getBody().empty())
    return nullptr;
  Block &block = op.getBody().front();
  if (block.getNumArguments() != 2 || !llvm::hasSingleElement(
                                          block.without_terminator()))
    return nullptr;
  Operation &inner = block.front();
  auto ret = dyn_cast<ReturnOp>(block.back());
  Type initType = op.getInitValues().front().getType();
  if (!ret || inner.getDialect() != op->getDialect() ||
      inner.getNumOperands() != 2 || inner.getNumResults() != 1 ||
      inner.getNumRegions() != 0 || !inner.getAttrs().empty() ||
      inner.getPropertiesStorageSize() != 0 ||
      inner.getOperand(0) != block.getArgument(0) ||
      inner.getOperand(1) != block.getArgument(1) ||
      inner.getResult(0).getType() != initType ||
      block.getArgument(0).getType() != initType ||
      block.getArgument(1).getType() != initType ||
      ret->getNumOperands() != 1 || ret->getOperand(0) != inner.getResult(0) ||
      !ret->getAttrs().empty())
    return nullptr;
  auto tensor = dyn_cast<RankedTensorType>(initType);
  if (!tensor || tensor.getRank() != 0)
    return nullptr;
  return &inner;
}

} // namespace

void ReduceOp::print(OpAsmPrinter &p) {
  llvm::interleave(
      llvm::zip(getInputs(), getInitValues()), p,
      [&](auto pair) {
        p << '(' << std::get<0>(pair) << " init: " << std::get<1>(pair) << ')';
      },
      ", ");
  Operation *compact = getCompactReducer(*this);
  if (compact)
    p << " applies " << compact->getName().getStringRef();
  p << " across dimensions = ";
  printIntList(p, getDimensions());
  p.printOptionalAttrDict((*this)->getAttrs(), {"dimensions"});
  p << " : ";
  p.printFunctionalType(getOperandTypes(), getResultTypes());
  if (compact)
    return;
  p.printNewline();
  p << " reducer";
  if (getBody().empty())
    return;
  Block &block = getBody().front();
  unsigned n = getInputs().size();
  for (unsigned i = 0; i < n && i + n < block.getNumArguments(); ++i) {
    p << '(';
    p.printRegionArgument(block.getArgument(i));
    p << ", ";
    p.printRegionArgument(block.getArgument(i + n));
    p << ") ";
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  do {
    OpAsmParser::UnresolvedOperand input, init;
    if (parser.parseLParen() || parser.parseOperand(input) ||
        parser.parseKeyword("init") || parser.parseColon() ||
        parser.parseOperand(init) || parser.parseRParen())
      return failure();
    inputs.push_back(input);
    inits.push_back(init);
  } while (succeeded(parser.parseOptionalComma()));

  std::string reducerName;
  SMLoc reducerLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    reducerLoc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&reducerName))
      return failure();
  }
  SmallVector<int64_t> dims;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       int64_t d;
                                       if (parser.parseInteger(d))
                                         return failure();
                                       dims.push_back(d);
                                       return success();
                                     }) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  FunctionType fn;
  if (parser.parseType(fn))
    return failure();
  size_t n = inputs.size();
  if (fn.getNumInputs() != 2 * n)
    return parser.emitError(typeLoc)
           << "expected " << 2 * n << " operand types, got "
           << fn.getNumInputs();
  if (parser.resolveOperands(inputs, fn.getInputs().take_front(n), loc,
                             result.operands) ||
      parser.resolveOperands(inits, fn.getInputs().drop_front(n), loc,
                             result.operands))
    return failure();
  result.addTypes(fn.getResults());
  result.getOrAddProperties<Properties>().dimensions =
      DenseI64ArrayAttr::get(parser.getContext(), dims);
  Region *body = result.addRegion();

  if (!reducerName.empty()) {
    if (n != 1)
      return parser.emitError(reducerLoc)
             << "'applies' needs exactly one input, got " << n;
    OperationName name(reducerName, parser.getContext());
    if (!name.isRegistered())
      return parser.emitError(reducerLoc)
             << "unknown reducer operation '" << reducerName << "'";
    auto initType = dyn_cast<RankedTensorType>(fn.getInput(1));
    if (!initType)
      return parser.emitError(typeLoc) << "init value must be a ranked tensor";
    // The state's own location is not usable yet while parsing.
    Location bodyLoc = parser.getEncodedSourceLoc(reducerLoc);
    Type argType = RankedTensorType::get({}, initType.getElementType());
    Block *block = new Block();
    body->push_back(block);
    Value lhs = block->addArgument(argType, bodyLoc);
    Value rhs = block->addArgument(argType, bodyLoc);
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToEnd(block);
    OperationState innerState(bodyLoc, name);
    innerState.addOperands({lhs, rhs});
    innerState.addTypes(argType);
    Operation *inner = builder.create(innerState);
    ReturnOp::create(builder, bodyLoc, inner->getResults());
    return success();
  }

  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> accs, elems;
  for (size_t i = 0; i < n; ++i) {
    OpAsmParser::Argument acc, elem;
    if (parser.parseLParen() ||
        parser.parseArgument(acc, /*allowType=*/true) || parser.parseComma() ||
        parser.parseArgument(elem, /*allowType=*/true) || parser.parseRParen())
      return failure();
    accs.push_back(acc);
    elems.push_back(elem);
  }
  llvm::append_range(accs, elems);
  return parser.parseRegion(*body, accs);
}

/// Result i has `shape` and the element type of init value i.
static void pushReductionResults(ValueRange initValues, ArrayRef<int64_t> shape,
                                 SmallVectorImpl<Type> &inferred) {
  for (Value init : initValues)
    inferred.push_back(
        RankedTensorType::get(shape, getElementTypeOrSelf(init.getType())));
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  SmallVector<int64_t> shape;
  if (failed(inferReduceShape(emitError, adaptor.getInputs().getTypes(),
                              adaptor.getDimensions(), shape)))
    return failure();
  pushReductionResults(adaptor.getInitValues(), shape, inferred);
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  SmallVector<Type> accTypes;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getInputs(), getInitValues()))) {
    auto [input, init] = pair;
    Type inputElement = getElementTypeOrSelf(input.getType());
    Type initElement = getElementTypeOrSelf(init.getType());
    if (inputElement != initElement)
      return emitOpError() << "input #" << i << " element type "
                           << inputElement << " does not match init value "
                           << "element type " << initElement;
    accTypes.push_back(init.getType());
  }
  return verifyReducerBody(*this, getBody(), "body", accTypes);
}

//===----------------------------------------------------------------------===//
// ReduceWindowOp, SelectAndScatterOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceWindowOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, getOperationName());
  SmallVector<int64_t> shape;
  if (failed(inferReduceWindowShape(
          emitError, adaptor.getInputs().getTypes(),
          adaptor.getWindowDimensions(), adaptor.getWindowStrides(),
          adaptor.getBaseDilations(), adaptor.getWindowDilations(),
          adaptor.getPadding(), shape)))
    return failure();
  pushReductionResults(adaptor.getInitValues(), shape, inferred);
  return success();
}

LogicalResult ReduceWindowOp::verifyRegions() {
  return verifyReducerBody(*this, getBody(), "body",
                           getInitValues().getTypes());
}

LogicalResult SelectAndScatterOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferred.push_back(adaptor.getOperand().getType());
  return success();
}

LogicalResult SelectAndScatterOp::verifyRegions() {
  auto operandType = getOperand().getType();
  int64_t rank = operandType.getRank();
  auto emitError = [&] { return emitOpError(); };
  if (failed(verifyWindowAttr(emitError, getWindowDimensions(), rank,
                              "window_dimensions", true)) ||
      failed(verifyWindowAttr(emitError, getWindowStrides(), rank,
                              "window_strides", true)) ||
      failed(verifyWindowPadding(emitError, getPadding(), rank)))
    return failure();
  // (C1), (C2): one source element per window of the padded operand, so a
  // window larger than the padded operand leaves no source element.
  if (failed(verifySameElementType(emitError, getSource().getType(),
                                   operandType, "source", "operand")))
    return failure();
  SmallVector<int64_t> unitWindow(rank, 1);
  SmallVector<int64_t> numWindows;
  if (failed(inferReduceWindowShape(
          emitError, TypeRange{operandType},
          getWindowDimensions().value_or(unitWindow), getWindowStrides(),
          /*baseDilations=*/std::nullopt, /*windowDilations=*/std::nullopt,
          getPadding(), numWindows)) ||
      failed(verifyShape(emitError, getSource().getType(), numWindows,
                         "source (one element per window)")))
    return failure();
  Type scalar = scalarOf(operandType);
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionArgs(*this, getSelect(), "select", {scalar, scalar})) ||
      failed(verifyRegionReturns(*this, getSelect(), "select", {pred})))
    return failure();
  Type initType = getInitValue().getType();
  if (failed(verifyReducerBody(*this, getScatter(), "scatter", {initType})))
    return failure();
  if (getType() != operandType)
    return emitOpError() << "result type " << getType()
                         << " does not match operand type " << operandType;
  return success();
}

//===----------------------------------------------------------------------===//
// ScatterOp, SortOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, adaptor.getInputs().getTypes());
  return success();
}

LogicalResult ScatterOp::verifyRegions() {
  size_t n = getInputs().size();
  if (n == 0)
    return emitOpError() << "expects at least one input";
  if (getNumResults() != n)
    return emitOpError() << "has " << getNumResults() << " results but " << n
                         << " inputs";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getInputs(), getResults()))) {
    auto [input, result] = pair;
    if (input.getType() != result.getType())
      return emitOpError() << "result #" << i << " type " << result.getType()
                           << " does not match input type " << input.getType();
  }
  auto inputType = cast<RankedTensorType>(getInputs().front().getType());
  auto indicesType = getScatterIndices().getType();
  auto updateType = cast<RankedTensorType>(getUpdates().front().getType());
  ScatterDimensionNumbersAttr dims = getScatterDimensionNumbers();
  int64_t indicesRank = indicesType.getRank();
  int64_t indexVectorDim = dims.getIndexVectorDim();
  if (indexVectorDim < 0 || indexVectorDim > indicesRank)
    return emitOpError() << "index_vector_dim " << indexVectorDim
                         << " is out of range [0, " << indicesRank << "]";
  int64_t indexVectorSize =
      indexVectorDim < indicesRank ? indicesType.getDimSize(indexVectorDim) : 1;
  ArrayRef<int64_t> toOperand = dims.getScatterDimsToOperandDims();
  if (!isCompatibleDim(indexVectorSize, static_cast<int64_t>(toOperand.size())))
    return emitOpError() << "scatter_dims_to_operand_dims size "
                         << toOperand.size()
                         << " does not match index vector size "
                         << indexVectorSize;
  if (failed(verifyDimsInRange(*this, toOperand, inputType.getRank(),
                               "scatter_dims_to_operand_dims")))
    return failure();
  SmallVector<int64_t> removed(dims.getInsertedWindowDims());
  llvm::append_range(removed, dims.getInputBatchingDims());
  if (failed(verifyDimsInRange(*this, removed, inputType.getRank(),
                               "inserted_window_dims/input_batching_dims")))
    return failure();
  if (dims.getInputBatchingDims().size() !=
      dims.getScatterIndicesBatchingDims().size())
    return emitOpError() << "input_batching_dims and "
                            "scatter_indices_batching_dims have different "
                            "sizes";
  if (failed(verifyDimsInRange(*this, dims.getScatterIndicesBatchingDims(),
                               indicesRank, "scatter_indices_batching_dims")))
    return failure();
  int64_t scatterRank = indicesRank - (indexVectorDim < indicesRank ? 1 : 0);
  int64_t windowRank = dims.getUpdateWindowDims().size();
  if (inputType.getRank() != windowRank + static_cast<int64_t>(removed.size()))
    return emitOpError() << "input rank " << inputType.getRank()
                         << " does not match update_window_dims + "
                            "inserted_window_dims + input_batching_dims ("
                         << windowRank + removed.size() << ")";
  for (auto [i, update] : llvm::enumerate(getUpdates())) {
    auto type = cast<RankedTensorType>(update.getType());
    if (type.getRank() != scatterRank + windowRank)
      return emitOpError() << "updates #" << i << " has rank "
                           << type.getRank() << " but expected "
                           << scatterRank + windowRank;
  }
  if (failed(verifyDimsInRange(*this, dims.getUpdateWindowDims(),
                               updateType.getRank(), "update_window_dims")))
    return failure();
  SmallVector<Type> accTypes;
  for (Value input : getInputs())
    accTypes.push_back(scalarOf(input.getType()));
  return verifyReducerBody(*this, getUpdateComputation(), "update_computation",
                           accTypes);
}

LogicalResult SortOp::verifyRegions() {
  if (getInputs().empty())
    return emitOpError() << "expects at least one input";
  int64_t rank = cast<RankedTensorType>(getInputs().front().getType()).getRank();
  int64_t dim = getDimension();
  if (dim < -rank || dim >= std::max<int64_t>(rank, 1))
    return emitOpError() << "dimension " << dim << " is out of range [" << -rank
                         << ", " << rank << ")";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getInputs(), getResults()))) {
    auto [input, result] = pair;
    if (input.getType() != result.getType())
      return emitOpError() << "result #" << i << " type " << result.getType()
                           << " does not match input type " << input.getType();
  }
  SmallVector<Type> args;
  for (Value input : getInputs()) {
    args.push_back(scalarOf(input.getType()));
    args.push_back(scalarOf(input.getType()));
  }
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionArgs(*this, getComparator(), "comparator", args)))
    return failure();
  return verifyRegionReturns(*this, getComparator(), "comparator", {pred});
}

//===----------------------------------------------------------------------===//
// WhileOp, IfOp, CaseOp
//===----------------------------------------------------------------------===//

void WhileOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, "iterArg");
}

void WhileOp::print(OpAsmPrinter &p) {
  p << '(';
  if (getCond().empty() || getBody().empty()) {
    p << ')'; // Unverified op: nothing sensible to print.
    return;
  }
  Block &cond = getCond().front();
  llvm::interleaveComma(llvm::enumerate(getOperand()), p, [&](auto it) {
    if (it.index() < cond.getNumArguments())
      p << cond.getArgument(it.index()) << " = ";
    p << it.value();
  });
  p << ')';
  if (!getOperand().empty()) {
    p << " : ";
    llvm::interleaveComma(getOperand().getTypes(), p);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p.printNewline();
  p << " cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument arg;
            OpAsmParser::UnresolvedOperand operand;
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(operand))
              return failure();
            args.push_back(arg);
            operands.push_back(operand);
            return success();
          }))
    return failure();
  SmallVector<Type> types;
  if (!operands.empty()) {
    if (parser.parseColon() || parser.parseTypeList(types))
      return failure();
  }
  if (types.size() != operands.size())
    return parser.emitError(loc) << "expected " << operands.size()
                                 << " types, got " << types.size();
  for (auto [arg, type] : llvm::zip(args, types))
    arg.type = type;
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  result.addTypes(types);
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, args) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, args))
    return failure();
  return success();
}

/// Result i must have the type of operand i.
static LogicalResult verifyPairwiseTypes(Operation *op) {
  if (op->getNumOperands() != op->getNumResults())
    return op->emitOpError() << "has " << op->getNumResults()
                             << " results but " << op->getNumOperands()
                             << " operands";
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip(op->getOperandTypes(), op->getResultTypes()))) {
    auto [operand, result] = pair;
    if (operand != result)
      return op->emitOpError() << "result #" << i << " type " << result
                               << " does not match operand type " << operand;
  }
  return success();
}

LogicalResult OptimizationBarrierOp::verify() {
  return verifyPairwiseTypes(*this);
}

LogicalResult WhileOp::verifyRegions() {
  if (failed(verifyPairwiseTypes(*this)))
    return failure();
  TypeRange types = getOperand().getTypes();
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(verifyRegionArgs(*this, getCond(), "cond", types)) ||
      failed(verifyRegionReturns(*this, getCond(), "cond", {pred})) ||
      failed(verifyRegionArgs(*this, getBody(), "body", types)) ||
      failed(verifyRegionReturns(*this, getBody(), "body", types)))
    return failure();
  return success();
}

/// The types `region` (called `name`) returns through its stablehlo.return.
static LogicalResult inferFromRegion(std::optional<Location> location,
                                     StringRef opName, Region &region,
                                     StringRef name,
                                     SmallVectorImpl<Type> &inferred) {
  OpErrorEmitter emitError(location, opName);
  if (region.empty() || region.front().empty())
    return emitError() << name << " region must not be empty";
  auto ret = dyn_cast<ReturnOp>(region.front().back());
  if (!ret)
    return emitError() << name << " region must end with stablehlo.return";
  llvm::append_range(inferred, ret.getResults().getTypes());
  return success();
}

LogicalResult IfOp::inferReturnTypes(MLIRContext *,
                                     std::optional<Location> location,
                                     Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  return inferFromRegion(location, getOperationName(),
                         adaptor.getTrueBranch(), "true_branch", inferred);
}

LogicalResult CaseOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> location,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  RegionRange branches = adaptor.getBranches();
  if (branches.empty())
    return OpErrorEmitter(location, getOperationName())()
           << "expects at least one branch";
  return inferFromRegion(location, getOperationName(), *branches.front(),
                         "branch #0", inferred);
}

LogicalResult IfOp::verifyRegions() {
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"true_branch", &getTrueBranch()},
        {"false_branch", &getFalseBranch()}}) {
    if (failed(verifyRegionArgs(*this, *region, name, {})) ||
        failed(verifyRegionReturns(*this, *region, name, getResultTypes())))
      return failure();
  }
  return success();
}

LogicalResult CaseOp::verifyRegions() {
  if (getBranches().empty())
    return emitOpError() << "expects at least one branch";
  for (auto [i, region] : llvm::enumerate(getBranches())) {
    std::string name = "branch #" + std::to_string(i);
    if (failed(verifyRegionArgs(*this, region, name, {})) ||
        failed(verifyRegionReturns(*this, region, name, getResultTypes())))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CustomCallOp, RecvOp, RngBitGeneratorOp
//===----------------------------------------------------------------------===//

void CustomCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!getHasSideEffect())
    return;
  effects.emplace_back(MemoryEffects::Allocate::get());
  effects.emplace_back(MemoryEffects::Free::get());
  effects.emplace_back(MemoryEffects::Write::get());
  effects.emplace_back(MemoryEffects::Read::get());
}

LogicalResult CustomCallOp::verify() {
  if (auto layouts = getOperandLayouts();
      layouts && layouts->size() != getInputs().size())
    return emitOpError() << "has " << layouts->size()
                         << " operand layouts but " << getInputs().size()
                         << " operands";
  if (auto layouts = getResultLayouts();
      layouts && layouts->size() != getNumResults())
    return emitOpError() << "has " << layouts->size() << " result layouts but "
                         << getNumResults() << " results";
  for (auto alias : getOutputOperandAliases()) {
    auto attr = cast<OutputOperandAliasAttr>(alias);
    int64_t index = attr.getOperandIndex();
    if (index < 0 || index >= static_cast<int64_t>(getInputs().size()))
      return emitOpError() << "output_operand_aliases operand_index " << index
                           << " is out of range [0, " << getInputs().size()
                           << ")";
  }
  return success();
}

/// Spec (C1)-(C3) of collective_permute and recv: `pairs` is [N, 2]
/// and each process sends at most once and receives at most once.
static LogicalResult verifySourceTargetPairs(Operation *op,
                                             DenseIntElementsAttr pairs) {
  auto type = cast<ShapedType>(pairs.getType());
  if (type.getRank() != 2 || type.getDimSize(1) != 2)
    return op->emitOpError() << "source_target_pairs must have shape [N, 2], got "
                             << shapeToString(type.getShape());
  SmallVector<int64_t> sources, targets;
  for (auto [index, id] : llvm::enumerate(pairs.getValues<int64_t>())) {
    if (id < 0)
      return op->emitOpError() << "source_target_pairs has negative id " << id;
    (index % 2 ? targets : sources).push_back(id);
  }
  for (auto [name, ids] : {std::pair<StringRef, SmallVector<int64_t> &>{
                               "source", sources},
                           {"target", targets}}) {
    llvm::sort(ids);
    if (const int64_t *repeated = llvm::adjacent_find(ids);
        repeated != ids.end())
      return op->emitOpError() << "source_target_pairs repeats " << name << " "
                               << *repeated;
  }
  return success();
}

LogicalResult SendOp::verify() {
  if (auto pairs = getSourceTargetPairs())
    return verifySourceTargetPairs(*this, *pairs);
  return success();
}

LogicalResult RecvOp::verify() {
  if (auto pairs = getSourceTargetPairs();
      pairs && failed(verifySourceTargetPairs(*this, *pairs)))
    return failure();
  if (getNumResults() == 0 || !isa<TokenType>(getResults().back().getType()))
    return emitOpError() << "last result must be a !stablehlo.token";
  for (Type type : TypeRange(getResultTypes()).drop_back())
    if (isa<TokenType>(type))
      return emitOpError() << "only the last result may be a token";
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  // (I2) a 1-d ui64 state.
  auto stateType = cast<RankedTensorType>(getInitialState().getType());
  Type element = stateType.getElementType();
  if (stateType.getRank() != 1 || !element.isUnsignedInteger(64))
    return emitOpError() << "initial_state must be a 1-dimensional tensor of "
                            "ui64, got "
                         << stateType;
  // (C1)
  if (getInitialState().getType() != getOutputState().getType())
    return emitOpError() << "output_state type " << getOutputState().getType()
                         << " does not match initial_state type "
                         << getInitialState().getType();
  // (C2); DEFAULT is our Philox (docs/runtime.md), which takes 2 or 3.
  int64_t size = stateType.getDimSize(0);
  if (ShapedType::isDynamic(size))
    return success();
  bool isThreeFry = getRngAlgorithm() == RngAlgorithm::THREE_FRY;
  if (isThreeFry ? size != 2 : size != 2 && size != 3)
    return emitOpError() << "initial_state of "
                         << stringifyRngAlgorithm(getRngAlgorithm())
                         << " must have " << (isThreeFry ? "2" : "2 or 3")
                         << " elements, got " << size << " (C2)";
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

namespace {

/// What the verifier knows statically of a collective's replica groups.
struct ReplicaGroupsShape {
  /// Processes per group as written (the matrix's width), unless -1
  /// padding makes groups uneven or there are no groups.
  std::optional<int64_t> groupSize;
};

/// Ids are unique and non-negative; with `mustCover` they are exactly
/// 0..n-1 (the grid's size is not known here, but groups that skip an id
/// cannot cover it). -1 pads uneven groups.
FailureOr<ReplicaGroupsShape> verifyReplicaGroups(Operation *op,
                                                  DenseIntElementsAttr groups,
                                                  bool mustCover) {
  auto type = cast<ShapedType>(groups.getType());
  if (type.getRank() != 2)
    return op->emitOpError() << "replica_groups must be a rank-2 tensor, got "
                                "rank "
                             << type.getRank();
  // Ids are user integers (INT64_MAX included): sorted, not hashed, so that
  // no id is a reserved key.
  SmallVector<int64_t> ids;
  bool padded = false;
  for (int64_t id : groups.getValues<int64_t>()) {
    if (id == -1) {
      padded = true; // Padding of uneven groups.
      continue;
    }
    if (id < 0)
      return op->emitOpError() << "replica_groups has negative id " << id;
    ids.push_back(id);
  }
  llvm::sort(ids);
  if (const int64_t *repeated = llvm::adjacent_find(ids); repeated != ids.end())
    return op->emitOpError() << "replica_groups repeats id " << *repeated;
  if (mustCover)
    for (auto [expected, id] : llvm::enumerate(ids))
      if (id != static_cast<int64_t>(expected))
        return op->emitOpError()
               << "replica_groups must cover every id of [0, " << ids.size()
               << ") but lacks " << expected;
  ReplicaGroupsShape shape;
  if (!padded && !ids.empty())
    shape.groupSize = type.getDimSize(1);
  return shape;
}

/// The channel id of a collective: 0 without a channel handle.
int64_t getChannelId(std::optional<ChannelHandleAttr> handle) {
  return handle ? handle->getHandle() : 0;
}

/// all_gather, all_reduce and reduce_scatter: global device ids are
/// flattened ids of a channel (spec C5/C4/C6). Returns the number of
/// processes per group when it is known statically: the groups' width,
/// unless each group also spans every partition
/// (cross_replica_and_partition, channel > 0 without global ids).
FailureOr<std::optional<int64_t>>
verifyReplicaGroupsAndChannel(Operation *op, DenseIntElementsAttr groups,
                              std::optional<ChannelHandleAttr> channel,
                              bool useGlobalDeviceIds) {
  FailureOr<ReplicaGroupsShape> shape =
      verifyReplicaGroups(op, groups, /*mustCover=*/true);
  if (failed(shape))
    return failure();
  int64_t channelId = getChannelId(channel);
  if (useGlobalDeviceIds && channelId <= 0)
    return op->emitOpError() << "use_global_device_ids needs a positive "
                                "channel id, got "
                             << channelId;
  if (channelId > 0 && !useGlobalDeviceIds)
    return std::optional<int64_t>();
  return shape->groupSize;
}

/// Types equal except in dimension `dim`, where `result` = `operand` * num
/// / den (when both are static).
LogicalResult verifyScaledDim(Operation *op, StringRef what,
                              RankedTensorType operand,
                              RankedTensorType result, int64_t dim,
                              int64_t num, int64_t den) {
  if (operand.getRank() != result.getRank() ||
      operand.getElementType() != result.getElementType())
    return op->emitOpError() << what << " type " << result
                             << " is incompatible with operand type "
                             << operand;
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    int64_t in = operand.getDimSize(d), out = result.getDimSize(d);
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out))
      continue;
    int64_t expected = d == dim ? in / den * num : in;
    if (out != expected)
      return op->emitOpError()
             << what << " dimension " << d << " has size " << out
             << " but must be " << expected << " for operand type " << operand;
  }
  return success();
}

} // namespace

LogicalResult AllGatherOp::verify() {
  FailureOr<std::optional<int64_t>> groupSize = verifyReplicaGroupsAndChannel(
      *this, getReplicaGroups(), getChannelHandle(), getUseGlobalDeviceIds());
  if (failed(groupSize))
    return failure();
  if (getOperands().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getOperands().size() << " operands";
  int64_t dim = getAllGatherDim();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getOperands(), getResults()))) {
    auto [operand, result] = pair;
    auto inType = cast<RankedTensorType>(operand.getType());
    auto outType = cast<RankedTensorType>(result.getType());
    if (dim < 0 || dim >= inType.getRank())
      return emitOpError() << "all_gather_dim " << dim
                           << " is out of range [0, " << inType.getRank()
                           << ")";
    if (*groupSize) {
      if (failed(verifyScaledDim(*this, "result #" + std::to_string(i), inType,
                                 outType, dim, **groupSize, 1)))
        return failure();
      continue;
    }
    if (inType.getRank() != outType.getRank() ||
        inType.getElementType() != outType.getElementType())
      return emitOpError() << "result #" << i << " type " << outType
                           << " is incompatible with operand type " << inType;
    int64_t in = inType.getDimSize(dim), out = outType.getDimSize(dim);
    if (!ShapedType::isDynamic(in) && !ShapedType::isDynamic(out) &&
        (in == 0 ? out != 0 : out % in != 0))
      return emitOpError() << "result dimension " << dim << " of size " << out
                           << " is not a multiple of operand size " << in;
  }
  return success();
}

LogicalResult AllReduceOp::verifyRegions() {
  if (failed(verifyReplicaGroupsAndChannel(*this, getReplicaGroups(),
                                           getChannelHandle(),
                                           getUseGlobalDeviceIds())))
    return failure();
  if (getOperands().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getOperands().size() << " operands";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getOperands(), getResults()))) {
    auto [operand, result] = pair;
    if (operand.getType() != result.getType())
      return emitOpError() << "result #" << i << " type " << result.getType()
                           << " does not match operand type "
                           << operand.getType();
  }
  // One (tensor<E>, tensor<E>) -> tensor<E> body reduces every operand
  // on its own (spec C5).
  for (Type type : getOperands().getTypes())
    if (failed(verifyScalarReducer(*this, getComputation(), {type})))
      return failure();
  return success();
}

LogicalResult ReduceScatterOp::verifyRegions() {
  FailureOr<std::optional<int64_t>> groupSize = verifyReplicaGroupsAndChannel(
      *this, getReplicaGroups(), getChannelHandle(), getUseGlobalDeviceIds());
  if (failed(groupSize))
    return failure();
  auto inType = getOperand().getType();
  auto outType = cast<RankedTensorType>(getType());
  int64_t dim = getScatterDimension();
  if (dim < 0 || dim >= inType.getRank())
    return emitOpError() << "scatter_dimension " << dim
                         << " is out of range [0, " << inType.getRank() << ")";
  if (*groupSize) {
    int64_t size = inType.getDimSize(dim);
    if (!ShapedType::isDynamic(size) && size % **groupSize != 0)
      return emitOpError() << "scatter dimension size " << size
                           << " is not divisible by the " << **groupSize
                           << " processes of a group";
    if (failed(verifyScaledDim(*this, "result", inType, outType, dim, 1,
                               **groupSize)))
      return failure();
  } else if (inType.getRank() != outType.getRank() ||
             inType.getElementType() != outType.getElementType()) {
    return emitOpError() << "result type " << outType
                         << " is incompatible with operand type " << inType;
  }
  return verifyScalarReducer(*this, getComputation(), {inType});
}

LogicalResult AllToAllOp::verify() {
  FailureOr<ReplicaGroupsShape> groups =
      verifyReplicaGroups(*this, getReplicaGroups(), /*mustCover=*/true);
  if (failed(groups))
    return failure();
  int64_t count = getSplitCount();
  if (count <= 0)
    return emitOpError() << "split_count must be positive, got " << count;
  if (groups->groupSize && *groups->groupSize != count)
    return emitOpError() << "split_count " << count
                         << " must equal the size of each replica group, "
                         << *groups->groupSize;
  if (getOperands().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getOperands().size() << " operands";
  int64_t splitDim = getSplitDimension(), concatDim = getConcatDimension();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getOperands(), getResults()))) {
    auto type = cast<RankedTensorType>(std::get<0>(pair).getType());
    auto resultType = cast<RankedTensorType>(std::get<1>(pair).getType());
    for (auto [name, dim] : {std::pair<StringRef, int64_t>{
                                 "split_dimension", splitDim},
                             {"concat_dimension", concatDim}})
      if (dim < 0 || dim >= type.getRank())
        return emitOpError() << name << " " << dim << " is out of range [0, "
                             << type.getRank() << ")";
    int64_t size = type.getDimSize(splitDim);
    if (!ShapedType::isDynamic(size) && size % count != 0)
      return emitOpError() << "split dimension size " << size
                           << " is not divisible by split_count " << count;
    // The split dimension shrinks by split_count, the concat dimension
    // grows by it (both at once when they are the same dimension).
    if (type.getRank() != resultType.getRank() ||
        type.getElementType() != resultType.getElementType())
      return emitOpError() << "result #" << i << " type " << resultType
                           << " is incompatible with operand type " << type;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t in = type.getDimSize(d), out = resultType.getDimSize(d);
      if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out))
        continue;
      int64_t expected = in;
      if (d == splitDim)
        expected /= count;
      if (d == concatDim)
        expected *= count;
      if (out != expected)
        return emitOpError() << "result #" << i << " dimension " << d
                             << " has size " << out << " but must be "
                             << expected;
    }
  }
  return success();
}

LogicalResult CollectivePermuteOp::verify() {
  if (failed(verifySourceTargetPairs(*this, getSourceTargetPairs())))
    return failure();
  if (getOperand().getType() != getType())
    return emitOpError() << "result type " << getType()
                         << " does not match operand type "
                         << getOperand().getType();
  return success();
}

LogicalResult CollectiveBroadcastOp::verify() {
  // Processes in no group receive zeros: the groups need not cover.
  if (failed(verifyReplicaGroups(*this, getReplicaGroups(),
                                 /*mustCover=*/false)))
    return failure();
  if (getOperand().getType() != getType())
    return emitOpError() << "result type " << getType()
                         << " does not match operand type "
                         << getOperand().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncStartOp, AsyncDoneOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncStartOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 0)
    return emitOpError() << "body takes no arguments (it reads the operands "
                            "of async_start)";
  // (C1) one op and the return.
  if (body.getOperations().size() != 2)
    return emitOpError() << "body must hold exactly one op and a "
                            "stablehlo.return, got "
                         << body.getOperations().size() << " ops";
  Operation &started = body.front();
  // (C2)
  if (!isa<AllReduceOp, AllGatherOp, AllToAllOp, CollectivePermuteOp,
           ReduceScatterOp, CollectiveBroadcastOp, SliceOp, DynamicSliceOp,
           DynamicUpdateSliceOp>(started))
    return emitOpError() << "body op must be a collective or a slice, got "
                         << started.getName();
  // (C3)
  if (started.getOperands() != getOperands())
    return emitOpError() << "the operands of " << started.getName()
                         << " must be the operands of async_start, in order";
  auto ret = dyn_cast<ReturnOp>(body.back());
  if (!ret || ret.getResults() != started.getResults())
    return emitOpError() << "body must return the results of "
                         << started.getName() << ", in order";
  // (C4)
  TypeRange expected = started.getResultTypes();
  if (getType().getTypes() != ArrayRef<Type>(llvm::to_vector(expected)))
    return emitOpError() << "result must be a future of the types "
                         << started.getName() << " returns";
  return success();
}

LogicalResult AsyncDoneOp::verify() {
  // (C1)
  if (getOperand().getType().getTypes() !=
      ArrayRef<Type>(llvm::to_vector(getResultTypes())))
    return emitOpError() << "results must be the types of the future "
                         << getOperand().getType();
  return success();
}
