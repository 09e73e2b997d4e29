//===- MpiTransport.cpp - The MPI thread, its commands and requests -------===//
//
// Threads other than the MPI thread only queue commands (closures run on
// the MPI thread) and wait on condition variables; the MPI thread runs the
// commands, posts non-blocking MPI operations ("ops": requests plus what to
// do when they complete or fail) and polls them. Callbacks run on the MPI
// thread without the transport's lock held.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Mpi/MpiTransport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace mlir::mpmd::runtime {

namespace {

/// Longest abort note (longer reasons are cut).
constexpr int kNoteBytes = 4096;
/// Largest single message: larger tensors go as several messages with the
/// same tag (MPI's non-overtaking order keeps them in sequence).
constexpr int64_t kMaxMessageBytes = int64_t(1) << 30;

llvm::Error makeMpiError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string describeMpiError(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return "MPI error " + std::to_string(code);
  return std::string(text, length);
}

/// The MPI type and op a reduction runs with; f16/bf16 are widened to f32
/// by the caller.
struct MpiReduction {
  MPI_Datatype type;
  MPI_Op op;
};

MPI_Datatype getMpiType(DType dtype) {
  switch (dtype) {
  case DType::F64: return MPI_DOUBLE;
  case DType::F32: return MPI_FLOAT;
  case DType::F16: case DType::BF16: case DType::UI16: return MPI_UINT16_T;
  case DType::I1: return MPI_C_BOOL;
  case DType::I8: return MPI_INT8_T;
  case DType::I16: return MPI_INT16_T;
  case DType::I32: return MPI_INT32_T;
  case DType::I64: return MPI_INT64_T;
  case DType::UI8: return MPI_UINT8_T;
  case DType::UI32: return MPI_UINT32_T;
  case DType::UI64: return MPI_UINT64_T;
  case DType::C64: return MPI_C_FLOAT_COMPLEX;
  case DType::C128: return MPI_C_DOUBLE_COMPLEX;
  default: return MPI_BYTE; // narrow floats travel widened to f32
  }
}

MpiReduction getMpiReduction(ReduceKind kind, DType dtype) {
  MPI_Datatype type = getMpiType(dtype);
  if (dtype == DType::I1) {
    bool any = kind == ReduceKind::Add || kind == ReduceKind::Maximum ||
               kind == ReduceKind::Or;
    return {type, any ? MPI_LOR : MPI_LAND};
  }
  switch (kind) {
  case ReduceKind::Add: return {type, MPI_SUM};
  case ReduceKind::Multiply: return {type, MPI_PROD};
  case ReduceKind::Maximum: return {type, MPI_MAX};
  case ReduceKind::Minimum: return {type, MPI_MIN};
  case ReduceKind::And: return {type, MPI_BAND};
  case ReduceKind::Or: return {type, MPI_BOR};
  }
  return {type, MPI_SUM};
}

/// `count` as an MPI count, or an error naming `what`.
llvm::Expected<int> toMpiCount(int64_t count, const char *what) {
  if (count > std::numeric_limits<int>::max())
    return makeMpiError(llvm::Twine(what) + ": " + llvm::Twine(count) +
                        " elements exceed what one MPI call takes (2^31 - 1)");
  return static_cast<int>(count);
}

} // namespace

struct MpiTransport::Impl {
  /// Non-blocking MPI operations and what to do when they end.
  struct Op {
    std::vector<MPI_Request> requests;
    /// Keeps send and receive buffers alive until MPI is done with them.
    std::vector<Tensor> buffers;
    std::function<void()> done;
    std::function<void(const std::string &)> failed;
    /// Receives are cancelled on abort (sends cannot be).
    bool cancellable = false;
  };

  int rank = 0, size = 1;
  int64_t maxTag = 32767;
  MPI_Comm data = MPI_COMM_NULL, control = MPI_COMM_NULL,
           notes = MPI_COMM_NULL;
  int64_t numDevices = 0, devicesPerRank = 1;
  std::map<std::vector<int64_t>, MPI_Comm> groupComms;

  std::mutex mutex;
  std::condition_variable wake, notesDelivered;
  std::deque<std::function<void()>> commands;
  bool stop = false;
  bool aborted = false, localAbort = false, notesDone = false;
  std::string reason;
  std::thread thread;
  std::string initError;
  bool initialized = false;

  // MPI thread only.
  std::list<Op> ops;
  MPI_Request noteRequest = MPI_REQUEST_NULL;
  char noteBuffer[kNoteBytes];
  std::vector<MPI_Request> noteSends;
  std::string noteText;
  bool opsFailed = false;

  void submit(std::function<void()> command) {
    std::lock_guard<std::mutex> lock(mutex);
    commands.push_back(std::move(command));
    wake.notify_one();
  }
  bool isAborted() {
    std::lock_guard<std::mutex> lock(mutex);
    return aborted;
  }
  std::string getReason() {
    std::lock_guard<std::mutex> lock(mutex);
    return reason;
  }

  void run();
  /// One pass: tests every op, the abort channel, the notes in flight.
  /// Returns whether anything completed.
  bool poll();
  void failOps(const std::string &why);

  /// Runs `post` on the MPI thread and waits until the op it posts
  /// completes (or the transport aborts). `post` fills the op's requests;
  /// it may return an error instead.
  llvm::Error runBlocking(const std::function<llvm::Error(Op &)> &post);
  int rankOf(int64_t device) const { return int(device / devicesPerRank); }
  llvm::Expected<MPI_Comm> getGroupComm(llvm::ArrayRef<int64_t> group,
                                        const char *name);
};

void MpiTransport::Impl::run() {
  int provided = 0;
  if (int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED,
                                 &provided);
      code != MPI_SUCCESS) {
    std::lock_guard<std::mutex> lock(mutex);
    initError = "MPI_Init_thread failed: " + describeMpiError(code);
    initialized = true;
    wake.notify_all();
    return;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  void *tagBound = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagBound, &found);
  if (found)
    maxTag = *static_cast<int *>(tagBound);
  MPI_Comm_dup(MPI_COMM_WORLD, &data);
  MPI_Comm_dup(MPI_COMM_WORLD, &control);
  MPI_Comm_dup(MPI_COMM_WORLD, &notes);
  MPI_Irecv(noteBuffer, kNoteBytes, MPI_CHAR, MPI_ANY_SOURCE, 0, notes,
            &noteRequest);
  {
    std::lock_guard<std::mutex> lock(mutex);
    initialized = true;
    wake.notify_all();
  }

  auto idleSleep = std::chrono::microseconds(0);
  while (true) {
    std::deque<std::function<void()>> batch;
    {
      std::unique_lock<std::mutex> lock(mutex);
      // Only the abort channel in flight: sleep until a command comes (a
      // few milliseconds at most, to keep listening for aborts).
      if (commands.empty() && ops.empty() && noteSends.empty() && !stop &&
          !(aborted && !opsFailed))
        wake.wait_for(lock, std::chrono::milliseconds(2));
      batch.swap(commands);
      if (stop && batch.empty() && ops.empty())
        break;
    }
    for (std::function<void()> &command : batch)
      command();
    if (poll() || !batch.empty()) {
      idleSleep = std::chrono::microseconds(0);
      continue;
    }
    // Requests in flight but none completed: back off, so that polling
    // does not take the core a device thread computes on.
    if (!ops.empty()) {
      if (idleSleep.count() == 0) {
        std::this_thread::yield();
        idleSleep = std::chrono::microseconds(5);
      } else {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait_for(lock, idleSleep, [&] { return !commands.empty(); });
        idleSleep = std::min(idleSleep * 2, std::chrono::microseconds(200));
      }
    }
  }
  bool finalize;
  {
    std::lock_guard<std::mutex> lock(mutex);
    finalize = !aborted;
  }
  if (finalize) {
    if (noteRequest != MPI_REQUEST_NULL) {
      MPI_Cancel(&noteRequest);
      MPI_Wait(&noteRequest, MPI_STATUS_IGNORE);
    }
    for (auto &[group, comm] : groupComms)
      MPI_Comm_free(&comm);
    MPI_Comm_free(&data);
    MPI_Comm_free(&control);
    MPI_Comm_free(&notes);
    MPI_Finalize();
  }
}

void MpiTransport::Impl::failOps(const std::string &why) {
  opsFailed = true;
  for (Op &op : ops) {
    if (op.cancellable)
      for (MPI_Request &request : op.requests)
        if (request != MPI_REQUEST_NULL)
          MPI_Cancel(&request);
    op.done = nullptr;
    if (std::function<void(const std::string &)> failed =
            std::exchange(op.failed, nullptr))
      failed(why);
  }
}

bool MpiTransport::Impl::poll() {
  bool progressed = false;
  // Another rank's abort note.
  if (noteRequest != MPI_REQUEST_NULL) {
    int arrived = 0;
    MPI_Status status;
    MPI_Test(&noteRequest, &arrived, &status);
    if (arrived) {
      int length = 0;
      MPI_Get_count(&status, MPI_CHAR, &length);
      std::string note(noteBuffer, std::max(length, 0));
      std::lock_guard<std::mutex> lock(mutex);
      if (!aborted) {
        aborted = true;
        reason = "rank " + std::to_string(status.MPI_SOURCE) +
                 " failed: " + note;
      }
      wake.notify_all();
      progressed = true;
    }
  }
  bool abortedNow, local;
  std::string why;
  {
    std::lock_guard<std::mutex> lock(mutex);
    abortedNow = aborted;
    local = localAbort;
    why = reason;
  }
  if (abortedNow && !opsFailed) {
    // This rank's failure goes to every other rank first.
    if (local) {
      noteText = why.substr(0, kNoteBytes);
      for (int other = 0; other < size; ++other)
        if (other != rank) {
          noteSends.emplace_back();
          MPI_Isend(noteText.data(), int(noteText.size()), MPI_CHAR, other, 0,
                    notes, &noteSends.back());
        }
    }
    failOps(local ? "stopped: " + why : why);
    progressed = true;
  }
  if (!noteSends.empty()) {
    int delivered = 0;
    MPI_Testall(int(noteSends.size()), noteSends.data(), &delivered,
                MPI_STATUSES_IGNORE);
    if (delivered) {
      noteSends.clear();
      std::lock_guard<std::mutex> lock(mutex);
      notesDone = true;
      notesDelivered.notify_all();
    }
  }
  for (auto it = ops.begin(); it != ops.end();) {
    int complete = 0;
    MPI_Testall(int(it->requests.size()), it->requests.data(), &complete,
                MPI_STATUSES_IGNORE);
    if (!complete) {
      ++it;
      continue;
    }
    Op op = std::move(*it);
    it = ops.erase(it);
    progressed = true;
    if (op.done)
      op.done();
  }
  return progressed;
}

llvm::Error
MpiTransport::Impl::runBlocking(const std::function<llvm::Error(Op &)> &post) {
  struct Outcome {
    std::mutex mutex;
    std::condition_variable finished;
    bool isFinished = false;
    std::string error;
  };
  auto outcome = std::make_shared<Outcome>();
  auto finish = [outcome](std::string error) {
    std::lock_guard<std::mutex> lock(outcome->mutex);
    outcome->isFinished = true;
    outcome->error = std::move(error);
    outcome->finished.notify_all();
  };
  submit([this, &post, finish] {
    if (isAborted())
      return finish(getReason());
    Op op;
    if (llvm::Error error = post(op))
      return finish(llvm::toString(std::move(error)));
    op.done = [finish] { finish(""); };
    op.failed = [finish](const std::string &why) { finish(why); };
    ops.push_back(std::move(op));
  });
  std::unique_lock<std::mutex> lock(outcome->mutex);
  outcome->finished.wait(lock, [&] { return outcome->isFinished; });
  if (!outcome->error.empty())
    return makeMpiError(outcome->error);
  return llvm::Error::success();
}

llvm::Expected<MPI_Comm>
MpiTransport::Impl::getGroupComm(llvm::ArrayRef<int64_t> group,
                                 const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = groupComms.find(group.vec());
  if (it == groupComms.end())
    return makeMpiError(llvm::Twine(name) +
                        ": the group was not prepared (prepareGroups)");
  return it->second;
}

//===----------------------------------------------------------------------===//
// Setting up
//===----------------------------------------------------------------------===//

MpiTransport::MpiTransport(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}

llvm::Expected<std::unique_ptr<MpiTransport>> MpiTransport::create() {
  auto impl = std::make_unique<Impl>();
  Impl *raw = impl.get();
  impl->thread = std::thread([raw] { raw->run(); });
  std::unique_lock<std::mutex> lock(impl->mutex);
  impl->wake.wait(lock, [&] { return impl->initialized; });
  if (!impl->initError.empty()) {
    std::string error = impl->initError;
    lock.unlock();
    impl->thread.join();
    return makeMpiError(error);
  }
  lock.unlock();
  return std::unique_ptr<MpiTransport>(new MpiTransport(std::move(impl)));
}

MpiTransport::~MpiTransport() {
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->stop = true;
    impl->wake.notify_all();
  }
  impl->thread.join();
}

int64_t MpiTransport::getRank() const { return impl->rank; }
int64_t MpiTransport::getNumRanks() const { return impl->size; }
int64_t MpiTransport::getMaxTag() const { return impl->maxTag; }

bool MpiTransport::isLocal(int64_t device) const {
  return impl->rankOf(device) == impl->rank;
}
int64_t MpiTransport::getProcessOf(int64_t device) const {
  return impl->rankOf(device);
}

llvm::Error MpiTransport::placeDevices(int64_t numDevices,
                                       int64_t devicesPerRank) {
  if (devicesPerRank < 1 || numDevices != impl->size * devicesPerRank)
    return makeMpiError(
        "the topology has " + llvm::Twine(numDevices) + " devices, but " +
        llvm::Twine(impl->size) + " ranks with " +
        llvm::Twine(devicesPerRank) + " device(s) each run " +
        llvm::Twine(impl->size * devicesPerRank) +
        "; start as many ranks as devices divided by --devices-per-rank");
  impl->numDevices = numDevices;
  impl->devicesPerRank = devicesPerRank;
  return llvm::Error::success();
}

llvm::Error MpiTransport::prepareGroups(
    const std::vector<std::vector<int64_t>> &groups) {
  for (const std::vector<int64_t> &group : groups) {
    llvm::SmallVector<int> ranks;
    for (int64_t device : group) {
      if (device < 0 || device >= impl->numDevices)
        return makeMpiError("a collective group names device " +
                            llvm::Twine(device) + ", which does not exist");
      ranks.push_back(impl->rankOf(device));
    }
    llvm::SmallVector<int> sorted(ranks);
    llvm::sort(sorted);
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return makeMpiError("a collective group has two devices on one rank; "
                          "MPI collectives need one device per rank "
                          "(--devices-per-rank 1)");
    auto member = llvm::find(ranks, impl->rank);
    int color = member == ranks.end() ? MPI_UNDEFINED : 0;
    int key = member == ranks.end() ? 0 : int(member - ranks.begin());
    MPI_Comm comm = MPI_COMM_NULL;
    int code = MPI_SUCCESS;
    runOnMpiThread([&] {
      code = MPI_Comm_split(impl->control, color, key, &comm);
    });
    if (code != MPI_SUCCESS)
      return makeMpiError("MPI_Comm_split: " + describeMpiError(code));
    if (comm != MPI_COMM_NULL) {
      std::lock_guard<std::mutex> lock(impl->mutex);
      impl->groupComms[group] = comm;
    }
  }
  return llvm::Error::success();
}

void MpiTransport::runOnMpiThread(const std::function<void()> &function) {
  std::mutex doneMutex;
  std::condition_variable doneSignal;
  bool done = false;
  impl->submit([&] {
    function();
    std::lock_guard<std::mutex> lock(doneMutex);
    done = true;
    doneSignal.notify_all();
  });
  std::unique_lock<std::mutex> lock(doneMutex);
  doneSignal.wait(lock, [&] { return done; });
}

llvm::Expected<std::vector<uint64_t>>
MpiTransport::allGatherWords(uint64_t word) {
  std::vector<uint64_t> words(impl->size);
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        op.requests.emplace_back();
        MPI_Iallgather(&word, 1, MPI_UINT64_T, words.data(), 1, MPI_UINT64_T,
                       impl->control, &op.requests.back());
        return llvm::Error::success();
      }))
    return std::move(error);
  return words;
}

llvm::Error MpiTransport::barrier() {
  return impl->runBlocking([&](Impl::Op &op) {
    op.requests.emplace_back();
    MPI_Ibarrier(impl->control, &op.requests.back());
    return llvm::Error::success();
  });
}

namespace {

/// Posts `bytes` as messages of at most kMaxMessageBytes.
template <typename PostOne>
void postInPieces(std::byte *bytes, int64_t size, std::vector<MPI_Request> &requests,
                  PostOne postOne) {
  int64_t offset = 0;
  do {
    int64_t piece = std::min(kMaxMessageBytes, size - offset);
    requests.emplace_back();
    postOne(bytes + offset, int(piece), &requests.back());
    offset += piece;
  } while (offset < size);
}

} // namespace

llvm::Error MpiTransport::sendTensor(int64_t rank, int64_t tag,
                                     const Tensor &tensor) {
  return impl->runBlocking([&](Impl::Op &op) {
    op.buffers.push_back(tensor);
    postInPieces(const_cast<std::byte *>(tensor.bytes()),
                 int64_t(tensor.byteSize()), op.requests,
                 [&](std::byte *bytes, int count, MPI_Request *request) {
                   MPI_Isend(bytes, count, MPI_BYTE, int(rank), int(tag),
                             impl->control, request);
                 });
    return llvm::Error::success();
  });
}

llvm::Expected<Tensor> MpiTransport::receiveTensor(int64_t rank, int64_t tag,
                                                   const TensorSpec &spec) {
  Tensor tensor = Tensor::empty(spec.dtype, spec.shape);
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        op.cancellable = true;
        op.buffers.push_back(tensor);
        postInPieces(tensor.bytes(), int64_t(tensor.byteSize()), op.requests,
                     [&](std::byte *bytes, int count, MPI_Request *request) {
                       MPI_Irecv(bytes, count, MPI_BYTE, int(rank), int(tag),
                                 impl->control, request);
                     });
        return llvm::Error::success();
      }))
    return std::move(error);
  return tensor;
}

//===----------------------------------------------------------------------===//
// Transfers
//===----------------------------------------------------------------------===//

void MpiTransport::postSend(int64_t from, int64_t to, int64_t tag,
                            Tensor tensor, SendCallback done) {
  impl->submit([this, to, tag, tensor = std::move(tensor),
                done = std::move(done)]() mutable {
    if (impl->isAborted())
      return done(makeMpiError(impl->getReason()));
    Impl::Op op;
    postInPieces(tensor.bytes(), int64_t(tensor.byteSize()), op.requests,
                 [&](std::byte *bytes, int count, MPI_Request *request) {
                   MPI_Isend(bytes, count, MPI_BYTE, impl->rankOf(to),
                             int(tag), impl->data, request);
                 });
    op.buffers.push_back(std::move(tensor));
    auto shared = std::make_shared<SendCallback>(std::move(done));
    op.done = [shared] { (*shared)(llvm::Error::success()); };
    op.failed = [shared](const std::string &why) {
      (*shared)(makeMpiError(why));
    };
    impl->ops.push_back(std::move(op));
  });
}

void MpiTransport::postReceive(int64_t from, int64_t to, int64_t tag,
                               TensorSpec spec, ReceiveCallbacks callbacks) {
  impl->submit([this, from, tag, spec = std::move(spec),
                callbacks = std::move(callbacks)]() mutable {
    if (impl->isAborted())
      return callbacks.onDone(makeMpiError(impl->getReason()));
    if (!callbacks.onStart())
      return;
    Tensor buffer = Tensor::empty(spec.dtype, spec.shape);
    Impl::Op op;
    op.cancellable = true;
    postInPieces(buffer.bytes(), int64_t(buffer.byteSize()), op.requests,
                 [&](std::byte *bytes, int count, MPI_Request *request) {
                   MPI_Irecv(bytes, count, MPI_BYTE, impl->rankOf(from),
                             int(tag), impl->data, request);
                 });
    op.buffers.push_back(buffer);
    auto shared = std::make_shared<ReceiveCallbacks>(std::move(callbacks));
    op.done = [shared, buffer] { shared->onDone(buffer); };
    op.failed = [shared](const std::string &why) {
      shared->onDone(makeMpiError(why));
    };
    impl->ops.push_back(std::move(op));
  });
}

void MpiTransport::abort(const std::string &reason) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  if (impl->aborted)
    return;
  impl->aborted = true;
  impl->localAbort = true;
  impl->reason = reason;
  impl->wake.notify_all();
}

void MpiTransport::endRun() {
  // Once this command runs no callback of the run is running; those still
  // pending (after an abort) are dropped.
  runOnMpiThread([&] {
    for (Impl::Op &op : impl->ops) {
      op.done = nullptr;
      op.failed = nullptr;
    }
  });
}

void MpiTransport::failJob(const std::string &message, int exitCode) {
  abort(message);
  bool local;
  {
    std::unique_lock<std::mutex> lock(impl->mutex);
    local = impl->localAbort;
    // The notes leave at once (they are small); a peer that died cannot
    // take them, hence the bound.
    if (local)
      impl->notesDelivered.wait_for(lock, std::chrono::seconds(1),
                                    [&] { return impl->notesDone; });
  }
  llvm::errs().flush();
  if (local) {
    // The others report the failure before mpirun ends them.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    impl->submit([exitCode] { MPI_Abort(MPI_COMM_WORLD, exitCode); });
    std::this_thread::sleep_for(std::chrono::seconds(3));
  }
  _exit(exitCode);
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

namespace {

/// Narrow floats travel widened to f32 (MPI has no f16 arithmetic).
Tensor widenForMpi(const Tensor &tensor) {
  return isNarrowFloat(tensor.dtype()) ? convert(tensor, DType::F32) : tensor;
}
Tensor narrowFromMpi(const Tensor &tensor, DType dtype) {
  return isNarrowFloat(dtype) ? convert(tensor, dtype) : tensor;
}

/// `parts` chunks of `tensor` along `dimension`, packed one after the other
/// (what MPI's block collectives send to member 0, 1, ...).
Tensor packChunks(const Tensor &tensor, int64_t dimension, int64_t parts) {
  if (dimension == 0)
    return tensor;
  std::vector<Tensor> chunks;
  for (int64_t part = 0; part < parts; ++part)
    chunks.push_back(chunkAlong(tensor, dimension, parts, part));
  return concatenate(chunks, 0);
}

/// The inverse view: `packed` holds `parts` blocks along dimension 0, each
/// to be placed along `dimension` of the result.
Tensor unpackBlocks(const Tensor &packed, int64_t dimension, int64_t parts) {
  if (dimension == 0)
    return packed;
  std::vector<Tensor> blocks;
  for (int64_t part = 0; part < parts; ++part)
    blocks.push_back(chunkAlong(packed, 0, parts, part));
  return concatenate(blocks, dimension);
}

} // namespace

llvm::Expected<Tensor> MpiTransport::allReduce(llvm::ArrayRef<int64_t> group,
                                               int64_t device,
                                               const Tensor &operand,
                                               ReduceKind kind) {
  if (llvm::Expected<int64_t> position = checkCollective(
          group, device, operand, "all_reduce", std::nullopt, std::nullopt);
      !position)
    return position.takeError();
  llvm::Expected<MPI_Comm> comm = impl->getGroupComm(group, "all_reduce");
  if (!comm)
    return comm.takeError();
  Tensor result = widenForMpi(operand).clone();
  llvm::Expected<int> count = toMpiCount(result.numElements(), "all_reduce");
  if (!count)
    return count.takeError();
  MpiReduction reduction = getMpiReduction(kind, result.dtype());
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        // After an abort the caller returns before MPI lets go of them.
        op.buffers.push_back(result);
        op.requests.emplace_back();
        MPI_Iallreduce(MPI_IN_PLACE, result.bytes(), *count, reduction.type,
                       reduction.op, *comm, &op.requests.back());
        return llvm::Error::success();
      }))
    return std::move(error);
  return narrowFromMpi(result, operand.dtype());
}

llvm::Expected<Tensor> MpiTransport::allGather(llvm::ArrayRef<int64_t> group,
                                               int64_t device,
                                               const Tensor &operand,
                                               int64_t dimension) {
  if (llvm::Expected<int64_t> position = checkCollective(
          group, device, operand, "all_gather", std::nullopt, dimension);
      !position)
    return position.takeError();
  llvm::Expected<MPI_Comm> comm = impl->getGroupComm(group, "all_gather");
  if (!comm)
    return comm.takeError();
  int64_t parts = group.size();
  llvm::Expected<int> bytes = toMpiCount(operand.byteSize(), "all_gather");
  if (!bytes)
    return bytes.takeError();
  Shape stacked = operand.shape();
  stacked[0] *= parts;
  Tensor gathered = Tensor::empty(operand.dtype(), stacked);
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        op.buffers = {operand, gathered};
        op.requests.emplace_back();
        MPI_Iallgather(operand.bytes(), *bytes, MPI_BYTE, gathered.bytes(),
                       *bytes, MPI_BYTE, *comm, &op.requests.back());
        return llvm::Error::success();
      }))
    return std::move(error);
  return unpackBlocks(gathered, dimension, parts);
}

llvm::Expected<Tensor> MpiTransport::reduceScatter(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    int64_t dimension, ReduceKind kind) {
  if (llvm::Expected<int64_t> position = checkCollective(
          group, device, operand, "reduce_scatter", dimension, std::nullopt);
      !position)
    return position.takeError();
  llvm::Expected<MPI_Comm> comm = impl->getGroupComm(group, "reduce_scatter");
  if (!comm)
    return comm.takeError();
  int64_t parts = group.size();
  Tensor packed = packChunks(widenForMpi(operand), dimension, parts);
  Shape chunkShape = operand.shape();
  chunkShape[dimension] /= parts;
  Tensor result = Tensor::empty(packed.dtype(), chunkShape);
  llvm::Expected<int> count =
      toMpiCount(result.numElements(), "reduce_scatter");
  if (!count)
    return count.takeError();
  MpiReduction reduction = getMpiReduction(kind, packed.dtype());
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        op.buffers = {packed, result};
        op.requests.emplace_back();
        MPI_Ireduce_scatter_block(packed.bytes(), result.bytes(), *count,
                                  reduction.type, reduction.op, *comm,
                                  &op.requests.back());
        return llvm::Error::success();
      }))
    return std::move(error);
  return narrowFromMpi(result, operand.dtype());
}

llvm::Expected<Tensor> MpiTransport::allToAll(llvm::ArrayRef<int64_t> group,
                                              int64_t device,
                                              const Tensor &operand,
                                              int64_t splitDimension,
                                              int64_t concatDimension) {
  if (llvm::Expected<int64_t> position =
          checkCollective(group, device, operand, "all_to_all",
                          splitDimension, concatDimension);
      !position)
    return position.takeError();
  llvm::Expected<MPI_Comm> comm = impl->getGroupComm(group, "all_to_all");
  if (!comm)
    return comm.takeError();
  int64_t parts = group.size();
  Tensor packed = packChunks(operand, splitDimension, parts);
  Tensor received = Tensor::empty(packed.dtype(), packed.shape());
  llvm::Expected<int> blockBytes =
      toMpiCount(packed.byteSize() / parts, "all_to_all");
  if (!blockBytes)
    return blockBytes.takeError();
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        op.buffers = {packed, received};
        op.requests.emplace_back();
        MPI_Ialltoall(packed.bytes(), *blockBytes, MPI_BYTE, received.bytes(),
                      *blockBytes, MPI_BYTE, *comm, &op.requests.back());
        return llvm::Error::success();
      }))
    return std::move(error);
  return unpackBlocks(received, concatDimension, parts);
}

llvm::Expected<Tensor> MpiTransport::collectivePermute(
    llvm::ArrayRef<int64_t> group, int64_t device, const Tensor &operand,
    llvm::ArrayRef<PermutePair> pairs) {
  if (llvm::Expected<int64_t> position =
          checkCollective(group, device, operand, "collective_permute",
                          std::nullopt, std::nullopt);
      !position)
    return position.takeError();
  if (llvm::Error error = checkPermutePairs(group, pairs))
    return std::move(error);
  llvm::Expected<MPI_Comm> comm =
      impl->getGroupComm(group, "collective_permute");
  if (!comm)
    return comm.takeError();
  auto positionOf = [&](int64_t member) {
    return int(llvm::find(group, member) - group.begin());
  };
  Tensor result = Tensor::zeros(operand.dtype(), operand.shape());
  if (llvm::Error error = impl->runBlocking([&](Impl::Op &op) {
        op.cancellable = true;
        op.buffers = {operand, result};
        for (auto [source, target] : pairs) {
          if (source == device)
            postInPieces(const_cast<std::byte *>(operand.bytes()),
                         int64_t(operand.byteSize()), op.requests,
                         [&](std::byte *bytes, int count, MPI_Request *request) {
                           MPI_Isend(bytes, count, MPI_BYTE, positionOf(target),
                                     0, *comm, request);
                         });
          if (target == device)
            postInPieces(result.bytes(), int64_t(result.byteSize()),
                         op.requests,
                         [&](std::byte *bytes, int count, MPI_Request *request) {
                           MPI_Irecv(bytes, count, MPI_BYTE, positionOf(source),
                                     0, *comm, request);
                         });
        }
        if (op.requests.empty())
          op.requests.push_back(MPI_REQUEST_NULL);
        return llvm::Error::success();
      }))
    return std::move(error);
  return result;
}

} // namespace mlir::mpmd::runtime
