//===- ElementwiseAvx2.cpp - The f32 loops compiled for AVX2 --------------===//
//
// Compiled with -mavx2 (and without -mfma, so no multiply-add is
// contracted): eight floats per instruction instead of four, the same
// operations per element as the baseline build. Elementwise.cpp calls these
// only on CPUs that have AVX2.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLoops.h"

namespace mlir::mpmd::runtime::detail {

void unaryLoopAvx2(UnaryKind kind, const float *in, float *out,
                   int64_t count) {
  unaryLoop<float>(kind, in, out, count);
}

void binaryLoopAvx2(BinaryKind kind, const float *lhs, const float *rhs,
                    float *out, int64_t count) {
  binaryLoop<float>(kind, lhs, rhs, out, count);
}

} // namespace mlir::mpmd::runtime::detail
