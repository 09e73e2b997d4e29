//===- Passes.h - import of GSPMD shardings into sdy ------------*- C++ -*-===//

#ifndef MPMD_TRANSFORMS_SDY_GSPMD_PASSES_H
#define MPMD_TRANSFORMS_SDY_GSPMD_PASSES_H

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::sdy {

/// GSPMD's sharding attribute: an HLO sharding string.
inline constexpr llvm::StringLiteral kHloShardingAttrName = "mhlo.sharding";
/// The manual axes of a `{manual}` / `last_tile_dims={manual}` sharding on
/// the custom calls of GSPMD's shard_map pattern, between the import of the
/// shardings and the import of the pattern.
inline constexpr llvm::StringLiteral kGspmdManualAxesAttrName =
    "xla.sdy.manual_axes";
/// GSPMD's custom call targets.
inline constexpr llvm::StringLiteral kShardingCustomCallTarget = "Sharding";
inline constexpr llvm::StringLiteral kFullToShardCustomCallTarget =
    "SPMDFullToShardShape";
inline constexpr llvm::StringLiteral kShardToFullCustomCallTarget =
    "SPMDShardToFullShape";

#define GEN_PASS_DECL
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h.inc"

/// Whether `module` is written for GSPMD: some function argument, result or
/// op carries `mhlo.sharding`, or a GSPMD custom call is present.
bool hasGspmdShardings(ModuleOp module);

/// `-xla-sdy-stablehlo-import-pipeline`: import-shardings,
/// round-trip-shard-map-import, import-sdy-custom-calls (per function),
/// symbol-dce (the shard_map bodies).
void addStablehloImportPipeline(OpPassManager &pm);

/// Registers `-xla-sdy-stablehlo-import-pipeline`.
void registerStablehloImportPipeline();

} // namespace mlir::sdy

#endif // MPMD_TRANSFORMS_SDY_GSPMD_PASSES_H
