//===- Passes.td - Export passes --------------------------*- tablegen -*-===//
//
// The passes that prepare an MPMD program for compilation: per-fragment
// memory and buffer attributes, validations, and the outlining of fragments
// into functions called by `mpmd.fragment_call`. One pass per file in
// lib/Transforms/Export, named after its flag.
//
// Complexities use N = ops in the function (bodies included), F = fragments,
// T = transfers, and "signature" = operands + results of one fragment.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_EXPORT_PASSES_TD
#define MPMD_TRANSFORMS_EXPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerToFragmentCallsPass
    : Pass<"mpmd-lower-to-fragment-calls", "ModuleOp"> {
  let summary = "Outlines fragments into functions called by "
                "mpmd.fragment_call, one function per group of equal "
                "fragments.";
  let description = [{
    Fragments of MPMD functions are grouped when they have the same mesh
    name, the same `arg_attrs` and `res_attrs`, the same operand and result
    mesh tensor types, and equivalent bodies (same ops, attributes, types
    and wiring; locations ignored). The mesh *name* is compared, not the
    mesh shape, so that meshes of equal shape but different devices never
    share a program.

    Each group, numbered by first appearance, becomes one `func.func`
    named `p<group>_<base><phases><calls>.<module>`:
    * `<module>` is the module's name without a `jit_` prefix (`main` if
      the module has no name);
    * `<base>` is, for each fragment, `stage<id>` if it has a stage,
      `inferred` if it has no origin, otherwise its origin summary (e.g.
      `f_1:3.loss.f(1)_1:3`); the most frequent one in the group is used;
    * `<phases>` is `_fwd`, `_bwd`, `_transpose<n>` for the transpose counts
      of the group's origins, omitted when every origin of the module is a
      forward one;
    * `<calls>` is `_call<n>`, `_calls<a>to<b>` or `_calls<a>from<b>` for a
      single call counter, an ascending or a descending run of counters, and
      nothing otherwise;
    * the part before the `.` is cut at 200 characters.

    The function takes and returns the global tensor types, has the
    topology mesh as `mesh_shape`, the largest `reserved_hbm_bytes` of the
    group, the fragments' `arg_attrs` / `res_attrs` as argument/result
    attributes plus `sdy.sharding` from sharded mesh tensor types. Its body
    is the body of the group's first fragment. Each fragment becomes an
    `mpmd.fragment_call` keeping `origin`, `mesh_name` and `remat`.

    Fragments inside `mpmd.for` cannot be called (fragment_call lives
    directly in a function): they are reported as errors.

    With `verbose-logging`, a remark on each outlined function says how
    many fragments call it.

    Complexity: O(N) to hash every fragment body once; fragments are only
    compared (O(body)) with the groups of their hash bucket, so grouping is
    linear unless many different bodies collide.
  }];
  let options = [
    Option<"verboseLogging", "verbose-logging", "bool", /*default=*/"false",
           "Report each outlined function and its number of callers.">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_EXPORT_PASSES_TD
