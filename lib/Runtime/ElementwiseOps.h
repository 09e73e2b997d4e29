//===- ElementwiseOps.h - Ops the interpreter runs as map kernels -*- C++ -*-===//
//
// Private to lib/Runtime: the stablehlo and chlo ops that are one unary or
// binary elementwise kernel (Kernels.h), for the interpreter, which runs
// them, and the fusion planner, which chains them.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_ELEMENTWISEOPS_H
#define MPMD_LIB_RUNTIME_ELEMENTWISEOPS_H

#include "mpmd/Runtime/Kernels.h"

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::mpmd::runtime {

/// The unary kernel of `op` (stablehlo.tanh, chlo.erf, ...), if it is one.
std::optional<UnaryKind> getUnaryKind(Operation &op);
/// The binary kernel of `op` (stablehlo.add, ...), if it is one.
std::optional<BinaryKind> getBinaryKind(Operation &op);

} // namespace mlir::mpmd::runtime

#endif // MPMD_LIB_RUNTIME_ELEMENTWISEOPS_H
