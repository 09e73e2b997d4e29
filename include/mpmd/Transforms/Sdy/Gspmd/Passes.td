//===- Passes.td - import of GSPMD shardings into sdy -----*- tablegen -*-===//
//
// Modules written for GSPMD (older JAX, XLA round trips) carry `mhlo.sharding`
// strings and the custom calls `@Sharding`, `@SPMDFullToShardShape` and
// `@SPMDShardToFullShape`. These passes turn them into sdy meshes,
// shardings, sharding constraints and manual computations, under the flags
// XLA gives its Shardy import of such modules. One pass per file in
// lib/Transforms/Sdy/Gspmd named after its flag; the sharding-string grammar
// is HloSharding.h.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_SDY_GSPMD_PASSES_TD
#define MPMD_TRANSFORMS_SDY_GSPMD_PASSES_TD

include "mlir/Pass/PassBase.td"

def StablehloImportShardingsPass
    : Pass<"xla-sdy-stablehlo-import-shardings", "::mlir::ModuleOp"> {
  let summary = "Turns `mhlo.sharding` strings into sdy meshes and shardings.";
  let description = [{
    Reads every `mhlo.sharding` of function arguments and results and of
    ops (docs/sdy.md, "GSPMD inputs", has the grammar) and builds the
    meshes they need: the tile assignments of all tiled shardings with the
    same device order share one mesh `@mesh` (then `@mesh_0`, ...) of axes
    `"axis_0"`, `"axis_1"`, ... (major first), the coarsest whose axis
    boundaries refine every sharding's; a device order that is no
    transposed iota gets a mesh with `device_ids`; `{maximal device=D}`
    gets `@maximal_mesh_D = <[], device_ids=[D]>`. Each sharding becomes a
    closed `sdy.sharding` (a `#sdy.sharding_per_value` with one entry per
    result on ops, tuple shardings giving one per result): tile dimensions
    list the mesh axes their devices step over; replicated subgroups are
    left out; `{replicated}` is closed and empty on `@mesh`; `{unknown}`
    and fully manual shardings give no sharding. Manual axes (of `{manual}`
    or `last_tile_dims={manual}`) are recorded on `@Sharding`,
    `@SPMDFullToShardShape` and `@SPMDShardToFullShape` custom calls as
    `xla.sdy.manual_axes` for `-xla-sdy-stablehlo-round-trip-shard-map-import`.
    `shard_as N` / `shard_like N` put the value into `sdy.sharding_group`
    N. Errors (with the location of the argument, result or op): a string
    that does not parse (the offset is named), a tile rank that is not the
    tensor's rank plus its subgroups, a tuple of the wrong length, a tiled
    sharding on more or fewer devices than `mhlo.num_partitions`, a
    maximal device outside it.
    Complexity: O(shardings x devices) for explicit device lists (iota
    forms O(shardings x tile rank)), plus O(meshes x shardings).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def StablehloRoundTripShardMapImportPass
    : Pass<"xla-sdy-stablehlo-round-trip-shard-map-import",
           "::mlir::ModuleOp"> {
  let summary = "Turns GSPMD's shard_map pattern into `sdy.manual_computation`.";
  let description = [{
    GSPMD-era `shard_map` is a `func.call` of the body whose every operand
    is made by `@SPMDFullToShardShape` (fed by `@Sharding` with the global
    sharding) and whose every result goes through `@Sharding` (manual) into
    `@SPMDShardToFullShape` (with the global sharding). Each such call
    becomes an `sdy.manual_computation` over the global operands, with
    in_shardings from the `@Sharding`s before, out_shardings from the
    `@SPMDShardToFullShape`s, the manual axes recorded by
    `-xla-sdy-stablehlo-import-shardings` (all axes of the mesh for
    `{manual}`) and a copy of the callee's body; the custom calls of the
    pattern go, and a callee left without calls is erased. Errors: a
    full-to-shard or shard-to-full custom call that is not part of such a
    call, a pattern whose operands disagree on the mesh or the manual axes,
    or whose local types are not the global ones divided by the manual axes.
    Complexity: O(ops + copied bodies).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ImportSdyCustomCallsPass
    : Pass<"xla-sdy-import-sdy-custom-calls", "::mlir::func::FuncOp"> {
  let summary = "Turns `@Sharding` custom calls into `sdy.sharding_constraint`s.";
  let description = [{
    A `stablehlo.custom_call @Sharding(%x)` with an `sdy.sharding` becomes
    `sdy.sharding_constraint %x` with that sharding; the dimensions its
    `backend_config = "unspecified_dims=[...]"` lists are open. One without
    a sharding (`{manual}`, `{unknown}`) is its operand. Errors: a
    `@Sharding` call without exactly one operand and one result of the same
    type, or with a malformed `unspecified_dims`.
    Complexity: O(ops).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

#endif // MPMD_TRANSFORMS_SDY_GSPMD_PASSES_TD
