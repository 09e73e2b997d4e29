//===- ShardedTransferBenchmark.cpp - Relayout between meshes vs memcpy ---===//
//
// `build/bench/mpmd-bench-sharded-transfer [MiB] [rounds]`: a square f32
// tensor (64 MiB by default) sharded by rows over a mesh of 2 devices moves
// to a mesh of 2 devices that shards it by columns, as the executor moves it
// (ShardLayout.h's pieces through ThreadsTransport's copy engines: each
// receiving device gets a quarter of the tensor from each sender, copied
// straight into its shard). Each round times, in this order so that both see
// the same machine load, a single-threaded memcpy of the bytes one device
// receives (its shard, half the tensor) and the transfer (until every piece
// landed); it prints per round and as a median the ratio memcpy time /
// transfer time. The receivers copy in parallel, so on 2 free cores the
// ratio approaches 1; strided rows (one row of a piece is half a row of the
// tensor) cost a little.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/ShardLayout.h"
#include "mpmd/Runtime/ThreadsTransport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir::mpmd::runtime;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

ShardLayout layoutOrExit(llvm::Expected<ShardLayout> layout) {
  if (!layout) {
    llvm::errs() << llvm::toString(layout.takeError()) << "\n";
    std::exit(1);
  }
  return std::move(*layout);
}

} // namespace

int main(int argc, char **argv) {
  const int64_t mebibytes = argc > 1 ? std::atoll(argv[1]) : 64;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  if (mebibytes < 1 || rounds < 1) {
    llvm::errs() << "usage: mpmd-bench-sharded-transfer [MiB >= 1] "
                    "[rounds >= 1]\n";
    return 2;
  }
  // An even side, so that both meshes split it in halves.
  const int64_t side = std::max<int64_t>(
      2, int64_t(std::sqrt(double(mebibytes) * 1024 * 1024 / 4)) / 2 * 2);
  const Shape shape = {side, side};
  ShardLayout rows =
      layoutOrExit(ShardLayout::create(shape, {2}, {{{0, 1, 2}}}));
  ShardLayout columns =
      layoutOrExit(ShardLayout::create(shape, {2}, {{}, {{0, 1, 2}}}));
  std::vector<RelayoutPiece> pieces = planRelayout(rows, columns);

  // Devices 0, 1: the sending mesh; 2, 3: the receiving one.
  ThreadsTransport transport(4);
  std::vector<Tensor> sent, received;
  for (int64_t device = 0; device < 2; ++device) {
    sent.push_back(Tensor::zeros(DType::F32, rows.getLocalShape()));
    received.push_back(Tensor::zeros(DType::F32, columns.getLocalShape()));
  }
  Tensor source = Tensor::zeros(DType::F32, columns.getLocalShape());
  Tensor target = Tensor::zeros(DType::F32, columns.getLocalShape());
  const double deviceBytes = double(target.byteSize());

  llvm::outs() << llvm::format(
      "%lldx%lld f32 (%.1f MiB): rows over 2 devices -> columns over 2 "
      "devices, %zu pieces\n",
      (long long)side, (long long)side, 2 * deviceBytes / (1024 * 1024),
      pieces.size());
  std::mutex mutex;
  std::condition_variable landed;
  std::vector<double> ratios;
  for (int round = 0; round < rounds; ++round) {
    Clock::time_point start = Clock::now();
    std::memcpy(target.bytes(), source.bytes(), source.byteSize());
    double copy = secondsSince(start);

    int64_t pending = 2 * int64_t(pieces.size());
    bool failed = false;
    auto finish = [&](llvm::Error error) {
      std::lock_guard<std::mutex> lock(mutex);
      if (error) {
        llvm::errs() << llvm::toString(std::move(error)) << "\n";
        failed = true;
      }
      if (--pending == 0 || failed)
        landed.notify_all();
    };
    start = Clock::now();
    for (auto [index, piece] : llvm::enumerate(pieces)) {
      int64_t tag = round * int64_t(pieces.size()) + int64_t(index);
      PieceReceiveCallbacks callbacks;
      callbacks.onStart = [&, device = piece.device] {
        return std::optional<Tensor>(received[device]);
      };
      callbacks.onDone = finish;
      transport.postReceivePiece(piece.sourceDevice, 2 + piece.device, tag,
                                 DType::F32, piece.destinationBox,
                                 std::move(callbacks));
      transport.postSendPiece(piece.sourceDevice, 2 + piece.device, tag,
                              sent[piece.sourceDevice], piece.sourceBox,
                              finish);
    }
    {
      std::unique_lock<std::mutex> lock(mutex);
      landed.wait(lock, [&] { return pending == 0 || failed; });
    }
    if (failed)
      return 1;
    double transfer = secondsSince(start);
    ratios.push_back(copy / transfer);
    llvm::outs() << llvm::format(
        "round %d: memcpy of one device's shard %.2f GB/s, transfer %.2f GB/s "
        "per receiving device (ratio %.2f)\n",
        round, deviceBytes / copy / 1e9, deviceBytes / transfer / 1e9,
        copy / transfer);
  }
  llvm::outs() << llvm::format("median memcpy/transfer %.2f\n", median(ratios));
  return 0;
}
