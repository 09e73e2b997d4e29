//===- MpmdTypesTest.cpp - Tests of mesh tensor and topology helpers ------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::mpmd;

namespace {

class MpmdTypesTest : public ::testing::Test {
protected:
  MpmdTypesTest() {
    DialectRegistry registry;
    mlir::mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  MeshTensorType parseMeshTensor(StringRef text) {
    return dyn_cast_or_null<MeshTensorType>(parseType(text, &context));
  }

  MLIRContext context;
};

TEST_F(MpmdTypesTest, LocalTensorTypeDividesShardedDimensions) {
  auto mesh = cast<sdy::MeshAttr>(
      parseAttribute("#sdy.mesh<[\"x\"=2, \"y\"=4]>", &context));
  MeshTensorType type = parseMeshTensor(
      "!mpmd.mesh_tensor<\"m1\", tensor<12x16x3xf32>, "
      "sharding=<@mesh, [{\"x\"}, {\"y\", ?}, {}]>>");
  ASSERT_TRUE(type);
  RankedTensorType local = type.getLocalTensorType(mesh);
  EXPECT_EQ(local.getShape(), ArrayRef<int64_t>({6, 4, 3}));
  EXPECT_EQ(local.getElementType(), type.getElementType());
  // The ShapedType view is the global one.
  EXPECT_EQ(type.getShape(), ArrayRef<int64_t>({12, 16, 3}));
  EXPECT_FALSE(type.isFullyReplicated());
}

TEST_F(MpmdTypesTest, UnshardedTypeIsItsOwnLocalType) {
  auto mesh =
      cast<sdy::MeshAttr>(parseAttribute("#sdy.mesh<[\"x\"=2]>", &context));
  MeshTensorType type =
      parseMeshTensor("!mpmd.mesh_tensor<\"m1\", tensor<4x8xbf16>>");
  ASSERT_TRUE(type);
  EXPECT_EQ(type.getLocalTensorType(mesh), type.getRankedTensorType());
  EXPECT_TRUE(type.isFullyReplicated());
  EXPECT_FALSE(type.isOnHost());
}

TEST_F(MpmdTypesTest, MemoryKindDecidesHostPlacement) {
  EXPECT_TRUE(parseMeshTensor("!mpmd.mesh_tensor<\"m1\", tensor<4xf32>, "
                              "memory_kind=\"pinned_host\">")
                  .isOnHost());
  EXPECT_FALSE(parseMeshTensor("!mpmd.mesh_tensor<\"m1\", tensor<4xf32>, "
                               "memory_kind=\"device\">")
                   .isOnHost());
}

TEST_F(MpmdTypesTest, CloneWithNewShapeDropsTheSharding) {
  MeshTensorType type = parseMeshTensor(
      "!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>, sharding=<@mesh, "
      "[{\"x\"}, {}]>, memory_kind=\"device\">");
  auto reshaped = cast<MeshTensorType>(type.cloneWith(
      ArrayRef<int64_t>{32}, Float16Type::get(&context)));
  EXPECT_EQ(reshaped.getRankedTensorType(),
            RankedTensorType::get({32}, Float16Type::get(&context)));
  EXPECT_FALSE(reshaped.getSharding());
  EXPECT_EQ(reshaped.getMemoryKind(), type.getMemoryKind());
  EXPECT_EQ(reshaped.getMeshName(), "m1");
}

TEST_F(MpmdTypesTest, LocalTypeResolvesTheMeshSymbolFromTheModule) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
    sdy.mesh @mesh = <["x"=4]>
    func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<8x2xf32>, sharding=<@mesh, [{"x"}, {}]>>)
        attributes {topology = #mpmd.topology<<"m1": <["x"=4]>>>} {
      return
    })mlir",
      &context);
  ASSERT_TRUE(module);
  auto main = cast<func::FuncOp>(module->lookupSymbol("main"));
  auto type = cast<MeshTensorType>(main.getArgumentTypes()[0]);
  RankedTensorType local = type.getLocalTensorType(main.getOperation());
  ASSERT_TRUE(local);
  EXPECT_EQ(local.getShape(), ArrayRef<int64_t>({2, 2}));
  EXPECT_TRUE(succeeded(type.verifyForTopology(main.getOperation())));
  TopologyAttr topology = getTopology(main.getOperation());
  ASSERT_TRUE(topology);
  EXPECT_EQ(topology.getMeshIndex("m1"), 0u);
  EXPECT_FALSE(topology.getMeshIndex("m2").has_value());
}

} // namespace
