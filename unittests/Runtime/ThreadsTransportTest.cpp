//===- ThreadsTransportTest.cpp - The in-process transport ----------------===//

#include "CollectiveReference.h"

#include "mpmd/Runtime/ThreadsTransport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <atomic>
#include <future>
#include <thread>

using namespace mlir::mpmd::runtime;
using namespace mlir::mpmd::runtime::testing;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

namespace {

/// Runs `body(position)` on one thread per member of `group` and returns
/// each member's result, in group order.
std::vector<llvm::Expected<Tensor>>
onEveryMember(const std::vector<int64_t> &group,
              const std::function<llvm::Expected<Tensor>(int64_t)> &body) {
  std::vector<std::future<llvm::Expected<Tensor>>> futures;
  for (size_t position = 0; position < group.size(); ++position)
    futures.push_back(std::async(std::launch::async, body, position));
  std::vector<llvm::Expected<Tensor>> results;
  for (auto &future : futures)
    results.push_back(future.get());
  return results;
}

TEST(ThreadsTransportTest, DeliversACopyWhicheverSideComesFirst) {
  ThreadsTransport transport(2);
  std::promise<Tensor> firstArrived, secondArrived;
  std::atomic<int> sendsDone = 0;
  Tensor first = makeOperand(0, {5}), second = makeOperand(1, {5});
  // Send first, then receive; then the other way round.
  transport.postSend(0, 1, 7, first, [&](llvm::Error error) {
    EXPECT_FALSE(bool(error));
    ++sendsDone;
  });
  transport.postReceive(0, 1, 7, {DType::F32, {5}},
                        {[] { return true; },
                         [&](llvm::Expected<Tensor> tensor) {
                           firstArrived.set_value(std::move(*tensor));
                         }});
  transport.postReceive(1, 0, 8, {DType::F32, {5}},
                        {[] { return true; },
                         [&](llvm::Expected<Tensor> tensor) {
                           secondArrived.set_value(std::move(*tensor));
                         }});
  transport.postSend(1, 0, 8, second, [&](llvm::Error error) {
    EXPECT_FALSE(bool(error));
    ++sendsDone;
  });
  Tensor gotFirst = firstArrived.get_future().get();
  Tensor gotSecond = secondArrived.get_future().get();
  transport.endRun();
  EXPECT_THAT(valuesOf(gotFirst), ElementsAreArray(valuesOf(first)));
  EXPECT_THAT(valuesOf(gotSecond), ElementsAreArray(valuesOf(second)));
  // The receiver owns its copy.
  EXPECT_FALSE(gotFirst.sharesBufferWith(first));
  EXPECT_EQ(sendsDone, 2);
}

TEST(ThreadsTransportTest, ACancelledReceiveNeitherCopiesNorCompletes) {
  ThreadsTransport transport(2);
  std::promise<void> started;
  bool done = false;
  transport.postReceive(0, 1, 0, {DType::F32, {1}},
                        {[&] {
                           started.set_value();
                           return false;
                         },
                         [&](llvm::Expected<Tensor> tensor) {
                           llvm::consumeError(tensor.takeError());
                           done = true;
                         }});
  bool sent = false;
  transport.postSend(0, 1, 0, makeOperand(0, {1}),
                     [&](llvm::Error) { sent = true; });
  started.get_future().get();
  transport.endRun();
  EXPECT_FALSE(done);
  EXPECT_FALSE(sent);
}

class ThreadsCollectiveTest
    : public ::testing::TestWithParam<std::vector<int64_t>> {};

TEST_P(ThreadsCollectiveTest, AllReduceSumsEveryElement) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  // 7 elements: the chunks each member reduces differ in size.
  auto results = onEveryMember(group, [&](int64_t position) {
    return transport.allReduce(group, group[position],
                               makeOperand(position, {7}), ReduceKind::Add);
  });
  for (llvm::Expected<Tensor> &result : results) {
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_THAT(valuesOf(*result),
                ElementsAreArray(referenceAllReduceSum(group.size(), 7)));
  }
}

TEST_P(ThreadsCollectiveTest, AllReduceSumsChunksOfSeveralBlocks) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  // Each member's chunk spans several 64 KiB blocks (16,384 f32) and ends
  // in a partial one.
  const int64_t elements = 8 * 16384 + 5;
  auto results = onEveryMember(group, [&](int64_t position) {
    return transport.allReduce(group, group[position],
                               makeOperand(position, {elements}),
                               ReduceKind::Add);
  });
  for (llvm::Expected<Tensor> &result : results) {
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_THAT(valuesOf(*result),
                ElementsAreArray(referenceAllReduceSum(group.size(), elements)));
  }
}

TEST_P(ThreadsCollectiveTest, AllGatherConcatenatesInGroupOrder) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  for (int64_t dimension : {0, 1}) {
    auto results = onEveryMember(group, [&](int64_t position) {
      return transport.allGather(group, group[position],
                                 makeOperand(position, {2, 3}), dimension);
    });
    for (llvm::Expected<Tensor> &result : results) {
      ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
      EXPECT_THAT(valuesOf(*result),
                  ElementsAreArray(referenceAllGather(group.size(), {2, 3},
                                                      dimension)));
    }
  }
}

TEST_P(ThreadsCollectiveTest, ReduceScatterGivesEachMemberItsChunk) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  int64_t members = group.size();
  Shape shape = {2 * members, 3 * members};
  for (int64_t dimension : {0, 1}) {
    auto results = onEveryMember(group, [&](int64_t position) {
      return transport.reduceScatter(group, group[position],
                                     makeOperand(position, shape), dimension,
                                     ReduceKind::Add);
    });
    for (auto [position, result] : llvm::enumerate(results)) {
      ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
      EXPECT_THAT(valuesOf(*result),
                  ElementsAreArray(referenceReduceScatterSum(
                      members, shape, dimension, position)));
    }
  }
}

TEST_P(ThreadsCollectiveTest, ReduceScatterFoldsRunsOfSeveralBlocks) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  int64_t members = group.size();
  // Along the middle dimension each member's chunk is 3 runs (one per
  // index of the first dimension) of 2 * 10,000 f32: a 64 KiB block
  // (16,384 f32) and a partial one per run.
  Shape shape = {3, 2 * members, 10000};
  auto results = onEveryMember(group, [&](int64_t position) {
    return transport.reduceScatter(group, group[position],
                                   makeOperand(position, shape), 1,
                                   ReduceKind::Add);
  });
  for (auto [position, result] : llvm::enumerate(results)) {
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_EQ(result->shape(), (Shape{3, 2, 10000}));
    EXPECT_THAT(valuesOf(*result), ElementsAreArray(referenceReduceScatterSum(
                                       members, shape, 1, position)));
  }
}

TEST_P(ThreadsCollectiveTest, AllToAllExchangesChunks) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  int64_t members = group.size();
  Shape shape = {2 * members, 3 * members};
  for (auto [split, concat] : {std::pair<int64_t, int64_t>{0, 1}, {1, 0},
                               {1, 1}}) {
    auto results = onEveryMember(group, [&](int64_t position) {
      return transport.allToAll(group, group[position],
                                makeOperand(position, shape), split, concat);
    });
    for (auto [position, result] : llvm::enumerate(results)) {
      ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
      EXPECT_THAT(valuesOf(*result),
                  ElementsAreArray(referenceAllToAll(members, shape, split,
                                                     concat, position)));
    }
  }
}

TEST_P(ThreadsCollectiveTest, CollectivePermuteShiftsAndZeroesTheRest) {
  const std::vector<int64_t> &group = GetParam();
  ThreadsTransport transport(8);
  // Member i sends to member i + 1; the first member receives nothing.
  std::vector<PermutePair> pairs;
  for (size_t i = 0; i + 1 < group.size(); ++i)
    pairs.push_back({group[i], group[i + 1]});
  auto results = onEveryMember(group, [&](int64_t position) {
    return transport.collectivePermute(group, group[position],
                                       makeOperand(position, {4}), pairs);
  });
  for (auto [position, result] : llvm::enumerate(results)) {
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    std::vector<float> expected(4, 0.0f);
    if (position > 0)
      expected = valuesOf(makeOperand(position - 1, {4}));
    EXPECT_THAT(valuesOf(*result), ElementsAreArray(expected));
  }
}

INSTANTIATE_TEST_SUITE_P(Groups, ThreadsCollectiveTest,
                         ::testing::Values(std::vector<int64_t>{3},
                                           std::vector<int64_t>{0, 1},
                                           std::vector<int64_t>{5, 2, 7}));

TEST(ThreadsTransportTest, RefusesBadCollectiveArguments) {
  ThreadsTransport transport(4);
  Tensor operand = makeOperand(0, {3});
  llvm::Expected<Tensor> outside =
      transport.allReduce({1, 2}, 0, operand, ReduceKind::Add);
  EXPECT_THAT(llvm::toString(outside.takeError()),
              HasSubstr("all_reduce: device 0 is not in the group"));
  llvm::Expected<Tensor> uneven =
      transport.reduceScatter({0, 1}, 0, operand, 0, ReduceKind::Add);
  EXPECT_THAT(llvm::toString(uneven.takeError()),
              HasSubstr("does not split into 2 equal chunks"));
  llvm::Expected<Tensor> twice = transport.collectivePermute(
      {0, 1}, 0, operand, {{0, 1}, {0, 0}});
  EXPECT_THAT(llvm::toString(twice.takeError()),
              HasSubstr("device 0 is the source of two pairs"));
}

TEST(ThreadsTransportTest, AbortReleasesAMemberWaitingForOthers) {
  ThreadsTransport transport(2);
  auto waiting = std::async(std::launch::async, [&] {
    return transport.allReduce({0, 1}, 0, makeOperand(0, {2}),
                               ReduceKind::Add);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  transport.abort("device 1 failed");
  llvm::Expected<Tensor> result = waiting.get();
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("stopped: device 1 failed"));
}

TEST(ThreadsTransportTest, CollectivesAfterAnAbortFailForEveryMember) {
  ThreadsTransport transport(2);
  transport.abort("device 2 failed");
  // Both members arrive: neither may reduce (the other's result may be gone
  // already), both fail.
  auto results = onEveryMember({0, 1}, [&](int64_t position) {
    return transport.allReduce({0, 1}, position, makeOperand(position, {4}),
                               ReduceKind::Add);
  });
  for (llvm::Expected<Tensor> &result : results)
    EXPECT_THAT(llvm::toString(result.takeError()),
                HasSubstr("stopped: device 2 failed"));
}

} // namespace
