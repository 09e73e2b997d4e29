//===- ConfigShardings.h - The config's shardings of @main ------*- C++ -*-===//
//
// `in_shardings`, `out_shardings` and `sharding_rules` of the config (see
// Config.h) resolved against a program: one sharding (or none) per input
// and output of @main, checked against the tensor it applies to. Errors
// name the JSON path of the field at fault (`config.in_shardings[1]: ...`).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_CONFIGSHARDINGS_H
#define MPMD_DRIVER_CONFIGSHARDINGS_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Driver/Config.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace mlir::mpmd::driver {

/// One sharding per input (output) of @main; null where the config gives
/// none.
struct ResolvedShardings {
  std::vector<sdy::TensorShardingAttr> inputs, outputs;

  bool empty() const;
};

/// The name sharding rules match against: the name of the argument's
/// location (JAX names @main's arguments after their pytree path,
/// `loc("params['w1']")`), or empty when it has none.
std::string getInputName(func::FuncOp main, unsigned index);

/// Resolves the config's shardings for `main`. An input `in_shardings`
/// leaves open takes the sharding of the first rule that applies to it; one
/// it gives must agree with the first `match` rule that names it, and
/// every sharding with one the program already has. O(inputs × rules × name
/// length).
llvm::Expected<ResolvedShardings> resolveShardings(func::FuncOp main,
                                                   const Config &config);

/// Writes `shardings` onto @main's arguments and results (`sdy.sharding`)
/// and declares the sdy meshes they name (`@mesh` for a homogeneous
/// topology, one per topology mesh otherwise) where the module lacks them.
/// Fails, with a diagnostic, when the module declares one of them with
/// other axes.
LogicalResult applyShardings(ModuleOp module, func::FuncOp main,
                             const ResolvedShardings &shardings,
                             const Config &config);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_CONFIGSHARDINGS_H
