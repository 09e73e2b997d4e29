//===- FragmentRules.cpp - Fragment identities and user rules -------------===//

#include "mpmd/Transforms/Optimize/FragmentRules.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/Builders.h"

#include <algorithm>

using namespace llvm;
using namespace mlir;
using namespace mlir::mpmd;

FragmentInfo mlir::mpmd::getFragmentInfo(FragmentOp fragment) {
  FragmentInfo info;
  for (auto origin : fragment.getOrigin().getAsRange<UserOriginAttr>())
    info.origins.push_back(
        {origin.getUserName().str(), origin.getTransposeCount()});
  llvm::sort(info.origins);
  info.stageId = fragment.getStageId();
  if (std::optional<uint32_t> counter = getCallCounter(fragment))
    info.callCounter = *counter;
  if (fragment->hasAttr(kSplitKeepTransferredAttrName))
    info.splitType = SplitFragmentType::kKeepTransferred;
  else if (fragment->hasAttr(kSplitDropTransferredAttrName))
    info.splitType = SplitFragmentType::kDropTransferred;
  info.meshName = fragment.getMeshName().str();
  return info;
}

void mlir::mpmd::setFragmentInfo(FragmentOp fragment, const FragmentInfo &info) {
  assert((info.meshName.empty() || info.meshName == fragment.getMeshName()) &&
         "a fragment's mesh cannot be relabelled");
  MLIRContext *ctx = fragment->getContext();
  Builder builder(ctx);
  SmallVector<Attribute> origins;
  for (const FragmentOrigin &origin : info.origins)
    origins.push_back(UserOriginAttr::get(ctx, origin.computationName,
                                          origin.transposeCount));
  fragment.setOriginAttr(builder.getArrayAttr(origins));
  if (info.stageId)
    fragment.setStageIdAttr(builder.getI64IntegerAttr(*info.stageId));
  else
    fragment.removeStageIdAttr();
  if (info.callCounter)
    setCallCounter(fragment, static_cast<uint32_t>(*info.callCounter));
  else
    fragment->removeAttr(MpmdDialect::kCallCounterAttrName);
  fragment->removeAttr(kSplitKeepTransferredAttrName);
  fragment->removeAttr(kSplitDropTransferredAttrName);
  if (info.splitType)
    fragment->setAttr(*info.splitType == SplitFragmentType::kKeepTransferred
                          ? kSplitKeepTransferredAttrName
                          : kSplitDropTransferredAttrName,
                      builder.getUnitAttr());
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {

constexpr StringLiteral kKeepTransferredName = "kKeepTransferred";
constexpr StringLiteral kDropTransferredName = "kDropTransferred";

void printQuoted(raw_ostream &os, StringRef text) {
  os << '"';
  for (char c : text) {
    if (c == '"' || c == '\\')
      os << '\\';
    os << c;
  }
  os << '"';
}

} // namespace

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os, const FragmentOrigin &o) {
  printQuoted(os, o.computationName);
  if (o.transposeCount != 0)
    os << "(" << o.transposeCount << ")";
  return os;
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os, const FragmentInfo &info) {
  os << "FragmentInfo(origins=[";
  interleave(info.origins, os, ",");
  os << "]";
  if (info.stageId)
    os << ",stage=" << *info.stageId;
  if (info.callCounter)
    os << ",call_counter=" << *info.callCounter;
  if (info.splitType)
    os << ",split_type="
       << (*info.splitType == SplitFragmentType::kKeepTransferred
               ? kKeepTransferredName
               : kDropTransferredName);
  if (!info.meshName.empty()) {
    os << ",mesh_name=";
    printQuoted(os, info.meshName);
  }
  return os << ")";
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os,
                                    const FragmentMergeRule &rule) {
  os << "FragmentMergeRule(sources=[";
  interleave(rule.sources, os, ",");
  return os << "],target=" << rule.target << ")";
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os,
                                    const FragmentScheduleRule &rule) {
  os << "FragmentScheduleRule(ordered_fragments=[";
  interleave(rule.orderedFragments, os, "->");
  return os << "])";
}

namespace {

template <typename T> Diagnostic &appendAsText(Diagnostic &diag, const T &value) {
  std::string text;
  raw_string_ostream(text) << value;
  return diag << text;
}

} // namespace

Diagnostic &mlir::mpmd::operator<<(Diagnostic &diag, const FragmentInfo &info) {
  return appendAsText(diag, info);
}
Diagnostic &mlir::mpmd::operator<<(Diagnostic &diag,
                                   const FragmentMergeRule &rule) {
  return appendAsText(diag, rule);
}
Diagnostic &mlir::mpmd::operator<<(Diagnostic &diag,
                                   const FragmentScheduleRule &rule) {
  return appendAsText(diag, rule);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

/// A recursive-descent parser over the whole option text; errors carry the
/// position where parsing stopped and the text from there.
class RuleParser {
public:
  explicit RuleParser(StringRef text) : text(text) {}

  Error error(const Twine &message) const {
    constexpr size_t kContext = 24;
    StringRef rest = text.drop_front(position);
    std::string near = rest.empty() ? std::string("end of text")
                                    : "'" + rest.take_front(kContext).str() +
                                          (rest.size() > kContext ? "...'" : "'");
    return createStringError(inconvertibleErrorCode(),
                             message + " at position " + Twine(position) +
                                 " (near " + near + ") in '" + text + "'");
  }

  void skipSpaces() {
    while (position < text.size() && isSpace(text[position]))
      ++position;
  }

  /// Consumes `token` (after spaces) if it is next.
  bool consumeIf(StringRef token) {
    skipSpaces();
    if (!text.drop_front(position).starts_with(token))
      return false;
    position += token.size();
    return true;
  }

  Error expect(StringRef token) {
    if (consumeIf(token))
      return Error::success();
    return error("expected '" + token + "'");
  }

  Error expectEnd() {
    skipSpaces();
    if (position != text.size())
      return error("unexpected text after the end");
    return Error::success();
  }

  /// An identifier made of letters, digits and '_'.
  StringRef parseKeyword() {
    skipSpaces();
    size_t start = position;
    while (position < text.size() &&
           (isAlnum(text[position]) || text[position] == '_'))
      ++position;
    return text.slice(start, position);
  }

  Expected<std::string> parseQuoted() {
    skipSpaces();
    if (position >= text.size() || text[position] != '"')
      return error("expected a double-quoted string");
    std::string result;
    for (++position; position < text.size(); ++position) {
      char c = text[position];
      if (c == '"') {
        ++position;
        return result;
      }
      if (c == '\\' && position + 1 < text.size())
        c = text[++position];
      result.push_back(c);
    }
    return error("unterminated string");
  }

  Expected<int64_t> parseInteger() {
    skipSpaces();
    size_t start = position;
    if (position < text.size() && text[position] == '-')
      ++position;
    while (position < text.size() && isDigit(text[position]))
      ++position;
    int64_t value = 0;
    if (text.slice(start, position).getAsInteger(10, value)) {
      position = start;
      return error("expected an integer");
    }
    return value;
  }

  Expected<int64_t> parseNonNegativeInteger(StringRef what) {
    size_t start = (skipSpaces(), position);
    Expected<int64_t> value = parseInteger();
    if (value && *value < 0) {
      position = start;
      return error(what + " must be non-negative");
    }
    return value;
  }

  /// `"name"` or `"name"(N)`.
  Expected<FragmentOrigin> parseOrigin() {
    Expected<std::string> name = parseQuoted();
    if (!name)
      return name.takeError();
    FragmentOrigin origin{std::move(*name), 0};
    if (consumeIf("(")) {
      Expected<int64_t> count = parseNonNegativeInteger("a transpose count");
      if (!count)
        return count.takeError();
      origin.transposeCount = *count;
      if (Error e = expect(")"))
        return std::move(e);
    }
    return origin;
  }

  Expected<FragmentInfo> parseFragmentInfo() {
    FragmentInfo info;
    if (Error e = expect("FragmentInfo"))
      return std::move(e);
    if (Error e = expect("("))
      return std::move(e);
    if (Error e = expect("origins"))
      return std::move(e);
    if (Error e = expect("="))
      return std::move(e);
    if (Error e = expect("["))
      return std::move(e);
    if (!consumeIf("]")) {
      do {
        Expected<FragmentOrigin> origin = parseOrigin();
        if (!origin)
          return origin.takeError();
        info.origins.push_back(std::move(*origin));
      } while (consumeIf(","));
      if (Error e = expect("]"))
        return std::move(e);
    }
    llvm::sort(info.origins);

    bool seenStage = false, seenCounter = false, seenSplit = false,
         seenMesh = false;
    while (consumeIf(",")) {
      size_t keyPosition = (skipSpaces(), position);
      StringRef key = parseKeyword();
      auto once = [&](bool &seen) -> Error {
        if (!seen) {
          seen = true;
          return expect("=");
        }
        position = keyPosition;
        return error("'" + key + "' is given twice");
      };
      if (key == "stage") {
        if (Error e = once(seenStage))
          return std::move(e);
        Expected<int64_t> stage = parseNonNegativeInteger("a stage");
        if (!stage)
          return stage.takeError();
        info.stageId = *stage;
      } else if (key == "call_counter") {
        if (Error e = once(seenCounter))
          return std::move(e);
        Expected<int64_t> counter = parseNonNegativeInteger("a call counter");
        if (!counter)
          return counter.takeError();
        info.callCounter = *counter;
      } else if (key == "split_type") {
        if (Error e = once(seenSplit))
          return std::move(e);
        size_t valuePosition = (skipSpaces(), position);
        StringRef value = parseKeyword();
        if (value == kKeepTransferredName) {
          info.splitType = SplitFragmentType::kKeepTransferred;
        } else if (value == kDropTransferredName) {
          info.splitType = SplitFragmentType::kDropTransferred;
        } else {
          position = valuePosition;
          return error("expected a split type, kKeepTransferred or "
                       "kDropTransferred");
        }
      } else if (key == "mesh_name") {
        if (Error e = once(seenMesh))
          return std::move(e);
        Expected<std::string> mesh = parseQuoted();
        if (!mesh)
          return mesh.takeError();
        info.meshName = std::move(*mesh);
      } else {
        position = keyPosition;
        return error("expected a field, one of stage, call_counter, "
                     "split_type or mesh_name");
      }
    }
    if (Error e = expect(")"))
      return std::move(e);
    return info;
  }

  /// `FragmentInfo(...)` separated by `separator` then `]`: at least two,
  /// with origins (rules name user fragments).
  Expected<std::vector<FragmentInfo>> parseInfoList(StringRef separator,
                                                    StringRef what) {
    size_t listPosition = (skipSpaces(), position);
    std::vector<FragmentInfo> infos;
    do {
      size_t infoPosition = (skipSpaces(), position);
      Expected<FragmentInfo> info = parseFragmentInfo();
      if (!info)
        return info.takeError();
      if (Error e = checkHasOrigins(*info, infoPosition))
        return std::move(e);
      infos.push_back(std::move(*info));
    } while (consumeIf(separator));
    if (Error e = expect("]"))
      return std::move(e);
    if (infos.size() < 2) {
      position = listPosition;
      return error(what + " needs at least two fragments");
    }
    return infos;
  }

  Error checkHasOrigins(const FragmentInfo &info, size_t infoPosition) {
    if (!info.origins.empty())
      return Error::success();
    position = infoPosition;
    return error("a rule cannot name a fragment without origins");
  }

  Expected<FragmentMergeRule> parseMergeRule() {
    FragmentMergeRule rule;
    for (StringRef token : {"FragmentMergeRule", "(", "sources", "=", "["})
      if (Error e = expect(token))
        return std::move(e);
    Expected<std::vector<FragmentInfo>> sources =
        parseInfoList(",", "a merge rule");
    if (!sources)
      return sources.takeError();
    rule.sources = std::move(*sources);
    for (StringRef token : {",", "target", "="})
      if (Error e = expect(token))
        return std::move(e);
    size_t targetPosition = (skipSpaces(), position);
    Expected<FragmentInfo> target = parseFragmentInfo();
    if (!target)
      return target.takeError();
    if (Error e = checkHasOrigins(*target, targetPosition))
      return std::move(e);
    rule.target = std::move(*target);
    if (Error e = expect(")"))
      return std::move(e);
    if (Error e = expectEnd())
      return std::move(e);
    return rule;
  }

  Expected<FragmentScheduleRule> parseScheduleRule() {
    FragmentScheduleRule rule;
    for (StringRef token :
         {"FragmentScheduleRule", "(", "ordered_fragments", "=", "["})
      if (Error e = expect(token))
        return std::move(e);
    Expected<std::vector<FragmentInfo>> fragments =
        parseInfoList("->", "a schedule rule");
    if (!fragments)
      return fragments.takeError();
    rule.orderedFragments = std::move(*fragments);
    if (Error e = expect(")"))
      return std::move(e);
    if (Error e = expectEnd())
      return std::move(e);
    return rule;
  }

private:
  StringRef text;
  size_t position = 0;
};

} // namespace

Expected<FragmentInfo> mlir::mpmd::parseFragmentInfo(StringRef text) {
  RuleParser parser(text);
  Expected<FragmentInfo> info = parser.parseFragmentInfo();
  if (!info)
    return info.takeError();
  if (Error e = parser.expectEnd())
    return std::move(e);
  return info;
}

Expected<FragmentMergeRule> mlir::mpmd::parseFragmentMergeRule(StringRef text) {
  return RuleParser(text).parseMergeRule();
}

Expected<FragmentScheduleRule>
mlir::mpmd::parseFragmentScheduleRule(StringRef text) {
  return RuleParser(text).parseScheduleRule();
}

namespace {

template <typename T>
bool parseAsOption(cl::Option &option, StringRef arg, T &value,
                   llvm::function_ref<Expected<T>(StringRef)> parse) {
  Expected<T> parsed = parse(arg);
  if (!parsed)
    return option.error(toString(parsed.takeError()));
  value = std::move(*parsed);
  return false;
}

} // namespace

template <>
bool cl::MpmdOptionParser<FragmentInfo>::parse(Option &option, StringRef,
                                               StringRef arg,
                                               FragmentInfo &value) {
  return parseAsOption<FragmentInfo>(option, arg, value, parseFragmentInfo);
}

template <>
bool cl::MpmdOptionParser<FragmentMergeRule>::parse(Option &option, StringRef,
                                                    StringRef arg,
                                                    FragmentMergeRule &value) {
  return parseAsOption<FragmentMergeRule>(option, arg, value,
                                          parseFragmentMergeRule);
}

template <>
bool cl::MpmdOptionParser<FragmentScheduleRule>::parse(
    Option &option, StringRef, StringRef arg, FragmentScheduleRule &value) {
  return parseAsOption<FragmentScheduleRule>(option, arg, value,
                                             parseFragmentScheduleRule);
}
