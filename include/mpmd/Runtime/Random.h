//===- Random.h - Seeded random tensors -------------------------*- C++ -*-===//
//
// `mpmd run --random-inputs SEED` must give the same inputs on every run,
// compiler and platform, so a run can be compared with another one (say,
// the MPMD program with the unpartitioned model). Standard library
// distributions are implementation-defined; splitmix64 and the mappings
// below are exact integer and power-of-two arithmetic, so they are not.
// No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_RANDOM_H
#define MPMD_RUNTIME_RANDOM_H

#include "mpmd/Runtime/Tensor.h"

#include <cstdint>

namespace mlir::mpmd::runtime {

/// splitmix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by a
/// constant and mixed into each output.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next();

private:
  uint64_t state;
};

/// A tensor filled from SplitMix64(seed), one draw per element in row-major
/// order: floats uniform in [-1, 1) on a grid their dtype holds exactly
/// (2^-52 for f64, 2^-23 for f32, 2^-10 for f16, 2^-7 for bf16); signed
/// integers in [-8, 7] ([-2, 1] for i2 and i4); unsigned ones in [0, 15]
/// ([0, 3] for ui2 and ui4); i1 0 or 1. Given `storageRange` (a quantized
/// type's narrowed storage range; integer dtypes only), integers are
/// uniform in that range when it holds no more values than this interval,
/// else in the interval moved as little as possible into the range (i8
/// in <-3:3> gives [-3, 3]; ui8 in <200:255> gives [200, 215]).
Tensor randomTensor(DType dtype, const Shape &shape, uint64_t seed,
                    std::optional<IntegerRange> storageRange = std::nullopt);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_RANDOM_H
