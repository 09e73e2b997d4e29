//===- InProcessRendezvousTest.cpp - Collectives between threads ----------===//
//
// Also process groups (ProcessGroups.h), which say who meets whom. Built in
// MPMDExecutorTests, so the ThreadSanitizer run covers the threads here.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/InProcessRendezvous.h"
#include "mpmd/Runtime/ProcessGroups.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <thread>

using namespace mlir::mpmd::runtime;
using ::testing::HasSubstr;

namespace {

Tensor scalar(int64_t value) {
  Tensor tensor = Tensor::empty(DType::I64, {});
  *tensor.data<int64_t>() = value;
  return tensor;
}

/// Runs `body(participant)` on one thread per participant and joins them.
template <typename Body> void onThreads(int64_t count, Body body) {
  std::vector<std::thread> threads;
  for (int64_t participant = 0; participant < count; ++participant)
    threads.emplace_back(body, participant);
  for (std::thread &thread : threads)
    thread.join();
}

TEST(InProcessRendezvousTest, EveryMemberReadsEveryContributionInGroupOrder) {
  constexpr int64_t kParticipants = 4, kRounds = 200;
  InProcessRendezvous rendezvous(kParticipants);
  // Group order differs from id order; each round meets anew although the
  // channel and group repeat.
  const std::vector<int64_t> group = {2, 0, 3, 1};
  std::vector<std::string> errors(kParticipants);
  std::vector<int64_t> mismatches(kParticipants, 0);
  onThreads(kParticipants, [&](int64_t self) {
    for (int64_t round = 0; round < kRounds; ++round) {
      auto result = rendezvous.exchange(self, group, /*channel=*/0, "sum",
                                        {scalar(round * 10 + self)});
      if (!result) {
        errors[self] = llvm::toString(result.takeError());
        return;
      }
      for (size_t position = 0; position < group.size(); ++position)
        if ((*result)[position][0].elementAsInt(0) !=
            round * 10 + group[position])
          ++mismatches[self];
    }
    rendezvous.leave(self);
  });
  for (int64_t self = 0; self < kParticipants; ++self) {
    EXPECT_EQ(errors[self], "") << "participant " << self;
    EXPECT_EQ(mismatches[self], 0) << "participant " << self;
  }
  EXPECT_FALSE(rendezvous.isAborted());
}

TEST(InProcessRendezvousTest, DisjointGroupsMeetIndependently) {
  InProcessRendezvous rendezvous(4);
  std::vector<int64_t> sums(4, -1);
  onThreads(4, [&](int64_t self) {
    std::vector<int64_t> group =
        self < 2 ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{2, 3};
    auto result = rendezvous.exchange(self, group, 0, "sum", {scalar(self)});
    if (result)
      sums[self] = (*result)[0][0].elementAsInt(0) +
                   (*result)[1][0].elementAsInt(0);
    else
      llvm::consumeError(result.takeError());
    rendezvous.leave(self);
  });
  EXPECT_EQ(sums, (std::vector<int64_t>{1, 1, 5, 5}));
}

TEST(InProcessRendezvousTest, GroupOfOneNeedsNoOtherParticipant) {
  InProcessRendezvous rendezvous(3);
  auto result = rendezvous.exchange(1, {1}, 7, "sum", {scalar(42)});
  ASSERT_TRUE(static_cast<bool>(result));
  EXPECT_EQ((*result)[0][0].elementAsInt(0), 42);
}

TEST(InProcessRendezvousTest, AbortWakesWaitersWithTheFirstReason) {
  InProcessRendezvous rendezvous(3);
  std::vector<std::string> errors(3);
  std::vector<bool> firstAbort(3, false);
  onThreads(3, [&](int64_t self) {
    if (self == 2) {
      // Fails instead of joining; a second abort's reason is dropped.
      firstAbort[self] = rendezvous.abort("process 2 failed");
      EXPECT_FALSE(rendezvous.abort("a later reason"));
      rendezvous.leave(self);
      return;
    }
    auto result = rendezvous.exchange(self, {0, 1, 2}, 0, "sum", {scalar(self)});
    errors[self] = result ? "" : llvm::toString(result.takeError());
    rendezvous.leave(self);
  });
  EXPECT_TRUE(firstAbort[2]);
  EXPECT_EQ(errors[0], "process 2 failed");
  EXPECT_EQ(errors[1], "process 2 failed");
  EXPECT_EQ(rendezvous.getAbortReason(), "process 2 failed");
  // Later exchanges fail at once, even of a group of one.
  auto late = rendezvous.exchange(0, {0}, 0, "sum", {scalar(0)});
  ASSERT_FALSE(static_cast<bool>(late));
  EXPECT_EQ(llvm::toString(late.takeError()), "process 2 failed");
}

TEST(InProcessRendezvousTest, MemberThatEndsItsProgramAbortsTheMeeting) {
  InProcessRendezvous rendezvous(
      3, [](int64_t participant) { return "p" + std::to_string(participant); });
  std::vector<std::string> errors(3);
  onThreads(3, [&](int64_t self) {
    if (self != 0) {
      rendezvous.leave(self); // 1 never joins; 2 is not in the group
      return;
    }
    auto result = rendezvous.exchange(self, {0, 1}, 0, "gather", {scalar(self)});
    errors[self] = result ? "" : llvm::toString(result.takeError());
    rendezvous.leave(self);
  });
  EXPECT_THAT(errors[0], HasSubstr("p1 ended its program without joining "
                                   "'gather' of the group {p0, p1}"));
}

TEST(InProcessRendezvousTest, WaitingForEachOtherOnDifferentChannelsAborts) {
  InProcessRendezvous rendezvous(2);
  std::vector<std::string> errors(2);
  onThreads(2, [&](int64_t self) {
    // Each waits at a collective the other never reaches.
    auto result = rendezvous.exchange(self, {0, 1}, /*channel=*/self + 1, "sum",
                                      {scalar(self)});
    errors[self] = result ? "" : llvm::toString(result.takeError());
    rendezvous.leave(self);
  });
  for (const std::string &error : errors) {
    EXPECT_THAT(error, HasSubstr("deadlock: every running participant is "
                                 "blocked"));
    EXPECT_THAT(error, HasSubstr("participant 0 in sum waits for the group "
                                 "{0, 1} on channel 1, 1 of 2 members "
                                 "arrived"));
    EXPECT_THAT(error, HasSubstr("participant 1 in sum waits for the group "
                                 "{0, 1} on channel 2, 1 of 2 members "
                                 "arrived"));
  }
}

TEST(InProcessRendezvousTest, MembersMustAgreeOnTheCollective) {
  InProcessRendezvous rendezvous(2);
  std::vector<std::string> errors(2);
  onThreads(2, [&](int64_t self) {
    auto result = rendezvous.exchange(self, {0, 1}, 0, self ? "gather" : "sum",
                                      {scalar(self)});
    errors[self] = result ? "" : llvm::toString(result.takeError());
    rendezvous.leave(self);
  });
  std::string expected = errors[0].empty() ? errors[1] : errors[0];
  EXPECT_THAT(expected, HasSubstr("where the other members of {0, 1} reached"));
  EXPECT_EQ(errors[0], errors[1]);
}

TEST(InProcessRendezvousTest, MalformedGroupsFailTheCallerOnly) {
  InProcessRendezvous rendezvous(2);
  auto notMember = rendezvous.exchange(0, {1}, 0, "sum", {});
  ASSERT_FALSE(static_cast<bool>(notMember));
  EXPECT_THAT(llvm::toString(notMember.takeError()),
              HasSubstr("participant 0 is not a member of the group {1}"));
  auto repeated = rendezvous.exchange(0, {0, 0}, 0, "sum", {});
  ASSERT_FALSE(static_cast<bool>(repeated));
  EXPECT_THAT(llvm::toString(repeated.takeError()), HasSubstr("repeats"));
  auto outside = rendezvous.exchange(0, {0, 5}, 0, "sum", {});
  ASSERT_FALSE(static_cast<bool>(outside));
  EXPECT_THAT(llvm::toString(outside.takeError()), HasSubstr("outside [0, 2)"));
  EXPECT_FALSE(rendezvous.isAborted());
}

//===----------------------------------------------------------------------===//
// Channels (send / receive)
//===----------------------------------------------------------------------===//

TEST(InProcessRendezvousTest, ChannelsAreFirstInFirstOutAndIndependent) {
  constexpr int64_t kPayloads = 300;
  InProcessRendezvous rendezvous(4);
  std::vector<std::vector<int64_t>> received(4);
  std::vector<std::string> errors(4);
  // 0 sends to 1 on channel 7 and 2 to 3 on channel 8, concurrently; the
  // receivers may start first.
  onThreads(4, [&](int64_t self) {
    int64_t channel = self < 2 ? 7 : 8;
    for (int64_t i = 0; i < kPayloads; ++i) {
      if (self % 2 == 0) {
        if (llvm::Error error =
                rendezvous.send(channel, {scalar(self * 1000 + i)})) {
          errors[self] = llvm::toString(std::move(error));
          break;
        }
        continue;
      }
      auto payload = rendezvous.receive(self, channel, "recv");
      if (!payload) {
        errors[self] = llvm::toString(payload.takeError());
        break;
      }
      received[self].push_back((*payload)[0].elementAsInt(0));
    }
    rendezvous.leave(self);
  });
  for (const std::string &error : errors)
    EXPECT_EQ(error, "");
  ASSERT_EQ(received[1].size(), size_t(kPayloads));
  ASSERT_EQ(received[3].size(), size_t(kPayloads));
  for (int64_t i = 0; i < kPayloads; ++i) {
    EXPECT_EQ(received[1][i], i);
    EXPECT_EQ(received[3][i], 2000 + i);
  }
}

TEST(InProcessRendezvousTest, PayloadKeepsEveryValue) {
  InProcessRendezvous rendezvous(1);
  ASSERT_FALSE(static_cast<bool>(
      rendezvous.send(3, {scalar(1), scalar(2), scalar(3)})));
  auto payload = rendezvous.receive(0, 3, "recv");
  ASSERT_TRUE(static_cast<bool>(payload));
  ASSERT_EQ(payload->size(), 3u);
  EXPECT_EQ((*payload)[2].elementAsInt(0), 3);
}

TEST(InProcessRendezvousTest, ReceiveOnAnEmptyChannelAloneIsADeadlock) {
  InProcessRendezvous rendezvous(
      1, [](int64_t) { return std::string("the program"); });
  auto payload = rendezvous.receive(0, 4, "'recv' at line 9");
  ASSERT_FALSE(static_cast<bool>(payload));
  EXPECT_EQ(llvm::toString(payload.takeError()),
            "deadlock: every running participant is blocked (the program in "
            "'recv' at line 9 waits on channel 4, which is empty)");
  // Aborted for good: a later send fails too.
  llvm::Error late = rendezvous.send(4, {scalar(0)});
  EXPECT_TRUE(static_cast<bool>(late));
  llvm::consumeError(std::move(late));
}

TEST(InProcessRendezvousTest, ReceiversWaitingForEachOtherAbort) {
  InProcessRendezvous rendezvous(2);
  std::vector<std::string> errors(2);
  onThreads(2, [&](int64_t self) {
    auto payload = rendezvous.receive(self, self, self ? "B" : "A");
    errors[self] = payload ? "" : llvm::toString(payload.takeError());
    rendezvous.leave(self);
  });
  for (const std::string &error : errors)
    EXPECT_EQ(error, "deadlock: every running participant is blocked "
                     "(participant 0 in A waits on channel 0, which is empty; "
                     "participant 1 in B waits on channel 1, which is empty)");
}

TEST(InProcessRendezvousTest, ReceiverWhoseSendersEndedAborts) {
  InProcessRendezvous rendezvous(3);
  std::string error;
  onThreads(3, [&](int64_t self) {
    if (self == 0) {
      auto payload = rendezvous.receive(0, 5, "recv");
      error = payload ? "" : llvm::toString(payload.takeError());
    }
    rendezvous.leave(self);
  });
  EXPECT_EQ(error, "deadlock: every running participant is blocked "
                   "(participant 0 in recv waits on channel 5, which is "
                   "empty)");
}

TEST(InProcessRendezvousTest, ReceiveAndCollectiveBlockingEachOtherAbort) {
  InProcessRendezvous rendezvous(2);
  std::vector<std::string> errors(2);
  onThreads(2, [&](int64_t self) {
    if (self == 0) {
      auto payload = rendezvous.receive(0, 1, "recv");
      errors[0] = payload ? "" : llvm::toString(payload.takeError());
    } else {
      auto result =
          rendezvous.exchange(1, {0, 1}, 2, "sum", {scalar(1)}, "'sum' at x");
      errors[1] = result ? "" : llvm::toString(result.takeError());
    }
    rendezvous.leave(self);
  });
  for (const std::string &error : errors) {
    EXPECT_THAT(error, HasSubstr("participant 0 in recv waits on channel 1, "
                                 "which is empty"));
    EXPECT_THAT(error, HasSubstr("participant 1 in 'sum' at x waits for the "
                                 "group {0, 1} on channel 2, 1 of 2 members "
                                 "arrived"));
  }
}

// A receiver is not blocked while a payload it may take sits in the queue,
// even before its thread wakes: a send just before the others wait must
// not be taken for a deadlock.
TEST(InProcessRendezvousTest, PendingPayloadIsNoDeadlock) {
  constexpr int64_t kRounds = 200;
  InProcessRendezvous rendezvous(2);
  std::vector<std::string> errors(2);
  onThreads(2, [&](int64_t self) {
    for (int64_t round = 0; round < kRounds && errors[self].empty(); ++round) {
      // Ping-pong: 0 sends on channel 0 and waits on 1; 1 the reverse.
      if (self == 0) {
        if (llvm::Error error = rendezvous.send(0, {scalar(round)}))
          errors[0] = llvm::toString(std::move(error));
        auto reply = rendezvous.receive(0, 1, "pong");
        if (!reply)
          errors[0] = llvm::toString(reply.takeError());
      } else {
        auto ping = rendezvous.receive(1, 0, "ping");
        if (!ping) {
          errors[1] = llvm::toString(ping.takeError());
          continue;
        }
        if (llvm::Error error = rendezvous.send(1, std::move(*ping)))
          errors[1] = llvm::toString(std::move(error));
      }
    }
    rendezvous.leave(self);
  });
  EXPECT_EQ(errors[0], "");
  EXPECT_EQ(errors[1], "");
}

//===----------------------------------------------------------------------===//
// Process groups
//===----------------------------------------------------------------------===//

std::vector<std::vector<std::pair<int64_t, int64_t>>>
pairsOf(const std::vector<std::vector<ProcessId>> &groups) {
  std::vector<std::vector<std::pair<int64_t, int64_t>>> pairs;
  for (const auto &group : groups) {
    auto &row = pairs.emplace_back();
    for (ProcessId process : group)
      row.emplace_back(process.replica, process.partition);
  }
  return pairs;
}

std::vector<std::vector<std::pair<int64_t, int64_t>>>
groupsOrDie(ProcessGroupMode mode, std::vector<std::vector<int64_t>> ids,
            ProcessGrid grid, bool mustCover = true) {
  auto groups = formProcessGroups(mode, ids, grid, mustCover);
  if (!groups) {
    ADD_FAILURE() << llvm::toString(groups.takeError());
    return {};
  }
  return pairsOf(*groups);
}

using Groups = std::vector<std::vector<std::pair<int64_t, int64_t>>>;

TEST(ProcessGroupsTest, CrossReplicaRepeatsEachGroupPerPartition) {
  EXPECT_EQ(groupsOrDie(ProcessGroupMode::CrossReplica, {{0, 1}, {2, 3}},
                        {4, 2}),
            (Groups{{{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}, {{2, 0}, {3, 0}},
                    {{2, 1}, {3, 1}}}));
}

TEST(ProcessGroupsTest, CrossPartitionRepeatsEachGroupPerReplica) {
  EXPECT_EQ(groupsOrDie(ProcessGroupMode::CrossPartition, {{1, 0}}, {2, 2}),
            (Groups{{{0, 1}, {0, 0}}, {{1, 1}, {1, 0}}}));
}

TEST(ProcessGroupsTest, CrossReplicaAndPartitionTakesEveryPartition) {
  EXPECT_EQ(groupsOrDie(ProcessGroupMode::CrossReplicaAndPartition,
                        {{0, 1}, {2, 3}}, {4, 2}),
            (Groups{{{0, 0}, {1, 0}, {0, 1}, {1, 1}},
                    {{2, 0}, {3, 0}, {2, 1}, {3, 1}}}));
}

TEST(ProcessGroupsTest, FlattenedIdsAreReplicaMajor) {
  EXPECT_EQ(groupsOrDie(ProcessGroupMode::FlattenedIds, {{0, 3}, {1, 2}},
                        {2, 2}),
            (Groups{{{0, 0}, {1, 1}}, {{0, 1}, {1, 0}}}));
}

TEST(ProcessGroupsTest, NoGroupsMeansOneGroupOfEveryId) {
  EXPECT_EQ(groupsOrDie(ProcessGroupMode::CrossPartition, {}, {1, 3}),
            (Groups{{{0, 0}, {0, 1}, {0, 2}}}));
}

TEST(ProcessGroupsTest, BadIdsAreErrors) {
  auto message = [](ProcessGroupMode mode, std::vector<std::vector<int64_t>> ids,
                    ProcessGrid grid, bool mustCover) {
    auto groups = formProcessGroups(mode, ids, grid, mustCover);
    return groups ? std::string("no error") : llvm::toString(groups.takeError());
  };
  EXPECT_EQ(message(ProcessGroupMode::CrossReplica, {{0, 2}}, {2, 1}, true),
            "cross_replica groups on a grid of 2 replica(s) x 1 partition(s): "
            "replica id 2 is outside [0, 2)");
  EXPECT_THAT(message(ProcessGroupMode::FlattenedIds, {{0, 1}, {1, 2}}, {1, 4},
                      true),
              HasSubstr("flattened process id 1 is in two groups"));
  EXPECT_THAT(message(ProcessGroupMode::CrossPartition, {{0, 1}}, {1, 3}, true),
              HasSubstr("partition id 2 is in no group"));
  // Groups that need not cover (collective_broadcast) leave ids out.
  EXPECT_EQ(message(ProcessGroupMode::CrossPartition, {{0, 1}}, {1, 3}, false),
            "no error");
}

} // namespace
