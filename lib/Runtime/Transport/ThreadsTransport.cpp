//===- ThreadsTransport.cpp - Copy engines and shared-memory collectives --===//
//
// One mutex guards the message table, the engine queues and the rendezvous
// counters; it is never held while a tensor is copied or reduced, nor while
// a callback runs.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/ThreadsTransport.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>
#include <limits>

namespace mlir::mpmd::runtime {

namespace {

llvm::Error makeTransportError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Every member's operand must have the caller's dtype and shape.
llvm::Error checkSameOperands(const char *name,
                              llvm::ArrayRef<const Tensor *> operands) {
  for (const Tensor *operand : operands)
    if (operand->dtype() != operands.front()->dtype() ||
        operand->shape() != operands.front()->shape())
      return makeTransportError(
          llvm::Twine(name) + ": the members' operands differ (" +
          toString({operands.front()->dtype(), operands.front()->shape()}) +
          " and " + toString({operand->dtype(), operand->shape()}) + ")");
  return llvm::Error::success();
}

} // namespace

ThreadsTransport::ThreadsTransport(int64_t numDevices) {
  for (int64_t device = 0; device < numDevices; ++device)
    engines.push_back(std::make_unique<CopyEngine>());
  for (std::unique_ptr<CopyEngine> &engine : engines)
    engine->thread =
        std::thread([this, raw = engine.get()] { runCopyEngine(*raw); });
}

ThreadsTransport::~ThreadsTransport() { endRun(); }

int64_t ThreadsTransport::getMaxTag() const {
  return std::numeric_limits<int64_t>::max();
}

void ThreadsTransport::dispatch(int64_t to, Message message) {
  CopyEngine &engine = *engines[to];
  engine.queue.push_back(std::move(message));
  engine.queued.notify_one();
}

void ThreadsTransport::matchLocked(
    const std::tuple<int64_t, int64_t, int64_t> &key, Message &message) {
  if (!message.hasSend || !message.hasReceive)
    return;
  auto node = unmatched.extract(key);
  dispatch(std::get<1>(key), std::move(node.mapped()));
}

void ThreadsTransport::postSend(int64_t from, int64_t to, int64_t tag,
                                Tensor tensor, SendCallback done) {
  TensorBox whole{std::vector<int64_t>(tensor.rank(), 0), tensor.shape()};
  postSendPiece(from, to, tag, std::move(tensor), std::move(whole),
                std::move(done));
}

void ThreadsTransport::postSendPiece(int64_t from, int64_t to, int64_t tag,
                                     Tensor tensor, TensorBox box,
                                     SendCallback done) {
  std::lock_guard<std::mutex> lock(mutex);
  Message &message = unmatched[{from, to, tag}];
  message.hasSend = true;
  message.tensor = std::move(tensor);
  message.sourceBox = std::move(box);
  message.sent = std::move(done);
  matchLocked({from, to, tag}, message);
}

void ThreadsTransport::postReceive(int64_t from, int64_t to, int64_t tag,
                                   TensorSpec, ReceiveCallbacks callbacks) {
  std::lock_guard<std::mutex> lock(mutex);
  Message &message = unmatched[{from, to, tag}];
  message.hasReceive = true;
  message.received = std::move(callbacks);
  matchLocked({from, to, tag}, message);
}

void ThreadsTransport::postReceivePiece(int64_t from, int64_t to, int64_t tag,
                                        DType, TensorBox box,
                                        PieceReceiveCallbacks callbacks) {
  std::lock_guard<std::mutex> lock(mutex);
  Message &message = unmatched[{from, to, tag}];
  message.hasReceive = true;
  message.isPieceReceive = true;
  message.destinationBegin = std::move(box.begin);
  message.pieceReceived = std::move(callbacks);
  matchLocked({from, to, tag}, message);
}

void ThreadsTransport::runCopyEngine(CopyEngine &engine) {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    engine.queued.wait(
        lock, [&] { return stopping || aborted || !engine.queue.empty(); });
    if (stopping || aborted)
      return;
    Message message = std::move(engine.queue.front());
    engine.queue.pop_front();
    lock.unlock();
    const TensorBox &box = message.sourceBox;
    if (message.isPieceReceive) {
      if (std::optional<Tensor> buffer = message.pieceReceived.onStart()) {
        copyBox(message.tensor, box.begin, *buffer, message.destinationBegin,
                box.shape);
        message.tensor = Tensor();
        message.pieceReceived.onDone(llvm::Error::success());
        message.sent(llvm::Error::success());
      }
    } else if (message.received.onStart()) {
      Tensor copy = Tensor::empty(message.tensor.dtype(), box.shape);
      copyBox(message.tensor, box.begin, copy,
              std::vector<int64_t>(box.shape.size(), 0), box.shape);
      message.tensor = Tensor();
      message.received.onDone(std::move(copy));
      message.sent(llvm::Error::success());
    }
    lock.lock();
  }
}

void ThreadsTransport::abort(const std::string &reason) {
  std::lock_guard<std::mutex> lock(mutex);
  if (aborted)
    return;
  aborted = true;
  abortReason = reason;
  for (std::unique_ptr<CopyEngine> &engine : engines)
    engine->queued.notify_all();
  for (auto &[group, meeting] : rendezvous)
    meeting->released.notify_all();
}

void ThreadsTransport::endRun() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    for (std::unique_ptr<CopyEngine> &engine : engines)
      engine->queued.notify_all();
  }
  for (std::unique_ptr<CopyEngine> &engine : engines)
    if (engine->thread.joinable())
      engine->thread.join();
}

llvm::Error ThreadsTransport::abortedError() const {
  return makeTransportError("stopped: " + abortReason);
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

ThreadsTransport::Rendezvous &
ThreadsTransport::getRendezvous(llvm::ArrayRef<int64_t> group) {
  std::unique_ptr<Rendezvous> &meeting = rendezvous[group.vec()];
  if (!meeting) {
    meeting = std::make_unique<Rendezvous>();
    meeting->operands.resize(group.size());
    meeting->results.resize(group.size());
  }
  return *meeting;
}

llvm::Error ThreadsTransport::meet(Rendezvous &meeting,
                                   std::unique_lock<std::mutex> &lock,
                                   bool interruptible) {
  if (interruptible && aborted)
    return abortedError();
  uint64_t generation = meeting.generation;
  if (++meeting.arrived == static_cast<int64_t>(meeting.operands.size())) {
    meeting.arrived = 0;
    ++meeting.generation;
    meeting.released.notify_all();
    return llvm::Error::success();
  }
  meeting.released.wait(lock, [&] {
    return (interruptible && aborted) || meeting.generation != generation;
  });
  return meeting.generation != generation ? llvm::Error::success()
                                          : abortedError();
}

llvm::Expected<Tensor> ThreadsTransport::collective(
    llvm::ArrayRef<int64_t> group, int64_t position, const Tensor &operand,
    int64_t phases, const Phase &work, Tensor result) {
  llvm::Error failure = llvm::Error::success();
  std::unique_lock<std::mutex> lock(mutex);
  Rendezvous &meeting = getRendezvous(group);
  meeting.operands[position] = &operand;
  meeting.results[position] = &result;
  // Only the first meeting can be cut short by an abort: once every member
  // arrived, each works (which never blocks) and comes to the next one, so
  // waiting for all of them cannot hang, and no member leaves while another
  // still reads its operand or writes its result.
  for (int64_t phase = 0; phase < phases; ++phase) {
    if (llvm::Error error =
            meet(meeting, lock, /*interruptible=*/phase == 0)) {
      llvm::consumeError(std::move(failure));
      return std::move(error);
    }
    lock.unlock();
    if (!failure)
      failure = work(phase, meeting, result);
    lock.lock();
  }
  if (llvm::Error error = meet(meeting, lock, /*interruptible=*/false)) {
    llvm::consumeError(std::move(failure));
    return std::move(error);
  }
  if (failure)
    return std::move(failure);
  return result;
}

namespace {

/// The bytes of an all-reduce or reduce-scatter chunk copied and folded at
/// a time: well inside L2, large enough that the per-block calls cost
/// nothing.
constexpr int64_t kFoldBlockBytes = 64 * 1024;

/// The elements of `dtype` in one fold block.
int64_t getFoldBlockElements(DType dtype) {
  return std::max<int64_t>(
      1, kFoldBlockBytes / static_cast<int64_t>(dtypeSize(dtype)));
}

/// Writes into `into` the reduction of the `size` elements at byte `offset`
/// of every operand: the first one's copied, the others' folded in.
void foldBlock(ReduceKind kind, DType dtype, std::byte *into,
               llvm::ArrayRef<const Tensor *> operands, size_t offset,
               int64_t size) {
  std::memcpy(into, operands[0]->bytes() + offset, size * dtypeSize(dtype));
  for (const Tensor *other : operands.drop_front())
    reduceInto(kind, dtype, into, other->bytes() + offset, size);
}

} // namespace

llvm::Expected<Tensor> ThreadsTransport::allReduce(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    ReduceKind kind) {
  llvm::Expected<int64_t> position = checkCollective(
      group, device, operand, "all_reduce", std::nullopt, std::nullopt);
  if (!position)
    return position.takeError();
  int64_t members = group.size(), self = *position;
  size_t elementSize = dtypeSize(operand.dtype());
  int64_t elements = operand.numElements();
  // Member i reduces elements [bounds(i), bounds(i + 1)) of every operand
  // and writes the sum into every member's result, which each member
  // allocated before the meeting. Per member, as many bytes are read and
  // written as a memcpy of the operand moves; reading the others' sums back
  // in a second phase would move half as much again.
  auto bounds = [&](int64_t member) { return elements * member / members; };
  return collective(
      group, self, operand, 1,
      [&](int64_t, Rendezvous &meeting, Tensor &result) -> llvm::Error {
        if (llvm::Error error =
                checkSameOperands("all_reduce", meeting.operands))
          return error;
        int64_t begin = bounds(self), count = bounds(self + 1) - begin;
        // Block by block, so that the block is still in cache when the
        // other operands are folded into it and when it is copied to the
        // other members' results.
        int64_t blockElements = getFoldBlockElements(operand.dtype());
        for (int64_t block = begin; block < begin + count;
             block += blockElements) {
          int64_t size = std::min(blockElements, begin + count - block);
          size_t offset = block * elementSize, bytes = size * elementSize;
          std::byte *into = result.bytes() + offset;
          foldBlock(kind, operand.dtype(), into, meeting.operands, offset,
                    size);
          for (int64_t member = 0; member < members; ++member)
            if (member != self)
              std::memcpy(meeting.results[member]->bytes() + offset, into,
                          bytes);
        }
        return llvm::Error::success();
      },
      Tensor::empty(operand.dtype(), operand.shape()));
}

llvm::Expected<Tensor> ThreadsTransport::allGather(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    int64_t dimension) {
  llvm::Expected<int64_t> position = checkCollective(
      group, device, operand, "all_gather", std::nullopt, dimension);
  if (!position)
    return position.takeError();
  return collective(
      group, *position, operand, 1,
      [&](int64_t, Rendezvous &meeting, Tensor &result) -> llvm::Error {
        if (llvm::Error error =
                checkSameOperands("all_gather", meeting.operands))
          return error;
        std::vector<Tensor> parts;
        for (const Tensor *part : meeting.operands)
          parts.push_back(*part);
        result = concatenate(parts, dimension);
        return llvm::Error::success();
      });
}

llvm::Expected<Tensor> ThreadsTransport::reduceScatter(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    int64_t dimension, ReduceKind kind) {
  llvm::Expected<int64_t> position = checkCollective(
      group, device, operand, "reduce_scatter", dimension, std::nullopt);
  if (!position)
    return position.takeError();
  int64_t members = group.size(), self = *position;
  size_t elementSize = dtypeSize(operand.dtype());
  // Member i's chunk along `dimension` is `runs` contiguous runs of
  // `runElements`, one per index of the dimensions before it, `stride`
  // elements apart in every operand. Each member copies its runs of the
  // first operand into its result and folds the others' runs into them
  // block by block while the block is in cache: per member the bytes of a
  // memcpy of its chunk are written, no chunk is cut out first. The sizes
  // are the operand's, whose byte size fits.
  const std::vector<int64_t> &shape = operand.shape();
  int64_t runs = 1, inner = 1;
  for (int64_t d = 0; d < dimension; ++d)
    runs *= shape[d];
  for (int64_t d = dimension + 1; d < operand.rank(); ++d)
    inner *= shape[d];
  int64_t chunk = shape[dimension] / members;
  int64_t runElements = chunk * inner, stride = shape[dimension] * inner;
  std::vector<int64_t> resultShape = shape;
  resultShape[dimension] = chunk;
  return collective(
      group, self, operand, 1,
      [&](int64_t, Rendezvous &meeting, Tensor &result) -> llvm::Error {
        if (llvm::Error error =
                checkSameOperands("reduce_scatter", meeting.operands))
          return error;
        int64_t blockElements = getFoldBlockElements(operand.dtype());
        for (int64_t run = 0; run < runs; ++run) {
          int64_t source = run * stride + self * runElements;
          for (int64_t block = 0; block < runElements; block += blockElements) {
            int64_t size = std::min(blockElements, runElements - block);
            std::byte *into =
                result.bytes() + (run * runElements + block) * elementSize;
            foldBlock(kind, operand.dtype(), into, meeting.operands,
                      (source + block) * elementSize, size);
          }
        }
        return llvm::Error::success();
      },
      Tensor::empty(operand.dtype(), resultShape));
}

llvm::Expected<Tensor> ThreadsTransport::allToAll(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    int64_t splitDimension, int64_t concatDimension) {
  llvm::Expected<int64_t> position = checkCollective(
      group, device, operand, "all_to_all", splitDimension, concatDimension);
  if (!position)
    return position.takeError();
  int64_t members = group.size(), self = *position;
  return collective(
      group, self, operand, 1,
      [&](int64_t, Rendezvous &meeting, Tensor &result) -> llvm::Error {
        if (llvm::Error error =
                checkSameOperands("all_to_all", meeting.operands))
          return error;
        std::vector<Tensor> parts;
        for (const Tensor *part : meeting.operands)
          parts.push_back(chunkAlong(*part, splitDimension, members, self));
        result = concatenate(parts, concatDimension);
        return llvm::Error::success();
      });
}

llvm::Expected<Tensor> ThreadsTransport::collectivePermute(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    llvm::ArrayRef<PermutePair> pairs) {
  llvm::Expected<int64_t> position = checkCollective(
      group, device, operand, "collective_permute", std::nullopt,
      std::nullopt);
  if (!position)
    return position.takeError();
  if (llvm::Error error = checkPermutePairs(group, pairs))
    return std::move(error);
  std::optional<int64_t> sourcePosition;
  for (auto [source, target] : pairs)
    if (target == device)
      sourcePosition = llvm::find(group, source) - group.begin();
  return collective(
      group, *position, operand, 1,
      [&](int64_t, Rendezvous &meeting, Tensor &result) -> llvm::Error {
        if (llvm::Error error =
                checkSameOperands("collective_permute", meeting.operands))
          return error;
        result = sourcePosition ? meeting.operands[*sourcePosition]->clone()
                                : Tensor::zeros(operand.dtype(),
                                                operand.shape());
        return llvm::Error::success();
      });
}

} // namespace mlir::mpmd::runtime
