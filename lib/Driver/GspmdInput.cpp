//===- GspmdInput.cpp - Programs written for GSPMD ------------------------===//

#include "mpmd/Driver/GspmdInput.h"

#include "mpmd/Dialect/Sdy/IR/AxisRefUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::mpmd::driver {

namespace {

/// The symbol of the topology's common mesh (as ConfigShardings.cpp).
constexpr StringLiteral kCommonMeshName = "mesh";

/// Stride ranges [low, high) of the axes of an iota mesh, major first.
SmallVector<std::pair<int64_t, int64_t>> getAxisRanges(sdy::MeshAttr mesh) {
  SmallVector<std::pair<int64_t, int64_t>> ranges(mesh.getAxes().size());
  int64_t stride = 1;
  for (size_t i = ranges.size(); i-- > 0;) {
    int64_t size = mesh.getAxes()[i].getSize();
    ranges[i] = {stride, stride * size};
    stride *= size;
  }
  return ranges;
}

/// For each axis of `from`, the (sub-)axes of `to` over the same devices;
/// none when some piece is not a sub-axis.
std::optional<llvm::StringMap<SmallVector<sdy::AxisRefAttr>>>
mapAxes(sdy::MeshAttr from, sdy::MeshAttr to) {
  llvm::StringMap<SmallVector<sdy::AxisRefAttr>> mapping;
  auto toRanges = getAxisRanges(to);
  for (auto [axis, range] :
       llvm::zip_equal(from.getAxes(), getAxisRanges(from))) {
    SmallVector<sdy::AxisRefAttr> &refs = mapping[axis.getName()];
    for (auto [target, targetRange] : llvm::zip_equal(to.getAxes(), toRanges)) {
      int64_t low = std::max(range.first, targetRange.first);
      int64_t high = std::min(range.second, targetRange.second);
      if (low >= high)
        continue;
      // [low, high) must nest in the target axis's digits.
      if (low % targetRange.first != 0 || high % low != 0 ||
          targetRange.second % high != 0)
        return std::nullopt;
      refs.push_back(sdy::getAxisRef(to, target.getName(),
                                     targetRange.second / high, high / low));
    }
  }
  return mapping;
}

/// The device at each position of `mesh`, the iota order spelled out.
SmallVector<int64_t> getDeviceOrder(sdy::MeshAttr mesh) {
  if (!mesh.getDeviceIds().empty())
    return SmallVector<int64_t>(mesh.getDeviceIds());
  return llvm::to_vector(llvm::seq<int64_t>(0, mesh.getTotalSize()));
}

} // namespace

LogicalResult importGspmdShardings(ModuleOp module, const Config &config) {
  if (!sdy::hasGspmdShardings(module))
    return success();
  MLIRContext *ctx = module.getContext();
  llvm::StringSet<> existingMeshes;
  for (auto mesh : module.getOps<sdy::MeshOp>())
    existingMeshes.insert(mesh.getSymName());
  PassManager pm(ctx, ModuleOp::getOperationName());
  sdy::addStablehloImportPipeline(pm);
  if (failed(pm.run(module)))
    return failure();

  SmallVector<sdy::MeshOp> imported;
  for (auto mesh : module.getOps<sdy::MeshOp>())
    if (!existingMeshes.contains(mesh.getSymName()))
      imported.push_back(mesh);
  if (imported.empty())
    return success();
  if (!config.isHomogeneous())
    return module.emitError("a GSPMD program (mhlo.sharding) needs a "
                            "topology whose meshes have one shape");
  const TopologyMesh &topologyMesh = config.topology.front();
  SmallVector<sdy::MeshAxisAttr> targetAxes;
  for (const auto &[name, size] : topologyMesh.axes)
    targetAxes.push_back(sdy::MeshAxisAttr::get(ctx, name, size));
  auto target =
      sdy::MeshAttr::get(ctx, targetAxes, topologyMesh.deviceIds);
  for (sdy::MeshOp mesh : imported) {
    sdy::MeshAttr attr = mesh.getMesh();
    if (attr.getAxes().empty() && attr.getDeviceIds().size() == 1)
      return mesh.emitError("single-device shardings ({maximal device=")
             << attr.getDeviceIds().front()
             << "}) are not supported: each mpmd mesh runs SPMD";
  }
  if (imported.size() > 1)
    return imported[1].emitError(
               "the GSPMD shardings need several device layouts (")
           << imported.front().getMesh() << " and " << imported[1].getMesh()
           << "); mpmd compile lays one onto the topology's mesh";
  sdy::MeshOp mesh = imported.front();
  sdy::MeshAttr source = mesh.getMesh();
  if (source.getTotalSize() != target.getTotalSize() &&
      !source.getAxes().empty())
    return mesh.emitError("the GSPMD shardings are over ")
           << source.getTotalSize() << " devices, but mesh '"
           << topologyMesh.name << "' " << target << " has "
           << target.getTotalSize();
  // The axes are laid on position by position (they nest in the same
  // linear order), so position p must be the same device on both meshes.
  if (!source.getAxes().empty() &&
      getDeviceOrder(source) != getDeviceOrder(target))
    return mesh.emitError("the GSPMD device order ")
           << source << " differs from that of mesh '" << topologyMesh.name
           << "' " << target
           << " (give the mesh these device_ids in the topology)";
  std::optional<llvm::StringMap<SmallVector<sdy::AxisRefAttr>>> mapping =
      mapAxes(source, target);
  if (!mapping)
    return mesh.emitError("the GSPMD mesh ")
           << source << " cannot be laid onto mesh '" << topologyMesh.name
           << "' " << target << ": its axes do not nest";

  StringRef sourceName = mesh.getSymName();
  auto targetRef = FlatSymbolRefAttr::get(ctx, kCommonMeshName);
  auto mapList = [&](ArrayRef<sdy::AxisRefAttr> axes) {
    SmallVector<sdy::AxisRefAttr> mapped;
    for (sdy::AxisRefAttr axis : axes)
      llvm::append_range(mapped, mapping->lookup(axis.getName()));
    return sdy::mergeNeighbours(mapped, target);
  };
  std::string manualError;
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](sdy::TensorShardingAttr sharding)
                              -> std::optional<Attribute> {
    if (sharding.getMeshName() != sourceName)
      return std::nullopt;
    SmallVector<sdy::DimensionShardingAttr> dims;
    for (sdy::DimensionShardingAttr dim : sharding.getDimShardings())
      dims.push_back(sdy::DimensionShardingAttr::get(
          ctx, mapList(dim.getAxes()), dim.getIsClosed(), dim.getPriority()));
    return sdy::TensorShardingAttr::get(
        ctx, targetRef, dims, mapList(sharding.getReplicatedAxes()),
        mapList(sharding.getUnreducedAxes()), sharding.getUnreducedKind());
  });
  replacer.addReplacement(
      [&](sdy::ManualAxesAttr manualAxes) -> std::optional<Attribute> {
        SmallVector<sdy::AxisRefAttr> refs;
        for (StringAttr axis : manualAxes.getValue())
          if (!mapping->contains(axis.getValue()))
            return std::nullopt; // Another mesh's manual computation.
        for (StringAttr axis : manualAxes.getValue())
          refs.push_back(sdy::AxisRefAttr::get(ctx, axis.getValue(), nullptr));
        SmallVector<StringAttr> names;
        for (sdy::AxisRefAttr ref : mapList(refs)) {
          if (ref.getSubAxisInfo() && manualError.empty())
            manualError = "manual axes " + sdy::formatAxes(refs) +
                          " are part of axis \"" + ref.getName().str() +
                          "\" of mesh '" + topologyMesh.name + "'";
          names.push_back(StringAttr::get(ctx, ref.getName()));
        }
        return sdy::ManualAxesAttr::get(ctx, names);
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  if (!manualError.empty())
    return module.emitError(manualError);
  if (sourceName == kCommonMeshName) {
    mesh.setMeshAttr(target);
  } else {
    SymbolTable symbols(module);
    if (auto common = symbols.lookup<sdy::MeshOp>(kCommonMeshName)) {
      if (common.getMesh() != target)
        return common.emitError("sdy.mesh @")
               << kCommonMeshName << " is " << common.getMesh()
               << ", but the GSPMD shardings are laid onto " << target;
      mesh.erase();
    } else {
      mesh.setMeshAttr(target);
      mesh.setSymName(kCommonMeshName);
    }
  }
  return success();
}

} // namespace mlir::mpmd::driver
