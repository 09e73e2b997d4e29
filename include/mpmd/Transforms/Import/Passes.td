//===- Passes.td - Import and mesh-inference passes -------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Import, named after its flag:
// `-mpmd-copy-topology-from-main` lives in CopyTopologyFromMain.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_IMPORT_PASSES_TD
#define MPMD_TRANSFORMS_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def CopyTopologyFromMainPass
    : Pass<"mpmd-copy-topology-from-main", "ModuleOp"> {
  let summary = "Copies the topology of MPMD functions onto their mpmd.call callees.";
  let description = [{
    For every function with a `topology`, each callee of an `mpmd.call` in it
    gets the same topology and becomes private, so that mesh inference treats
    the callee as part of the MPMD program.
  }];
  let dependentDialects = ["::mlir::mpmd::MpmdDialect"];
}

#endif // MPMD_TRANSFORMS_IMPORT_PASSES_TD
