//===- Example.h - What every generated example model shares ----*- C++ -*-===//
//
// The options and the result that `mpmd example <model>` has for every
// model (element type, schedule, the module and config texts), so the CLI
// parses them once and a new model adds only its own sizes.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_EXAMPLES_EXAMPLE_H
#define MPMD_EXAMPLES_EXAMPLE_H

#include <cstdint>
#include <string>

namespace mlir::mpmd::examples {

enum class ElementType { kF32, kF64 };

struct ExampleSchedule {
  /// A built-in schedule name of `mpmd compile` ("schedule": NAME), or,
  /// when `generated`, a name `mpmd schedule` knows ({"generated": NAME}).
  std::string name = "1F1B";
  bool generated = false;
};

struct ExampleModel {
  /// The module: `@main(inputs, targets, weights...) -> (loss, new weights
  /// ...)`, one `"layer_i"` and one `"layer_i"(1)` computation per layer.
  std::string module;
  /// The `mpmd compile` configuration (JSON): meshes m0..m{P-1} of one
  /// device each, the layers cut into P*v contiguous stages (v = 2 stages
  /// per mesh for generated Interleaved1F1B, ZB-V and DualPipeV, in the
  /// schedule's layout; else 1, stage s on mesh s), the schedule and
  /// transfer inference.
  std::string config;
};

/// The largest L * M generated (bounds the text for command-line input).
constexpr int64_t kMaxLayerCalls = 1'000'000;

} // namespace mlir::mpmd::examples

#endif // MPMD_EXAMPLES_EXAMPLE_H
