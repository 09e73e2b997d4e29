//===- SdyPadForDivisibilityBenchmark.cpp - -sdy-pad-for-divisibility -----===//
//
// Times `-sdy-pad-for-divisibility` on generated functions of ~1k, ~10k and
// ~100k ops where every value is sharded unevenly (7 rows over 2 shards),
// and parse+verify+print of the same text, for the ratio issue 13 bounds
// (at most 3x, linear). Each block of the function slices an argument (the
// slice grows), negates and adds (padded types), contracts over the padded
// dim (both operands masked), gathers (gather, then slice back) and pads
// back to a divisible size (re-masked): the pass' common paths.
//
//   mpmd-bench-sdy-pad-for-divisibility --print-module=10000 > padded.mlir
//
// prints the ~10k-op module instead, for timing with mpmd-opt.
//
//===----------------------------------------------------------------------===//

#include "ParseBaseline.h"

#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {

/// Ops one block of the generated function holds, before padding.
constexpr int64_t kOpsPerBlock = 8;

struct PaddingProgram {
  std::string text;
  int64_t numOps = 0;
};

PaddingProgram generate(int64_t targetOps) {
  int64_t blocks = std::max<int64_t>(1, targetOps / kOpsPerBlock);
  std::string text;
  llvm::raw_string_ostream os(text);
  const char *rows = R"(#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>)";
  os << "sdy.mesh @mesh = <[\"x\"=2]>\n"
     << "func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = "
        "#sdy.sharding<@mesh, [{\"x\"}, {}]>}, %w: tensor<16x16xf32>) -> "
        "tensor<8x16xf32> {\n"
     << "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
     << "  %acc0 = stablehlo.constant dense<0.0> : tensor<8x16xf32>\n";
  for (int64_t b = 0; b < blocks; ++b) {
    os << llvm::formatv(
        "  %s{0} = stablehlo.slice %arg0 [0:7, 0:16] {{sdy.sharding = {1}} : "
        "(tensor<8x16xf32>) -> tensor<7x16xf32>\n"
        "  %n{0} = stablehlo.negate %s{0} {{sdy.sharding = {1}} : "
        "tensor<7x16xf32>\n"
        "  %a{0} = stablehlo.add %n{0}, %s{0} {{sdy.sharding = {1}} : "
        "tensor<7x16xf32>\n"
        "  %d{0} = stablehlo.dot_general %a{0}, %s{0}, contracting_dims = [0] "
        "x [0] : (tensor<7x16xf32>, tensor<7x16xf32>) -> tensor<16x16xf32>\n"
        "  %m{0} = stablehlo.dot_general %a{0}, %d{0}, contracting_dims = [1] "
        "x [0] {{sdy.sharding = {1}} : (tensor<7x16xf32>, tensor<16x16xf32>) "
        "-> tensor<7x16xf32>\n"
        "  %g{0} = sdy.all_gather [{{\"x\"}, {{}] %m{0} out_sharding=<@mesh, "
        "[{{}, {{}]> : tensor<7x16xf32>\n"
        "  %p{0} = stablehlo.pad %g{0}, %zero, low = [0, 0], high = [1, 0], "
        "interior = [0, 0] : (tensor<7x16xf32>, tensor<f32>) -> "
        "tensor<8x16xf32>\n"
        "  %acc{2} = stablehlo.add %acc{0}, %p{0} : tensor<8x16xf32>\n",
        b, rows, b + 1);
  }
  os << "  return %acc" << blocks << " : tensor<8x16xf32>\n}\n";
  return {std::move(text), blocks * kOpsPerBlock + 3};
}

void BM_ParseVerifyPrint(benchmark::State &state) {
  PaddingProgram program = generate(state.range(0));
  mpmd::bench::timeParseVerifyPrint(state, program.text, program.numOps);
}

void BM_PadForDivisibility(benchmark::State &state) {
  PaddingProgram program = generate(state.range(0));
  mpmd::bench::timePasses(state, program.text, program.numOps,
                          "-sdy-pad-for-divisibility", [](PassManager &pm) {
                            pm.addNestedPass<func::FuncOp>(
                                sdy::createPadForDivisibilityPass());
                          });
}

} // namespace


BENCHMARK(BM_ParseVerifyPrint)->Apply(mpmd::bench::addOpCountArgs);
BENCHMARK(BM_PadForDivisibility)->Apply(mpmd::bench::addOpCountArgs);

int main(int argc, char **argv) {
  return mpmd::bench::runPassBenchmarkMain(
      argc, argv, [](int64_t targetOps) { return generate(targetOps).text; });
}
