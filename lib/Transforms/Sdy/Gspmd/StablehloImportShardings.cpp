//===- StablehloImportShardings.cpp - -xla-sdy-stablehlo-import-shardings -===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Gspmd/HloSharding.h"
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_STABLEHLOIMPORTSHARDINGSPASS
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h.inc"

namespace {

using gspmd::DeviceLayout;
using gspmd::DevicePiece;
using gspmd::HloSharding;
using gspmd::SubgroupKind;

/// Where a sharding string sits: a function argument or result, or an op.
struct Site {
  Operation *op = nullptr;
  enum class Kind { kArgument, kResult, kOp } kind = Kind::kOp;
  unsigned index = 0;
  StringRef text;

  Location getLoc() const {
    auto func = dyn_cast<func::FuncOp>(op);
    if (kind == Kind::kArgument && func && !func.isExternal())
      return func.getArgument(index).getLoc();
    return op->getLoc();
  }
};

/// One mesh being built: its device count and order, and the boundaries of
/// its axes in that order (strides, see gspmd::getCommonAxisSizes).
struct MeshBuild {
  int64_t deviceCount = 1;
  SmallVector<int64_t> deviceOrder;
  SmallVector<int64_t> boundaries;
  SmallVector<int64_t> axisSizes;
  FlatSymbolRefAttr symbol;
  MeshAttr mesh;

  /// The axes (major first) a piece steps over.
  SmallVector<StringRef> getAxes(const DevicePiece &piece) const {
    SmallVector<StringRef> names;
    // Axis k (major first) spans strides [boundaries[m-k-1], boundaries[m-k]).
    size_t count = axisSizes.size();
    for (size_t k = 0; k < count; ++k) {
      int64_t low = boundaries[count - k - 1];
      int64_t high = boundaries[count - k];
      if (low >= piece.stride && high <= piece.stride * piece.size)
        names.push_back(mesh.getAxes()[k].getName());
    }
    return names;
  }
};

std::string getAxisName(size_t index) {
  return "axis_" + std::to_string(index);
}

class StablehloImportShardingsPass
    : public impl::StablehloImportShardingsPassBase<
          StablehloImportShardingsPass> {
  using StablehloImportShardingsPassBase::StablehloImportShardingsPassBase;

  void runOnOperation() override;

  /// Every parsed string; entries stay where they are.
  llvm::StringMap<HloSharding> parsed;
  /// The layout and mesh of every tiled sharding (tuple elements too).
  DenseMap<const HloSharding *, std::pair<DeviceLayout, size_t>> layouts;
  std::vector<MeshBuild> meshes;
  /// Meshes of `{maximal device=D}`, by D.
  std::map<int64_t, FlatSymbolRefAttr> maximalMeshes;
  /// The mesh of replicated and manual shardings.
  std::optional<size_t> primaryMesh;

  LogicalResult collect(ModuleOp module, SmallVectorImpl<Site> &sites);
  LogicalResult checkDeviceCounts(ModuleOp module, ArrayRef<Site> sites);
  void addLayout(const HloSharding &sharding);
  void createMeshes(ModuleOp module, std::optional<int64_t> numPartitions);

  /// The sdy sharding of `sharding` (not a tuple) for a value of `type`,
  /// and the manual axes it names; a null sharding when it gives none.
  LogicalResult convert(const HloSharding &sharding, Type type, Location loc,
                        TensorShardingAttr &result,
                        SmallVectorImpl<StringAttr> &manualAxes);
  LogicalResult apply(const Site &site);
};

void forEachLeaf(const HloSharding &sharding,
                 function_ref<void(const HloSharding &)> fn) {
  if (sharding.kind == HloSharding::Kind::kTuple) {
    for (const HloSharding &element : sharding.elements)
      forEachLeaf(element, fn);
    return;
  }
  fn(sharding);
}

LogicalResult
StablehloImportShardingsPass::collect(ModuleOp module,
                                      SmallVectorImpl<Site> &sites) {
  bool failed = false;
  auto add = [&](Site site, Attribute attr) {
    auto text = dyn_cast<StringAttr>(attr);
    if (!text) {
      emitError(site.getLoc())
          << kHloShardingAttrName << " must be a string, got " << attr;
      failed = true;
      return;
    }
    site.text = text.getValue();
    auto [it, inserted] = parsed.try_emplace(site.text);
    if (inserted) {
      llvm::Expected<HloSharding> sharding = gspmd::parseHloSharding(site.text);
      if (!sharding) {
        emitError(site.getLoc())
            << "invalid " << kHloShardingAttrName << " \"" << site.text
            << "\": " << llvm::toString(sharding.takeError());
        parsed.erase(it);
        failed = true;
        return;
      }
      it->second = std::move(*sharding);
    }
    sites.push_back(site);
  };
  module.walk([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (Attribute attr = func.getArgAttr(i, kHloShardingAttrName))
          add({op, Site::Kind::kArgument, i, {}}, attr);
      for (unsigned i = 0; i < func.getNumResults(); ++i)
        if (Attribute attr = func.getResultAttr(i, kHloShardingAttrName))
          add({op, Site::Kind::kResult, i, {}}, attr);
    }
    if (Attribute attr = op->getAttr(kHloShardingAttrName))
      add({op, Site::Kind::kOp, 0, {}}, attr);
  });
  return success(!failed);
}

LogicalResult
StablehloImportShardingsPass::checkDeviceCounts(ModuleOp module,
                                                ArrayRef<Site> sites) {
  auto numPartitions =
      module->getAttrOfType<IntegerAttr>("mhlo.num_partitions");
  if (!numPartitions)
    return success();
  int64_t count = numPartitions.getInt();
  bool failed = false;
  for (const Site &site : sites)
    forEachLeaf(parsed.find(site.text)->second, [&](const HloSharding &leaf) {
      if (leaf.kind == HloSharding::Kind::kTiled &&
          leaf.getDeviceCount() != count) {
        emitError(site.getLoc())
            << kHloShardingAttrName << " \"" << site.text << "\" tiles over "
            << leaf.getDeviceCount()
            << " devices, but the module has mhlo.num_partitions = " << count;
        failed = true;
      } else if (leaf.kind == HloSharding::Kind::kMaximal &&
                 leaf.device >= count) {
        emitError(site.getLoc())
            << kHloShardingAttrName << " \"" << site.text << "\" names device "
            << leaf.device
            << ", but the module has mhlo.num_partitions = " << count;
        failed = true;
      }
    });
  return success(!failed);
}

void StablehloImportShardingsPass::addLayout(const HloSharding &sharding) {
  if (layouts.count(&sharding))
    return;
  DeviceLayout layout = gspmd::computeDeviceLayout(sharding);
  SmallVector<int64_t> boundaries = gspmd::getBoundaries(layout);
  // The first mesh of the same devices whose axes can refine this layout's
  // too; else a new one.
  for (auto [index, mesh] : llvm::enumerate(meshes)) {
    if (mesh.deviceCount != layout.deviceCount ||
        mesh.deviceOrder != layout.deviceOrder)
      continue;
    SmallVector<int64_t> merged(mesh.boundaries);
    merged.append(boundaries);
    std::optional<SmallVector<int64_t>> sizes =
        gspmd::getCommonAxisSizes(merged);
    if (!sizes)
      continue;
    llvm::sort(merged);
    merged.erase(llvm::unique(merged), merged.end());
    mesh.boundaries = std::move(merged);
    mesh.axisSizes = std::move(*sizes);
    layouts.try_emplace(&sharding, std::move(layout), index);
    return;
  }
  MeshBuild mesh;
  mesh.deviceCount = layout.deviceCount;
  mesh.deviceOrder = layout.deviceOrder;
  mesh.axisSizes = *gspmd::getCommonAxisSizes(boundaries);
  mesh.boundaries = std::move(boundaries);
  meshes.push_back(std::move(mesh));
  layouts.try_emplace(&sharding, std::move(layout), meshes.size() - 1);
}

void StablehloImportShardingsPass::createMeshes(
    ModuleOp module, std::optional<int64_t> numPartitions) {
  MLIRContext *ctx = module.getContext();
  // Iota order first: the primary mesh is `@mesh` when there is one.
  for (auto [index, mesh] : llvm::enumerate(meshes))
    if (mesh.deviceOrder.empty() &&
        (!numPartitions || mesh.deviceCount == *numPartitions)) {
      primaryMesh = index;
      break;
    }
  if (!primaryMesh && !meshes.empty()) {
    primaryMesh = 0;
  } else if (!primaryMesh) {
    // Only replicated or manual shardings: one axis over all devices.
    MeshBuild mesh;
    mesh.deviceCount = numPartitions.value_or(1);
    if (mesh.deviceCount > 1) {
      mesh.boundaries = {1, mesh.deviceCount};
      mesh.axisSizes = {mesh.deviceCount};
    } else {
      mesh.boundaries = {1};
    }
    meshes.push_back(std::move(mesh));
    primaryMesh = meshes.size() - 1;
  }
  SymbolTable symbols(module);
  Block &body = *module.getBody();
  auto insertionPoint = body.begin();
  while (insertionPoint != body.end() && isa<MeshOp>(*insertionPoint))
    ++insertionPoint;
  OpBuilder builder(ctx);
  builder.setInsertionPoint(&body, insertionPoint);
  auto createMesh = [&](StringRef name, MeshAttr attr) {
    auto op = MeshOp::create(builder, module.getLoc(), name, attr);
    // Uniqued against what the module already has: `mesh_0`, `mesh_1`, ...
    symbols.insert(op);
    return FlatSymbolRefAttr::get(op.getSymNameAttr());
  };
  std::vector<size_t> order = {*primaryMesh};
  for (size_t index = 0; index < meshes.size(); ++index)
    if (index != *primaryMesh)
      order.push_back(index);
  for (size_t index : order) {
    MeshBuild &mesh = meshes[index];
    SmallVector<MeshAxisAttr> axes;
    for (auto [axis, size] : llvm::enumerate(mesh.axisSizes))
      axes.push_back(MeshAxisAttr::get(ctx, getAxisName(axis), size));
    mesh.mesh = MeshAttr::get(ctx, axes, mesh.deviceOrder);
    mesh.symbol = createMesh("mesh", mesh.mesh);
  }
  for (auto &[device, symbol] : maximalMeshes)
    symbol = createMesh(("maximal_mesh_" + llvm::Twine(device)).str(),
                        MeshAttr::get(ctx, {}, {device}));
}

LogicalResult
StablehloImportShardingsPass::convert(const HloSharding &sharding, Type type,
                                      Location loc, TensorShardingAttr &result,
                                      SmallVectorImpl<StringAttr> &manualAxes) {
  MLIRContext *ctx = type.getContext();
  result = nullptr;
  auto tensorType = dyn_cast<RankedTensorType>(type);
  const MeshBuild &primary = meshes[*primaryMesh];
  auto allAxes = [&](const MeshBuild &mesh) {
    for (MeshAxisAttr axis : mesh.mesh.getAxes())
      manualAxes.push_back(StringAttr::get(ctx, axis.getName()));
  };
  switch (sharding.kind) {
  case HloSharding::Kind::kUnknown:
  case HloSharding::Kind::kTuple:
    return success();
  case HloSharding::Kind::kManual:
    allAxes(primary);
    return success();
  case HloSharding::Kind::kMaximal:
    result = TensorShardingAttr::get(ctx, maximalMeshes.at(sharding.device), {},
                                     {}, {});
    return success();
  case HloSharding::Kind::kReplicated: {
    // Tokens and other non-tensors carry no sharding.
    if (!tensorType)
      return success();
    SmallVector<DimensionShardingAttr> dims(
        tensorType.getRank(),
        DimensionShardingAttr::get(ctx, {}, /*isClosed=*/true, std::nullopt));
    result = TensorShardingAttr::get(ctx, primary.symbol, dims, {}, {});
    return success();
  }
  case HloSharding::Kind::kTiled:
    break;
  }
  if (!tensorType)
    return emitError(loc) << "a tiled " << kHloShardingAttrName
                          << " on a value of type " << type;
  if (sharding.getDataRank() != tensorType.getRank())
    return emitError(loc) << kHloShardingAttrName << " has "
                          << sharding.getDataRank()
                          << " data tile dimensions for a tensor of rank "
                          << tensorType.getRank();
  const auto &[layout, meshIndex] = layouts.at(&sharding);
  const MeshBuild &mesh = meshes[meshIndex];
  SmallVector<DimensionShardingAttr> dims;
  for (int64_t dim = 0; dim < sharding.getDataRank(); ++dim) {
    SmallVector<AxisRefAttr> axes;
    for (const DevicePiece &piece : layout.dimPieces[dim])
      for (StringRef axis : mesh.getAxes(piece))
        axes.push_back(AxisRefAttr::get(ctx, axis, nullptr));
    dims.push_back(
        DimensionShardingAttr::get(ctx, axes, /*isClosed=*/true, std::nullopt));
  }
  for (auto [subgroup, kind] : llvm::enumerate(sharding.subgroups)) {
    if (kind != SubgroupKind::kManual)
      continue;
    for (const DevicePiece &piece :
         layout.dimPieces[sharding.getDataRank() + subgroup])
      for (StringRef axis : mesh.getAxes(piece))
        manualAxes.push_back(StringAttr::get(ctx, axis));
  }
  result = TensorShardingAttr::get(ctx, mesh.symbol, dims, {}, {});
  return success();
}

bool isShardMapCustomCall(Operation *op) {
  auto call = dyn_cast<stablehlo::CustomCallOp>(op);
  if (!call)
    return false;
  StringRef target = call.getCallTargetName();
  return target == kShardingCustomCallTarget ||
         target == kFullToShardCustomCallTarget ||
         target == kShardToFullCustomCallTarget;
}

LogicalResult StablehloImportShardingsPass::apply(const Site &site) {
  const HloSharding &sharding = parsed.find(site.text)->second;
  MLIRContext *ctx = site.op->getContext();
  Location loc = site.getLoc();
  auto addGroup = [&](OpBuilder &builder, Value value) {
    if (sharding.shardGroup && isa<RankedTensorType>(value.getType()))
      ShardingGroupOp::create(builder, loc, value,
                              builder.getI64IntegerAttr(*sharding.shardGroup));
  };
  if (site.kind != Site::Kind::kOp) {
    auto func = cast<func::FuncOp>(site.op);
    bool isArgument = site.kind == Site::Kind::kArgument;
    Type type = isArgument ? func.getArgumentTypes()[site.index]
                           : func.getResultTypes()[site.index];
    if (sharding.kind == HloSharding::Kind::kTuple)
      return emitError(loc)
             << "a tuple " << kHloShardingAttrName << " on a function "
             << (isArgument ? "argument" : "result") << " of type " << type;
    TensorShardingAttr converted;
    SmallVector<StringAttr> manualAxes;
    if (failed(convert(sharding, type, loc, converted, manualAxes)))
      return failure();
    if (isArgument) {
      func.removeArgAttr(site.index, kHloShardingAttrName);
      if (converted)
        func.setArgAttr(site.index, SdyDialect::kShardingAttrName, converted);
      if (!func.isExternal()) {
        OpBuilder builder = OpBuilder::atBlockBegin(&func.front());
        addGroup(builder, func.getArgument(site.index));
      }
    } else {
      func.removeResultAttr(site.index,
                            StringAttr::get(ctx, kHloShardingAttrName));
      if (converted)
        func.setResultAttr(site.index, SdyDialect::kShardingAttrName,
                           converted);
      if (!func.isExternal())
        for (Block &block : func.getBody())
          if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator())) {
            OpBuilder builder(ret);
            addGroup(builder, ret.getOperand(site.index));
          }
    }
    return success();
  }

  Operation *op = site.op;
  op->removeAttr(kHloShardingAttrName);
  unsigned numResults = op->getNumResults();
  SmallVector<const HloSharding *> leaves;
  if (sharding.kind == HloSharding::Kind::kTuple) {
    if (sharding.elements.size() != numResults)
      return emitError(loc)
             << "a tuple " << kHloShardingAttrName << " of "
             << sharding.elements.size() << " elements on an op with "
             << numResults << " results";
    for (const HloSharding &element : sharding.elements)
      leaves.push_back(&element);
  } else if (numResults == 1) {
    leaves.push_back(&sharding);
  } else if (numResults > 1) {
    return emitError(loc) << "an op with " << numResults << " results needs "
                          << "a tuple " << kHloShardingAttrName;
  }
  SmallVector<TensorShardingAttr> converted;
  SmallVector<StringAttr> manualAxes;
  Attribute anyMesh;
  for (auto [leaf, result] : llvm::zip_equal(leaves, op->getResults())) {
    if (leaf->kind == HloSharding::Kind::kTuple)
      return emitError(loc) << "a nested tuple " << kHloShardingAttrName
                            << " for a result of type " << result.getType();
    TensorShardingAttr resultSharding;
    if (failed(
            convert(*leaf, result.getType(), loc, resultSharding, manualAxes)))
      return failure();
    if (resultSharding && !anyMesh)
      anyMesh = resultSharding.getMeshOrRef();
    converted.push_back(resultSharding);
  }
  if (anyMesh) {
    for (auto [value, result] : llvm::zip_equal(converted, op->getResults()))
      if (!value)
        value = TensorShardingAttr::getFullyOpen(
            ctx, anyMesh,
            isa<RankedTensorType>(result.getType())
                ? cast<RankedTensorType>(result.getType()).getRank()
                : 0);
    op->setAttr(SdyDialect::kShardingAttrName,
                TensorShardingPerValueAttr::get(ctx, converted));
  }
  if (!manualAxes.empty() && isShardMapCustomCall(op)) {
    llvm::sort(manualAxes, [](StringAttr a, StringAttr b) {
      return a.getValue() < b.getValue();
    });
    manualAxes.erase(llvm::unique(manualAxes), manualAxes.end());
    op->setAttr(kGspmdManualAxesAttrName, ManualAxesAttr::get(ctx, manualAxes));
  }
  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(op);
  for (Value result : op->getResults())
    addGroup(builder, result);
  return success();
}

void StablehloImportShardingsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<Site> sites;
  if (failed(collect(module, sites)) ||
      failed(checkDeviceCounts(module, sites)))
    return signalPassFailure();
  if (sites.empty())
    return;
  for (const Site &site : sites)
    forEachLeaf(parsed.find(site.text)->second, [&](const HloSharding &leaf) {
      if (leaf.kind == HloSharding::Kind::kTiled)
        addLayout(leaf);
      else if (leaf.kind == HloSharding::Kind::kMaximal)
        maximalMeshes[leaf.device];
    });
  std::optional<int64_t> numPartitions;
  if (auto attr = module->getAttrOfType<IntegerAttr>("mhlo.num_partitions"))
    numPartitions = attr.getInt();
  createMeshes(module, numPartitions);
  bool failed = false;
  for (const Site &site : sites)
    failed |= mlir::failed(apply(site));
  if (failed)
    signalPassFailure();
}

} // namespace
} // namespace mlir::sdy
