//===- ConfigShardings.cpp - The config's shardings of @main --------------===//

#include "mpmd/Driver/ConfigShardings.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

namespace mlir::mpmd::driver {

namespace {

constexpr StringLiteral kShardingAttrName = sdy::SdyDialect::kShardingAttrName;
/// The sdy mesh of a homogeneous topology, as upstream names it.
constexpr StringLiteral kCommonMeshName = "mesh";

llvm::Error makeError(const llvm::Twine &path, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

sdy::MeshAttr buildMesh(MLIRContext *ctx, const TopologyMesh &mesh) {
  SmallVector<sdy::MeshAxisAttr> axes;
  for (const auto &[name, size] : mesh.axes)
    axes.push_back(sdy::MeshAxisAttr::get(ctx, name, size));
  return sdy::MeshAttr::get(ctx, axes, mesh.deviceIds);
}

/// The sdy mesh a sharding on mesh symbol `name` refers to: in a
/// homogeneous topology `@mesh` and every topology mesh name are the one
/// common mesh; otherwise the topology mesh of that name.
const TopologyMesh *findShardingMesh(const Config &config, StringRef name) {
  if (config.isHomogeneous() && name == kCommonMeshName)
    return &config.topology.front();
  return config.findMesh(name);
}

/// The symbol shardings on `mesh` use.
StringRef getMeshSymbol(const Config &config, const TopologyMesh &mesh) {
  return config.isHomogeneous() ? StringRef(kCommonMeshName)
                                : StringRef(mesh.name);
}

std::string describeInput(func::FuncOp main, unsigned index) {
  std::string name = getInputName(main, index);
  return "input " + std::to_string(index) +
         (name.empty() ? "" : " ('" + name + "')");
}

std::string print(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text;
}

/// `spec` as an attribute for a value of `type`, checked (axes, rank,
/// divisibility) against its mesh.
llvm::Expected<sdy::TensorShardingAttr> resolveSpec(const ShardingSpec &spec,
                                                    Type type,
                                                    const Config &config,
                                                    const llvm::Twine &what) {
  MLIRContext *ctx = type.getContext();
  std::string diagnostic;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
    if (diagnostic.empty())
      diagnostic = d.str();
    return success();
  });
  sdy::TensorShardingAttr sharding;
  const TopologyMesh *mesh = nullptr;
  if (!spec.attribute.empty()) {
    Attribute parsed = parseAttribute(spec.attribute, ctx);
    sharding = dyn_cast_or_null<sdy::TensorShardingAttr>(parsed);
    if (!sharding)
      return makeError(spec.path,
                       "not a sharding: " +
                           (diagnostic.empty() ? print(parsed) : diagnostic));
    StringRef symbol = sharding.getMeshName();
    mesh = symbol.empty() ? nullptr : findShardingMesh(config, symbol);
    if (!mesh) {
      std::vector<std::string> names;
      if (config.isHomogeneous())
        names.push_back("@" + kCommonMeshName.str());
      for (const TopologyMesh &candidate : config.topology)
        names.push_back("@" + candidate.name);
      return makeError(spec.path,
                       (symbol.empty() ? llvm::Twine("a sharding must name "
                                                     "its mesh")
                                       : "unknown mesh @" + symbol) +
                           "; meshes are " + llvm::join(names, ", "));
    }
    sharding = sdy::TensorShardingAttr::get(
        ctx, FlatSymbolRefAttr::get(ctx, getMeshSymbol(config, *mesh)),
        sharding.getDimShardings(), sharding.getReplicatedAxes(),
        sharding.getUnreducedAxes(), sharding.getUnreducedKind());
  } else {
    // The mesh whose axes the list names (Config.cpp checked they are of
    // one mesh); the first mesh when it names none.
    mesh = &config.topology.front();
    for (const std::vector<std::string> &axes : spec.dims)
      for (const std::string &axis : axes)
        for (const TopologyMesh &candidate : config.topology)
          if (llvm::any_of(candidate.axes, [&](const auto &entry) {
                return entry.first == axis;
              }))
            mesh = &candidate;
    SmallVector<sdy::DimensionShardingAttr> dims;
    for (const std::vector<std::string> &axes : spec.dims) {
      SmallVector<sdy::AxisRefAttr> refs;
      for (const std::string &axis : axes)
        refs.push_back(sdy::AxisRefAttr::get(ctx, axis, nullptr));
      dims.push_back(sdy::DimensionShardingAttr::get(ctx, refs,
                                                     /*isClosed=*/true,
                                                     std::nullopt));
    }
    sharding = sdy::TensorShardingAttr::get(
        ctx, FlatSymbolRefAttr::get(ctx, getMeshSymbol(config, *mesh)), dims,
        {}, {});
  }
  diagnostic.clear();
  if (failed(sharding.verifyForMesh(
          buildMesh(ctx, *mesh), type,
          [&] { return emitError(UnknownLoc::get(ctx)); },
          /*checkDivisibility=*/true)))
    return makeError(spec.path, diagnostic + " (for " + what + " of type " +
                                    print(TypeAttr::get(type)).substr(0) + ")");
  return sharding;
}

/// The fsdp sharding of a value of `type`: its largest dimension that the
/// axes divide (the first of equal ones) sharded over them; none when
/// there is no such dimension or the value is smaller than `minSize`.
sdy::TensorShardingAttr getFsdpSharding(const ShardingRule &rule, Type type,
                                        const Config &config) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return nullptr;
  std::optional<int64_t> elements = checkedProduct(tensor.getShape());
  if (!elements || *elements < rule.minSize)
    return nullptr;
  const TopologyMesh *mesh = nullptr;
  for (const TopologyMesh &candidate : config.topology)
    if (!mesh && llvm::any_of(candidate.axes, [&](const auto &entry) {
          return entry.first == rule.fsdpAxes.front();
        }))
      mesh = &candidate;
  int64_t shards = 1;
  for (const std::string &axis : rule.fsdpAxes)
    for (const auto &[name, size] : mesh->axes)
      if (name == axis)
        shards *= size;
  int64_t best = -1;
  for (auto [dim, size] : llvm::enumerate(tensor.getShape()))
    if (size % shards == 0 && size > 0 &&
        (best < 0 || size > tensor.getDimSize(best)))
      best = dim;
  if (best < 0)
    return nullptr;
  MLIRContext *ctx = type.getContext();
  SmallVector<sdy::DimensionShardingAttr> dims;
  for (int64_t dim : llvm::seq<int64_t>(0, tensor.getRank())) {
    SmallVector<sdy::AxisRefAttr> refs;
    if (dim == best)
      for (const std::string &axis : rule.fsdpAxes)
        refs.push_back(sdy::AxisRefAttr::get(ctx, axis, nullptr));
    dims.push_back(
        sdy::DimensionShardingAttr::get(ctx, refs, true, std::nullopt));
  }
  return sdy::TensorShardingAttr::get(
      ctx, FlatSymbolRefAttr::get(ctx, getMeshSymbol(config, *mesh)), dims, {},
      {});
}

/// Checks that `resolved` agrees with the sharding the program gives the
/// value (`existing`, may be null).
llvm::Error checkAgainstProgram(sdy::TensorShardingAttr resolved,
                                sdy::TensorShardingAttr existing,
                                const std::string &path,
                                const llvm::Twine &what) {
  if (!resolved || !existing || resolved == existing)
    return llvm::Error::success();
  return makeError(path, "gives " + what + " " + print(resolved) +
                             ", but the program gives it " + print(existing));
}

} // namespace

bool ResolvedShardings::empty() const {
  return llvm::all_of(inputs, [](auto s) { return !s; }) &&
         llvm::all_of(outputs, [](auto s) { return !s; });
}

std::string getInputName(func::FuncOp main, unsigned index) {
  Location loc = main.getArgument(index).getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto name = dyn_cast<NameLoc>(inner))
        return name.getName().str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return {};
}

llvm::Expected<ResolvedShardings> resolveShardings(func::FuncOp main,
                                                   const Config &config) {
  ResolvedShardings resolved;
  unsigned numInputs = main.getNumArguments();
  unsigned numOutputs = main.getNumResults();
  for (auto [field, list, count] :
       {std::tuple{"in_shardings", &config.inShardings, numInputs},
        std::tuple{"out_shardings", &config.outShardings, numOutputs}})
    if (list->size() > count)
      return makeError(
          "config." + llvm::Twine(field) + "[" + llvm::Twine(count) + "]",
          "@main has " + llvm::Twine(count) + " " +
              (list == &config.inShardings ? "inputs" : "outputs"));

  std::vector<llvm::Regex> patterns;
  for (const ShardingRule &rule : config.shardingRules)
    patterns.emplace_back(rule.pattern);
  std::vector<bool> ruleMatched(config.shardingRules.size(), false);
  std::vector<std::string> names;
  for (unsigned index = 0; index < numInputs; ++index) {
    Type type = main.getArgumentTypes()[index];
    std::string what = describeInput(main, index);
    std::string name = getInputName(main, index);
    names.push_back(name);
    // A regex that finds no name is a mistake, even where an earlier rule
    // decides.
    for (auto [ruleIndex, rule] : llvm::enumerate(config.shardingRules))
      if (rule.fsdpAxes.empty() && !name.empty() &&
          patterns[ruleIndex].match(name))
        ruleMatched[ruleIndex] = true;
    sdy::TensorShardingAttr explicitSharding, ruleSharding;
    std::string explicitPath, rulePath;
    if (index < config.inShardings.size() && config.inShardings[index]) {
      const ShardingSpec &spec = *config.inShardings[index];
      llvm::Expected<sdy::TensorShardingAttr> sharding =
          resolveSpec(spec, type, config, what);
      if (!sharding)
        return sharding.takeError();
      explicitSharding = *sharding;
      explicitPath = spec.path;
    }
    // The first rule that applies decides. An input in_shardings gives is
    // no parameter for fsdp rules, but a regex that names it must agree.
    for (auto [ruleIndex, rule] : llvm::enumerate(config.shardingRules)) {
      if (!rule.fsdpAxes.empty()) {
        if (explicitSharding)
          continue;
        ruleSharding = getFsdpSharding(rule, type, config);
        if (!ruleSharding)
          continue;
        rulePath = rule.path;
        break;
      }
      if (name.empty() || !patterns[ruleIndex].match(name))
        continue;
      llvm::Expected<sdy::TensorShardingAttr> sharding =
          resolveSpec(rule.sharding, type, config, what);
      if (!sharding)
        return sharding.takeError();
      ruleSharding = *sharding;
      rulePath = rule.path;
      break;
    }
    if (explicitSharding && ruleSharding && explicitSharding != ruleSharding)
      return makeError(explicitPath, "gives " + what + " " +
                                         print(explicitSharding) + ", but " +
                                         rulePath + " gives it " +
                                         print(ruleSharding));
    sdy::TensorShardingAttr sharding =
        explicitSharding ? explicitSharding : ruleSharding;
    auto existing = main.getArgAttrOfType<sdy::TensorShardingAttr>(
        index, kShardingAttrName);
    if (llvm::Error error = checkAgainstProgram(
            sharding, existing, explicitSharding ? explicitPath : rulePath,
            what))
      return std::move(error);
    resolved.inputs.push_back(sharding);
  }
  for (auto [ruleIndex, rule] : llvm::enumerate(config.shardingRules)) {
    if (!rule.fsdpAxes.empty() || ruleMatched[ruleIndex])
      continue;
    std::vector<std::string> named;
    for (const std::string &name : names)
      if (!name.empty())
        named.push_back("'" + name + "'");
    return makeError(rule.path + ".match",
                     "\"" + rule.pattern + "\" matches no input of @main (" +
                         (named.empty()
                              ? std::string("no input has a name: names are "
                                            "the arguments' locations, "
                                            "loc(\"NAME\")")
                              : "inputs are named " + llvm::join(named, ", ")) +
                         ")");
  }
  for (unsigned index = 0; index < numOutputs; ++index) {
    sdy::TensorShardingAttr sharding;
    if (index < config.outShardings.size() && config.outShardings[index]) {
      const ShardingSpec &spec = *config.outShardings[index];
      std::string what = "output " + std::to_string(index);
      llvm::Expected<sdy::TensorShardingAttr> parsed =
          resolveSpec(spec, main.getResultTypes()[index], config, what);
      if (!parsed)
        return parsed.takeError();
      sharding = *parsed;
      if (llvm::Error error = checkAgainstProgram(
              sharding,
              main.getResultAttrOfType<sdy::TensorShardingAttr>(
                  index, kShardingAttrName),
              spec.path, what))
        return std::move(error);
    }
    resolved.outputs.push_back(sharding);
  }
  return resolved;
}

LogicalResult applyShardings(ModuleOp module, func::FuncOp main,
                             const ResolvedShardings &shardings,
                             const Config &config) {
  if (shardings.empty())
    return success();
  MLIRContext *ctx = module.getContext();
  // The meshes the shardings name, declared where missing.
  llvm::SmallSetVector<StringRef, 4> symbols;
  for (const auto *list : {&shardings.inputs, &shardings.outputs})
    for (sdy::TensorShardingAttr sharding : *list)
      if (sharding)
        symbols.insert(sharding.getMeshName());
  SymbolTable table(module);
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  for (StringRef symbol : symbols) {
    sdy::MeshAttr mesh = buildMesh(ctx, *findShardingMesh(config, symbol));
    if (auto existing = table.lookup<sdy::MeshOp>(symbol)) {
      if (existing.getMesh() != mesh)
        return existing.emitError("sdy.mesh @")
               << symbol << " is " << existing.getMesh()
               << ", but the config's shardings need " << mesh;
      continue;
    }
    table.insert(sdy::MeshOp::create(builder, module.getLoc(), symbol, mesh));
  }
  // Set once per list: per-index setters rebuild all argument attributes.
  auto existingOr = [](sdy::TensorShardingAttr sharding, Attribute existing) {
    return sharding ? Attribute(sharding) : existing;
  };
  setArgAttrs(main, kShardingAttrName, [&](unsigned index) {
    return existingOr(shardings.inputs[index],
                      main.getArgAttr(index, kShardingAttrName));
  });
  setResultAttrs(main, kShardingAttrName, [&](unsigned index) {
    return existingOr(shardings.outputs[index],
                      main.getResultAttr(index, kShardingAttrName));
  });
  return success();
}

} // namespace mlir::mpmd::driver
