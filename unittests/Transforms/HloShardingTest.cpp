//===- HloShardingTest.cpp - GSPMD sharding strings and device layouts ----===//

#include "mpmd/Transforms/Sdy/Gspmd/HloSharding.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir::sdy::gspmd;

namespace {

HloSharding parseOk(llvm::StringRef text) {
  llvm::Expected<HloSharding> sharding = parseHloSharding(text);
  if (!sharding) {
    ADD_FAILURE() << text.str() << ": " << llvm::toString(sharding.takeError());
    return {};
  }
  return std::move(*sharding);
}

std::string parseError(llvm::StringRef text) {
  llvm::Expected<HloSharding> sharding = parseHloSharding(text);
  if (sharding) {
    ADD_FAILURE() << text.str() << " parsed";
    return "";
  }
  return llvm::toString(sharding.takeError());
}

using Pieces = std::vector<std::vector<std::pair<int64_t, int64_t>>>;

Pieces getPieces(const DeviceLayout &layout) {
  Pieces pieces;
  for (const auto &dim : layout.dimPieces) {
    pieces.emplace_back();
    for (const DevicePiece &piece : dim)
      pieces.back().push_back({piece.stride, piece.size});
  }
  return pieces;
}

TEST(HloShardingTest, SimpleKinds) {
  EXPECT_EQ(parseOk("{replicated}").kind, HloSharding::Kind::kReplicated);
  EXPECT_EQ(parseOk(" { manual } ").kind, HloSharding::Kind::kManual);
  EXPECT_EQ(parseOk("{unknown}").kind, HloSharding::Kind::kUnknown);
  HloSharding maximal = parseOk("{maximal device=3}");
  EXPECT_EQ(maximal.kind, HloSharding::Kind::kMaximal);
  EXPECT_EQ(maximal.device, 3);
}

TEST(HloShardingTest, IotaTileAssignment) {
  HloSharding sharding = parseOk("{devices=[4,2]<=[8]}");
  ASSERT_EQ(sharding.kind, HloSharding::Kind::kTiled);
  EXPECT_TRUE(sharding.isIota);
  EXPECT_EQ(sharding.tileDims, (llvm::SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(sharding.iotaReshapeDims, (llvm::SmallVector<int64_t>{8}));
  EXPECT_TRUE(sharding.iotaTranspose.empty());
  EXPECT_EQ(sharding.getDeviceCount(), 8);
  EXPECT_EQ(sharding.getDataRank(), 2);

  HloSharding transposed = parseOk("{devices=[2,4]<=[4,2]T(1,0)}");
  EXPECT_EQ(transposed.iotaReshapeDims, (llvm::SmallVector<int64_t>{4, 2}));
  EXPECT_EQ(transposed.iotaTranspose, (llvm::SmallVector<int64_t>{1, 0}));
}

TEST(HloShardingTest, ExplicitDevicesAndSubgroups) {
  HloSharding sharding =
      parseOk("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}");
  EXPECT_FALSE(sharding.isIota);
  EXPECT_EQ(sharding.deviceList, (llvm::SmallVector<int64_t>{0, 1, 2, 3}));
  ASSERT_EQ(sharding.subgroups.size(), 1u);
  EXPECT_EQ(sharding.subgroups[0], SubgroupKind::kReplicated);
  EXPECT_EQ(sharding.getDataRank(), 2);
  EXPECT_FALSE(sharding.isPartiallyManual());

  HloSharding manual =
      parseOk("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}");
  ASSERT_EQ(manual.subgroups.size(), 2u);
  EXPECT_EQ(manual.subgroups[0], SubgroupKind::kManual);
  EXPECT_EQ(manual.subgroups[1], SubgroupKind::kReplicated);
  EXPECT_EQ(manual.getDataRank(), 1);
  EXPECT_TRUE(manual.isPartiallyManual());
}

TEST(HloShardingTest, TuplesMetadataAndGroups) {
  HloSharding tuple =
      parseOk("{{replicated}, {devices=[2]<=[2] metadata={op_name=\"a{b}\" "
              "source_file=\"x.py\" source_line=3}}, {maximal device=0}}");
  ASSERT_EQ(tuple.kind, HloSharding::Kind::kTuple);
  ASSERT_EQ(tuple.elements.size(), 3u);
  EXPECT_EQ(tuple.elements[1].kind, HloSharding::Kind::kTiled);
  EXPECT_EQ(parseOk("{}").elements.size(), 0u);

  HloSharding group = parseOk("{devices=[2]<=[2] shard_as 7}");
  EXPECT_EQ(group.shardGroup, 7);
  EXPECT_TRUE(group.shardGroupIsShardAs);
  HloSharding like = parseOk("{replicated shard_like 1}");
  EXPECT_EQ(like.shardGroup, 1);
  EXPECT_FALSE(like.shardGroupIsShardAs);
}

TEST(HloShardingTest, Errors) {
  struct Case {
    const char *text;
    const char *message;
  };
  const Case cases[] = {
      {"", "offset 0: expected '{'"},
      {"replicated", "offset 0: expected '{'"},
      {"{replicated", "offset 11: expected '}'"},
      {"{replicated}}", "offset 12: unexpected text after the sharding"},
      {"{tiled}", "offset 1: expected 'replicated'"},
      {"{maximal}", "expected 'device=' after 'maximal'"},
      {"{maximal device=-1}", "expected a non-negative integer"},
      {"{maximal device=99999999999999999999}", "integer out of range"},
      {"{devices=[]<=[1]}", "expected at least one integer"},
      {"{devices=[2,0]<=[0]}", "tile dimensions must be positive"},
      {"{devices=[1048576,2]<=[2097152]}", "at most 1048576 devices"},
      {"{devices=[4611686018427387904,4]<=[2]}",
       "tile dimensions must be positive"},
      {"{devices=[4,2]<=[4]}", "hold the 8 devices"},
      {"{devices=[4,2]<=[4,2]T(0,0)}", "permutation of the 2 iota"},
      {"{devices=[4,2]<=[4,2]T(0)}", "permutation of the 2 iota"},
      {"{devices=[4,2]<=[4,2]T(0,2)}", "permutation of the 2 iota"},
      {"{devices=[2,2]0,1,2}", "expected 4 device ids"},
      {"{devices=[2,2]0,1,2,3,4}", "expected 4 device ids"},
      {"{devices=[2,2]0,1,1,3}", "permutation of 0..3"},
      {"{devices=[2,2]0,1,2,7}", "permutation of 0..3"},
      {"{devices=[2,2]}", "expected '<=[...]' or a list of device ids"},
      {"{replicated last_tile_dim_replicate}", "needs a 'devices=' sharding"},
      {"{devices=[2]<=[2] last_tile_dim_replicate last_tile_dim_replicate}",
       "subgroup dimensions are given twice"},
      {"{devices=[2]<=[2] last_tile_dims={manual,replicated}}",
       "more subgroup dimensions than tile dimensions"},
      {"{devices=[2,2]<=[4] last_tile_dims={manual,manual}}", "given twice"},
      {"{devices=[2,2]<=[4] last_tile_dims={maximal}}",
       "expected 'manual' or 'replicated'"},
      {"{replicated metadata={op_name=\"x}", "unterminated string"},
      {"{replicated metadata={", "unterminated '{'"},
      {"{replicated shard_as 1 shard_like 2}", "a second shard_as"},
      {"{replicated frobnicate}", "expected 'last_tile_dim_replicate'"},
      {"{{replicated},}", "expected '{'"},
  };
  for (const Case &c : cases) {
    std::string message = parseError(c.text);
    EXPECT_NE(message.find(c.message), std::string::npos)
        << c.text << " gave: " << message;
  }
}

TEST(HloShardingTest, DeepTuplesAreRejected) {
  std::string text(200, '{');
  text += "replicated";
  text += std::string(200, '}');
  EXPECT_NE(parseError(text).find("nested too deeply"), std::string::npos);
}

TEST(HloShardingTest, IotaLayouts) {
  // [4,2] over iota 8: dim 0 steps by 2 four times, dim 1 by 1 twice.
  DeviceLayout layout = computeDeviceLayout(parseOk("{devices=[4,2]<=[8]}"));
  EXPECT_TRUE(layout.deviceOrder.empty());
  EXPECT_EQ(getPieces(layout), (Pieces{{{2, 4}}, {{1, 2}}}));
  EXPECT_EQ(getBoundaries(layout), (llvm::SmallVector<int64_t>{1, 2, 8}));

  // Transposed: dim 0 walks the minor iota dimension.
  layout = computeDeviceLayout(parseOk("{devices=[2,4]<=[4,2]T(1,0)}"));
  EXPECT_EQ(getPieces(layout), (Pieces{{{1, 2}}, {{2, 4}}}));

  // A tile dimension over parts of two iota dimensions.
  layout = computeDeviceLayout(parseOk("{devices=[2,8]<=[4,4]T(1,0)}"));
  EXPECT_EQ(getPieces(layout), (Pieces{{{2, 2}}, {{1, 2}, {4, 4}}}));

  // Subgroup dimensions get pieces too; size-1 dimensions none.
  layout = computeDeviceLayout(
      parseOk("{devices=[1,2,2]<=[4] last_tile_dim_replicate}"));
  EXPECT_EQ(getPieces(layout), (Pieces{{}, {{2, 2}}, {{1, 2}}}));
}

TEST(HloShardingTest, ExplicitListsRecognisedAsTransposedIota) {
  // 0,2,1,3 is iota [2,2] transposed.
  DeviceLayout layout = computeDeviceLayout(parseOk("{devices=[2,2]0,2,1,3}"));
  EXPECT_TRUE(layout.deviceOrder.empty());
  EXPECT_EQ(getPieces(layout), (Pieces{{{1, 2}}, {{2, 2}}}));
  // Plain iota order.
  layout = computeDeviceLayout(parseOk("{devices=[2,2]0,1,2,3}"));
  EXPECT_TRUE(layout.deviceOrder.empty());
  EXPECT_EQ(getPieces(layout), (Pieces{{{2, 2}}, {{1, 2}}}));
  // 0,3,1,4,2,5: minor digit steps by 3 twice, major by 1 three times.
  layout = computeDeviceLayout(parseOk("{devices=[3,2]0,3,1,4,2,5}"));
  EXPECT_TRUE(layout.deviceOrder.empty());
  EXPECT_EQ(getPieces(layout), (Pieces{{{1, 3}}, {{3, 2}}}));
}

TEST(HloShardingTest, OtherDeviceOrdersKeepTheirList) {
  DeviceLayout layout = computeDeviceLayout(parseOk("{devices=[2,2]3,1,0,2}"));
  EXPECT_EQ(layout.deviceOrder, (llvm::SmallVector<int64_t>{3, 1, 0, 2}));
  EXPECT_EQ(getPieces(layout), (Pieces{{{2, 2}}, {{1, 2}}}));
  // A tile dimension across iota digits that do not divide it: the iota
  // is materialised.
  layout = computeDeviceLayout(parseOk("{devices=[3,2]<=[3,2]T(1,0)}"));
  EXPECT_EQ(layout.deviceOrder, (llvm::SmallVector<int64_t>{0, 2, 4, 1, 3, 5}));
}

TEST(HloShardingTest, CommonAxisSizes) {
  // [2,4] and [4,2] over 8 devices refine to [2,2,2].
  EXPECT_EQ(getCommonAxisSizes({1, 4, 8, 1, 2, 8}),
            (llvm::SmallVector<int64_t>{2, 2, 2}));
  EXPECT_EQ(getCommonAxisSizes({1, 8}), (llvm::SmallVector<int64_t>{8}));
  EXPECT_EQ(getCommonAxisSizes({1}), (llvm::SmallVector<int64_t>{}));
  // 2 and 3 of 6 devices do not nest.
  EXPECT_FALSE(getCommonAxisSizes({1, 2, 3, 6}).has_value());
}

} // namespace
