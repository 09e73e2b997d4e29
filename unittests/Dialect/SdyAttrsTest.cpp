//===- SdyAttrsTest.cpp - Tests of sdy attribute helpers ------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

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

TEST_F(SdyAttrsTest, IotaDeviceIdsOfTheWrongLengthAreRejected) {
  // [0, 1, 2] is an iota, but not of the mesh's 2 devices: it must reach the
  // verifier instead of being dropped as the default.
  context.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  EXPECT_FALSE(parse<MeshAttr>("#sdy.mesh<[\"a\"=2], device_ids=[0, 1, 2]>"));
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

TEST_F(SdyAttrsTest, GetShardingFindsTheShardingOfAValue) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    sdy.mesh @mesh = <["x"=2, "y"=2]>
    func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                 %arg1: tensor<8xf32>) -> tensor<8xf32> {
      %0 = sdy.reshard %arg1 <@mesh, [{"y"}]> : tensor<8xf32>
      %1 = arith.addf %0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>} : tensor<8xf32>
      %2 = sdy.all_slice [{"x"}] %1 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
      %3 = arith.negf %2 : tensor<8xf32>
      %4 = sdy.manual_computation(%3) in_shardings=[<@mesh, [{"x"}]>]
          out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
        sdy.return %a : tensor<4xf32>
      } : (tensor<8xf32>) -> tensor<8xf32>
      return %4 : tensor<8xf32>
    })mlir",
                                                              &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  auto expectSharding = [&](Value value, StringRef expected) {
    TensorShardingAttr sharding = getSharding(value);
    ASSERT_TRUE(sharding);
    EXPECT_EQ(sharding, parse<TensorShardingAttr>(("#sdy.sharding" + expected).str()));
  };
  Block &body = func.getBody().front();
  expectSharding(body.getArgument(0), R"(<@mesh, [{"x"}]>)");
  EXPECT_FALSE(getSharding(body.getArgument(1)));
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  expectSharding(ops[0]->getResult(0), R"(<@mesh, [{"y"}]>)");
  expectSharding(ops[1]->getResult(0), R"(<@mesh, [{?}]>)");
  expectSharding(ops[2]->getResult(0), R"(<@mesh, [{"x"}]>)");
  EXPECT_FALSE(getSharding(ops[3]->getResult(0)));
  expectSharding(ops[4]->getResult(0), R"(<@mesh, [{"x", "y"}]>)");
  // Block arguments of a manual computation have no known sharding.
  EXPECT_FALSE(getSharding(ops[4]->getRegion(0).getArgument(0)));
}

} // namespace
