//===- Config.cpp - Parsing and validation of the driver's JSON config ----===//
//
// Fields are validated in the order a reader checks them (topology first, as
// every assignment refers to it), so the first error reported is the most
// fundamental one.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Driver/Config.h"

#include "mpmd/Schedule/Generators.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"

#include <cmath>

namespace mlir::mpmd::driver {

namespace {

using llvm::StringRef;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

llvm::Error makeConfigError(const llvm::Twine &path,
                            const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

/// "an object", "a string", ... for wrong-type messages.
StringRef describeKind(const Value &value) {
  switch (value.kind()) {
  case Value::Null:
    return "null";
  case Value::Boolean:
    return "a boolean";
  case Value::Number:
    return "a number";
  case Value::String:
    return "a string";
  case Value::Array:
    return "a list";
  case Value::Object:
    return "an object";
  }
  llvm_unreachable("unknown JSON kind");
}

llvm::Error makeTypeError(const llvm::Twine &path, StringRef expected,
                          const Value &value) {
  return makeConfigError(path, "expected " + expected + ", got " +
                                   describeKind(value));
}

/// Sorted, so that messages do not depend on hashing.
std::vector<std::string> getSortedKeys(const Object &object) {
  std::vector<std::string> keys;
  for (const auto &entry : object)
    keys.push_back(entry.first.str());
  llvm::sort(keys);
  return keys;
}

/// Fails at the first key of `object` (sorted) that is not one of
/// `fields`, naming it under `path` with the fields expected ("one of" them
/// when there are more than two).
llvm::Error checkFieldNames(const Object &object, const llvm::Twine &path,
                            llvm::ArrayRef<StringRef> fields) {
  for (const std::string &key : getSortedKeys(object))
    if (!llvm::is_contained(fields, key))
      return makeConfigError(path + "." + key,
                             llvm::Twine("unknown field; expected ") +
                                 (fields.size() > 2 ? "one of " : "") +
                                 llvm::join(fields, ", "));
  return llvm::Error::success();
}

llvm::Expected<int64_t> getInteger(const Value &value,
                                   const llvm::Twine &path) {
  if (std::optional<int64_t> integer = value.getAsInteger())
    return *integer;
  return makeTypeError(path, "an integer", value);
}

llvm::Expected<StringRef> getString(const Value &value,
                                    const llvm::Twine &path) {
  if (std::optional<StringRef> text = value.getAsString())
    return *text;
  return makeTypeError(path, "a string", value);
}

/// Finds the first key an object of a JSON text repeats: llvm::json::parse
/// keeps the last value of a repeated key silently, which would make a
/// config mean something other than what one of its lines says. Runs on
/// text the parser accepted, so it only tracks strings and nesting.
class DuplicateKeyFinder {
public:
  explicit DuplicateKeyFinder(StringRef text) : text(text) {}

  llvm::Error run() { return scanValue("config"); }

private:
  void skipSpace() {
    while (position < text.size() && llvm::isSpace(text[position]))
      ++position;
  }

  /// The string token at the cursor, quotes included.
  StringRef scanString() {
    size_t start = position++;
    while (text[position] != '"')
      position += text[position] == '\\' ? 2 : 1;
    ++position;
    return text.slice(start, position);
  }

  /// Scans the members of the list or object at the cursor up to `close`,
  /// each with `scanMember(index)`.
  llvm::Error
  scanMembers(char close,
              llvm::function_ref<llvm::Error(size_t index)> scanMember) {
    ++position; // '[' or '{'
    for (size_t index = 0;; ++index) {
      skipSpace();
      if (text[position] == close)
        break;
      if (llvm::Error error = scanMember(index))
        return error;
      skipSpace();
      if (text[position] == ',')
        ++position;
    }
    ++position;
    return llvm::Error::success();
  }

  llvm::Error scanValue(const std::string &path) {
    skipSpace();
    char next = text[position];
    if (next == '{')
      return scanObject(path);
    if (next == '[')
      return scanMembers(']', [&](size_t index) {
        return scanValue(path + "[" + std::to_string(index) + "]");
      });
    if (next == '"') {
      scanString();
      return llvm::Error::success();
    }
    while (position < text.size() &&
           !StringRef(",]} \t\r\n").contains(text[position]))
      ++position;
    return llvm::Error::success();
  }

  llvm::Error scanObject(const std::string &path) {
    llvm::StringSet<> keys;
    return scanMembers('}', [&](size_t) -> llvm::Error {
      // The decoded key: "a" and "\u0061" are the same key.
      llvm::Expected<Value> key = llvm::json::parse(scanString());
      if (!key)
        return key.takeError();
      StringRef name = *key->getAsString();
      std::string keyPath = (llvm::Twine(path) + "." + name).str();
      if (!keys.insert(name).second)
        return makeConfigError(keyPath, "is given twice; a key may appear "
                                        "once per object");
      skipSpace();
      ++position; // ':'
      return scanValue(keyPath);
    });
  }

  StringRef text;
  size_t position = 0;
};

/// `@` separates names from meshes and `#` meshes from memory kinds in the
/// assignment grammar, so neither may appear in a mesh name.
llvm::Error verifyMeshName(StringRef name, const llvm::Twine &path) {
  if (name.empty())
    return makeConfigError(path, "empty mesh name");
  if (name.contains('@'))
    return makeConfigError(path, "mesh name \"" + name +
                                     "\" contains '@', which separates names "
                                     "from meshes in assignments");
  if (name.contains('#'))
    return makeConfigError(path, "mesh name \"" + name +
                                     "\" contains '#', which introduces a "
                                     "memory kind (#pinned_host, #device)");
  return llvm::Error::success();
}

/// The options of a topology mesh, `{"device_ids": [...]}`: the ids must be
/// a permutation of 0..deviceCount-1 (the executor runs device d as
/// partition d of the mesh). O(deviceCount).
llvm::Error parseMeshDeviceIds(const Value &value, const std::string &path,
                               int64_t deviceCount, TopologyMesh &mesh) {
  const Object *options = value.getAsObject();
  if (!options)
    return makeTypeError(path, "{\"device_ids\": [...]}", value);
  if (llvm::Error error = checkFieldNames(*options, path, {"device_ids"}))
    return error;
  const Value *idsValue = options->get("device_ids");
  if (!idsValue)
    return makeConfigError(path + ".device_ids", "missing");
  std::string idsPath = path + ".device_ids";
  const Array *ids = idsValue->getAsArray();
  if (!ids)
    return makeTypeError(idsPath, "a list of device ids", *idsValue);
  if (static_cast<int64_t>(ids->size()) != deviceCount)
    return makeConfigError(
        idsPath, "mesh \"" + mesh.name + "\" has " + llvm::Twine(deviceCount) +
                     " devices, but " + llvm::Twine(ids->size()) +
                     " device ids are given");
  std::vector<bool> seen(ids->size());
  bool isIota = true;
  for (auto [position, idValue] : llvm::enumerate(*ids)) {
    std::string idPath = (idsPath + "[" + llvm::Twine(position) + "]").str();
    llvm::Expected<int64_t> id = getInteger(idValue, idPath);
    if (!id)
      return id.takeError();
    if (*id < 0 || *id >= deviceCount)
      return makeConfigError(
          idPath, "device id " + llvm::Twine(*id) + " of mesh \"" + mesh.name +
                      "\" is not in [0, " + llvm::Twine(deviceCount) +
                      "); the ids are a permutation of "
                      "the mesh's device positions");
    if (seen[*id])
      return makeConfigError(idPath, "device id " + llvm::Twine(*id) +
                                         " of mesh \"" + mesh.name +
                                         "\" is given twice");
    seen[*id] = true;
    isIota &= *id == static_cast<int64_t>(position);
    mesh.deviceIds.push_back(*id);
  }
  if (isIota)
    mesh.deviceIds.clear();
  return llvm::Error::success();
}

llvm::Expected<std::vector<TopologyMesh>> parseTopology(const Value *value) {
  const char *path = "config.topology";
  if (!value)
    return makeConfigError(path, "missing (a list of [mesh, [[axis, size], "
                                 "...]] in pipeline order)");
  const Array *meshes = value->getAsArray();
  if (!meshes)
    return makeTypeError(path, "a list of [mesh, [[axis, size], ...]]", *value);
  if (meshes->empty())
    return makeConfigError(path, "the topology has no mesh");
  std::vector<TopologyMesh> topology;
  llvm::StringSet<> names;
  for (auto [index, meshValue] : llvm::enumerate(*meshes)) {
    std::string meshPath =
        (llvm::Twine(path) + "[" + llvm::Twine(index) + "]").str();
    const Array *pair = meshValue.getAsArray();
    if (!pair || pair->size() < 2 || pair->size() > 3)
      return makeTypeError(meshPath,
                           "[mesh name, [[axis, size], ...]] or [mesh name, "
                           "[[axis, size], ...], {\"device_ids\": [...]}]",
                           meshValue);
    llvm::Expected<StringRef> name = getString((*pair)[0], meshPath + "[0]");
    if (!name)
      return name.takeError();
    if (llvm::Error error = verifyMeshName(*name, meshPath + "[0]"))
      return std::move(error);
    if (!names.insert(*name).second)
      return makeConfigError(meshPath + "[0]",
                             "mesh \"" + *name + "\" is defined twice");
    TopologyMesh mesh;
    mesh.name = name->str();
    const Array *axes = (*pair)[1].getAsArray();
    if (!axes)
      return makeTypeError(meshPath + "[1]", "a list of [axis, size]",
                           (*pair)[1]);
    llvm::StringSet<> axisNames;
    for (auto [axisIndex, axisValue] : llvm::enumerate(*axes)) {
      std::string axisPath =
          (meshPath + "[1][" + llvm::Twine(axisIndex) + "]").str();
      const Array *axis = axisValue.getAsArray();
      if (!axis || axis->size() != 2)
        return makeTypeError(axisPath, "[axis name, size]", axisValue);
      llvm::Expected<StringRef> axisName =
          getString((*axis)[0], axisPath + "[0]");
      if (!axisName)
        return axisName.takeError();
      if (!axisNames.insert(*axisName).second)
        return makeConfigError(axisPath + "[0]",
                               "axis \"" + *axisName + "\" is defined twice");
      llvm::Expected<int64_t> size = getInteger((*axis)[1], axisPath + "[1]");
      if (!size)
        return size.takeError();
      if (*size <= 0)
        return makeConfigError(axisPath + "[1]",
                               "axis size must be positive, got " +
                                   llvm::Twine(*size));
      mesh.axes.emplace_back(axisName->str(), *size);
    }
    std::optional<int64_t> deviceCount =
        checkedProduct(llvm::make_second_range(mesh.axes));
    if (!deviceCount)
      return makeConfigError(meshPath + "[1]",
                             "the product of the axis sizes of mesh \"" +
                                 mesh.name + "\" does not fit in 64 bits");
    if (pair->size() == 3)
      if (llvm::Error error = parseMeshDeviceIds((*pair)[2], meshPath + "[2]",
                                                 *deviceCount, mesh))
        return std::move(error);
    topology.push_back(std::move(mesh));
  }
  return topology;
}

std::string getMeshNameList(const std::vector<TopologyMesh> &topology) {
  return llvm::join(llvm::map_range(topology,
                                    [](const TopologyMesh &mesh) -> StringRef {
                                      return mesh.name;
                                    }),
                    ", ");
}

/// `mesh[#kind]` naming a topology mesh.
llvm::Expected<MeshAssignment>
parseMeshReference(StringRef text, const std::vector<TopologyMesh> &topology,
                   const llvm::Twine &path) {
  auto [meshName, memoryKind] = text.split('#');
  MeshAssignment assignment;
  assignment.meshName = meshName.str();
  if (text.contains('#')) {
    if (memoryKind != "pinned_host" && memoryKind != "device")
      return makeConfigError(path, "unknown memory kind \"" + memoryKind +
                                       "\"; expected pinned_host or device");
    assignment.memoryKind = memoryKind.str();
  }
  if (meshName.contains('@'))
    return makeConfigError(path, "mesh name \"" + meshName + "\" contains '@'");
  if (llvm::none_of(topology,
                    [&, meshName = meshName](const TopologyMesh &mesh) {
                      return mesh.name == meshName;
                    }))
    return makeConfigError(path, "unknown mesh \"" + meshName +
                                     "\"; meshes are " +
                                     getMeshNameList(topology));
  return assignment;
}

llvm::Expected<UserAssignmentMap>
parseAssignment(const Value *value, const std::vector<TopologyMesh> &topology) {
  const char *path = "config.assignment";
  UserAssignmentMap assignment;
  if (!value)
    return assignment;
  const Object *entries = value->getAsObject();
  if (!entries)
    return makeTypeError(path, "an object (name → mesh)", *value);
  for (const std::string &name : getSortedKeys(*entries)) {
    std::string entryPath = (llvm::Twine(path) + "." + name).str();
    const Value &entry = *entries->get(name);
    if (name.empty() || StringRef(name).contains('@') ||
        StringRef(name).contains(','))
      return makeConfigError(entryPath,
                             "a computation name may not be empty nor "
                             "contain '@' or ','");
    if (std::optional<StringRef> mesh = entry.getAsString()) {
      llvm::Expected<MeshAssignment> parsed =
          parseMeshReference(*mesh, topology, entryPath);
      if (!parsed)
        return parsed.takeError();
      assignment.entries[name] = *parsed;
      continue;
    }
    const Object *object = entry.getAsObject();
    if (!object)
      return makeTypeError(
          entryPath, "a mesh name or {\"mesh\": ..., \"stage\": ...}", entry);
    if (llvm::Error error =
            checkFieldNames(*object, entryPath, {"mesh", "stage"}))
      return std::move(error);
    const Value *meshValue = object->get("mesh");
    if (!meshValue)
      return makeConfigError(entryPath + ".mesh", "missing");
    llvm::Expected<StringRef> mesh = getString(*meshValue, entryPath + ".mesh");
    if (!mesh)
      return mesh.takeError();
    llvm::Expected<MeshAssignment> parsed =
        parseMeshReference(*mesh, topology, entryPath + ".mesh");
    if (!parsed)
      return parsed.takeError();
    if (const Value *stageValue = object->get("stage")) {
      llvm::Expected<int64_t> stage =
          getInteger(*stageValue, entryPath + ".stage");
      if (!stage)
        return stage.takeError();
      if (*stage < 0)
        return makeConfigError(entryPath + ".stage",
                               "stage must be >= 0, got " +
                                   llvm::Twine(*stage));
      parsed->stage = *stage;
    }
    assignment.entries[name] = *parsed;
  }
  return assignment;
}

/// A list whose entry i is the mesh[#kind] of input (output) i, or null.
llvm::Expected<IndexedAssignmentMap>
parseIndexedAssignment(const Value *value, StringRef field,
                       const std::vector<TopologyMesh> &topology) {
  std::string path = ("config." + field).str();
  IndexedAssignmentMap assignment;
  if (!value)
    return assignment;
  const Array *entries = value->getAsArray();
  if (!entries)
    return makeTypeError(path, "a list of mesh names (null: unassigned)",
                         *value);
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    std::string entryPath = (path + "[" + llvm::Twine(index) + "]").str();
    if (entry.kind() == Value::Null)
      continue;
    llvm::Expected<StringRef> mesh = getString(entry, entryPath);
    if (!mesh)
      return mesh.takeError();
    llvm::Expected<MeshAssignment> parsed =
        parseMeshReference(*mesh, topology, entryPath);
    if (!parsed)
      return parsed.takeError();
    assignment.entries[index] = *parsed;
  }
  return assignment;
}

llvm::Expected<PipelineSchedule> parseBuiltinSchedule(const Value &value,
                                                      const llvm::Twine &path) {
  llvm::Expected<StringRef> name = getString(value, path);
  if (!name)
    return name.takeError();
  if (std::optional<PipelineSchedule> schedule =
          symbolizePipelineSchedule(*name))
    return *schedule;
  return makeConfigError(
      path, "unknown schedule \"" + *name + "\"; expected one of " +
                getPipelineScheduleNameList() +
                ", {\"generated\": NAME} or a list of schedule rules");
}

/// `"schedule"`: a built-in name, {"generated": NAME} or a list of rules.
llvm::Error parseSchedule(const Value &value, Config &config) {
  const char *path = "config.schedule";
  if (value.kind() == Value::String) {
    llvm::Expected<PipelineSchedule> schedule =
        parseBuiltinSchedule(value, path);
    if (!schedule)
      return schedule.takeError();
    config.pipelineSchedule = *schedule;
    return llvm::Error::success();
  }
  if (const Object *object = value.getAsObject()) {
    if (llvm::Error error = checkFieldNames(*object, path, {"generated"}))
      return error;
    const Value *generated = object->get("generated");
    if (!generated)
      return makeConfigError(llvm::Twine(path) + ".generated", "missing");
    llvm::Expected<StringRef> name =
        getString(*generated, llvm::Twine(path) + ".generated");
    if (!name)
      return name.takeError();
    std::optional<schedule::ScheduleKind> kind =
        schedule::parseScheduleKind(*name);
    if (!kind)
      return makeConfigError(llvm::Twine(path) + ".generated",
                             "unknown generated schedule \"" + *name +
                                 "\"; expected one of " +
                                 schedule::getScheduleNameList());
    config.generatedSchedule = schedule::getScheduleName(*kind).str();
    config.generatedScheduleNeedsSplit =
        schedule::hasWeightGradientActions(*kind);
    return llvm::Error::success();
  }
  if (const Array *rules = value.getAsArray()) {
    for (auto [index, rule] : llvm::enumerate(*rules)) {
      std::string rulePath =
          (llvm::Twine(path) + "[" + llvm::Twine(index) + "]").str();
      llvm::Expected<StringRef> text = getString(rule, rulePath);
      if (!text)
        return text.takeError();
      llvm::Expected<FragmentScheduleRule> parsed =
          parseFragmentScheduleRule(*text);
      if (!parsed)
        return makeConfigError(rulePath, llvm::toString(parsed.takeError()));
      config.scheduleRules.push_back(std::move(*parsed));
    }
    return llvm::Error::success();
  }
  return makeTypeError(path,
                       "a schedule name, {\"generated\": NAME} or a list of "
                       "FragmentScheduleRule strings",
                       value);
}

llvm::Error parseMergeRules(const Value &value, Config &config) {
  const char *path = "config.merge_rules";
  const Array *rules = value.getAsArray();
  if (!rules)
    return makeTypeError(path, "a list of FragmentMergeRule strings", value);
  for (auto [index, rule] : llvm::enumerate(*rules)) {
    std::string rulePath =
        (llvm::Twine(path) + "[" + llvm::Twine(index) + "]").str();
    llvm::Expected<StringRef> text = getString(rule, rulePath);
    if (!text)
      return text.takeError();
    llvm::Expected<FragmentMergeRule> parsed = parseFragmentMergeRule(*text);
    if (!parsed)
      return makeConfigError(rulePath, llvm::toString(parsed.takeError()));
    config.mergeRules.push_back(std::move(*parsed));
  }
  return llvm::Error::success();
}

/// The axes of a mesh of `topology` named `axis`, searched in every mesh
/// (a homogeneous topology has the same axes everywhere): the name of the
/// first mesh that has it, or empty.
StringRef findMeshWithAxis(const std::vector<TopologyMesh> &topology,
                           StringRef axis) {
  for (const TopologyMesh &mesh : topology)
    for (const auto &[name, size] : mesh.axes)
      if (name == axis)
        return mesh.name;
  return {};
}

/// Checks the axes of one sharding (`axes`, each with its JSON path): they
/// name axes of the topology, of one mesh, each at most once.
llvm::Error
verifySpecAxes(const std::vector<std::pair<std::string, std::string>> &axes,
               const std::vector<TopologyMesh> &topology) {
  llvm::StringSet<> seen;
  StringRef firstMesh;
  for (const auto &[axis, path] : axes) {
    StringRef mesh = findMeshWithAxis(topology, axis);
    if (mesh.empty()) {
      std::vector<std::string> names;
      for (const auto &[name, size] : topology.front().axes)
        names.push_back(name);
      return makeConfigError(
          path, "unknown axis \"" + axis + "\"" +
                    (topology.size() == 1 ||
                             llvm::all_of(topology,
                                          [&](const TopologyMesh &other) {
                                            return other.axes ==
                                                   topology.front().axes;
                                          })
                         ? "; the mesh axes are " + llvm::join(names, ", ")
                         : std::string()));
    }
    if (!seen.insert(axis).second)
      return makeConfigError(path, "axis \"" + axis +
                                       "\" is used twice in one sharding");
    if (firstMesh.empty())
      firstMesh = mesh;
    else if (!llvm::any_of(topology, [&](const TopologyMesh &candidate) {
               return candidate.name == firstMesh &&
                      llvm::any_of(candidate.axes, [&](const auto &entry) {
                        return entry.first == axis;
                      });
             }))
      return makeConfigError(
          path, "axis \"" + axis + "\" is not an axis of mesh \"" + firstMesh +
                    "\", whose axes the sharding uses");
  }
  return llvm::Error::success();
}

/// A list of axis names or one axis name (the PartitionSpec shorthand),
/// appended to `axes` with their paths.
llvm::Error
parseAxisList(const Value &value, const std::string &path,
              std::vector<std::string> &names,
              std::vector<std::pair<std::string, std::string>> &axes) {
  if (std::optional<StringRef> single = value.getAsString()) {
    names.push_back(single->str());
    axes.emplace_back(single->str(), path);
    return llvm::Error::success();
  }
  const Array *list = value.getAsArray();
  if (!list)
    return makeTypeError(path, "an axis name or a list of axis names", value);
  for (auto [index, entry] : llvm::enumerate(*list)) {
    std::string entryPath = path + "[" + std::to_string(index) + "]";
    llvm::Expected<StringRef> name = getString(entry, entryPath);
    if (!name)
      return name.takeError();
    names.push_back(name->str());
    axes.emplace_back(name->str(), entryPath);
  }
  return llvm::Error::success();
}

/// `"#sdy.sharding<...>"` or a PartitionSpec-like list.
llvm::Expected<ShardingSpec>
parseShardingSpec(const Value &value, const std::string &path,
                  const std::vector<TopologyMesh> &topology) {
  ShardingSpec spec;
  spec.path = path;
  if (std::optional<StringRef> text = value.getAsString()) {
    if (!text->trim().starts_with("#sdy.sharding<"))
      return makeConfigError(path, "expected a sharding \"#sdy.sharding<@mesh, "
                                   "[...]>\" or a list with the axes of each "
                                   "dimension, got \"" +
                                       *text + "\"");
    spec.attribute = text->trim().str();
    return spec;
  }
  const Array *dims = value.getAsArray();
  if (!dims)
    return makeTypeError(path,
                         "a sharding \"#sdy.sharding<...>\" or a list with "
                         "the axes of each dimension (null: replicated)",
                         value);
  std::vector<std::pair<std::string, std::string>> axes;
  for (auto [index, dim] : llvm::enumerate(*dims)) {
    std::string dimPath = path + "[" + std::to_string(index) + "]";
    spec.dims.emplace_back();
    if (dim.kind() == Value::Null)
      continue;
    if (llvm::Error error = parseAxisList(dim, dimPath, spec.dims.back(), axes))
      return std::move(error);
  }
  if (llvm::Error error = verifySpecAxes(axes, topology))
    return std::move(error);
  return spec;
}

/// `"in_shardings"` / `"out_shardings"`: entry i for input (output) i.
llvm::Expected<std::vector<std::optional<ShardingSpec>>>
parseShardingList(const Value *value, StringRef field,
                  const std::vector<TopologyMesh> &topology) {
  std::string path = ("config." + field).str();
  std::vector<std::optional<ShardingSpec>> shardings;
  if (!value)
    return shardings;
  const Array *entries = value->getAsArray();
  if (!entries)
    return makeTypeError(path, "a list of shardings (null: none)", *value);
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    shardings.emplace_back();
    if (entry.kind() == Value::Null)
      continue;
    llvm::Expected<ShardingSpec> spec = parseShardingSpec(
        entry, path + "[" + std::to_string(index) + "]", topology);
    if (!spec)
      return spec.takeError();
    shardings.back() = std::move(*spec);
  }
  return shardings;
}

/// `"plan"`: {"step_seconds": S, "bubble_fraction": B, "peak_bytes": N,
/// "description": TEXT}, only `step_seconds` required.
llvm::Expected<PlanPrediction> parsePlan(const Value &value) {
  const std::string path = "config.plan";
  const Object *object = value.getAsObject();
  if (!object)
    return makeTypeError(path, "an object", value);
  constexpr StringRef kPlanFields[] = {"step_seconds", "bubble_fraction",
                                       "peak_bytes", "description"};
  if (llvm::Error error = checkFieldNames(*object, path, kPlanFields))
    return std::move(error);
  // Each number field: the path, where it goes and whether 0 is allowed.
  auto getNumber = [&](StringRef field, bool allowZero,
                       std::optional<double> &target) -> llvm::Error {
    const Value *number = object->get(field);
    if (!number)
      return llvm::Error::success();
    std::optional<double> parsed = number->getAsNumber();
    if (!parsed)
      return makeTypeError(path + "." + field, "a number", *number);
    if (!std::isfinite(*parsed) || *parsed < 0 || (!allowZero && *parsed == 0))
      return makeConfigError(path + "." + field,
                             allowZero ? "must be a finite number >= 0"
                                       : "must be a finite number > 0");
    target = *parsed;
    return llvm::Error::success();
  };
  PlanPrediction plan;
  std::optional<double> step;
  if (!object->get("step_seconds"))
    return makeConfigError(path, "step_seconds is required");
  if (llvm::Error error = getNumber("step_seconds", false, step))
    return std::move(error);
  plan.stepSeconds = *step;
  if (llvm::Error error =
          getNumber("bubble_fraction", true, plan.bubbleFraction))
    return std::move(error);
  if (plan.bubbleFraction && *plan.bubbleFraction > 1)
    return makeConfigError(path + ".bubble_fraction",
                           "must be between 0 and 1");
  if (llvm::Error error = getNumber("peak_bytes", true, plan.peakBytes))
    return std::move(error);
  if (const Value *description = object->get("description")) {
    llvm::Expected<StringRef> text =
        getString(*description, path + ".description");
    if (!text)
      return text.takeError();
    plan.description = text->str();
  }
  return plan;
}

llvm::Expected<std::vector<ShardingRule>>
parseShardingRules(const Value *value,
                   const std::vector<TopologyMesh> &topology) {
  const std::string path = "config.sharding_rules";
  std::vector<ShardingRule> rules;
  if (!value)
    return rules;
  const Array *entries = value->getAsArray();
  if (!entries)
    return makeTypeError(path,
                         "a list of rules ({\"match\": REGEX, "
                         "\"sharding\": ...} or {\"fsdp\": AXES})",
                         *value);
  for (auto [index, entry] : llvm::enumerate(*entries)) {
    ShardingRule rule;
    rule.path = path + "[" + std::to_string(index) + "]";
    const Object *object = entry.getAsObject();
    if (!object)
      return makeTypeError(rule.path,
                           "{\"match\": REGEX, \"sharding\": ...} or "
                           "{\"fsdp\": AXES, \"min_size\": N}",
                           entry);
    bool isFsdp = object->get("fsdp") != nullptr;
    const std::vector<StringRef> fields =
        isFsdp ? std::vector<StringRef>{"fsdp", "min_size"}
               : std::vector<StringRef>{"match", "sharding"};
    if (llvm::Error error = checkFieldNames(*object, rule.path, fields))
      return std::move(error);
    if (isFsdp) {
      std::vector<std::pair<std::string, std::string>> axes;
      if (llvm::Error error = parseAxisList(
              *object->get("fsdp"), rule.path + ".fsdp", rule.fsdpAxes, axes))
        return std::move(error);
      if (rule.fsdpAxes.empty())
        return makeConfigError(rule.path + ".fsdp",
                               "an fsdp rule needs at least one axis");
      if (llvm::Error error = verifySpecAxes(axes, topology))
        return std::move(error);
      if (const Value *minSize = object->get("min_size")) {
        llvm::Expected<int64_t> size =
            getInteger(*minSize, rule.path + ".min_size");
        if (!size)
          return size.takeError();
        if (*size < 0)
          return makeConfigError(rule.path + ".min_size",
                                 "must be >= 0, got " + llvm::Twine(*size));
        rule.minSize = *size;
      }
      rules.push_back(std::move(rule));
      continue;
    }
    for (StringRef field : fields)
      if (!object->get(field))
        return makeConfigError(rule.path + "." + field, "missing");
    llvm::Expected<StringRef> pattern =
        getString(*object->get("match"), rule.path + ".match");
    if (!pattern)
      return pattern.takeError();
    std::string regexError;
    if (!llvm::Regex(*pattern).isValid(regexError))
      return makeConfigError(rule.path + ".match", "invalid regex \"" +
                                                       *pattern +
                                                       "\": " + regexError);
    rule.pattern = pattern->str();
    llvm::Expected<ShardingSpec> sharding = parseShardingSpec(
        *object->get("sharding"), rule.path + ".sharding", topology);
    if (!sharding)
      return sharding.takeError();
    rule.sharding = std::move(*sharding);
    rules.push_back(std::move(rule));
  }
  return rules;
}

struct BoolOption {
  StringRef name;
  bool PartitioningOptions::*field;
};

constexpr BoolOption kBoolOptions[] = {
    {"mpmd_infer_transfers", &PartitioningOptions::inferTransfers},
    {"mpmd_infer_cross_mesh_reductions",
     &PartitioningOptions::inferCrossMeshReductions},
    {"mpmd_fragment_remat", &PartitioningOptions::fragmentRemat},
    {"mpmd_merge_remat_fragments", &PartitioningOptions::mergeRematFragments},
    {"mpmd_split_bwd_fragments", &PartitioningOptions::splitBwdFragments},
    {"mpmd_assume_homogeneous_devices",
     &PartitioningOptions::assumeHomogeneousDevices},
    {"mpmd_absorb_inferred_fragments_on_entry_point_function",
     &PartitioningOptions::absorbInferredFragmentsOnEntryPointFunction},
    {"mpmd_copy_constant_creation_from_producer_to_consumer",
     &PartitioningOptions::copyConstantCreationFromProducerToConsumer},
    {"mpmd_merge_inferred_after_scheduling",
     &PartitioningOptions::mergeInferredAfterScheduling},
    {"mpmd_fail_on_backward_deps", &PartitioningOptions::failOnBackwardDeps},
    {"mpmd_apply_merge_transfers_pass",
     &PartitioningOptions::applyMergeTransfers},
    {"mpmd_partition_fragment_bodies",
     &PartitioningOptions::partitionFragmentBodies},
};
constexpr StringRef kPipelineScheduleOption = "mpmd_pipeline_schedule";

/// Also returns, through `splitGiven`, whether mpmd_split_bwd_fragments was
/// set explicitly (zero-bubble schedules need it and set it otherwise).
llvm::Error parsePartitioningOptions(const Value &value, Config &config,
                                     bool &splitGiven) {
  const char *path = "config.partitioning_options";
  const Object *options = value.getAsObject();
  if (!options)
    return makeTypeError(path, "an object (option name → value)", value);
  for (const std::string &name : getSortedKeys(*options)) {
    std::string optionPath = (llvm::Twine(path) + "." + name).str();
    const Value &option = *options->get(name);
    if (name == kPipelineScheduleOption) {
      llvm::Expected<PipelineSchedule> schedule =
          parseBuiltinSchedule(option, optionPath);
      if (!schedule)
        return schedule.takeError();
      config.pipelineSchedule = *schedule;
      continue;
    }
    const BoolOption *boolOption =
        llvm::find_if(kBoolOptions, [&](const BoolOption &candidate) {
          return candidate.name == name;
        });
    if (boolOption == std::end(kBoolOptions))
      return makeConfigError(
          optionPath, "unknown option; valid options are " +
                          llvm::join(getPartitioningOptionNames(), ", "));
    std::optional<bool> enabled = option.getAsBoolean();
    if (!enabled)
      return makeTypeError(optionPath, "a boolean", option);
    config.options.*(boolOption->field) = *enabled;
    splitGiven |= name == "mpmd_split_bwd_fragments";
  }
  return llvm::Error::success();
}

} // namespace

bool Config::isHomogeneous() const {
  return llvm::all_of(topology, [&](const TopologyMesh &mesh) {
    return mesh.axes == topology.front().axes &&
           mesh.deviceIds == topology.front().deviceIds;
  });
}

const TopologyMesh *Config::findMesh(StringRef name) const {
  auto found = llvm::find_if(
      topology, [&](const TopologyMesh &mesh) { return mesh.name == name; });
  return found == topology.end() ? nullptr : &*found;
}

std::vector<StringRef> getPartitioningOptionNames() {
  std::vector<StringRef> names;
  for (const BoolOption &option : kBoolOptions)
    names.push_back(option.name);
  names.push_back(kPipelineScheduleOption);
  return names;
}

llvm::Expected<Config> parseConfig(StringRef jsonText) {
  llvm::Expected<Value> json = llvm::json::parse(jsonText);
  if (!json)
    return makeConfigError("config",
                           "invalid JSON: " + llvm::toString(json.takeError()));
  const Object *root = json->getAsObject();
  if (!root)
    return makeTypeError("config", "an object", *json);
  if (llvm::Error error = DuplicateKeyFinder(jsonText).run())
    return error;
  constexpr StringRef kFields[] = {"topology",
                                   "assignment",
                                   "input_assignment",
                                   "output_assignment",
                                   "schedule",
                                   "merge_rules",
                                   "partitioning_options",
                                   "in_shardings",
                                   "out_shardings",
                                   "sharding_rules",
                                   "plan"};
  if (llvm::Error error = checkFieldNames(*root, "config", kFields))
    return std::move(error);

  Config config;
  llvm::Expected<std::vector<TopologyMesh>> topology =
      parseTopology(root->get("topology"));
  if (!topology)
    return topology.takeError();
  config.topology = std::move(*topology);
  llvm::Expected<UserAssignmentMap> assignment =
      parseAssignment(root->get("assignment"), config.topology);
  if (!assignment)
    return assignment.takeError();
  config.assignment = std::move(*assignment);
  for (auto [field, target] :
       {std::pair{StringRef("input_assignment"), &config.inputAssignment},
        std::pair{StringRef("output_assignment"), &config.outputAssignment}}) {
    llvm::Expected<IndexedAssignmentMap> parsed =
        parseIndexedAssignment(root->get(field), field, config.topology);
    if (!parsed)
      return parsed.takeError();
    *target = std::move(*parsed);
  }
  // The options first: `"schedule"` overrides mpmd_pipeline_schedule below
  // only when they agree.
  bool splitGiven = false;
  if (const Value *options = root->get("partitioning_options"))
    if (llvm::Error error =
            parsePartitioningOptions(*options, config, splitGiven))
      return std::move(error);
  if (const Value *schedule = root->get("schedule")) {
    std::optional<PipelineSchedule> fromOptions;
    const Object *options = root->getObject("partitioning_options");
    if (options && options->get(kPipelineScheduleOption))
      fromOptions = config.pipelineSchedule;
    if (llvm::Error error = parseSchedule(*schedule, config))
      return std::move(error);
    if (fromOptions && schedule->kind() == Value::String &&
        *fromOptions != config.pipelineSchedule)
      return makeConfigError(
          "config.schedule",
          "\"" + stringifyPipelineSchedule(config.pipelineSchedule) +
              "\" contradicts partitioning_options.mpmd_pipeline_schedule \"" +
              stringifyPipelineSchedule(*fromOptions) + "\"");
  }
  if (const Value *mergeRules = root->get("merge_rules"))
    if (llvm::Error error = parseMergeRules(*mergeRules, config))
      return std::move(error);
  for (auto [field, target] :
       {std::pair{StringRef("in_shardings"), &config.inShardings},
        std::pair{StringRef("out_shardings"), &config.outShardings}}) {
    llvm::Expected<std::vector<std::optional<ShardingSpec>>> parsed =
        parseShardingList(root->get(field), field, config.topology);
    if (!parsed)
      return parsed.takeError();
    *target = std::move(*parsed);
  }
  llvm::Expected<std::vector<ShardingRule>> rules =
      parseShardingRules(root->get("sharding_rules"), config.topology);
  if (!rules)
    return rules.takeError();
  config.shardingRules = std::move(*rules);
  if (const Value *plan = root->get("plan")) {
    llvm::Expected<PlanPrediction> parsed = parsePlan(*plan);
    if (!parsed)
      return parsed.takeError();
    config.plan = std::move(*parsed);
  }

  // Upstream's registry: zero-bubble schedules require split backward
  // fragments, set when missing and an error when contradicted. The same
  // holds for generated schedules with weight-gradient actions.
  std::optional<std::string> splitSchedule;
  if (!config.generatedSchedule.empty()) {
    if (config.generatedScheduleNeedsSplit)
      splitSchedule = config.generatedSchedule;
  } else if (config.scheduleRules.empty() &&
             requiresSplitBwdFragments(config.pipelineSchedule)) {
    splitSchedule = stringifyPipelineSchedule(config.pipelineSchedule).str();
  }
  if (splitSchedule) {
    if (splitGiven && !config.options.splitBwdFragments)
      return makeConfigError(
          "config.partitioning_options.mpmd_split_bwd_fragments",
          "must be true with the " + *splitSchedule +
              " schedule (it schedules the split-off weight gradients)");
    config.options.splitBwdFragments = true;
  }
  return config;
}

llvm::Expected<Config> readConfigFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!file)
    return makeConfigError(path, "cannot read: " + file.getError().message());
  return parseConfig((*file)->getBuffer());
}

} // namespace mlir::mpmd::driver
