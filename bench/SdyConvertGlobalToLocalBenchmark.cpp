//===- SdyConvertGlobalToLocalBenchmark.cpp - global->local vs parse ------===//
//
// Times `-sdy-convert-global-to-local` on generated sharded programs of ~1k,
// ~10k and ~100k ops (a chain of element-wise ops and every sdy collective
// on a 2 x 2 mesh), and parse+verify+print of the same text, so that their
// ratio and its growth can be reported (issue 13: at most 3x, linear). The
// pass time excludes parsing and destroying the module and includes one
// verification at the end.
//
//   mpmd-bench-sdy-convert-global-to-local --print-module=10000 > prog.mlir
//
// prints the ~10k-op module instead, for timing with mpmd-opt.
//
//===----------------------------------------------------------------------===//

#include "ParseBaseline.h"

#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;

namespace {

/// One step of the chain: 9 ops, 6 of them collectives, from and back to
/// `[{"x"}, {"y"}]`.
constexpr int64_t kOpsPerStep = 9;

/// A function of `targetOps / kOpsPerStep` steps on tensor<64x64xf32>.
std::string generateProgram(int64_t targetOps) {
  int64_t steps = std::max<int64_t>(1, targetOps / kOpsPerStep);
  std::string text;
  llvm::raw_string_ostream os(text);
  const char *type = "tensor<64x64xf32>";
  auto sharding = [](const char *dims) {
    return llvm::formatv("{{sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                         "[{0}]>]>}",
                         dims)
        .str();
  };
  os << "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
     << "func.func @main(%v0: " << type
     << " {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}) -> ("
     << type << " {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>}) {\n";
  for (int64_t i = 0; i < steps; ++i) {
    std::string v = "%v" + std::to_string(i), s = "%s" + std::to_string(i) + "_";
    os << "  " << s << "0 = stablehlo.add " << v << ", " << v << " "
       << sharding("{\"x\"}, {\"y\"}") << " : " << type << "\n"
       << "  " << s << "1 = sdy.all_gather [{\"x\"}, {}] " << s
       << "0 out_sharding=<@mesh, [{}, {\"y\"}]> : " << type << "\n"
       << "  " << s << "2 = stablehlo.multiply " << s << "1, " << s << "1 "
       << sharding("{}, {\"y\"}") << " : " << type << "\n"
       << "  " << s << "3 = sdy.all_slice [{\"x\"}, {}] " << s
       << "2 out_sharding=<@mesh, [{\"x\"}, {\"y\"}]> : " << type << "\n"
       << "  " << s << "4 = sdy.collective_permute " << s
       << "3 out_sharding=<@mesh, [{\"y\"}, {\"x\"}]> : " << type << "\n"
       << "  " << s << "5 = sdy.all_to_all [{\"x\"}: 1->0] " << s
       << "4 out_sharding=<@mesh, [{\"y\", \"x\"}, {}]> : " << type << "\n"
       << "  " << s << "6 = sdy.all_gather [{\"y\", \"x\"}, {}] " << s
       << "5 out_sharding=<@mesh, [{}, {}]> : " << type << "\n"
       << "  " << s << "7 = sdy.reduce_scatter [{\"x\"}, {\"y\"}] " << s
       << "6 out_sharding=<@mesh, [{\"x\"}, {\"y\"}]> : " << type << "\n"
       << "  %v" << i + 1 << " = stablehlo.negate " << s << "7 "
       << sharding("{\"x\"}, {\"y\"}") << " : " << type << "\n";
  }
  os << "  return %v" << steps << " : " << type << "\n}\n";
  return text;
}

int64_t countOps(int64_t targetOps) {
  // The steps, the return, the function and the mesh.
  return std::max<int64_t>(1, targetOps / kOpsPerStep) * kOpsPerStep + 3;
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  mpmd::bench::timeParseVerifyPrint(state, generateProgram(state.range(0)),
                                    countOps(state.range(0)));
}

void BM_ConvertGlobalToLocal(benchmark::State &state) {
  mpmd::bench::timePasses(state, generateProgram(state.range(0)),
                          countOps(state.range(0)),
                          "-sdy-convert-global-to-local", [](PassManager &pm) {
                            pm.addPass(sdy::createConvertGlobalToLocalPass());
                          });
}

} // namespace


BENCHMARK(BM_ParseVerifyPrint)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_ConvertGlobalToLocal)->Apply(mpmd::bench::addOpCountArgs);

int main(int argc, char **argv) {
  return mpmd::bench::runPassBenchmarkMain(argc, argv, generateProgram);
}
