//===- InProcessRendezvous.cpp - Collectives between threads --------------===//

#include "mpmd/Runtime/InProcessRendezvous.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace mlir::mpmd::runtime {

char CollectiveError::ID = 0;

InProcessRendezvous::InProcessRendezvous(int64_t numParticipants,
                                         ParticipantNamer nameParticipant)
    : numParticipants(numParticipants),
      nameParticipant(std::move(nameParticipant)),
      occurrences(numParticipants), hasLeft(numParticipants, false),
      waits(numParticipants), running(numParticipants) {}

std::string InProcessRendezvous::describe(int64_t participant) const {
  return nameParticipant ? nameParticipant(participant)
                         : "participant " + std::to_string(participant);
}

std::string InProcessRendezvous::describeGroup(llvm::ArrayRef<int64_t> group) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{";
  llvm::interleaveComma(group, os, [&](int64_t member) {
    os << (nameParticipant ? nameParticipant(member) : std::to_string(member));
  });
  os << "}";
  return text;
}

llvm::Expected<std::vector<std::vector<Tensor>>>
InProcessRendezvous::exchange(int64_t self, llvm::ArrayRef<int64_t> group,
                              int64_t channel, llvm::StringRef what,
                              std::vector<Tensor> contribution,
                              llvm::StringRef where) {
  auto fail = [](std::string message) {
    return llvm::make_error<CollectiveError>(std::move(message));
  };
  // A malformed call is the caller's bug, reported to it alone.
  const auto *position = llvm::find(group, self);
  if (self < 0 || self >= numParticipants || position == group.end())
    return fail("participant " + std::to_string(self) +
                " is not a member of the group " + describeGroup(group));
  std::vector<int64_t> sorted(group.begin(), group.end());
  llvm::sort(sorted);
  if (sorted.front() < 0 || sorted.back() >= numParticipants ||
      std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return fail("the group " + describeGroup(group) +
                " repeats a participant or names one outside [0, " +
                std::to_string(numParticipants) + ")");

  std::unique_lock<std::mutex> lock(mutex);
  if (aborted)
    return fail(*abortReason);
  if (group.size() == 1) {
    std::vector<std::vector<Tensor>> result;
    result.push_back(std::move(contribution));
    return result;
  }
  for (int64_t member : group)
    if (hasLeft[member]) {
      abortLocked(describe(member) + " ended its program without "
                  "joining '" + what.str() + "' of the group " +
                  describeGroup(group));
      return fail(*abortReason);
    }
  std::vector<int64_t> members(group.begin(), group.end());
  uint64_t occurrence = occurrences[self][{channel, members}]++;
  MeetingKey key{channel, members, occurrence};
  auto entry = meetings.try_emplace(key).first;
  Meeting &meeting = entry->second;
  const int64_t size = group.size();
  if (meeting.contributions.empty()) {
    meeting.what = what.str();
    meeting.contributions.resize(size);
  } else if (meeting.what != what) {
    abortLocked(describe(self) + " reached '" + what.str() +
                "' where the other members of " + describeGroup(group) +
                " reached '" + meeting.what + "' (channel " +
                std::to_string(channel) + ")");
    return fail(*abortReason);
  }
  meeting.contributions[position - group.begin()] = std::move(contribution);
  if (++meeting.arrived == size) {
    changed.notify_all();
  } else {
    waits[self] = Wait{(where.empty() ? what : where).str(), channel,
                       &entry->first, &meeting};
    abortIfStuckLocked();
    changed.wait(lock, [&] { return aborted || meeting.arrived == size; });
    waits[self].reset();
    if (meeting.arrived != size)
      return fail(*abortReason);
  }
  std::vector<std::vector<Tensor>> result;
  result.reserve(size);
  for (const std::optional<std::vector<Tensor>> &tensors : meeting.contributions)
    result.push_back(*tensors);
  if (++meeting.departed == size)
    meetings.erase(key);
  return result;
}

llvm::Error InProcessRendezvous::send(int64_t channel,
                                      std::vector<Tensor> payload) {
  std::lock_guard<std::mutex> lock(mutex);
  if (aborted)
    return llvm::make_error<CollectiveError>(*abortReason);
  channels[channel].push_back(std::move(payload));
  changed.notify_all();
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>>
InProcessRendezvous::receive(int64_t self, int64_t channel,
                             llvm::StringRef where) {
  if (self < 0 || self >= numParticipants)
    return llvm::make_error<CollectiveError>(
        "participant " + std::to_string(self) + " is outside [0, " +
        std::to_string(numParticipants) + ")");
  std::unique_lock<std::mutex> lock(mutex);
  std::deque<std::vector<Tensor>> &queue = channels[channel];
  // Another receiver on the channel may take the payload this one woke
  // for: it then waits again, and the deadlock check runs again.
  while (!aborted && queue.empty()) {
    waits[self] = Wait{where.str(), channel};
    abortIfStuckLocked();
    if (!aborted)
      changed.wait(lock);
    waits[self].reset();
  }
  if (aborted)
    return llvm::make_error<CollectiveError>(*abortReason);
  std::vector<Tensor> payload = std::move(queue.front());
  queue.pop_front();
  return payload;
}

bool InProcessRendezvous::isSatisfiedLocked(const Wait &wait) const {
  if (wait.meeting)
    return wait.meeting->arrived == static_cast<int64_t>(wait.key->group.size());
  auto queue = channels.find(wait.channel);
  return queue != channels.end() && !queue->second.empty();
}

void InProcessRendezvous::abortIfStuckLocked() {
  if (aborted || running == 0)
    return;
  int64_t blocked = 0;
  for (const std::optional<Wait> &wait : waits)
    if (wait && !isSatisfiedLocked(*wait))
      ++blocked;
  if (blocked < running)
    return;
  // Every participant still running waits, and only another participant
  // could end its wait: none ever will.
  std::string reason;
  llvm::raw_string_ostream os(reason);
  os << "deadlock: every running participant is blocked (";
  bool first = true;
  for (auto [participant, wait] : llvm::enumerate(waits)) {
    if (!wait)
      continue;
    os << (first ? "" : "; ") << describe(participant) << " in "
       << wait->where;
    if (wait->meeting)
      os << " waits for the group " << describeGroup(wait->key->group)
         << " on channel " << wait->channel << ", " << wait->meeting->arrived
         << " of " << wait->key->group.size() << " members arrived";
    else
      os << " waits on channel " << wait->channel << ", which is empty";
    first = false;
  }
  os << ")";
  abortLocked(reason);
}

bool InProcessRendezvous::abortLocked(std::string reason) {
  if (aborted)
    return false;
  abortReason = std::move(reason);
  aborted.store(true, std::memory_order_release);
  changed.notify_all();
  return true;
}

bool InProcessRendezvous::abort(std::string reason) {
  std::lock_guard<std::mutex> lock(mutex);
  return abortLocked(std::move(reason));
}

std::optional<std::string> InProcessRendezvous::getAbortReason() const {
  std::lock_guard<std::mutex> lock(mutex);
  return abortReason;
}

void InProcessRendezvous::leave(int64_t self) {
  std::lock_guard<std::mutex> lock(mutex);
  if (self < 0 || self >= numParticipants || hasLeft[self])
    return;
  hasLeft[self] = true;
  --running;
  for (const auto &[key, meeting] : meetings) {
    auto position = llvm::find(key.group, self);
    if (position != key.group.end() &&
        !meeting.contributions[position - key.group.begin()]) {
      abortLocked(describe(self) + " ended its program without "
                  "joining '" + meeting.what + "' of the group " +
                  describeGroup(key.group));
      return;
    }
  }
  abortIfStuckLocked();
}

} // namespace mlir::mpmd::runtime
