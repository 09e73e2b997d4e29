//===- ModelLayers.cpp - The layers of an unpartitioned model -------------===//

#include "mpmd/Driver/ModelLayers.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::mpmd::driver {

ModelLayers getModelLayers(ModuleOp module) {
  ModelLayers layers;
  llvm::StringSet<> seen;
  int64_t calls = 0;
  module.walk([&](Operation *op) {
    if (isa<CallOp>(op))
      ++calls;
    auto computation = dyn_cast<NamedComputationOp>(op);
    if (!computation || computation.getOrigin().getTransposeCount() != 0)
      return;
    StringRef name = computation.getOrigin().getUserName();
    if (seen.insert(name).second) {
      layers.names.push_back(name.str());
      layers.forwards.push_back(computation);
    }
  });
  layers.microbatches = std::max<int64_t>(calls, 1);
  return layers;
}

} // namespace mlir::mpmd::driver
