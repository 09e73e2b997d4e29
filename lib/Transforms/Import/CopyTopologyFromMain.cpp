//===- CopyTopologyFromMain.cpp - -mpmd-copy-topology-from-main -----------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_COPYTOPOLOGYFROMMAINPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

class CopyTopologyFromMainPass
    : public impl::CopyTopologyFromMainPassBase<CopyTopologyFromMainPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTable;
    for (auto function : module.getOps<func::FuncOp>()) {
      TopologyAttr topology = getTopology(function);
      if (!topology)
        continue;
      function.walk([&](CallOp call) {
        auto callee = symbolTable.lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (!callee)
          return; // The verifier reports unknown callees.
        callee->setAttr(MpmdDialect::kTopologyAttrName, topology);
        callee.setPrivate();
      });
    }
  }
};

} // namespace
} // namespace mlir::mpmd
