//===- CollectivesBenchmark.cpp - In-mesh collectives vs memcpy -----------===//
//
// `build/bench/mpmd-bench-collectives [MiB] [rounds] [devices]`: the
// shared-memory collectives of ThreadsTransport (what the devices of one mesh
// use in a process) on one f32 tensor per device (64 MiB, 2 devices by
// default), against a single-threaded memcpy of the same bytes: the
// physical floor of moving a device's operand once. Each round times, in
// this order so that both see the same machine load, a memcpy, an
// all_reduce (sum) and an all_gather (dimension 0, each device holding
// 1/devices of the gathered tensor); it prints per round and as medians the
// ratio memcpy time / collective time (≥ 0.5 is the target for all_reduce:
// it reads every operand and writes every result once, split over the
// devices' threads: per device the bytes of one memcpy of its operand).
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/ThreadsTransport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>

using namespace mlir::mpmd::runtime;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Runs `collective(device)` on one thread per device; the time from the
/// start until the last device has its result. Exits on an error.
template <typename Collective>
double timeCollective(int64_t devices, Collective collective) {
  std::vector<std::thread> threads;
  Clock::time_point start = Clock::now();
  for (int64_t device = 0; device < devices; ++device)
    threads.emplace_back([&, device] {
      llvm::Expected<Tensor> result = collective(device);
      if (!result) {
        llvm::errs() << "collective failed: "
                     << llvm::toString(result.takeError()) << "\n";
        std::exit(1);
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  return secondsSince(start);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  const int64_t mebibytes = argc > 1 ? std::atoll(argv[1]) : 64;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  const int64_t devices = argc > 3 ? std::atoll(argv[3]) : 2;
  if (mebibytes < 1 || rounds < 1 || devices < 2) {
    llvm::errs() << "usage: mpmd-bench-collectives [MiB >= 1] [rounds >= 1] "
                    "[devices >= 2]\n";
    return 2;
  }
  const int64_t elements = mebibytes * 1024 * 1024 / 4;
  const int64_t gatheredRows = elements / devices;
  ThreadsTransport transport(devices);
  std::vector<int64_t> group(devices);
  std::iota(group.begin(), group.end(), 0);
  std::vector<Tensor> operands, shards;
  for (int64_t device = 0; device < devices; ++device) {
    operands.push_back(Tensor::zeros(DType::F32, {elements}));
    shards.push_back(Tensor::zeros(DType::F32, {gatheredRows}));
  }
  Tensor source = Tensor::zeros(DType::F32, {elements});
  Tensor target = Tensor::zeros(DType::F32, {elements});
  const double bytes = double(elements) * 4;

  llvm::outs() << llvm::format("%lld MiB f32 per device, %lld devices\n",
                               (long long)mebibytes, (long long)devices);
  std::vector<double> reduceRatios, gatherRatios;
  for (int round = 0; round < rounds; ++round) {
    Clock::time_point start = Clock::now();
    std::memcpy(target.bytes(), source.bytes(), source.byteSize());
    double copy = secondsSince(start);
    double reduce = timeCollective(devices, [&](int64_t device) {
      return transport.allReduce(group, device, operands[device],
                                 ReduceKind::Add);
    });
    double gather = timeCollective(devices, [&](int64_t device) {
      return transport.allGather(group, device, shards[device], 0);
    });
    reduceRatios.push_back(copy / reduce);
    gatherRatios.push_back(copy / gather);
    llvm::outs() << llvm::format(
        "round %d: memcpy %.2f GB/s, all_reduce %.2f GB/s (ratio %.2f), "
        "all_gather %.2f GB/s (ratio %.2f)\n",
        round, bytes / copy / 1e9, bytes / reduce / 1e9, copy / reduce,
        bytes / gather / 1e9, copy / gather);
  }
  llvm::outs() << llvm::format("median memcpy/all_reduce %.2f (target >= "
                               "0.5), memcpy/all_gather %.2f\n",
                               median(reduceRatios), median(gatherRatios));
  return 0;
}
