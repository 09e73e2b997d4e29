//===- OpShardingRuleAttr.cpp - #sdy.op_sharding_rule syntax and checks ---===//
//
// Factors print as symbols (`i`..`z`, then `z_1`, `z_2`, ...), a dimension as
// the concatenation of its factors' symbols, so the parser splits one bare
// identifier such as `kz_1` back into factor indices.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

#include <string>

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Factors 0..17 are the letters `i`..`z`; later ones are `z_<n>`.
constexpr int64_t kNumLetterFactors = 'z' - 'i' + 1;

std::string getFactorSymbol(int64_t factor) {
  if (factor >= 0 && factor < kNumLetterFactors)
    return std::string(1, static_cast<char>('i' + factor));
  return "z_" + std::to_string(factor - kNumLetterFactors + 1);
}

/// Splits a dimension's symbols (`ij`, `kz_1`) into factor indices.
FailureOr<SmallVector<int64_t>> parseFactorSymbols(StringRef symbols) {
  SmallVector<int64_t> factors;
  while (!symbols.empty()) {
    char letter = symbols.front();
    if (letter < 'i' || letter > 'z')
      return failure();
    symbols = symbols.drop_front();
    int64_t factor = letter - 'i';
    if (letter == 'z' && symbols.consume_front("_")) {
      StringRef digits = symbols.take_while(llvm::isDigit);
      uint64_t number = 0;
      // Bounding the number keeps the index far from overflowing.
      if (digits.getAsInteger(10, number) || number == 0 ||
          number > (uint64_t{1} << 40))
        return failure();
      factor += static_cast<int64_t>(number);
      symbols = symbols.drop_front(digits.size());
    }
    factors.push_back(factor);
  }
  return factors;
}

ParseResult parseDimMapping(AsmParser &parser, DimMappingAttr &result) {
  SmallVector<int64_t> factors;
  if (failed(parser.parseOptionalStar())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef symbols;
    if (parser.parseKeyword(&symbols))
      return failure();
    FailureOr<SmallVector<int64_t>> parsed = parseFactorSymbols(symbols);
    if (failed(parsed))
      return parser.emitError(loc) << "expected factor symbols ('i' to 'z', "
                                      "then 'z_1', 'z_2', ...), got '"
                                   << symbols << "'";
    factors = std::move(*parsed);
  }
  result = DimMappingAttr::get(parser.getContext(), factors);
  return success();
}

void printDimMapping(AsmPrinter &printer, DimMappingAttr mapping) {
  if (mapping.getFactorIndices().empty()) {
    printer << "*";
    return;
  }
  for (int64_t factor : mapping.getFactorIndices())
    printer << getFactorSymbol(factor);
}

ParseResult parseTensorMapping(AsmParser &parser, TensorMappingAttr &result) {
  SmallVector<DimMappingAttr> dims;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parseDimMapping(parser, dims.emplace_back());
      }))
    return failure();
  result = TensorMappingAttr::get(parser.getContext(), dims);
  return success();
}

void printTensorMapping(AsmPrinter &printer, TensorMappingAttr mapping) {
  printer << "[";
  llvm::interleaveComma(
      mapping.getDimMappings(), printer,
      [&](DimMappingAttr dim) { printDimMapping(printer, dim); });
  printer << "]";
}

ParseResult parseTensorMappings(AsmParser &parser,
                                SmallVectorImpl<TensorMappingAttr> &result) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&] {
    return parseTensorMapping(parser, result.emplace_back());
  });
}

void printTensorMappings(AsmPrinter &printer,
                         ArrayRef<TensorMappingAttr> mappings) {
  printer << "(";
  llvm::interleaveComma(mappings, printer, [&](TensorMappingAttr mapping) {
    printTensorMapping(printer, mapping);
  });
  printer << ")";
}

/// Parses one factor symbol, as the size and kind lists write them.
ParseResult parseSingleFactor(AsmParser &parser, int64_t &factor) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef symbol;
  if (parser.parseKeyword(&symbol))
    return failure();
  FailureOr<SmallVector<int64_t>> parsed = parseFactorSymbols(symbol);
  if (failed(parsed) || parsed->size() != 1)
    return parser.emitError(loc)
           << "expected one factor symbol, got '" << symbol << "'";
  factor = parsed->front();
  return success();
}

/// `i=8` in the size list, which names every factor in index order.
ParseResult parseFactorSize(AsmParser &parser,
                            SmallVectorImpl<int64_t> &sizes) {
  SMLoc loc = parser.getCurrentLocation();
  int64_t factor = 0;
  if (parseSingleFactor(parser, factor))
    return failure();
  int64_t expected = static_cast<int64_t>(sizes.size());
  if (factor != expected)
    return parser.emitError(loc)
           << "expected the size of factor '" << getFactorSymbol(expected)
           << "' next (sizes are listed in factor order), got '"
           << getFactorSymbol(factor) << "'";
  return failure(parser.parseEqual() ||
                 parser.parseInteger(sizes.emplace_back()));
}

void printFactorList(AsmPrinter &printer, StringRef keyword,
                     ArrayRef<int64_t> factors) {
  if (factors.empty())
    return;
  printer << " " << keyword << "={";
  llvm::interleaveComma(factors, printer, [&](int64_t factor) {
    printer << getFactorSymbol(factor);
  });
  printer << "}";
}

std::string describeFactorCount(int64_t numFactors) {
  return "the rule has " + std::to_string(numFactors) +
         (numFactors == 1 ? " factor" : " factors");
}

/// Calls `fn(what, mapping)` for every operand and result mapping, with
/// `what` naming it in diagnostics ("operand 1", "result 0").
void forEachMapping(
    ArrayRef<TensorMappingAttr> operandMappings,
    ArrayRef<TensorMappingAttr> resultMappings,
    function_ref<void(const std::string &, bool isResult, TensorMappingAttr)>
        fn) {
  for (auto [index, mapping] : llvm::enumerate(operandMappings))
    fn("operand " + std::to_string(index), /*isResult=*/false, mapping);
  for (auto [index, mapping] : llvm::enumerate(resultMappings))
    fn("result " + std::to_string(index), /*isResult=*/true, mapping);
}

} // namespace

//===----------------------------------------------------------------------===//
// DimMappingAttr, TensorMappingAttr
//===----------------------------------------------------------------------===//

namespace {

/// `<body>`: how the mappings print on their own.
template <typename AttrT>
Attribute parseInAngleBrackets(AsmParser &parser,
                               ParseResult (*parseBody)(AsmParser &, AttrT &)) {
  AttrT attr;
  if (parser.parseLess() || parseBody(parser, attr) || parser.parseGreater())
    return {};
  return attr;
}

template <typename AttrT>
void printInAngleBrackets(AsmPrinter &printer, AttrT attr,
                          void (*printBody)(AsmPrinter &, AttrT)) {
  printer << "<";
  printBody(printer, attr);
  printer << ">";
}

} // namespace

Attribute DimMappingAttr::parse(AsmParser &parser, Type) {
  return parseInAngleBrackets(parser, parseDimMapping);
}

void DimMappingAttr::print(AsmPrinter &printer) const {
  printInAngleBrackets(printer, *this, printDimMapping);
}

Attribute TensorMappingAttr::parse(AsmParser &parser, Type) {
  return parseInAngleBrackets(parser, parseTensorMapping);
}

void TensorMappingAttr::print(AsmPrinter &printer) const {
  printInAngleBrackets(printer, *this, printTensorMapping);
}

//===----------------------------------------------------------------------===//
// OpShardingRuleAttr
//===----------------------------------------------------------------------===//

namespace {

struct FactorKindList {
  StringLiteral keyword;
  SmallVector<int64_t> factors;
};

} // namespace

Attribute OpShardingRuleAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<TensorMappingAttr> operandMappings, resultMappings;
  SmallVector<int64_t> factorSizes;
  if (parser.parseLess() || parseTensorMappings(parser, operandMappings) ||
      parser.parseArrow() || parseTensorMappings(parser, resultMappings))
    return {};
  // No size list (or `{}`) means a rule without factors.
  if (succeeded(parser.parseOptionalLBrace()) &&
      failed(parser.parseOptionalRBrace()) &&
      (parser.parseCommaSeparatedList(
           [&] { return parseFactorSize(parser, factorSizes); }) ||
       parser.parseRBrace()))
    return {};
  FactorKindList kinds[] = {{"reduction", {}},
                            {"need_replication", {}},
                            {"permutation", {}},
                            {"blocked_propagation", {}}};
  SmallVector<StringRef> keywords =
      llvm::map_to_vector(kinds, [](const FactorKindList &kind) {
        return StringRef(kind.keyword);
      });
  StringRef keyword;
  SMLoc keywordLoc = parser.getCurrentLocation();
  while (succeeded(parser.parseOptionalKeyword(&keyword, keywords))) {
    FactorKindList *kind = llvm::find_if(
        kinds, [&](const FactorKindList &k) { return k.keyword == keyword; });
    if (!kind->factors.empty()) {
      parser.emitError(keywordLoc) << "'" << keyword << "' is given twice";
      return {};
    }
    if (parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&] {
          return parseSingleFactor(parser, kind->factors.emplace_back());
        }))
      return {};
    keywordLoc = parser.getCurrentLocation();
  }
  bool isCustomRule = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("custom"))
      return {};
    isCustomRule = true;
  }
  if (parser.parseGreater())
    return {};
  // ArrayRefs select the generated getChecked: this file does not see the
  // attribute storage the generic one needs.
  return OpShardingRuleAttr::getChecked(
      [&] { return parser.emitError(loc); }, parser.getContext(),
      ArrayRef(factorSizes), ArrayRef(operandMappings),
      ArrayRef(resultMappings), ArrayRef(kinds[0].factors),
      ArrayRef(kinds[1].factors), ArrayRef(kinds[2].factors),
      ArrayRef(kinds[3].factors), isCustomRule);
}

void OpShardingRuleAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printTensorMappings(printer, getOperandMappings());
  printer << "->";
  printTensorMappings(printer, getResultMappings());
  if (!getFactorSizes().empty()) {
    printer << " {";
    llvm::interleaveComma(
        llvm::enumerate(getFactorSizes()), printer, [&](auto indexed) {
          printer << getFactorSymbol(indexed.index()) << "=" << indexed.value();
        });
    printer << "}";
  }
  printFactorList(printer, "reduction", getReductionFactors());
  printFactorList(printer, "need_replication", getNeedReplicationFactors());
  printFactorList(printer, "permutation", getPermutationFactors());
  printFactorList(printer, "blocked_propagation",
                  getBlockedPropagationFactors());
  if (getIsCustomRule())
    printer << ", custom";
  printer << ">";
}

LogicalResult
OpShardingRuleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> factorSizes,
                           ArrayRef<TensorMappingAttr> operandMappings,
                           ArrayRef<TensorMappingAttr> resultMappings,
                           ArrayRef<int64_t> reductionFactors,
                           ArrayRef<int64_t> needReplicationFactors,
                           ArrayRef<int64_t> permutationFactors,
                           ArrayRef<int64_t> blockedPropagationFactors, bool) {
  int64_t numFactors = factorSizes.size();
  if (operandMappings.empty() && resultMappings.empty())
    return emitError() << "an op sharding rule needs at least one operand or "
                          "result mapping";
  for (auto [factor, size] : llvm::enumerate(factorSizes))
    if (size < 0)
      return emitError() << "factor '" << getFactorSymbol(factor)
                         << "' has negative size " << size;

  // Dimension mappings: known factors, each at most once per tensor, and no
  // size-1 factor inside a compound dimension.
  SmallVector<bool> isMapped(numFactors, false);
  SmallVector<bool> isMappedToResult(numFactors, false);
  LogicalResult result = success();
  forEachMapping(
      operandMappings, resultMappings,
      [&](const std::string &what, bool isResult, TensorMappingAttr mapping) {
        if (failed(result))
          return;
        llvm::SmallDenseMap<int64_t, int64_t> dimOfFactor;
        for (auto [dim, dimMapping] :
             llvm::enumerate(mapping.getDimMappings())) {
          ArrayRef<int64_t> factors = dimMapping.getFactorIndices();
          if (factors.empty()) {
            result = emitError()
                     << what << " dim " << dim << " is mapped to no factor";
            return;
          }
          for (int64_t factor : factors) {
            if (factor < 0 || factor >= numFactors) {
              result = emitError() << what << " dim " << dim
                                   << " refers to unknown factor '"
                                   << getFactorSymbol(factor) << "' ("
                                   << describeFactorCount(numFactors) << ")";
              return;
            }
            if (factors.size() > 1 && factorSizes[factor] == 1) {
              result = emitError()
                       << what << " dim " << dim
                       << " is made of several factors, but factor '"
                       << getFactorSymbol(factor) << "' has size 1";
              return;
            }
            auto [it, inserted] = dimOfFactor.try_emplace(factor, dim);
            if (!inserted && it->second == static_cast<int64_t>(dim)) {
              result = emitError()
                       << what << " dim " << dim << " lists factor '"
                       << getFactorSymbol(factor) << "' twice";
              return;
            }
            if (!inserted) {
              result = emitError()
                       << what << " maps factor '" << getFactorSymbol(factor)
                       << "' to dims " << it->second << " and " << dim;
              return;
            }
            isMapped[factor] = true;
            if (isResult)
              isMappedToResult[factor] = true;
          }
        }
      });
  if (failed(result))
    return failure();
  for (int64_t factor = 0; factor < numFactors; ++factor)
    if (!isMapped[factor])
      return emitError() << "factor '" << getFactorSymbol(factor)
                         << "' is not mapped to any operand or result";

  // Factor kinds: known factors, listed once, reduction, need-replication
  // and permutation disjoint.
  SmallVector<StringRef> kindOfFactor(numFactors);
  auto checkKind = [&](StringRef kind, ArrayRef<int64_t> factors,
                       bool isExclusive) -> LogicalResult {
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t factor : factors) {
      if (factor < 0 || factor >= numFactors)
        return emitError() << kind << " factor '" << getFactorSymbol(factor)
                           << "' is not a factor of the rule ("
                           << describeFactorCount(numFactors) << ")";
      if (!seen.insert(factor).second)
        return emitError() << "factor '" << getFactorSymbol(factor)
                           << "' is listed twice in " << kind;
      if (!isExclusive)
        continue;
      if (!kindOfFactor[factor].empty())
        return emitError() << "factor '" << getFactorSymbol(factor)
                           << "' is both " << kindOfFactor[factor] << " and "
                           << kind;
      kindOfFactor[factor] = kind;
    }
    return success();
  };
  if (failed(checkKind("reduction", reductionFactors, true)) ||
      failed(checkKind("need_replication", needReplicationFactors, true)) ||
      failed(checkKind("permutation", permutationFactors, true)) ||
      failed(
          checkKind("blocked_propagation", blockedPropagationFactors, false)))
    return failure();
  for (int64_t factor : reductionFactors)
    if (isMappedToResult[factor])
      return emitError() << "reduction factor '" << getFactorSymbol(factor)
                         << "' is mapped to a result";
  return success();
}

bool OpShardingRuleAttr::isReductionFactor(int64_t factor) const {
  return llvm::is_contained(getReductionFactors(), factor);
}

bool OpShardingRuleAttr::isNeedReplicationFactor(int64_t factor) const {
  return llvm::is_contained(getNeedReplicationFactors(), factor);
}

bool OpShardingRuleAttr::isPermutationFactor(int64_t factor) const {
  return llvm::is_contained(getPermutationFactors(), factor);
}

bool OpShardingRuleAttr::isPassThroughFactor(int64_t factor) const {
  return !isReductionFactor(factor) && !isNeedReplicationFactor(factor) &&
         !isPermutationFactor(factor);
}

bool OpShardingRuleAttr::isBlockedPropagationFactor(int64_t factor) const {
  return llvm::is_contained(getBlockedPropagationFactors(), factor);
}

LogicalResult OpShardingRuleAttr::verifyForOp(Operation *op) const {
  auto checkCount = [&](StringRef what, size_t mappings,
                        size_t values) -> LogicalResult {
    if (mappings == values)
      return success();
    return op->emitOpError()
           << "has a sharding rule with " << mappings << " " << what
           << " mappings, but " << values << " " << what << "s";
  };
  if (failed(checkCount("operand", getOperandMappings().size(),
                        op->getNumOperands())) ||
      failed(checkCount("result", getResultMappings().size(),
                        op->getNumResults())))
    return failure();

  auto checkTensor = [&](StringRef what, size_t index, Type type,
                         TensorMappingAttr mapping) -> LogicalResult {
    // Shaped types of other dialects (MPMD's mesh tensors) count by their
    // shape.
    auto tensorType = dyn_cast<ShapedType>(type);
    if (!tensorType || !tensorType.hasStaticShape())
      return op->emitOpError()
             << "has a sharding rule mapping " << what << " " << index
             << ", which is not a statically shaped ranked tensor";
    if (tensorType.getRank() != mapping.getRank())
      return op->emitOpError() << "has a sharding rule mapping " << what << " "
                               << index << " of rank " << tensorType.getRank()
                               << " to " << mapping.getRank() << " dimensions";
    for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
      ArrayRef<int64_t> factors = dimMapping.getFactorIndices();
      if (factors.size() < 2)
        continue;
      // A compound dimension is exactly its factors; a single factor may be
      // larger or smaller than its dimension (slice, pad, windows).
      std::optional<int64_t> product = mpmd::checkedProduct(llvm::map_range(
          factors, [&](int64_t factor) { return getFactorSizes()[factor]; }));
      if (product != tensorType.getDimSize(dim)) {
        InFlightDiagnostic diag = op->emitOpError()
                                  << "has a sharding rule whose factors of "
                                  << what << " " << index << " dim " << dim
                                  << " multiply to ";
        if (product)
          diag << *product;
        else
          diag << "more than 64 bits hold";
        return diag << ", but the dimension has size "
                    << tensorType.getDimSize(dim);
      }
    }
    return success();
  };
  for (auto [index, mapping] : llvm::enumerate(getOperandMappings()))
    if (failed(checkTensor("operand", index, op->getOperand(index).getType(),
                           mapping)))
      return failure();
  for (auto [index, mapping] : llvm::enumerate(getResultMappings()))
    if (failed(checkTensor("result", index, op->getResult(index).getType(),
                           mapping)))
      return failure();
  return success();
}
