//===- MpiTransportTest.cpp - The MPI transport, under mpirun -------------===//
//
// Every rank runs the same tests on its own device (device r on rank r) and
// compares with CollectiveReference.h; main() initializes MPI once through
// the transport and fails every rank when one rank's tests fail.
//
//===----------------------------------------------------------------------===//

#include "CollectiveReference.h"

#include "mpmd/Runtime/Mpi/MpiTransport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <future>
#include <numeric>

using namespace mlir::mpmd::runtime;
using namespace mlir::mpmd::runtime::testing;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

namespace {

MpiTransport *transport = nullptr;

std::vector<int64_t> everyRank() {
  std::vector<int64_t> group(transport->getNumRanks());
  std::iota(group.begin(), group.end(), 0);
  return group;
}
/// The ranks backwards: member order is group order, not rank order.
std::vector<int64_t> everyRankReversed() {
  std::vector<int64_t> group = everyRank();
  std::reverse(group.begin(), group.end());
  return group;
}
int64_t positionIn(const std::vector<int64_t> &group) {
  return llvm::find(group, transport->getRank()) - group.begin();
}

TEST(MpiTransportTest, SendsAroundARing) {
  int64_t rank = transport->getRank(), ranks = transport->getNumRanks();
  std::promise<Tensor> arrived;
  std::promise<void> sent;
  // Large enough to leave the eager protocol, and split in no pieces.
  Shape shape = {1 << 18};
  transport->postReceive((rank + ranks - 1) % ranks, rank, 3,
                         {DType::F32, shape},
                         {[] { return true; },
                          [&](llvm::Expected<Tensor> tensor) {
                            ASSERT_TRUE(bool(tensor));
                            arrived.set_value(std::move(*tensor));
                          }});
  transport->postSend(rank, (rank + 1) % ranks, 3, makeOperand(rank, shape),
                      [&](llvm::Error error) {
                        EXPECT_FALSE(bool(error));
                        sent.set_value();
                      });
  Tensor got = arrived.get_future().get();
  sent.get_future().get();
  transport->endRun();
  EXPECT_THAT(valuesOf(got), ElementsAreArray(valuesOf(
                                 makeOperand((rank + ranks - 1) % ranks, shape))));
}

TEST(MpiTransportTest, AllReduceSums) {
  for (const std::vector<int64_t> &group : {everyRank(), everyRankReversed()}) {
    int64_t position = positionIn(group);
    llvm::Expected<Tensor> result = transport->allReduce(
        group, transport->getRank(), makeOperand(position, {7}),
        ReduceKind::Add);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_THAT(valuesOf(*result),
                ElementsAreArray(referenceAllReduceSum(group.size(), 7)));
  }
}

TEST(MpiTransportTest, AllGatherConcatenatesInGroupOrder) {
  for (const std::vector<int64_t> &group : {everyRank(), everyRankReversed()})
    for (int64_t dimension : {0, 1}) {
      llvm::Expected<Tensor> result = transport->allGather(
          group, transport->getRank(), makeOperand(positionIn(group), {2, 3}),
          dimension);
      ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
      EXPECT_THAT(valuesOf(*result),
                  ElementsAreArray(
                      referenceAllGather(group.size(), {2, 3}, dimension)));
    }
}

TEST(MpiTransportTest, ReduceScatterGivesEachMemberItsChunk) {
  std::vector<int64_t> group = everyRankReversed();
  int64_t members = group.size(), position = positionIn(group);
  Shape shape = {2 * members, 3 * members};
  for (int64_t dimension : {0, 1}) {
    llvm::Expected<Tensor> result = transport->reduceScatter(
        group, transport->getRank(), makeOperand(position, shape), dimension,
        ReduceKind::Add);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_THAT(valuesOf(*result),
                ElementsAreArray(referenceReduceScatterSum(members, shape,
                                                           dimension,
                                                           position)));
  }
}

TEST(MpiTransportTest, AllToAllExchangesChunks) {
  std::vector<int64_t> group = everyRank();
  int64_t members = group.size(), position = positionIn(group);
  Shape shape = {2 * members, 3 * members};
  for (auto [split, concat] : {std::pair<int64_t, int64_t>{0, 1}, {1, 0},
                               {1, 1}}) {
    llvm::Expected<Tensor> result = transport->allToAll(
        group, transport->getRank(), makeOperand(position, shape), split,
        concat);
    ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
    EXPECT_THAT(valuesOf(*result),
                ElementsAreArray(referenceAllToAll(members, shape, split,
                                                   concat, position)));
  }
}

TEST(MpiTransportTest, CollectivePermuteShiftsAndZeroesTheRest) {
  std::vector<int64_t> group = everyRankReversed();
  int64_t position = positionIn(group);
  std::vector<PermutePair> pairs;
  for (size_t i = 0; i + 1 < group.size(); ++i)
    pairs.push_back({group[i], group[i + 1]});
  llvm::Expected<Tensor> result = transport->collectivePermute(
      group, transport->getRank(), makeOperand(position, {4}), pairs);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  std::vector<float> expected(4, 0.0f);
  if (position > 0)
    expected = valuesOf(makeOperand(position - 1, {4}));
  EXPECT_THAT(valuesOf(*result), ElementsAreArray(expected));
}

TEST(MpiTransportTest, RefusesGroupsItWasNotPrepared) {
  int64_t rank = transport->getRank();
  llvm::Expected<Tensor> result = transport->allReduce(
      {rank}, rank, makeOperand(0, {1}), ReduceKind::Add);
  EXPECT_THAT(llvm::toString(result.takeError()),
              HasSubstr("all_reduce: the group was not prepared"));
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  llvm::Expected<std::unique_ptr<MpiTransport>> created =
      MpiTransport::create();
  if (!created) {
    llvm::errs() << llvm::toString(created.takeError()) << "\n";
    return 1;
  }
  transport = created->get();
  int64_t ranks = transport->getNumRanks();
  if (llvm::Error error = transport->placeDevices(ranks, 1)) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  if (llvm::Error error =
          transport->prepareGroups({everyRank(), everyRankReversed()})) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  // Only rank 0 prints gtest's report; every rank's verdict counts.
  if (transport->getRank() != 0) {
    ::testing::TestEventListeners &listeners =
        ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  llvm::Expected<std::vector<uint64_t>> verdicts =
      transport->allGatherWords(failed != 0);
  if (!verdicts) {
    llvm::errs() << llvm::toString(verdicts.takeError()) << "\n";
    return 1;
  }
  for (auto [rank, verdict] : llvm::enumerate(*verdicts))
    if (verdict) {
      if (transport->getRank() == 0)
        llvm::errs() << "rank " << rank << " failed its tests\n";
      failed = 1;
    }
  created->reset();
  return failed;
}
