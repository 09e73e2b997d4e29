//===- MpiTransport.h - Devices spread over MPI ranks -----------*- C++ -*-===//
//
// The transport of `mpmd run --backend mpi`: device d of the topology runs
// on rank d / devicesPerRank. Transfers are MPI_Isend/MPI_Irecv with the
// executor's tags (derived from the transfer's step and receiving device);
// collectives are MPI's non-blocking ones on communicators split per group
// at start-up (`prepareGroups`).
//
// One progress thread per process makes every MPI call (it initializes MPI,
// so MPI_THREAD_FUNNELED suffices): posting only queues a command, and the
// thread polls the requests in flight with MPI_Test (backing off to 200 µs
// sleeps while nothing completes), so device threads never block in MPI
// and transfers overlap compute.
//
// Failures: every rank keeps a receive posted on an abort channel. `abort`
// sends the reason to every other rank; a rank that receives it fails
// everything pending with "rank R failed: REASON". `failJob` then ends the
// process: the failing rank gives the others a moment to report, then
// calls MPI_Abort, which mpirun turns into the end of every rank. A rank
// that dies without a word (killed) is mpirun's to report: it ends the
// others itself.
//
// No <mpi.h> here: only lib/Runtime/Mpi sees MPI.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_MPI_MPITRANSPORT_H
#define MPMD_RUNTIME_MPI_MPITRANSPORT_H

#include "mpmd/Runtime/Transport.h"

#include <memory>

namespace mlir::mpmd::runtime {

class MpiTransport final : public Transport {
public:
  /// Initializes MPI (on the transport's own thread). One per process.
  static llvm::Expected<std::unique_ptr<MpiTransport>> create();
  /// Finalizes MPI (after a successful job).
  ~MpiTransport() override;

  int64_t getRank() const;
  int64_t getNumRanks() const;

  /// Device d runs on rank d / devicesPerRank; `numDevices` must equal the
  /// number of ranks times `devicesPerRank`.
  llvm::Error placeDevices(int64_t numDevices, int64_t devicesPerRank);
  /// Creates one communicator per group (global devices, one per rank), in
  /// the same order on every rank: collective over all ranks.
  llvm::Error prepareGroups(const std::vector<std::vector<int64_t>> &groups);

  /// Every rank's `word`, in rank order (collective).
  llvm::Expected<std::vector<uint64_t>> allGatherWords(uint64_t word);
  /// Returns once every rank called it.
  llvm::Error barrier();
  /// Blocking messages between ranks outside runs (e.g. outputs to rank 0),
  /// on a communicator of their own: `tag` is the caller's.
  llvm::Error sendTensor(int64_t rank, int64_t tag, const Tensor &tensor);
  llvm::Expected<Tensor> receiveTensor(int64_t rank, int64_t tag,
                                       const TensorSpec &spec);
  /// Runs `function` on the MPI thread while nothing else runs there (raw
  /// MPI calls, e.g. the baseline of a benchmark).
  void runOnMpiThread(const std::function<void()> &function);

  /// Ends the process after `message` (this rank's failure, or the report
  /// of another rank's): tells the other ranks unless they already know,
  /// then exits with `exitCode` (through MPI_Abort on the failing rank).
  [[noreturn]] void failJob(const std::string &message, int exitCode);

  bool isLocal(int64_t device) const override;
  int64_t getProcessOf(int64_t device) const override;
  int64_t getProcess() const override { return getRank(); }
  int64_t getNumProcesses() const override { return getNumRanks(); }
  int64_t getMaxTag() const override;

  void postSend(int64_t from, int64_t to, int64_t tag, Tensor tensor,
                SendCallback done) override;
  void postReceive(int64_t from, int64_t to, int64_t tag, TensorSpec spec,
                   ReceiveCallbacks callbacks) override;
  // Pieces (postSendPiece/postReceivePiece) use Transport's defaults: a
  // piece goes as a tensor of its own, copied into the receiver's shard.

  llvm::Expected<Tensor> allReduce(llvm::ArrayRef<int64_t> group,
                                   int64_t device, const Tensor &operand,
                                   ReduceKind kind) override;
  llvm::Expected<Tensor> allGather(llvm::ArrayRef<int64_t> group,
                                   int64_t device, const Tensor &operand,
                                   int64_t dimension) override;
  llvm::Expected<Tensor> reduceScatter(llvm::ArrayRef<int64_t> group,
                                       int64_t device, const Tensor &operand,
                                       int64_t dimension,
                                       ReduceKind kind) override;
  llvm::Expected<Tensor> allToAll(llvm::ArrayRef<int64_t> group,
                                  int64_t device, const Tensor &operand,
                                  int64_t splitDimension,
                                  int64_t concatDimension) override;
  llvm::Expected<Tensor>
  collectivePermute(llvm::ArrayRef<int64_t> group, int64_t device,
                    const Tensor &operand,
                    llvm::ArrayRef<PermutePair> pairs) override;

  void abort(const std::string &reason) override;
  void endRun() override;

  struct Impl;

private:
  explicit MpiTransport(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_MPI_MPITRANSPORT_H
