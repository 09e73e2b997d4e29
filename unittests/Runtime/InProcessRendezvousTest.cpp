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
    EXPECT_THAT(error, HasSubstr("every running participant waits"));
    EXPECT_THAT(error, HasSubstr("on channel 1 has 1 of 2 members"));
    EXPECT_THAT(error, HasSubstr("on channel 2 has 1 of 2 members"));
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
