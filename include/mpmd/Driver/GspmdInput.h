//===- GspmdInput.h - Programs written for GSPMD ----------------*- C++ -*-===//
//
// `mpmd compile` accepts modules whose shardings are GSPMD's (`mhlo.sharding`
// strings, `@Sharding`, `@SPMDFullToShardShape`, `@SPMDShardToFullShape`):
// they are imported into sdy (`-xla-sdy-stablehlo-import-pipeline`), and the
// mesh of `"axis_0"`, `"axis_1"`, ... that import builds from the device
// assignment is laid onto the topology's mesh, so that the shardings name
// the topology's axes as a Shardy-era module would.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_GSPMDINPUT_H
#define MPMD_DRIVER_GSPMDINPUT_H

#include "mpmd/Driver/Config.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::mpmd::driver {

/// Imports `module`'s GSPMD shardings, if it has any, and rewrites the
/// imported mesh onto the topology's common mesh `@mesh`: each imported
/// axis becomes the topology (sub-)axes covering the same devices (both in
/// iota order), e.g. `"axis_0"=2, "axis_1"=2, "axis_2"=2` onto `data=4,
/// model=2` gives `"data":(1)2`, `"data":(2)2`, `"model"`. Errors (on the
/// module or the op at fault): a heterogeneous topology, a device count
/// other than the mesh's, a device order other than iota, single-device
/// shardings, several device layouts, a manual axis that would be part of
/// a topology axis. O(module + meshes x axes).
LogicalResult importGspmdShardings(ModuleOp module, const Config &config);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_GSPMDINPUT_H
