//===- TensorSizes.h - Sizes of tensor types in bits ------------*- C++ -*-===//
//
// The size a tensor type occupies, computed with checked arithmetic
// (mpmd/Support/CheckedArithmetic.h). The mesh tensor verifier rejects types
// whose size does not fit, so that the sizes of verified mesh tensors (and
// of their shards, which are smaller) never overflow.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DIALECT_MPMD_IR_TENSORSIZES_H
#define MPMD_DIALECT_MPMD_IR_TENSORSIZES_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <optional>

namespace mlir::mpmd {

/// The bits of an element (both parts of a complex number); 0 for types
/// without a width.
int64_t getElementBitWidth(Type elementType);

/// The bits of a statically shaped tensor type; none when the size does not
/// fit in int64.
std::optional<int64_t> getSizeInBits(RankedTensorType type);

} // namespace mlir::mpmd

#endif // MPMD_DIALECT_MPMD_IR_TENSORSIZES_H
