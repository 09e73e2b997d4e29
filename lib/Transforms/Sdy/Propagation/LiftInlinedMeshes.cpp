//===- LiftInlinedMeshes.cpp - -sdy-lift-inlined-meshes -------------------===//

#include "ShardingUtils.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_LIFTINLINEDMESHESPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class MeshLifter {
public:
  explicit MeshLifter(ModuleOp module) : module(module), symbols(module) {}

  void run();

private:
  /// The name of the `sdy.mesh` of `mesh`, created when there is none.
  FlatSymbolRefAttr getOrCreateMeshSymbol(MeshAttr mesh);

  ModuleOp module;
  SymbolTable symbols;
  /// Mesh → name of the first `sdy.mesh` holding it.
  DenseMap<MeshAttr, StringAttr> symbolByMesh;
  /// Where new meshes go: after the last mesh, or at the module top.
  Operation *lastMesh = nullptr;
};

FlatSymbolRefAttr MeshLifter::getOrCreateMeshSymbol(MeshAttr mesh) {
  if (StringAttr name = symbolByMesh.lookup(mesh))
    return FlatSymbolRefAttr::get(name);
  std::string name;
  if (isMaximalMesh(mesh) && mesh.getDeviceIds().size() == 1)
    name = "maximal_mesh_" + std::to_string(mesh.getDeviceIds().front());
  else if (isEmptyMesh(mesh))
    name = "empty_mesh";
  else
    name = "mesh";
  OpBuilder builder(module.getContext());
  if (lastMesh)
    builder.setInsertionPointAfter(lastMesh);
  else
    builder.setInsertionPointToStart(module.getBody());
  auto meshOp = MeshOp::create(builder, module.getLoc(), name, mesh);
  // `mesh` taken: `mesh_0`, `mesh_1`, ... (the symbol table's uniquing).
  StringAttr unique = symbols.insert(meshOp, builder.getInsertionPoint());
  lastMesh = meshOp;
  symbolByMesh[mesh] = unique;
  return FlatSymbolRefAttr::get(unique);
}

void MeshLifter::run() {
  // Meshes equal to an earlier one are merged into it.
  llvm::StringMap<StringAttr> renamed;
  for (MeshOp meshOp :
       llvm::make_early_inc_range(module.getOps<MeshOp>())) {
    auto [it, inserted] =
        symbolByMesh.try_emplace(meshOp.getMesh(), meshOp.getSymNameAttr());
    if (inserted) {
      lastMesh = meshOp;
      continue;
    }
    renamed[meshOp.getSymName()] = it->second;
    symbols.erase(meshOp);
  }
  updateShardings(module, [&](TensorShardingAttr sharding,
                              Operation *) -> TensorShardingAttr {
    Attribute meshOrRef = sharding.getMeshOrRef();
    if (auto inlined = dyn_cast<MeshAttr>(meshOrRef))
      meshOrRef = getOrCreateMeshSymbol(inlined);
    else if (StringAttr target = renamed.lookup(sharding.getMeshName()))
      meshOrRef = FlatSymbolRefAttr::get(target);
    else
      return {};
    return TensorShardingAttr::get(
        sharding.getContext(), meshOrRef, sharding.getDimShardings(),
        sharding.getReplicatedAxes(), sharding.getUnreducedAxes(),
        sharding.getUnreducedKind());
  });
}

class LiftInlinedMeshesPass
    : public impl::LiftInlinedMeshesPassBase<LiftInlinedMeshesPass> {
  using LiftInlinedMeshesPassBase::LiftInlinedMeshesPassBase;

  void runOnOperation() override { MeshLifter(getOperation()).run(); }
};

} // namespace
} // namespace mlir::sdy
