//===- ExecutorCalibration.cpp - The executor's fixed costs here ----------===//

#include "mpmd/Driver/ExecutorCalibration.h"

#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/Random.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <string>

namespace mlir::mpmd::driver {

namespace {

llvm::Error makeCalibrationError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "executor calibration: " + message);
}

/// @main runs `fragments` fragments in a chain, each passing its operand
/// on unchanged (an f32 tensor of `elements`), on mesh m0 only or
/// alternating between m0 and m1 with a transfer between each two.
std::string writeChainProgram(int64_t fragments, int64_t elements,
                              bool alternate) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const int64_t lastMesh = alternate ? (fragments - 1) % 2 : 0;
  os << llvm::formatv("!t0 = !mpmd.mesh_tensor<\"m0\", tensor<{0}xf32>>\n"
                      "!t1 = !mpmd.mesh_tensor<\"m1\", tensor<{0}xf32>>\n",
                      elements)
     << "func.func @main(%v0: !t0) -> !t" << lastMesh
     << " attributes {topology = #mpmd.topology<<\"m0\" : <[\"x\"=1]>>, "
        "<\"m1\" : <[\"x\"=1]>>>} {\n";
  for (int64_t i = 0; i < fragments; ++i) {
    int64_t mesh = alternate ? i % 2 : 0;
    std::string operand = "%v" + std::to_string(i);
    if (alternate && i > 0) {
      os << llvm::formatv("  %t{0} = mpmd.transfer {1} : (!t{2}) -> !t{3}\n", i,
                          operand, 1 - mesh, mesh);
      operand = "%t" + std::to_string(i);
    }
    os << llvm::formatv(
        "  %v{0} = mpmd.fragment<mesh=\"m{1}\", origin=[]> ({2}) "
        "(%a: tensor<{3}xf32>) {{\n    mpmd.return %a : tensor<{3}xf32>\n"
        "  } : (!t{1}) -> !t{1}\n",
        i + 1, mesh, operand, elements);
  }
  os << "  return %v" << fragments << " : !t" << lastMesh << "\n}\n";
  return text;
}

/// Rows and columns of the activations and the square weight of the
/// compute chains: a matrix product about the size of a small model's
/// layer on one microbatch (tens of microseconds).
constexpr int64_t kComputeRows = 16, kComputeColumns = 256;

/// @main runs, on each of the first `meshes` meshes, an independent chain
/// of `fragments` fragments that each multiply the activations by the
/// mesh's weight and take the tanh: the meshes' devices compute at the same
/// time and share the machine's cores, caches and memory bandwidth.
std::string writeComputeProgram(int64_t fragments, int64_t meshes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const std::string activations =
      llvm::formatv("tensor<{0}x{1}xf32>", kComputeRows, kComputeColumns);
  const std::string weight =
      llvm::formatv("tensor<{0}x{0}xf32>", kComputeColumns);
  std::string arguments, results, resultTypes;
  for (int64_t mesh = 0; mesh < meshes; ++mesh) {
    os << llvm::formatv("!x{0} = !mpmd.mesh_tensor<\"m{0}\", {1}>\n"
                        "!w{0} = !mpmd.mesh_tensor<\"m{0}\", {2}>\n",
                        mesh, activations, weight);
    arguments += llvm::formatv("{0}%x{1}_0: !x{1}, %w{1}: !w{1}",
                               mesh ? ", " : "", mesh);
    results += llvm::formatv("{0}%x{1}_{2}", mesh ? ", " : "", mesh, fragments);
    resultTypes += llvm::formatv("{0}!x{1}", mesh ? ", " : "", mesh);
  }
  os << "func.func @main(" << arguments << ") -> (" << resultTypes
     << ") attributes {topology = #mpmd.topology<<\"m0\" : <[\"x\"=1]>>, "
        "<\"m1\" : <[\"x\"=1]>>>} {\n";
  for (int64_t mesh = 0; mesh < meshes; ++mesh)
    for (int64_t i = 0; i < fragments; ++i)
      os << llvm::formatv(
          "  %x{0}_{1} = mpmd.fragment<mesh=\"m{0}\", origin=[]> (%x{0}_{2}, "
          "%w{0}) (%a: {3}, %b: {4}) {{\n"
          "    %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x "
          "[0] : ({3}, {4}) -> {3}\n"
          "    %t = stablehlo.tanh %d : {3}\n"
          "    mpmd.return %t : {3}\n"
          "  } : (!x{0}, !w{0}) -> !x{0}\n",
          mesh, i + 1, i, activations, weight);
  os << "  return " << results << " : " << resultTypes << "\n}\n";
  return text;
}

/// The fastest of `runs` steps of the program `text` on `inputs`, in
/// seconds.
llvm::Expected<double> timeProgram(const std::string &text,
                                   const std::vector<runtime::Tensor> &inputs,
                                   int64_t runs) {
  std::unique_ptr<ModuleFile> file =
      ModuleFile::parse(text, "calibration", DiagnosticMode::kCollect);
  if (!file->getModule())
    return makeCalibrationError("a calibration program does not parse");
  FailureOr<std::unique_ptr<runtime::Executable>> executable =
      runtime::Executable::create(file->getModule());
  if (failed(executable))
    return makeCalibrationError("a calibration program does not load");
  double fastest = std::numeric_limits<double>::infinity();
  for (int64_t run = 0; run < runs; ++run) {
    llvm::Expected<runtime::RunResult> result =
        (*executable)->run(inputs, runtime::ExecutorOptions());
    if (!result)
      return result.takeError();
    fastest = std::min(fastest, result->stepUs * 1e-6);
  }
  return fastest;
}

/// The fastest of `runs` steps of the chain program, in seconds.
llvm::Expected<double> timeChain(int64_t fragments, int64_t elements,
                                 bool alternate, int64_t runs) {
  return timeProgram(writeChainProgram(fragments, elements, alternate),
                     {runtime::Tensor::empty(runtime::DType::F32, {elements})},
                     runs);
}

/// The fastest of `runs` steps of the compute chains on `meshes` meshes.
llvm::Expected<double> timeCompute(int64_t fragments, int64_t meshes,
                                   int64_t runs) {
  std::vector<runtime::Tensor> inputs;
  for (int64_t mesh = 0; mesh < meshes; ++mesh) {
    inputs.push_back(runtime::randomTensor(
        runtime::DType::F32, {kComputeRows, kComputeColumns}, 2 * mesh));
    inputs.push_back(runtime::randomTensor(
        runtime::DType::F32, {kComputeColumns, kComputeColumns}, 2 * mesh + 1));
  }
  return timeProgram(writeComputeProgram(fragments, meshes), inputs, runs);
}

} // namespace

llvm::Expected<ExecutorCosts> calibrateExecutor() {
  constexpr int64_t kFragments = 64, kRuns = 20;
  // Small enough that copying it is free, large enough for the bandwidth
  // to show over the latency.
  constexpr int64_t kSmallElements = 1, kLargeElements = 1 << 18;
  llvm::Expected<double> local =
      timeChain(kFragments, kSmallElements, false, kRuns);
  if (!local)
    return local.takeError();
  llvm::Expected<double> small =
      timeChain(kFragments, kSmallElements, true, kRuns);
  if (!small)
    return small.takeError();
  llvm::Expected<double> large =
      timeChain(kFragments, kLargeElements, true, kRuns);
  if (!large)
    return large.takeError();
  ExecutorCosts costs;
  costs.fragmentSeconds = *local / kFragments;
  costs.transferSeconds =
      std::max(0.0, (*small - *local) / double(kFragments - 1));
  // Both meshes computing at once against one alone: the same chain per
  // mesh, so without interference the steps would be equal.
  constexpr int64_t kComputeFragments = 32;
  llvm::Expected<double> alone = timeCompute(kComputeFragments, 1, kRuns);
  if (!alone)
    return alone.takeError();
  llvm::Expected<double> together = timeCompute(kComputeFragments, 2, kRuns);
  if (!together)
    return together.takeError();
  // Noise can make the pair faster; devices never speed each other up.
  costs.concurrencySlowdown = std::max(1.0, *together / *alone);
  const double largeBytes = 4.0 * (kLargeElements - kSmallElements);
  const double perTransferBytes = (*large - *small) / double(kFragments - 1);
  // A copy too fast to measure: unlimited.
  costs.transferBandwidth = perTransferBytes > 0
                                ? largeBytes / perTransferBytes
                                : std::numeric_limits<double>::infinity();
  return costs;
}

} // namespace mlir::mpmd::driver
