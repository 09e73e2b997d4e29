//===- ThreadsTransport.h - Every device in this process --------*- C++ -*-===//
//
// The in-process transport: every device is local. Point-to-point messages
// are matched in a table keyed by (from, to, tag); a matched message goes to
// the copy engine of the receiving device (one thread per device), which
// copies the tensor into a buffer of its own, so neither the sending nor
// the receiving device thread stops for a transfer. Collectives rendezvous
// all members of the group in shared memory, and each member then does its
// share of the work (an all-reduce reduces one chunk per member and writes
// it into every member's result; a reduce-scatter reduces the member's own
// chunk straight from the operands: no member gathers everything).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_THREADSTRANSPORT_H
#define MPMD_RUNTIME_THREADSTRANSPORT_H

#include "mpmd/Runtime/Transport.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <tuple>

namespace mlir::mpmd::runtime {

class ThreadsTransport final : public Transport {
public:
  /// Starts one copy engine per device.
  explicit ThreadsTransport(int64_t numDevices);
  ~ThreadsTransport() override;

  bool isLocal(int64_t) const override { return true; }
  int64_t getProcessOf(int64_t) const override { return 0; }
  int64_t getProcess() const override { return 0; }
  int64_t getNumProcesses() const override { return 1; }
  int64_t getMaxTag() const override;

  void postSend(int64_t from, int64_t to, int64_t tag, Tensor tensor,
                SendCallback done) override;
  void postReceive(int64_t from, int64_t to, int64_t tag, TensorSpec spec,
                   ReceiveCallbacks callbacks) override;
  /// The copy engine copies the box straight into the receiver's buffer:
  /// one copy per piece, no staging.
  void postSendPiece(int64_t from, int64_t to, int64_t tag, Tensor tensor,
                     TensorBox box, SendCallback done) override;
  void postReceivePiece(int64_t from, int64_t to, int64_t tag, DType dtype,
                        TensorBox box,
                        PieceReceiveCallbacks callbacks) override;

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
  /// Stops and joins the copy engines.
  void endRun() override;

private:
  /// A whole tensor is a piece whose box is all of it; a receive is either
  /// whole (`received`) or into a box of the receiver's buffer
  /// (`pieceReceived`).
  struct Message {
    bool hasSend = false, hasReceive = false, isPieceReceive = false;
    Tensor tensor;
    TensorBox sourceBox;
    std::vector<int64_t> destinationBegin;
    SendCallback sent;
    ReceiveCallbacks received;
    PieceReceiveCallbacks pieceReceived;
  };
  /// Matches the send or receive just recorded in `message` (key `key`).
  void matchLocked(const std::tuple<int64_t, int64_t, int64_t> &key,
                   Message &message);
  struct CopyEngine {
    std::deque<Message> queue;
    std::condition_variable queued;
    std::thread thread;
  };
  /// The members of one group meet here for each collective, in order.
  struct Rendezvous {
    std::vector<const Tensor *> operands;
    std::vector<Tensor *> results;
    int64_t arrived = 0;
    uint64_t generation = 0;
    std::condition_variable released;
  };

  void runCopyEngine(CopyEngine &engine);
  /// Queues `message` (with a send and a receive) on its receiver's engine.
  void dispatch(int64_t to, Message message);
  Rendezvous &getRendezvous(llvm::ArrayRef<int64_t> group);
  /// Waits until every member of `rendezvous` arrived; with `mutex` held.
  /// When `interruptible`, an abort before every member arrived fails it
  /// for all of them (after, it succeeds for all).
  llvm::Error meet(Rendezvous &rendezvous, std::unique_lock<std::mutex> &lock,
                   bool interruptible);
  /// Runs `work(phase, ...)` for each of `phases` phases, each after every
  /// member finished the previous one (the first after every member
  /// registered its operand and result), and meets once more before any
  /// member leaves, so operands stay alive while others read them. A
  /// member's error does not skip meetings (the others would wait).
  /// `result` is this member's result as registered before the first
  /// meeting (allocated there when other members write into it; else
  /// empty, for `work` to make).
  using Phase = std::function<llvm::Error(int64_t phase, Rendezvous &,
                                          Tensor &result)>;
  llvm::Expected<Tensor> collective(llvm::ArrayRef<int64_t> group,
                                    int64_t position, const Tensor &operand,
                                    int64_t phases, const Phase &work,
                                    Tensor result = Tensor());
  llvm::Error abortedError() const;

  std::mutex mutex;
  std::map<std::tuple<int64_t, int64_t, int64_t>, Message> unmatched;
  std::vector<std::unique_ptr<CopyEngine>> engines;
  std::map<std::vector<int64_t>, std::unique_ptr<Rendezvous>> rendezvous;
  bool stopping = false, aborted = false;
  std::string abortReason;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_THREADSTRANSPORT_H
