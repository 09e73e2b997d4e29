//===- SdyAttrsTest.cpp - Tests of sdy attribute helpers ------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::sdy;

namespace {

class SdyAttrsTest : public ::testing::Test {
protected:
  SdyAttrsTest() {
    DialectRegistry registry;
    mlir::mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  template <typename AttrT> AttrT parse(StringRef text) {
    return dyn_cast_or_null<AttrT>(parseAttribute(text, &context));
  }

  MLIRContext context;
};

TEST_F(SdyAttrsTest, MeshSizesAndAxisLookup) {
  auto mesh = parse<MeshAttr>("#sdy.mesh<[\"data\"=4, \"model\"=2]>");
  ASSERT_TRUE(mesh);
  EXPECT_EQ(mesh.getTotalSize(), 8);
  EXPECT_EQ(mesh.getAxisSize("model"), 2);
  EXPECT_EQ(mesh.getAxisIndex("model"), 1u);
  EXPECT_FALSE(mesh.getAxisSize("pipe").has_value());
}

TEST_F(SdyAttrsTest, IotaDeviceIdsAreDropped) {
  auto explicitIota =
      parse<MeshAttr>("#sdy.mesh<[\"a\"=2, \"b\"=2], device_ids=[0, 1, 2, 3]>");
  auto implicitIota = parse<MeshAttr>("#sdy.mesh<[\"a\"=2, \"b\"=2]>");
  ASSERT_TRUE(explicitIota);
  EXPECT_EQ(explicitIota, implicitIota);
  auto permuted =
      parse<MeshAttr>("#sdy.mesh<[\"a\"=2, \"b\"=2], device_ids=[1, 0, 3, 2]>");
  ASSERT_TRUE(permuted);
  EXPECT_NE(permuted, implicitIota);
  EXPECT_EQ(permuted.getDeviceIds().size(), 4u);
}

TEST_F(SdyAttrsTest, LegacyBracketlessMeshEqualsBracketed) {
  EXPECT_EQ(parse<MeshAttr>("#sdy.mesh<\"x\"=2>"),
            parse<MeshAttr>("#sdy.mesh<[\"x\"=2]>"));
}

TEST_F(SdyAttrsTest, LocalShapeDividesShardedDims) {
  auto mesh = parse<MeshAttr>("#sdy.mesh<[\"x\"=2, \"y\"=4]>");
  auto sharding =
      parse<TensorShardingAttr>("#sdy.sharding<@mesh, [{\"x\", \"y\"}, {?}, {}]>");
  ASSERT_TRUE(mesh && sharding);
  SmallVector<int64_t> local = sharding.getLocalShape(mesh, {16, 6, 3});
  EXPECT_EQ(local, (SmallVector<int64_t>{2, 6, 3}));
  // Non-divisible dimensions are padded up, as at partition time.
  EXPECT_EQ(sharding.getLocalShape(mesh, {12, 1, 1})[0], 2);
  EXPECT_FALSE(sharding.isFullyReplicated());
  EXPECT_EQ(sharding.getMeshName(), "mesh");
}

TEST_F(SdyAttrsTest, SubAxisSizeComesFromTheSubAxis) {
  auto mesh = parse<MeshAttr>("#sdy.mesh<[\"x\"=8]>");
  auto sharding = parse<TensorShardingAttr>(
      "#sdy.sharding<@mesh, [{\"x\":(1)2}, {\"x\":(2)4}]>");
  ASSERT_TRUE(mesh && sharding);
  EXPECT_EQ(sharding.getDimShardings()[0].getShardedSize(mesh), 2);
  EXPECT_EQ(sharding.getDimShardings()[1].getShardedSize(mesh), 4);
}

TEST_F(SdyAttrsTest, VerifyForMeshReportsEachErrorClass) {
  auto mesh = parse<MeshAttr>("#sdy.mesh<[\"x\"=4]>");
  auto type = RankedTensorType::get({6, 8}, Float32Type::get(&context));
  std::string message;
  context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto check = [&](StringRef text, bool divisibility) {
    message.clear();
    auto sharding = parse<TensorShardingAttr>(text);
    EXPECT_TRUE(sharding) << text.str();
    return sharding.verifyForMesh(
        mesh, type,
        [&] { return emitError(UnknownLoc::get(&context)); }, divisibility);
  };
  EXPECT_TRUE(succeeded(check("#sdy.sharding<@mesh, [{\"x\"}, {}]>", false)));
  EXPECT_TRUE(failed(check("#sdy.sharding<@mesh, [{\"x\"}, {}]>", true)));
  EXPECT_EQ(message, "dim 0 with size 6 is not divisible by its sharded size 4");
  EXPECT_TRUE(failed(check("#sdy.sharding<@mesh, [{\"z\"}, {}]>", false)));
  EXPECT_EQ(message, "unknown axis name: \"z\"");
  EXPECT_TRUE(failed(check("#sdy.sharding<@mesh, [{}]>", false)));
  EXPECT_EQ(message, "sharding doesn't match tensor rank: 1 != 2");
  EXPECT_TRUE(failed(check("#sdy.sharding<@mesh, [{\"x\"}, {\"x\"}]>", false)));
  EXPECT_EQ(message, "axis \"x\" is used more than once");
}

} // namespace
