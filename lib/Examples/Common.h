//===- Common.h - Checks and text every example generator shares -*- C++
//-*-===//
//
// Internal to MPMDExamples: the size checks, the placement of layers on
// meshes and stages, the config text and the pieces of `@main` (microbatch
// sums, constants) that are the same for every model, so each generator
// writes only its own layers.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_EXAMPLES_COMMON_H
#define MPMD_LIB_EXAMPLES_COMMON_H

#include "mpmd/Examples/Example.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mpmd::examples::detail {

llvm::Error makeExampleError(const llvm::Twine &message);

/// A size of the command line, named as its option is.
struct NamedSize {
  llvm::StringRef name;
  int64_t value;
};

/// Every size at least 1 (layers, then the model's own `modelSizes`, then
/// batch, microbatches, meshes), the batch divisible by the microbatches, at
/// most kMaxLayerCalls layer calls, a finite learning rate.
llvm::Error verifySizes(const ExampleTrainingOptions &options,
                        llvm::ArrayRef<NamedSize> modelSizes);

struct Placement {
  /// The mesh of each stage.
  std::vector<int64_t> stageMeshes;
  /// The config's "schedule".
  llvm::json::Value schedule;
};

/// Stage s on mesh s with a built-in schedule, else the generated
/// schedule's layout (whose generator also checks meshes against
/// microbatches). Every stage needs a layer.
llvm::Expected<Placement> getPlacement(const ExampleTrainingOptions &options);

/// The weights tensor parallelism splits, by the regexes of their names:
/// the column-parallel ones (output dimension, the last, sharded) and the
/// row-parallel ones (input dimension, the first, sharded); and the rank of
/// the inputs x and y, whose first dimension is the batch.
struct ShardableModel {
  llvm::StringRef columnParallel;
  llvm::StringRef rowParallel;
  int64_t inputRank;
};

/// The config's sharding rules for `parallelism` (ExampleSharding), or an
/// error when the mesh shape lacks the axis it shards over ("data" for dp
/// and fsdp, "model" for tp) or an axis is not positive.
llvm::Expected<llvm::json::Array>
getShardingRules(const ExampleParallelism &parallelism,
                 const ShardableModel &model);

/// The config: meshes m0..m{P-1} with `meshShape`'s axes, layer i in stage
/// floor(i * stages / L), the sharding rules, one line per mesh list, per
/// layer and per rule like the configs in docs/config.md.
std::string writeConfig(const ExampleTrainingOptions &options,
                        const Placement &placement,
                        const llvm::json::Array &shardingRules);

/// The type layers compute in: "f32", "f64" or "bf16".
llvm::StringRef getElementTypeName(ElementType type);

/// The type of parameters, inputs, the loss and the update: f32 for
/// mixed-precision bf16, else the compute type.
llvm::StringRef getMasterTypeName(ElementType type);

/// A float for a `dense<...>` constant, exact when read back.
std::string formatFloat(double value);

/// The types of a normalization over the last axis of a tensor of rank
/// `rank`: the normalized tensor, the tensor without that axis (one value
/// per position) and the reduction's scalar.
struct NormTypes {
  std::string tensor;
  std::string perPosition;
  std::string scalar;
  int64_t rank;
};

/// %NAME = norm(%INPUT) = (x - mean(x)) * r over the last axis and
/// %NAME_r = r = 1 / sqrt(var(x) + eps) per position. Uses the constants
/// %zero (scalar), %width (per position: the axis' size) and %eps (per
/// position).
void writeLastAxisNorm(llvm::raw_ostream &os, const NormTypes &types,
                       llvm::StringRef input, llvm::StringRef name);

/// %RESULT = dloss/dx from %GRAD = dloss/dn for n = norm(x), given n and r:
/// r * (dn - mean(dn) - n * mean(dn * n)) over the last axis. Uses %zero and
/// %width.
void writeLastAxisNormBackward(llvm::raw_ostream &os, const NormTypes &types,
                               llvm::StringRef grad, llvm::StringRef n,
                               llvm::StringRef r, llvm::StringRef result);

/// Writes the sum over microbatches of result `index` of the calls
/// `%r0..%r{M-1}` (as `%NAME_k` adds) and returns the SSA name holding it.
std::string writeMicrobatchSum(llvm::raw_ostream &os, llvm::StringRef name,
                               int64_t index, llvm::StringRef type,
                               int64_t microbatches);

/// In a backward computation, adds the weight gradient %GRADIENT (of type
/// `type`) to the running sum argument %sumSUFFIX (of `sumType`): first
/// %GRADIENT_wide = convert %GRADIENT when the types differ (mixed
/// precision sums in f32), then %new_sumSUFFIX = add %sumSUFFIX, the
/// gradient. Returns "%new_sumSUFFIX". Adding here, next to the op that
/// computes the gradient, lets the runtime compute an f32/f64 dot_general
/// gradient straight into the sum (a gemm with beta = 1).
std::string writeGradientSum(llvm::raw_ostream &os, llvm::StringRef suffix,
                             llvm::StringRef gradient, llvm::StringRef type,
                             llvm::StringRef sumType);

/// The weight-gradient sums `@main` threads through the microbatch calls,
/// as a JAX scan carrying them would: `@microbatch` takes the sums of the
/// earlier microbatches' gradients after its other arguments and returns
/// them with its own gradients added as results 1.. (after the loss); the
/// first call takes zeros, each later call the previous call's results.
class MicrobatchGradientSums {
public:
  /// A weight of `@main` (its SSA name, "%w0") and its type.
  struct Weight {
    std::string name;
    std::string type;
  };

  /// The weights in `@microbatch`'s argument order; they must outlive this.
  explicit MicrobatchGradientSums(llvm::ArrayRef<Weight> weights)
      : weights(weights) {}

  /// Writes the zeros the first call takes (before it, after its inputs'
  /// slices, so that the first fragment keeps x as its first argument),
  /// one per weight, as %zeros_NAME = NAME * 0 (a splat %zero, %zero_1,
  /// ... per distinct type). Not one shared zero constant: the compiler
  /// would pass a single value to every sum of that type, and sharding
  /// propagation gives a value one sharding, so the sum of a row-parallel
  /// weight would take a column-parallel one's (tensor parallelism then
  /// shards the activations wrongly). Each product takes its weight's
  /// sharding.
  void writeZeros(llvm::raw_ostream &os) const;

  /// ", S_0, S_1, ..." the sums call `call` takes.
  std::string getCallOperands(int64_t call) const;

  /// The sum of gradient `index` over all `microbatches`: the last call's
  /// result.
  static std::string getTotal(int64_t microbatches, int64_t index);

private:
  /// The zeros the sum of `weight` starts from.
  static std::string getZeros(const Weight &weight);

  llvm::ArrayRef<Weight> weights;
};

} // namespace mlir::mpmd::examples::detail

#endif // MPMD_LIB_EXAMPLES_COMMON_H
