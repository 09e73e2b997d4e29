//===- ScratchModule.cpp - Partitioning part of a program on its own ------===//

#include "mpmd/Transforms/Sdy/Partitioning/ScratchModule.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::sdy {

ModuleOp createScratchModule(ModuleOp module, Location loc) {
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto scratch = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(scratch.getBody());
  for (MeshOp mesh : module.getOps<MeshOp>())
    builder.clone(*mesh);
  return scratch;
}

} // namespace mlir::sdy
