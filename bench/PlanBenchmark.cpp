//===- PlanBenchmark.cpp - The plan search at its target size -------------===//
//
// Times `searchPlans` on `layers` layers of unequal costs (a repeating
// pattern of light and heavy layers, activations and parameters) on
// `devices` meshes of one device, with every schedule of the schedule
// library, stages per mesh up to 4 and the `auto` microbatch counts
// (1..64), with and without a memory cap that rejects some candidates.
// The target (issue 19) is at most 2 s for 128 layers x 16 devices.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Plan/Planner.h"

#include "llvm/Support/Error.h"

#include <benchmark/benchmark.h>

using namespace mlir::mpmd;

namespace {

plan::PlanRequest makeRequest(int64_t layers, int64_t devices, bool capped) {
  plan::PlanRequest request;
  for (int64_t i = 0; i < layers; ++i) {
    const double weight = 1 + (i * 7 % 5) * 0.25;
    request.costs.layers.push_back({"layer_" + std::to_string(i),
                                    /*forward=*/1e-3 * weight,
                                    /*backward=*/1e-3 * weight,
                                    /*weightGradient=*/1e-3 * weight,
                                    /*activationBytes=*/1e6 * weight,
                                    /*boundaryBytes=*/1e5,
                                    /*parameterBytes=*/4e6 * weight,
                                    /*accumulate=*/1e-5 * weight,
                                    /*update=*/1e-4 * weight});
  }
  request.costs.microbatches = 8;
  request.costs.linkBandwidth = 1e10;
  request.costs.linkLatency = 1e-5;
  request.costs.actionOverhead = 1e-5;
  request.meshDevices.assign(devices, 1);
  // Twice a device's share of the parameters: fewer than devices / 2
  // meshes never fit.
  if (capped)
    request.memoryPerDevice = 2 * layers * 4e6 * 1.5 / devices;
  request.schedules = schedule::getAllScheduleKinds();
  request.microbatches = plan::getAutoMicrobatchCounts();
  return request;
}

void BM_SearchPlans(benchmark::State &state) {
  const plan::PlanRequest request =
      makeRequest(state.range(0), state.range(1), state.range(2) != 0);
  for (auto _ : state) {
    llvm::Expected<std::vector<plan::PlanCandidate>> candidates =
        plan::searchPlans(request);
    if (!candidates) {
      state.SkipWithError(llvm::toString(candidates.takeError()).c_str());
      return;
    }
    benchmark::DoNotOptimize(candidates->front().stepTime);
  }
}

BENCHMARK(BM_SearchPlans)
    ->ArgNames({"layers", "devices", "capped"})
    ->Args({32, 4, 1})
    ->Args({128, 16, 1})
    ->Args({128, 16, 0})
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
