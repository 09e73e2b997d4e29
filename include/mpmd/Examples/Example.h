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
#include <utility>
#include <vector>

namespace mlir::mpmd::examples {

/// The element type of the step. kBF16 is mixed precision as JAX's bf16
/// policies write it: inputs, targets, parameters, the loss and the update
/// in f32 (master weights); each layer converts its weights to bf16 at its
/// top and computes activations and matmuls in bf16; each weight gradient
/// is converted back to f32 before it leaves its layer.
enum class ElementType { kF32, kF64, kBF16 };

struct ExampleSchedule {
  /// A built-in schedule name of `mpmd compile` ("schedule": NAME), or,
  /// when `generated`, a name `mpmd schedule` knows ({"generated": NAME}).
  std::string name = "1F1B";
  bool generated = false;
};

/// How the config shards the model over each mesh's axes (sharding rules,
/// docs/config.md): none; dp, the batch (x, y) over "data"; tp, Megatron
/// tensor parallelism over "model" (the first weight of a pair
/// column-parallel, its output dimension sharded, the second row-parallel,
/// its input dimension sharded); fsdp, the batch and every weight over
/// "data" (parameters, gradients and the update sharded; the weights are
/// gathered where a layer needs them); tp+dp, both of tp and dp; tp+sp
/// (transformer only), tp with Megatron's sequence parallelism: the
/// activations outside the split matmuls sharded along the sequence over
/// "model", written into the module as sharding constraints.
enum class ExampleSharding {
  kNone,
  kData,
  kTensor,
  kFsdp,
  kTensorAndData,
  kTensorAndSequence
};

/// The parallelism inside each mesh: its axes (every mesh of the topology
/// gets them; default one axis "x" of size 1) and the sharding rules.
struct ExampleParallelism {
  std::vector<std::pair<std::string, int64_t>> meshShape = {{"x", 1}};
  ExampleSharding sharding = ExampleSharding::kNone;
};

/// What every model's step has besides its own sizes: L layers, B samples
/// per step cut into M microbatches, P meshes, the element type, the SGD
/// learning rate, the schedule and the parallelism inside each mesh. Each
/// model's options derive from it (and may change the default batch).
struct ExampleTrainingOptions {
  int64_t layers = 4;
  int64_t batch = 8;
  int64_t microbatches = 4;
  int64_t meshes = 2;
  ElementType elementType = ElementType::kF32;
  double learningRate = 0.01;
  ExampleSchedule schedule;
  ExampleParallelism parallelism;
};

struct ExampleModel {
  /// The module: `@main(inputs, targets, weights...) -> (loss, new weights
  /// ...)`, one `"layer_i"` and one `"layer_i"(1)` computation per layer.
  std::string module;
  /// The `mpmd compile` configuration (JSON): meshes m0..m{P-1} with the
  /// axes of ExampleParallelism (one device each by default), the layers cut into P*v contiguous stages (v = 2 stages
  /// per mesh for generated Interleaved1F1B, ZB-V and DualPipeV, in the
  /// schedule's layout; else 1, stage s on mesh s), the schedule, transfer
  /// inference and the sharding rules.
  std::string config;
};

/// The largest L * M generated (bounds the text for command-line input).
constexpr int64_t kMaxLayerCalls = 1'000'000;

} // namespace mlir::mpmd::examples

#endif // MPMD_EXAMPLES_EXAMPLE_H
