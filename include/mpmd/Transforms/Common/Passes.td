//===- Passes.td - Passes shared by several phases --------*- tablegen -*-===//
//
// One pass per file in lib/Transforms/Common, named after its flag:
// `-mpmd-call-inline` lives in CallInline.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TRANSFORMS_COMMON_PASSES_TD
#define MPMD_TRANSFORMS_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // MPMD_TRANSFORMS_COMMON_PASSES_TD
