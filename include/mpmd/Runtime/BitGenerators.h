//===- BitGenerators.h - Counter-based random bit generators ----*- C++ -*-===//
//
// `stablehlo.rng_bit_generator`: Threefry-2x32 (20 rounds) and Philox-4x32
// (10 rounds) of Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
// as easy as 1, 2, 3" (SC 2011), with the key and counter taken from the
// op's u64 state and the output laid out as XLA's RngBitGenerator
// expansion does (docs/runtime.md, "rng_bit_generator", says exactly what
// we produce and how sure we are it is XLA's). No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_BITGENERATORS_H
#define MPMD_RUNTIME_BITGENERATORS_H

#include "mpmd/Runtime/Tensor.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::mpmd::runtime {

/// Threefry-2x32 with 20 rounds: the block of `counter` under `key`.
std::array<uint32_t, 2> threefry2x32(std::array<uint32_t, 2> counter,
                                     std::array<uint32_t, 2> key);
/// Philox-4x32 with 10 rounds: the block of `counter` under `key`.
std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> counter,
                                   std::array<uint32_t, 2> key);

enum class BitGenerator { ThreeFry, Philox };

/// Output dtypes rng_bit_generator fills: the integer and float types of
/// 8, 16, 32 and 64 bits (not i1, the sub-byte types, tf32 or complex).
bool supportsRandomBits(DType dtype);

struct RandomBits {
  std::vector<uint64_t> state;
  Tensor output;
};
/// Random bits of `dtype` and `shape` from `state` (u64[2] for ThreeFry,
/// u64[2] or u64[3] for Philox; the caller checks) and the state advanced
/// past the counters used. O(elements).
RandomBits generateRandomBits(BitGenerator generator,
                              const std::vector<uint64_t> &state, DType dtype,
                              const Shape &shape);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_BITGENERATORS_H
