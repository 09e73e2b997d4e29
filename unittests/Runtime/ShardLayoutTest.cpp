//===- ShardLayoutTest.cpp - Shards of values and relayout pieces ---------===//

#include "mpmd/Runtime/ShardLayout.h"
#include "mpmd/Runtime/Kernels.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <numeric>

using namespace mlir::mpmd::runtime;
using ::testing::HasSubstr;

namespace {

using Begins = std::vector<std::vector<int64_t>>;

Begins beginsOf(const ShardLayout &layout) {
  Begins begins;
  for (int64_t device = 0; device < layout.getNumDevices(); ++device)
    begins.push_back(layout.getBegin(device).vec());
  return begins;
}

ShardLayout makeLayout(Shape shape, std::vector<int64_t> axes,
                       std::vector<std::vector<MeshAxisPart>> parts) {
  llvm::Expected<ShardLayout> layout = ShardLayout::create(shape, axes, parts);
  EXPECT_TRUE(static_cast<bool>(layout)) << llvm::toString(layout.takeError());
  return std::move(*layout);
}

std::string layoutError(Shape shape, std::vector<int64_t> axes,
                        std::vector<std::vector<MeshAxisPart>> parts) {
  llvm::Expected<ShardLayout> layout = ShardLayout::create(shape, axes, parts);
  return layout ? "no error" : llvm::toString(layout.takeError());
}

/// 0, 1, 2, ... in a tensor of `shape`.
Tensor iota(Shape shape) {
  Tensor tensor = Tensor::empty(DType::F32, shape);
  std::iota(tensor.data<float>(), tensor.data<float>() + tensor.numElements(),
            0.0f);
  return tensor;
}

std::vector<float> values(const Tensor &tensor) {
  return {tensor.data<float>(), tensor.data<float>() + tensor.numElements()};
}

TEST(ShardLayoutTest, DevicesAreRowMajorAndAxesSplitMajorToMinor) {
  // Mesh x=2, y=2: device d has coordinates (d / 2, d % 2).
  ShardLayout rows = makeLayout({8, 6}, {2, 2}, {{{0, 1, 2}}});
  EXPECT_EQ(rows.getLocalShape(), (Shape{4, 6}));
  EXPECT_EQ(beginsOf(rows), (Begins{{0, 0}, {0, 0}, {4, 0}, {4, 0}}));
  // y replicates: devices 0, 1 hold shard 0, devices 2, 3 shard 1.
  EXPECT_EQ(rows.getNumShards(), 2);
  EXPECT_EQ(rows.getHolders(1).vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(rows.getShardOf(1), 0);

  // Dimension 0 split by [y, x]: y is the major digit.
  ShardLayout yx = makeLayout({8, 6}, {2, 2}, {{{1, 1, 2}, {0, 1, 2}}});
  EXPECT_EQ(yx.getLocalShape(), (Shape{2, 6}));
  EXPECT_EQ(beginsOf(yx), (Begins{{0, 0}, {4, 0}, {2, 0}, {6, 0}}));

  // Rows by x, columns by y.
  ShardLayout both = makeLayout({8, 6}, {2, 2}, {{{0, 1, 2}}, {{1, 1, 2}}});
  EXPECT_EQ(both.getLocalShape(), (Shape{4, 3}));
  EXPECT_EQ(beginsOf(both), (Begins{{0, 0}, {0, 3}, {4, 0}, {4, 3}}));
  EXPECT_EQ(both.getNumShards(), 4);
  EXPECT_FALSE(both.isReplicated());
}

TEST(ShardLayoutTest, DeviceIdsIndexTheLayout) {
  // Mesh x=2, y=2 listing ids [3, 1, 2, 0]: device 3 sits at position 0,
  // (x, y) = (0, 0); device 0 at position 3, (1, 1). Rows split by x.
  llvm::Expected<ShardLayout> rows =
      ShardLayout::create({8, 6}, {2, 2}, {{{0, 1, 2}}}, {3, 1, 2, 0});
  ASSERT_TRUE(static_cast<bool>(rows)) << llvm::toString(rows.takeError());
  EXPECT_EQ(beginsOf(*rows), (Begins{{4, 0}, {0, 0}, {4, 0}, {0, 0}}));
  // Shards numbered by their first holder, device 0.
  EXPECT_EQ(rows->getHolders(0).vec(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(rows->getHolders(1).vec(), (std::vector<int64_t>{1, 3}));

  auto idsError = [](std::vector<int64_t> ids) {
    llvm::Expected<ShardLayout> layout =
        ShardLayout::create({8}, {4}, {{{0, 1, 4}}}, ids);
    return layout ? "no error" : llvm::toString(layout.takeError());
  };
  EXPECT_EQ(idsError({0, 0, 1, 2}),
            "the mesh's 4 device ids are not a permutation of its 4 positions");
  EXPECT_EQ(idsError({0, 1, 2, 4}),
            "the mesh's 4 device ids are not a permutation of its 4 positions");
  EXPECT_EQ(idsError({1, 0}),
            "the mesh's 2 device ids are not a permutation of its 4 positions");
}

TEST(ShardLayoutTest, SubAxesSelectDigitsOfTheirAxis) {
  // Axis x of size 4 as [pre=1, 2, 2]: "x":(1)2 is the major digit, "x":(2)2
  // the minor one.
  ShardLayout major = makeLayout({8}, {4}, {{{0, 1, 2}}});
  EXPECT_EQ(beginsOf(major), (Begins{{0}, {0}, {4}, {4}}));
  ShardLayout minor = makeLayout({8}, {4}, {{{0, 2, 2}}});
  EXPECT_EQ(beginsOf(minor), (Begins{{0}, {4}, {0}, {4}}));
  // Both, minor first: the minor digit becomes the major shard index.
  ShardLayout swapped = makeLayout({8}, {4}, {{{0, 2, 2}, {0, 1, 2}}});
  EXPECT_EQ(beginsOf(swapped), (Begins{{0}, {4}, {2}, {6}}));
}

TEST(ShardLayoutTest, ReplicatedAndScalarLayouts) {
  ShardLayout whole = ShardLayout::replicated({3, 5}, 4);
  EXPECT_TRUE(whole.isReplicated());
  EXPECT_EQ(whole.getNumShards(), 1);
  EXPECT_EQ(whole.getHolders(0).vec(), (std::vector<int64_t>{0, 1, 2, 3}));
  ShardLayout scalar = makeLayout({}, {2}, {});
  EXPECT_EQ(scalar.getNumDevices(), 2);
  EXPECT_EQ(scalar.getNumShards(), 1);
}

TEST(ShardLayoutTest, RejectsWhatCannotBeSplit) {
  EXPECT_THAT(layoutError({6}, {4}, {{{0, 1, 4}}}),
              HasSubstr("dimension 0 of size 6 does not divide into 4 shards"));
  EXPECT_THAT(layoutError({8}, {2}, {{{1, 1, 2}}}),
              HasSubstr("is not in the mesh"));
  EXPECT_THAT(layoutError({8}, {4}, {{{0, 1, 3}}}),
              HasSubstr("does not divide the axis's size 4"));
  EXPECT_THAT(layoutError({8, 8}, {2}, {{{0, 1, 2}}, {{0, 1, 2}}}),
              HasSubstr("shares devices with another part"));
  EXPECT_THAT(layoutError({8}, {2}, {{}, {}}),
              HasSubstr("the sharding has 2 dimensions, the value 1"));
  // A pre-size times size past int64 is refused, not wrapped.
  EXPECT_THAT(layoutError({8}, {2}, {{{0, int64_t(1) << 62, 4}}}),
              HasSubstr("does not divide the axis's size 2"));
}

/// Applies `pieces` to the shards of `source` holding `global` and returns
/// each destination device's shard.
std::vector<Tensor> relayout(const Tensor &global, const ShardLayout &source,
                             const ShardLayout &destination,
                             const std::vector<RelayoutPiece> &pieces) {
  std::vector<Tensor> shards;
  for (int64_t device = 0; device < destination.getNumDevices(); ++device)
    shards.push_back(Tensor::zeros(DType::F32, destination.getLocalShape()));
  for (const RelayoutPiece &piece : pieces) {
    Tensor held = extractBox(global, source.getBox(piece.sourceDevice));
    copyBox(held, piece.sourceBox.begin, shards[piece.device],
            piece.destinationBox.begin, piece.sourceBox.shape);
  }
  return shards;
}

TEST(ShardLayoutTest, RelayoutPiecesGiveEveryDeviceItsShard) {
  Tensor global = iota({4, 6});
  ShardLayout byRows = makeLayout({4, 6}, {2}, {{{0, 1, 2}}});
  ShardLayout byColumns = makeLayout({4, 6}, {2}, {{}, {{0, 1, 2}}});
  std::vector<RelayoutPiece> pieces = planRelayout(byRows, byColumns);
  // Each device gets a 2x3 quarter from each source device.
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[1].sourceDevice, 1);
  EXPECT_EQ(pieces[1].device, 0);
  EXPECT_EQ(pieces[1].sourceBox, (TensorBox{{0, 0}, {2, 3}}));
  EXPECT_EQ(pieces[1].destinationBox, (TensorBox{{2, 0}, {2, 3}}));
  std::vector<Tensor> shards = relayout(global, byRows, byColumns, pieces);
  for (int64_t device = 0; device < 2; ++device)
    EXPECT_EQ(values(shards[device]),
              values(extractBox(global, byColumns.getBox(device))));
}

TEST(ShardLayoutTest, ReplicatedSourcesSpreadOverTheirHolders) {
  Tensor global = iota({8, 2});
  // Two devices hold everything; four receive a quarter each.
  ShardLayout whole = ShardLayout::replicated({8, 2}, 2);
  ShardLayout quarters = makeLayout({8, 2}, {4}, {{{0, 1, 4}}});
  std::vector<RelayoutPiece> pieces = planRelayout(whole, quarters);
  ASSERT_EQ(pieces.size(), 4u);
  std::vector<int64_t> senders;
  for (const RelayoutPiece &piece : pieces)
    senders.push_back(piece.sourceDevice);
  EXPECT_EQ(senders, (std::vector<int64_t>{0, 1, 0, 1}));
  std::vector<Tensor> shards = relayout(global, whole, quarters, pieces);
  for (int64_t device = 0; device < 4; ++device)
    EXPECT_EQ(values(shards[device]),
              values(extractBox(global, quarters.getBox(device))));

  // Sharded to replicated over 4 devices: each gathers both halves.
  ShardLayout halves = makeLayout({8, 2}, {2}, {{{0, 1, 2}}});
  ShardLayout wholeOnFour = ShardLayout::replicated({8, 2}, 4);
  pieces = planRelayout(halves, wholeOnFour);
  EXPECT_EQ(pieces.size(), 8u);
  shards = relayout(global, halves, wholeOnFour, pieces);
  for (const Tensor &shard : shards)
    EXPECT_EQ(values(shard), values(global));
}

TEST(ShardLayoutTest, IdenticalLayoutsSendEachShardFromItsOwnDevice) {
  ShardLayout layout = makeLayout({4, 4}, {2, 2}, {{{0, 1, 2}}, {{1, 1, 2}}});
  std::vector<RelayoutPiece> pieces = planRelayout(layout, layout);
  ASSERT_EQ(pieces.size(), 4u);
  for (const RelayoutPiece &piece : pieces) {
    EXPECT_EQ(piece.sourceDevice, piece.device);
    EXPECT_EQ(piece.sourceBox, (TensorBox{{0, 0}, {2, 2}}));
  }
}

TEST(ShardLayoutTest, CopyBoxMovesARegionBetweenTensors) {
  Tensor source = iota({3, 4});
  Tensor destination = Tensor::zeros(DType::F32, {2, 5});
  copyBox(source, {1, 1}, destination, {0, 2}, {2, 3});
  EXPECT_EQ(values(destination),
            (std::vector<float>{0, 0, 5, 6, 7, 0, 0, 9, 10, 11}));
  // Whole trailing rows fold into one run.
  Tensor rows = Tensor::zeros(DType::F32, {4, 4});
  copyBox(source, {1, 0}, rows, {2, 0}, {2, 4});
  EXPECT_EQ(values(extractBox(rows, {{2, 0}, {2, 4}})),
            (std::vector<float>{4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(values(extractBox(rows, {{0, 0}, {2, 4}})),
            std::vector<float>(8, 0));
}

} // namespace
