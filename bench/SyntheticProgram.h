//===- SyntheticProgram.h - Generated pipeline-parallel programs -*- C++ -*-===//
//
// Generates the text of a labelled training-step-shaped program of a chosen
// size, for benchmarks: `layers` named computations ("layer_i" forward and
// "layer_i"(1) backward) with unlabelled glue ops between them, inside a
// private microbatch function called `microbatches` times through mpmd.call
// with call counters, and gradient accumulation plus an SGD update in @main.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_BENCH_SYNTHETICPROGRAM_H
#define MPMD_BENCH_SYNTHETICPROGRAM_H

#include <cstdint>
#include <string>

namespace mlir::mpmd::bench {

struct SyntheticProgramShape {
  int64_t layers = 8;
  int64_t microbatches = 4;
  int64_t meshes = 4;
  int64_t width = 16;
  int64_t batch = 8;
};

struct SyntheticProgram {
  std::string text;
  /// The `name@mesh` assignment of every named computation (layers are split
  /// into `meshes` contiguous stages).
  std::string assignment;
  /// Number of operations in the module (module and functions included).
  int64_t numOps = 0;
};

SyntheticProgram generateSyntheticProgram(const SyntheticProgramShape &shape);

} // namespace mlir::mpmd::bench

#endif // MPMD_BENCH_SYNTHETICPROGRAM_H
