//===- MpiTransferBenchmark.cpp - Our MPI transport vs raw MPI ------------===//
//
// Run with two ranks: `mpirun -n 2 build/bench/mpmd-bench-mpi-transfer
// [MiB] [rounds]`. A ping-pong of one tensor (64 MiB by default) between
// the ranks, timed as raw blocking MPI_Send/MPI_Recv and through
// MpiTransport's postSend/postReceive (what the executor's transfers use),
// interleaved round by round so that both see the same machine load.
// Prints the bandwidth of each and the ratio transport/raw per round and
// its median.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Mpi/MpiTransport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>

using namespace mlir::mpmd::runtime;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// `exchanges` round trips with raw MPI on the transport's MPI thread.
double timeRawPingPong(MpiTransport &transport, Tensor &buffer,
                       int exchanges) {
  double seconds = 0;
  int count = int(buffer.byteSize());
  transport.runOnMpiThread([&] {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    Clock::time_point start = Clock::now();
    for (int i = 0; i < exchanges; ++i) {
      if (rank == 0) {
        MPI_Send(buffer.bytes(), count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buffer.bytes(), count, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer.bytes(), count, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(buffer.bytes(), count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
    }
    seconds = secondsSince(start);
  });
  return seconds;
}

/// The same round trips through postSend/postReceive (device r = rank r).
double timeTransportPingPong(MpiTransport &transport, Tensor tensor,
                             int exchanges) {
  int64_t rank = transport.getRank(), peer = 1 - rank;
  TensorSpec spec{tensor.dtype(), tensor.shape()};
  auto receive = [&](int64_t tag) {
    std::promise<Tensor> arrived;
    transport.postReceive(peer, rank, tag, spec,
                          {[] { return true; },
                           [&](llvm::Expected<Tensor> received) {
                             if (!received) {
                               llvm::errs() << llvm::toString(
                                                   received.takeError())
                                            << "\n";
                               std::abort();
                             }
                             arrived.set_value(std::move(*received));
                           }});
    return arrived.get_future().get();
  };
  auto send = [&](int64_t tag, Tensor value) {
    auto sent = std::make_shared<std::promise<void>>();
    transport.postSend(rank, peer, tag, std::move(value),
                       [sent](llvm::Error error) {
                         llvm::consumeError(std::move(error));
                         sent->set_value();
                       });
    return sent->get_future();
  };
  if (llvm::Error error = transport.barrier()) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    std::abort();
  }
  Clock::time_point start = Clock::now();
  for (int i = 0; i < exchanges; ++i) {
    if (rank == 0) {
      std::future<void> sent = send(2 * i, tensor);
      tensor = receive(2 * i + 1);
      sent.get();
    } else {
      tensor = receive(2 * i);
      send(2 * i + 1, tensor).get();
    }
  }
  double seconds = secondsSince(start);
  transport.endRun();
  return seconds;
}

} // namespace

int main(int argc, char **argv) {
  int64_t mebibytes = argc > 1 ? std::atoll(argv[1]) : 64;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const int exchanges = 10;
  llvm::Expected<std::unique_ptr<MpiTransport>> created =
      MpiTransport::create();
  if (!created) {
    llvm::errs() << llvm::toString(created.takeError()) << "\n";
    return 1;
  }
  MpiTransport &transport = **created;
  if (transport.getNumRanks() != 2) {
    llvm::errs() << "run with 2 ranks: mpirun -n 2 " << argv[0] << "\n";
    return 2;
  }
  if (llvm::Error error = transport.placeDevices(2, 1)) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  Tensor tensor = Tensor::zeros(DType::F32, {mebibytes * (1 << 18)});
  double bytesMoved = 2.0 * exchanges * double(tensor.byteSize());
  std::vector<double> ratios;
  // A first round of each warms the buffers and MPI's connections.
  timeRawPingPong(transport, tensor, 1);
  timeTransportPingPong(transport, tensor, 1);
  for (int round = 0; round < rounds; ++round) {
    double raw = timeRawPingPong(transport, tensor, exchanges);
    double ours = timeTransportPingPong(transport, tensor, exchanges);
    ratios.push_back(raw / ours);
    if (transport.getRank() == 0)
      llvm::outs() << llvm::format(
          "round %d: %lld MiB ping-pong: raw MPI %.2f GB/s, MpiTransport "
          "%.2f GB/s, ratio %.3f\n",
          round, (long long)mebibytes, bytesMoved / raw / 1e9,
          bytesMoved / ours / 1e9, raw / ours);
  }
  std::sort(ratios.begin(), ratios.end());
  if (transport.getRank() == 0)
    llvm::outs() << llvm::format("median ratio (MpiTransport / raw MPI "
                                 "bandwidth): %.3f\n",
                                 ratios[ratios.size() / 2]);
  created->reset();
  return 0;
}
