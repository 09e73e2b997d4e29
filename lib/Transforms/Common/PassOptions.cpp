//===- PassOptions.cpp - Option grammars of mpmd passes -------------------===//

#include "mpmd/Transforms/Common/PassOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

using namespace llvm;
using namespace mlir::mpmd;

namespace {

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// `mesh[#kind][/stage]`.
Expected<MeshAssignment> parseMeshAssignment(StringRef text, bool allowStage,
                                             StringRef entry) {
  MeshAssignment result;
  auto [meshAndKind, stageText] = text.split('/');
  if (text.contains('/')) {
    if (!allowStage)
      return makeError("'" + entry + "': a stage is not allowed here");
    int64_t stage = 0;
    if (stageText.trim().getAsInteger(10, stage))
      return makeError("'" + entry + "': the stage '" + stageText +
                       "' is not an integer");
    if (stage < 0)
      return makeError("'" + entry + "': the stage must be non-negative");
    result.stage = stage;
  }
  auto [mesh, kind] = meshAndKind.split('#');
  mesh = mesh.trim();
  if (mesh.empty())
    return makeError("'" + entry + "': the mesh name is empty");
  if (mesh.contains('@'))
    return makeError("'" + entry + "': the mesh name '" + mesh +
                     "' contains '@', which is reserved");
  result.meshName = mesh.str();
  if (meshAndKind.contains('#')) {
    kind = kind.trim();
    if (kind != "device" && kind != "pinned_host")
      return makeError("'" + entry + "': unknown memory kind '" + kind +
                       "'; valid kinds are 'device' and 'pinned_host'");
    result.memoryKind = kind.str();
  }
  return result;
}

/// Calls `parseEntry(key, assignment, entry)` for each `key@assignment` of a
/// comma-separated list (a trailing comma is fine).
Error forEachEntry(
    StringRef text,
    function_ref<Error(StringRef key, StringRef value, StringRef entry)>
        parseEntry) {
  SmallVector<StringRef> entries;
  text.split(entries, ',');
  for (auto [index, entry] : enumerate(entries)) {
    entry = entry.trim();
    if (entry.empty()) {
      if (index + 1 == entries.size())
        continue; // Trailing comma.
      return makeError("empty entry in '" + text + "'");
    }
    auto [key, value] = entry.split('@');
    if (!entry.contains('@'))
      return makeError("'" + entry + "': expected 'name@mesh'");
    if (Error error = parseEntry(key.trim(), value, entry))
      return error;
  }
  return Error::success();
}

} // namespace

Expected<UserAssignmentMap> mlir::mpmd::parseUserAssignmentMap(StringRef text) {
  UserAssignmentMap result;
  Error error = forEachEntry(text, [&](StringRef name, StringRef value,
                                       StringRef entry) -> Error {
    if (name.empty())
      return makeError("'" + entry + "': the name is empty");
    Expected<MeshAssignment> assignment =
        parseMeshAssignment(value, /*allowStage=*/true, entry);
    if (!assignment)
      return assignment.takeError();
    if (!result.entries.emplace(name.str(), *assignment).second)
      return makeError("'" + name + "' is assigned more than once");
    return Error::success();
  });
  if (error)
    return std::move(error);
  return result;
}

Expected<IndexedAssignmentMap>
mlir::mpmd::parseIndexedAssignmentMap(StringRef text) {
  IndexedAssignmentMap result;
  Error error = forEachEntry(text, [&](StringRef key, StringRef value,
                                       StringRef entry) -> Error {
    int64_t index = 0;
    if (key.getAsInteger(10, index) || index < 0)
      return makeError("'" + entry + "': '" + key +
                       "' is not a non-negative index");
    Expected<MeshAssignment> assignment =
        parseMeshAssignment(value, /*allowStage=*/false, entry);
    if (!assignment)
      return assignment.takeError();
    if (!result.entries.emplace(index, *assignment).second)
      return makeError("index " + Twine(index) + " is assigned more than once");
    return Error::success();
  });
  if (error)
    return std::move(error);
  return result;
}

Expected<InputOutputEquishardingConstraint>
mlir::mpmd::parseInputOutputEquishardingConstraint(StringRef text) {
  auto [input, output] = text.split(':');
  InputOutputEquishardingConstraint result;
  if (!text.contains(':') || input.trim().getAsInteger(10, result.input) ||
      output.trim().getAsInteger(10, result.output) || result.input < 0 ||
      result.output < 0)
    return makeError("'" + text +
                     "': expected 'input:output' with non-negative indices");
  return result;
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os, const MeshAssignment &a) {
  os << a.meshName;
  if (a.memoryKind)
    os << "#" << *a.memoryKind;
  if (a.stage)
    os << "/" << *a.stage;
  return os;
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os,
                                    const UserAssignmentMap &m) {
  interleave(
      m.entries, os,
      [&](const auto &entry) { os << entry.first << "@" << entry.second; },
      ",");
  return os;
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os,
                                    const IndexedAssignmentMap &m) {
  interleave(
      m.entries, os,
      [&](const auto &entry) { os << entry.first << "@" << entry.second; },
      ",");
  return os;
}

raw_ostream &mlir::mpmd::operator<<(raw_ostream &os,
                                    const InputOutputEquishardingConstraint &c) {
  return os << c.input << ":" << c.output;
}

namespace {

template <typename T> Expected<T> parseOption(StringRef text);
template <> Expected<UserAssignmentMap> parseOption(StringRef text) {
  return parseUserAssignmentMap(text);
}
template <> Expected<IndexedAssignmentMap> parseOption(StringRef text) {
  return parseIndexedAssignmentMap(text);
}
template <>
Expected<InputOutputEquishardingConstraint> parseOption(StringRef text) {
  return parseInputOutputEquishardingConstraint(text);
}

} // namespace

template <typename T>
bool cl::MpmdOptionParser<T>::parse(Option &option, StringRef, StringRef arg,
                                    T &value) {
  Expected<T> parsed = parseOption<T>(arg);
  if (!parsed)
    return option.error(toString(parsed.takeError()));
  value = std::move(*parsed);
  return false;
}

template class cl::MpmdOptionParser<UserAssignmentMap>;
template class cl::MpmdOptionParser<IndexedAssignmentMap>;
template class cl::MpmdOptionParser<InputOutputEquishardingConstraint>;
