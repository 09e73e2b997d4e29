//===- InProcessRendezvous.h - Collectives between threads ------*- C++ -*-===//
//
// Where the threads of one process meet for a collective: each member of a
// group deposits its tensors and blocks until every member has, then all of
// them read every member's tensors (shared buffers, no copy). What the
// members compute from them (a sum, a concatenation, a slice) is the
// caller's business, so the same meeting point serves the interpreter's
// `interpreter.run_parallel` and, later, the executor's in-mesh
// collectives. Communication between processes (MPI) is a different layer.
// It also holds the channels of point-to-point transfers (stablehlo.send /
// recv): one first-in first-out queue of payloads per channel id.
//
// Never a hang: the first participant that fails aborts the rendezvous and
// every participant waiting or arriving later gets that first reason; a
// meeting that can never complete (every participant still running is
// blocked in a meeting or on an empty channel, or a member has left) aborts
// it as well, naming where each participant is blocked. No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_INPROCESSRENDEZVOUS_H
#define MPMD_RUNTIME_INPROCESSRENDEZVOUS_H

#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mlir::mpmd::runtime {

/// A collective that could not complete: the rendezvous was aborted (the
/// message is the first abort's reason), or the call itself was malformed.
class CollectiveError : public llvm::ErrorInfo<CollectiveError> {
public:
  static char ID;
  explicit CollectiveError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  const std::string &getMessage() const { return message; }

private:
  std::string message;
};

class InProcessRendezvous {
public:
  /// How abort reasons name a participant ("process (0, 1)").
  using ParticipantNamer = std::function<std::string(int64_t participant)>;

  /// Participants are numbered [0, numParticipants); each is one thread,
  /// which calls leave() when it makes no more exchanges.
  explicit InProcessRendezvous(int64_t numParticipants,
                               ParticipantNamer nameParticipant = nullptr);

  int64_t getNumParticipants() const { return numParticipants; }

  /// Participant `self` deposits `contribution` for the collective
  /// `channel` among `group` (participant ids in the order the collective
  /// lists them, `self` among them, no repeats) and waits for the other
  /// members. Returns every member's contribution, in `group` order. The
  /// n-th call of a member with a given (channel, group) meets the n-th call
  /// of every other member, so a collective in a loop meets once per
  /// iteration; members must agree on `what` (e.g. the op name), or the
  /// rendezvous aborts. A group of one returns at once. `where` says
  /// where `self` waits (e.g. the op and its location) when a deadlock is
  /// reported; empty: `what`.
  /// O(group size) to deposit and read, plus O(log meetings) lookups, plus
  /// O(participants) to look for a deadlock when it waits.
  llvm::Expected<std::vector<std::vector<Tensor>>>
  exchange(int64_t self, llvm::ArrayRef<int64_t> group, int64_t channel,
           llvm::StringRef what, std::vector<Tensor> contribution,
           llvm::StringRef where = {});

  /// Appends `payload` to the queue of `channel`; never waits. Fails once
  /// the rendezvous is aborted. O(log channels).
  llvm::Error send(int64_t channel, std::vector<Tensor> payload);
  /// Participant `self` takes the oldest payload of `channel`, waiting
  /// until there is one. `where` says where it waits when a deadlock is
  /// reported. O(log channels), plus O(participants) per deadlock check.
  llvm::Expected<std::vector<Tensor>> receive(int64_t self, int64_t channel,
                                              llvm::StringRef where);

  /// Fails every waiting and later exchange with `reason`. Only the first
  /// abort's reason is kept; returns whether this call was the first.
  bool abort(std::string reason);
  bool isAborted() const { return aborted.load(std::memory_order_acquire); }
  /// The first abort's reason, if any.
  std::optional<std::string> getAbortReason() const;

  /// `self` makes no more exchanges (its program ended). A meeting that
  /// still needs it can never complete: the rendezvous aborts.
  void leave(int64_t self);

private:
  /// One occurrence of a collective: keyed by channel, group and how many
  /// times the members met on them before.
  struct MeetingKey {
    int64_t channel;
    std::vector<int64_t> group;
    uint64_t occurrence;
    bool operator<(const MeetingKey &other) const {
      return std::tie(channel, group, occurrence) <
             std::tie(other.channel, other.group, other.occurrence);
    }
  };
  struct Meeting {
    std::string what;
    std::vector<std::optional<std::vector<Tensor>>> contributions;
    int64_t arrived = 0;
    int64_t departed = 0;
  };
  /// Where a participant waits: in `meeting` (an entry of `meetings`, which
  /// outlives the wait) or, when it is null, for a payload on `channel`.
  struct Wait {
    std::string where;
    int64_t channel;
    const MeetingKey *key = nullptr;
    const Meeting *meeting = nullptr;
  };

  /// With `mutex` held: whether the wait can still end without another
  /// participant arriving (its meeting is complete or its channel holds a
  /// payload, and the thread has not woken yet).
  bool isSatisfiedLocked(const Wait &wait) const;
  /// With `mutex` held: aborts when every participant still running waits
  /// for something only another participant could bring.
  void abortIfStuckLocked();
  bool abortLocked(std::string reason);
  std::string describe(int64_t participant) const;
  std::string describeGroup(llvm::ArrayRef<int64_t> group) const;

  const int64_t numParticipants;
  const ParticipantNamer nameParticipant;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::atomic<bool> aborted{false};
  std::optional<std::string> abortReason;
  std::map<MeetingKey, Meeting> meetings;
  /// Per participant, how many meetings on each (channel, group) it joined.
  std::vector<std::map<std::pair<int64_t, std::vector<int64_t>>, uint64_t>>
      occurrences;
  std::vector<bool> hasLeft;
  /// Per participant, where it waits now, if it does.
  std::vector<std::optional<Wait>> waits;
  /// The payloads sent on each channel and not received yet, oldest first.
  std::map<int64_t, std::deque<std::vector<Tensor>>> channels;
  int64_t running;
};

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_INPROCESSRENDEZVOUS_H
