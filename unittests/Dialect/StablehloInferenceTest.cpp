//===- StablehloInferenceTest.cpp - stablehlo result type inference -------===//
//
// Builds stablehlo ops with OpBuilder without result types, one per family
// of inference rules, checks the inferred types, and checks that a wrong
// explicit result type fails verification.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::stablehlo;

namespace {

class StablehloInferenceTest : public ::testing::Test {
protected:
  StablehloInferenceTest() : builder(&context) {
    DialectRegistry registry;
    mlir::mpmd::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    auto func = func::FuncOp::create(builder, loc, "f",
                                     builder.getFunctionType({}, {}));
    body = func.addEntryBlock();
    builder.setInsertionPointToEnd(body);
  }

  Type type(StringRef text) {
    Type parsed = parseType(text, &context);
    EXPECT_TRUE(parsed) << text.str();
    return parsed;
  }

  /// A fresh value of type `text` (an argument of the enclosing function).
  Value arg(StringRef text) { return body->addArgument(type(text), loc); }

  /// `text` printed the way the tests spell types.
  static std::string str(Type t) {
    std::string out;
    llvm::raw_string_ostream os(out);
    t.print(os);
    return out;
  }

  /// Verifies `op`, returning the first error message ("" on success).
  std::string verifyError(Operation *op) {
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    if (succeeded(verify(op)))
      return "";
    return message.empty() ? "<failed without a message>" : message;
  }

  /// Builds a region body `(args) { stablehlo.return <returned(args)> }`.
  template <typename Fn>
  void fillRegion(Region &region, TypeRange argTypes, Fn returned) {
    Block *block = builder.createBlock(&region);
    for (Type t : argTypes)
      block->addArgument(t, loc);
    SmallVector<Value> results = returned(block->getArguments());
    ReturnOp::create(builder, loc, results);
    builder.setInsertionPointToEnd(body);
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module;
  Block *body = nullptr;
};

TEST_F(StablehloInferenceTest, ElementwiseRefinesShapesAcrossOperands) {
  auto add = AddOp::create(builder, loc, arg("tensor<4x?xf32>"),
                           arg("tensor<?x8xf32>"));
  EXPECT_EQ(str(add.getType()), "tensor<4x8xf32>");
  EXPECT_EQ(verifyError(add), "");

  auto neg = NegOp::create(builder, loc, arg("tensor<2x3xi32>"));
  EXPECT_EQ(str(neg.getType()), "tensor<2x3xi32>");
  auto logistic = LogisticOp::create(builder, loc, arg("tensor<5xbf16>"));
  EXPECT_EQ(str(logistic.getType()), "tensor<5xbf16>");
  auto bitAnd =
      AndOp::create(builder, loc, arg("tensor<3xi1>"), arg("tensor<3xi1>"));
  EXPECT_EQ(str(bitAnd.getType()), "tensor<3xi1>");

  auto abs = AbsOp::create(builder, loc, arg("tensor<4xcomplex<f32>>"));
  EXPECT_EQ(str(abs.getType()), "tensor<4xf32>");
  auto imag = ImagOp::create(builder, loc, arg("tensor<4xcomplex<f64>>"));
  EXPECT_EQ(str(imag.getType()), "tensor<4xf64>");
  auto finite = IsFiniteOp::create(builder, loc, arg("tensor<2x?xf16>"));
  EXPECT_EQ(str(finite.getType()), "tensor<2x?xi1>");
}

TEST_F(StablehloInferenceTest, CompareGivesPredicatesOfTheOperandShape) {
  auto cmp = CompareOp::create(builder, loc, arg("tensor<?x4xf32>"),
                               arg("tensor<3x4xf32>"), ComparisonDirection::LT,
                               ComparisonTypeAttr());
  EXPECT_EQ(str(cmp.getType()), "tensor<3x4xi1>");
  EXPECT_EQ(verifyError(cmp), "");
}

TEST_F(StablehloInferenceTest, SelectAndClampTakeTheNonScalarOperandType) {
  Value x = arg("tensor<2x3xf32>");
  auto scalarPred = SelectOp::create(builder, loc, arg("tensor<i1>"), x, x);
  EXPECT_EQ(str(scalarPred.getType()), "tensor<2x3xf32>");
  auto fullPred = SelectOp::create(builder, loc, arg("tensor<2x3xi1>"),
                                   arg("tensor<?x3xf32>"), x);
  EXPECT_EQ(str(fullPred.getType()), "tensor<2x3xf32>");
  EXPECT_EQ(verifyError(fullPred), "");

  auto clamp = ClampOp::create(builder, loc, arg("tensor<f32>"), x,
                               arg("tensor<2x3xf32>"));
  EXPECT_EQ(str(clamp.getType()), "tensor<2x3xf32>");
}

TEST_F(StablehloInferenceTest, ShapeOps) {
  auto transpose = TransposeOp::create(builder, loc, arg("tensor<2x3x4xf32>"),
                                       ArrayRef<int64_t>{2, 0, 1});
  EXPECT_EQ(str(transpose.getType()), "tensor<4x2x3xf32>");

  auto slice = SliceOp::create(builder, loc, arg("tensor<3x8xf32>"),
                               ArrayRef<int64_t>{1, 4}, ArrayRef<int64_t>{3, 8},
                               ArrayRef<int64_t>{1, 2});
  EXPECT_EQ(str(slice.getType()), "tensor<2x2xf32>");

  Value i = arg("tensor<i32>");
  auto dynamicSlice =
      DynamicSliceOp::create(builder, loc, arg("tensor<3x?xf32>"),
                             ValueRange{i, i}, ArrayRef<int64_t>{1, 4});
  EXPECT_EQ(str(dynamicSlice.getType()), "tensor<1x4xf32>");

  auto concat = ConcatenateOp::create(
      builder, loc, ValueRange{arg("tensor<?x1xf32>"), arg("tensor<4x2xf32>")},
      /*dimension=*/1);
  EXPECT_EQ(str(concat.getType()), "tensor<4x3xf32>");
  auto dynamicConcat = ConcatenateOp::create(
      builder, loc, ValueRange{arg("tensor<4x1xf32>"), arg("tensor<4x?xf32>")},
      /*dimension=*/1);
  EXPECT_EQ(str(dynamicConcat.getType()), "tensor<4x?xf32>");

  // 8 elements, 7 gaps of 1, 1 before and 2 after: 18.
  auto pad = PadOp::create(builder, loc, arg("tensor<8x?xf32>"),
                           arg("tensor<f32>"), ArrayRef<int64_t>{1, 0},
                           ArrayRef<int64_t>{2, 0}, ArrayRef<int64_t>{1, 0});
  EXPECT_EQ(str(pad.getType()), "tensor<18x?xf32>");

  Value r = arg("tensor<8x2xf32>");
  auto reverse = ReverseOp::create(builder, loc, r, ArrayRef<int64_t>{0});
  EXPECT_EQ(reverse.getType(), r.getType());

  for (Operation *op : {transpose.getOperation(), slice.getOperation(),
                        dynamicSlice.getOperation(), concat.getOperation(),
                        dynamicConcat.getOperation(), pad.getOperation(),
                        reverse.getOperation()})
    EXPECT_EQ(verifyError(op), "") << op->getName().getStringRef().str();
}

TEST_F(StablehloInferenceTest, DotGeneralWithBatchingDimensions) {
  Value lhs = arg("tensor<2x4x32xbf16>"), rhs = arg("tensor<2x32x8xbf16>");
  auto dims = DotDimensionNumbersAttr::get(&context, /*lhsBatch=*/{0},
                                           /*rhsBatch=*/{0},
                                           /*lhsContract=*/{2},
                                           /*rhsContract=*/{1});
  auto dot = DotGeneralOp::create(builder, loc, lhs, rhs, dims, ArrayAttr(),
                                  DotAlgorithmAttr());
  // Batch, then lhs free, then rhs free; the lhs element type.
  EXPECT_EQ(str(dot.getType()), "tensor<2x4x8xbf16>");
  EXPECT_EQ(verifyError(dot), "");

  // A given result type may accumulate in another element type...
  auto wide = DotGeneralOp::create(builder, loc, type("tensor<2x4x8xf32>"), lhs,
                                   rhs, dims, ArrayAttr(), DotAlgorithmAttr());
  EXPECT_EQ(verifyError(wide), "");
  // ...but not change the shape.
  auto wrong =
      DotGeneralOp::create(builder, loc, type("tensor<2x8x4xf32>"), lhs, rhs,
                           dims, ArrayAttr(), DotAlgorithmAttr());
  EXPECT_EQ(verifyError(wrong),
            "'stablehlo.dot_general' op result dimension 1 has size 8 but "
            "expected 4 (expected shape [2, 4, 8])");
}

TEST_F(StablehloInferenceTest, ReduceDropsTheReducedDimensions) {
  Value init = arg("tensor<f32>");
  auto reduce =
      ReduceOp::create(builder, loc, ValueRange{arg("tensor<2x?x32xf32>")},
                       ValueRange{init}, ArrayRef<int64_t>{2});
  EXPECT_EQ(str(reduce.getResult(0).getType()), "tensor<2x?xf32>");
  Type scalar = init.getType();
  fillRegion(reduce.getBody(), {scalar, scalar}, [&](ValueRange args) {
    return SmallVector<Value>{AddOp::create(builder, loc, args[0], args[1])};
  });
  EXPECT_EQ(verifyError(reduce), "");
}

TEST_F(StablehloInferenceTest, WhileSortAndBarrierKeepTheOperandTypes) {
  Value counter = arg("tensor<i32>"), x = arg("tensor<4xf32>");
  Value token = CreateTokenOp::create(builder, loc);
  auto loop = WhileOp::create(builder, loc, ValueRange{counter, x, token});
  EXPECT_EQ(loop.getResultTypes(),
            TypeRange(ValueRange{counter, x, token}.getTypes()));
  TypeRange carried = loop.getOperand().getTypes();
  fillRegion(loop.getCond(), carried, [&](ValueRange args) {
    return SmallVector<Value>{CompareOp::create(builder, loc, args[0], args[0],
                                                ComparisonDirection::LT,
                                                ComparisonTypeAttr())};
  });
  fillRegion(loop.getBody(), carried, [&](ValueRange args) {
    return SmallVector<Value>(args.begin(), args.end());
  });
  EXPECT_EQ(verifyError(loop), "");

  Value keys = arg("tensor<16xi32>"), values = arg("tensor<16xf32>");
  auto sort = SortOp::create(builder, loc, ValueRange{keys, values},
                             /*dimension=*/0, /*is_stable=*/true);
  EXPECT_EQ(sort.getResultTypes(),
            TypeRange(ValueRange{keys, values}.getTypes()));
  Type i32 = type("tensor<i32>"), f32 = type("tensor<f32>");
  fillRegion(sort.getComparator(), {i32, i32, f32, f32}, [&](ValueRange args) {
    return SmallVector<Value>{CompareOp::create(builder, loc, args[0], args[1],
                                                ComparisonDirection::LT,
                                                ComparisonTypeAttr())};
  });
  EXPECT_EQ(verifyError(sort), "");

  auto barrier =
      OptimizationBarrierOp::create(builder, loc, ValueRange{x, token});
  EXPECT_EQ(barrier.getResultTypes(),
            TypeRange(ValueRange{x, token}.getTypes()));
  EXPECT_EQ(verifyError(barrier), "");
}

TEST_F(StablehloInferenceTest, IdsAndTokens) {
  auto partition = PartitionIdOp::create(builder, loc);
  EXPECT_EQ(str(partition.getType()), "tensor<ui32>");
  auto replica = ReplicaIdOp::create(builder, loc);
  EXPECT_EQ(str(replica.getType()), "tensor<ui32>");
  Value token = CreateTokenOp::create(builder, loc);
  EXPECT_TRUE(isa<TokenType>(token.getType()));
  auto after = AfterAllOp::create(builder, loc, ValueRange{token, token});
  EXPECT_TRUE(isa<TokenType>(after.getType()));
  EXPECT_EQ(verifyError(partition), "");
}

TEST_F(StablehloInferenceTest, InterfaceIsAvailableGenerically) {
  // Passes that only know the interface can ask for the types too.
  auto transpose = TransposeOp::create(builder, loc, arg("tensor<2x3xf32>"),
                                       ArrayRef<int64_t>{1, 0});
  auto iface = dyn_cast<InferTypeOpInterface>(transpose.getOperation());
  ASSERT_TRUE(iface);
  SmallVector<Type> inferred;
  ASSERT_TRUE(succeeded(iface.inferReturnTypes(
      &context, loc, transpose->getOperands(),
      transpose->getRawDictionaryAttrs(), transpose->getPropertiesStorage(),
      transpose->getRegions(), inferred)));
  ASSERT_EQ(inferred.size(), 1u);
  EXPECT_EQ(str(inferred[0]), "tensor<3x2xf32>");
  // Iota's result type is explicit: no inference.
  EXPECT_FALSE(IotaOp::create(builder, loc, type("tensor<4xi32>"), 0)
                   ->hasTrait<InferTypeOpInterface::Trait>());
}

TEST_F(StablehloInferenceTest, WrongExplicitResultTypesFailVerification) {
  Value x = arg("tensor<2x3xf32>");
  auto transpose = TransposeOp::create(builder, loc, type("tensor<2x3xf32>"), x,
                                       ArrayRef<int64_t>{1, 0});
  EXPECT_EQ(verifyError(transpose),
            "'stablehlo.transpose' op result dimension 0 has size 2 but "
            "expected 3 (expected shape [3, 2])");

  // Dynamic dimensions are accepted where the sizes may agree.
  auto dynamic = TransposeOp::create(builder, loc, type("tensor<?x2xf32>"), x,
                                     ArrayRef<int64_t>{1, 0});
  EXPECT_EQ(verifyError(dynamic), "");

  auto cmp = CompareOp::create(builder, loc, type("tensor<3x2xi1>"), x, x,
                               ComparisonDirection::EQ, ComparisonTypeAttr());
  EXPECT_EQ(verifyError(cmp),
            "'stablehlo.compare' op result dimension 0 has size 3 but "
            "expected 2 (expected shape [2, 3])");

  Value init = arg("tensor<f32>");
  auto reduce =
      ReduceOp::create(builder, loc, TypeRange{type("tensor<3xf16>")},
                       ValueRange{x}, ValueRange{init}, ArrayRef<int64_t>{1});
  fillRegion(reduce.getBody(), {init.getType(), init.getType()},
             [&](ValueRange args) {
               return SmallVector<Value>{
                   AddOp::create(builder, loc, args[0], args[1])};
             });
  EXPECT_EQ(verifyError(reduce), "'stablehlo.reduce' op result #0 element "
                                 "type 'f16' does not match expected 'f32'");

  auto partition = PartitionIdOp::create(builder, loc, type("tensor<ui32>"));
  EXPECT_EQ(verifyError(partition), "");
  auto barrier = OptimizationBarrierOp::create(
      builder, loc, TypeRange{type("tensor<2x3xf16>")}, ValueRange{x});
  EXPECT_EQ(verifyError(barrier),
            "'stablehlo.optimization_barrier' op result #0 element type 'f16' "
            "does not match expected 'f32'");
}

} // namespace
