//===- GenerateSdyMeshesFromTopology.cpp ----------------------------------===//
//
// -mpmd-generate-sdy-meshes-from-topology
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_GENERATESDYMESHESFROMTOPOLOGYPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

constexpr StringLiteral kEmptyMeshName = "empty_mesh";

/// Every axis a sharding names, in order: dimension axes, then replicated,
/// then unreduced.
SmallVector<StringRef> getAxisNames(sdy::TensorShardingAttr sharding) {
  SmallVector<StringRef> names;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings())
    for (sdy::AxisRefAttr axis : dim.getAxes())
      names.push_back(axis.getName());
  for (sdy::AxisRefAttr axis : sharding.getReplicatedAxes())
    names.push_back(axis.getName());
  for (sdy::AxisRefAttr axis : sharding.getUnreducedAxes())
    names.push_back(axis.getName());
  return names;
}

/// The topology mesh whose `<name>_` is the longest prefix of `axis`, or an
/// empty string.
StringRef getMeshOfAxis(StringRef axis, TopologyAttr topology) {
  StringRef best;
  for (NamedMeshAttr mesh : topology.getMeshes())
    if (axis.size() > mesh.getName().size() &&
        axis.starts_with(mesh.getName()) &&
        axis[mesh.getName().size()] == '_' &&
        mesh.getName().size() > best.size())
      best = mesh.getName();
  return best;
}

/// Where `sharding` goes: the name of an `sdy.mesh`, with an error message
/// instead when its axes do not name exactly one topology mesh.
FailureOr<StringRef> getTargetMesh(sdy::TensorShardingAttr sharding,
                                   TopologyAttr topology,
                                   std::string &error) {
  SmallVector<StringRef> axes = getAxisNames(sharding);
  if (axes.empty())
    return StringRef(kEmptyMeshName);
  StringRef target;
  for (StringRef axis : axes) {
    StringRef mesh = getMeshOfAxis(axis, topology);
    if (mesh.empty()) {
      error = ("axis \"" + axis +
               "\" of a sharding does not start with the name of a topology "
               "mesh followed by '_' (heterogeneous meshes need axes named "
               "<mesh>_<axis>)")
                  .str();
      return failure();
    }
    if (!target.empty() && mesh != target) {
      error = ("a sharding uses axes of two meshes, \"" + target + "\" and \"" +
               mesh + "\"")
                  .str();
      return failure();
    }
    target = mesh;
  }
  // The re-pointed sharding must verify against the topology mesh.
  for (NamedMeshAttr mesh : topology.getMeshes()) {
    if (mesh.getName() != target)
      continue;
    for (StringRef axis : axes)
      if (!llvm::any_of(mesh.getMesh().getAxes(), [&](sdy::MeshAxisAttr known) {
            return known.getName() == axis;
          })) {
        error = ("axis \"" + axis + "\" of a sharding is not an axis of "
                 "topology mesh \"" + target + "\"")
                    .str();
        return failure();
      }
  }
  return target;
}

/// Empty and maximal meshes say nothing about a topology mesh: kept.
bool isKeptMesh(sdy::MeshAttr mesh) {
  return mesh.getAxes().empty() && mesh.getDeviceIds().size() <= 1;
}

class GenerateSdyMeshesFromTopologyPass
    : public impl::GenerateSdyMeshesFromTopologyPassBase<
          GenerateSdyMeshesFromTopologyPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp main = getMainFunction(module);
    TopologyAttr topology = main ? getTopology(main) : TopologyAttr();
    if (!topology) {
      module.emitError("mpmd-generate-sdy-meshes-from-topology needs a main "
                       "function with a topology");
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();

    // Check every sharding first, so that errors point at the op holding it.
    bool usesEmptyMesh = false;
    bool failed = false;
    module.walk([&](Operation *op) {
      auto check = [&](sdy::TensorShardingAttr sharding) {
        std::string error;
        FailureOr<StringRef> target = getTargetMesh(sharding, topology, error);
        if (llvm::failed(target)) {
          op->emitError(error);
          failed = true;
          return;
        }
        usesEmptyMesh |= *target == kEmptyMeshName;
      };
      AttrTypeWalker walker;
      walker.addWalk(check);
      walker.walk(op->getRawDictionaryAttrs());
      if (Attribute properties = op->getPropertiesAsAttribute())
        walker.walk(properties);
      for (Type type : op->getResultTypes())
        walker.walk(type);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            walker.walk(arg.getType());
    });
    if (failed)
      return signalPassFailure();

    // Replace the meshes.
    SymbolTable symbols(module);
    for (auto mesh : llvm::make_early_inc_range(module.getOps<sdy::MeshOp>()))
      if (!isKeptMesh(mesh.getMesh()))
        mesh.erase();
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    for (NamedMeshAttr mesh : topology.getMeshes())
      sdy::MeshOp::create(builder, module.getLoc(), mesh.getName(),
                          mesh.getMesh());
    if (usesEmptyMesh && !symbols.lookup(kEmptyMeshName))
      sdy::MeshOp::create(builder, module.getLoc(), kEmptyMeshName,
                          sdy::MeshAttr::get(ctx, {}, {}));

    // Re-point the shardings.
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](sdy::TensorShardingAttr sharding) {
      std::string error;
      StringRef target = *getTargetMesh(sharding, topology, error);
      if (target != kEmptyMeshName)
        return sdy::TensorShardingAttr::get(
            ctx, FlatSymbolRefAttr::get(ctx, target),
            sharding.getDimShardings(), sharding.getReplicatedAxes(),
            sharding.getUnreducedAxes(), sharding.getUnreducedKind());
      // No axis: only whether each dimension is open or closed remains.
      return sdy::TensorShardingAttr::get(
          ctx, FlatSymbolRefAttr::get(ctx, kEmptyMeshName),
          sharding.getDimShardings(), {}, {});
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};

} // namespace
} // namespace mlir::mpmd
