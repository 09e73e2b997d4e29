//===- ExecutorCalibration.cpp - The executor's fixed costs here ----------===//

#include "mpmd/Driver/ExecutorCalibration.h"

#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Runtime/Executor.h"

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
  const double largeBytes = 4.0 * (kLargeElements - kSmallElements);
  const double perTransferBytes = (*large - *small) / double(kFragments - 1);
  // A copy too fast to measure: unlimited.
  costs.transferBandwidth = perTransferBytes > 0
                                ? largeBytes / perTransferBytes
                                : std::numeric_limits<double>::infinity();
  return costs;
}

} // namespace mlir::mpmd::driver
