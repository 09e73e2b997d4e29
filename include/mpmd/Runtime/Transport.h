//===- Transport.h - How tensors move between devices -----------*- C++ -*-===//
//
// Every byte the MPMD executor moves from one device to another goes through
// a Transport: transfers between meshes as tagged point-to-point messages,
// and (for SPMD meshes) collectives over a group of devices. Two
// implementations: ThreadsTransport (every device in this process, copy
// engines and shared-memory collectives, ThreadsTransport.h) and
// MpiTransport (devices spread over MPI ranks, Mpi/MpiTransport.h). The
// executor above does not know which one it runs on.
//
// Devices are numbered globally, mesh after mesh in topology order (device
// d of mesh m is the sum of the earlier meshes' sizes plus d). Plain C++:
// no MLIR here.
//
// Point-to-point is asynchronous and completion-driven: `postSend` and
// `postReceive` return at once; the transport matches a send and a receive
// with the same (from, to, tag) and calls their callbacks later, on a thread
// of its own, never inside post*, and never while holding a lock of its own
// (callers may hold theirs while posting). Collectives block the calling
// device thread until every device of the group called the same collective
// (in the same order on every member).
//
// Failure: `abort` stops every pending and future operation of the
// transport: receives complete with the error, blocked collectives return
// it. Across processes, the abort reaches every other rank, whose pending
// operations fail with "rank R failed: ..." (see docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_TRANSPORT_H
#define MPMD_RUNTIME_TRANSPORT_H

#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/ShardLayout.h"
#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::mpmd::runtime {

/// What a receive tells its owner.
struct ReceiveCallbacks {
  /// Called once the bytes are about to land on the receiving device (its
  /// buffer is allocated from then on); returning false cancels the
  /// receive (the owner has failed and aborts the transport).
  std::function<bool()> onStart;
  /// The received tensor (owned by the receiving device), or why the
  /// receive failed.
  std::function<void(llvm::Expected<Tensor>)> onDone;
};

/// What a piece-wise receive tells its owner: pieces of one value land in
/// one buffer of the receiving device.
struct PieceReceiveCallbacks {
  /// Called once the piece is about to land: the receiving device's buffer
  /// the piece goes into (its owner allocates it for the first piece of a
  /// value and hands the same one out for the others), or none to cancel
  /// the receive (the owner has failed and aborts the transport).
  std::function<std::optional<Tensor>()> onStart;
  /// The piece is in the buffer, or why the receive failed.
  std::function<void(llvm::Error)> onDone;
};

/// Called once the transport no longer reads the sent tensor (the sending
/// device may drop it), with an error when the send failed.
using SendCallback = std::function<void(llvm::Error)>;

/// A (source, target) pair of `collectivePermute`.
using PermutePair = std::pair<int64_t, int64_t>;

class Transport {
public:
  virtual ~Transport();

  /// Whether this process runs `device` (its thread lives here).
  virtual bool isLocal(int64_t device) const = 0;
  /// The process (MPI rank; 0 in process) that runs `device`.
  virtual int64_t getProcessOf(int64_t device) const = 0;
  virtual int64_t getProcess() const = 0;
  virtual int64_t getNumProcesses() const = 0;
  /// The largest tag `postSend`/`postReceive` accept.
  virtual int64_t getMaxTag() const = 0;

  /// Sends `tensor` from `from` (a local device) to `to`; the message with
  /// (from, to, tag) must be unique among the operations in flight.
  virtual void postSend(int64_t from, int64_t to, int64_t tag, Tensor tensor,
                        SendCallback done) = 0;
  /// Receives the message (from, to, tag) on `to` (a local device), a
  /// tensor of `spec`.
  virtual void postReceive(int64_t from, int64_t to, int64_t tag,
                           TensorSpec spec, ReceiveCallbacks callbacks) = 0;

  /// Sends the part `box` of `tensor` (a piece of a relayout, see
  /// ShardLayout.h) from `from` to `to`, matched like `postSend`. The
  /// default cuts the box out on the calling thread and posts it whole; the
  /// in-process transport copies it straight into the receiver's buffer.
  virtual void postSendPiece(int64_t from, int64_t to, int64_t tag,
                             Tensor tensor, TensorBox box, SendCallback done);
  /// Receives a piece of `dtype` into the part `box` of the buffer
  /// `callbacks.onStart` returns. The default receives it whole, then
  /// copies it into the box.
  virtual void postReceivePiece(int64_t from, int64_t to, int64_t tag,
                                DType dtype, TensorBox box,
                                PieceReceiveCallbacks callbacks);

  // Collectives over `group` (global devices, in rank order within the
  // group), called by the thread of each member `device` with its operand.
  // `dimension`-based ones split or concatenate along that dimension of
  // the operand, whose size must divide by the group size where it splits.

  /// Every member gets the elementwise reduction of all operands.
  virtual llvm::Expected<Tensor> allReduce(llvm::ArrayRef<int64_t> group,
                                           int64_t device,
                                           const Tensor &operand,
                                           ReduceKind kind) = 0;
  /// Every member gets the operands concatenated along `dimension`, in
  /// group order.
  virtual llvm::Expected<Tensor> allGather(llvm::ArrayRef<int64_t> group,
                                           int64_t device,
                                           const Tensor &operand,
                                           int64_t dimension) = 0;
  /// Member i gets chunk i (along `dimension`) of the reduction of all
  /// operands.
  virtual llvm::Expected<Tensor> reduceScatter(llvm::ArrayRef<int64_t> group,
                                               int64_t device,
                                               const Tensor &operand,
                                               int64_t dimension,
                                               ReduceKind kind) = 0;
  /// Member i gets chunk i (along `splitDimension`) of every member's
  /// operand, concatenated along `concatDimension` in group order.
  virtual llvm::Expected<Tensor> allToAll(llvm::ArrayRef<int64_t> group,
                                          int64_t device,
                                          const Tensor &operand,
                                          int64_t splitDimension,
                                          int64_t concatDimension) = 0;
  /// Each target gets its source's operand; members that are no target get
  /// zeros (StableHLO collective_permute). `group` lists every member.
  virtual llvm::Expected<Tensor>
  collectivePermute(llvm::ArrayRef<int64_t> group, int64_t device,
                    const Tensor &operand,
                    llvm::ArrayRef<PermutePair> pairs) = 0;

  /// Fails every pending and future operation with `reason` (and tells the
  /// other processes). The first abort wins; later ones are ignored.
  virtual void abort(const std::string &reason) = 0;
  /// Ends a run: waits until no callback of this run executes, then drops
  /// the callbacks still pending (after an abort). After it returns the
  /// transport never calls back into the run.
  virtual void endRun() = 0;
};

/// Checks the arguments every transport's collectives share: `device` in
/// `group`, no duplicates, `dimension` in range and divisible where
/// needed. Returns the member's position in the group.
llvm::Expected<int64_t> checkCollective(llvm::ArrayRef<int64_t> group,
                                        int64_t device, const Tensor &operand,
                                        const char *name,
                                        std::optional<int64_t> splitDimension,
                                        std::optional<int64_t> concatDimension);

/// Every source and target of `pairs` is in `group`, each at most once as a
/// source and once as a target.
llvm::Error checkPermutePairs(llvm::ArrayRef<int64_t> group,
                              llvm::ArrayRef<PermutePair> pairs);

/// Folds `count` elements of `source` into `accumulator` (both `dtype`):
/// accumulator[i] = kind(accumulator[i], source[i]). f16/bf16 through f32.
void reduceInto(ReduceKind kind, DType dtype, std::byte *accumulator,
                const std::byte *source, int64_t count);

/// Chunk `index` of `parts` equal chunks of `tensor` along `dimension`.
Tensor chunkAlong(const Tensor &tensor, int64_t dimension, int64_t parts,
                  int64_t index);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_TRANSPORT_H
