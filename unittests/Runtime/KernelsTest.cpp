//===- KernelsTest.cpp - Kernels against plain reference loops ------------===//
//
// The kernels take fast paths (BLAS with transposed operands, tiled
// transposes, row-wise reductions); these tests compare them with the
// obvious index loops on shapes that exercise each path.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

using namespace mlir::mpmd::runtime;

namespace {

Tensor randomTensor(DType dtype, Shape shape, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> values(-4, 4);
  Tensor tensor = Tensor::empty(DType::I32, std::move(shape));
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.data<int32_t>()[i] = values(generator);
  return convert(tensor, dtype);
}

/// Row-major multi-index of `linear` in `shape`.
std::vector<int64_t> unravel(int64_t linear, const Shape &shape) {
  std::vector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = linear % shape[d];
    linear /= shape[d];
  }
  return index;
}

int64_t ravel(const std::vector<int64_t> &index, const Shape &shape) {
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + index[d];
  return linear;
}

struct DotCase {
  const char *name;
  Shape lhsShape, rhsShape;
  DotDimensions dims;
};

void PrintTo(const DotCase &dotCase, std::ostream *os) { *os << dotCase.name; }

class DotGeneralTest : public ::testing::TestWithParam<std::tuple<DotCase, DType>> {};

TEST_P(DotGeneralTest, MatchesReferenceLoop) {
  auto [dotCase, dtype] = GetParam();
  Tensor lhs = randomTensor(dtype, dotCase.lhsShape, 1);
  Tensor rhs = randomTensor(dtype, dotCase.rhsShape, 2);
  Tensor result = dotGeneral(lhs, rhs, dotCase.dims);
  // Reference: for every result index and contracting index, multiply.
  const DotDimensions &dims = dotCase.dims;
  auto freeDims = [](int64_t rank, const std::vector<int64_t> &a,
                     const std::vector<int64_t> &b) {
    std::vector<int64_t> free;
    for (int64_t d = 0; d < rank; ++d)
      if (std::find(a.begin(), a.end(), d) == a.end() &&
          std::find(b.begin(), b.end(), d) == b.end())
        free.push_back(d);
    return free;
  };
  std::vector<int64_t> lhsFree = freeDims(lhs.rank(), dims.lhsBatch, dims.lhsContracting);
  std::vector<int64_t> rhsFree = freeDims(rhs.rank(), dims.rhsBatch, dims.rhsContracting);
  Shape contractShape;
  for (int64_t d : dims.lhsContracting)
    contractShape.push_back(lhs.shape()[d]);
  for (int64_t r = 0; r < result.numElements(); ++r) {
    std::vector<int64_t> out = unravel(r, result.shape());
    std::vector<int64_t> l(lhs.rank()), rr(rhs.rank());
    size_t position = 0;
    for (size_t i = 0; i < dims.lhsBatch.size(); ++i, ++position) {
      l[dims.lhsBatch[i]] = out[position];
      rr[dims.rhsBatch[i]] = out[position];
    }
    for (int64_t d : lhsFree)
      l[d] = out[position++];
    for (int64_t d : rhsFree)
      rr[d] = out[position++];
    double expected = 0;
    for (int64_t c = 0; c < numElementsOf(contractShape); ++c) {
      std::vector<int64_t> k = unravel(c, contractShape);
      for (size_t i = 0; i < k.size(); ++i) {
        l[dims.lhsContracting[i]] = k[i];
        rr[dims.rhsContracting[i]] = k[i];
      }
      expected += lhs.elementAsDouble(ravel(l, lhs.shape())) *
                  rhs.elementAsDouble(ravel(rr, rhs.shape()));
    }
    ASSERT_EQ(result.elementAsDouble(r), expected) << "result element " << r;
  }
}

TEST_P(DotGeneralTest, AccumulatesIntoTheAddend) {
  // Small integers: every sum is exact in every dtype, so accumulating in
  // the gemm (beta = 1) must give the bits of the dot followed by an add.
  auto [dotCase, dtype] = GetParam();
  Tensor lhs = randomTensor(dtype, dotCase.lhsShape, 1);
  Tensor rhs = randomTensor(dtype, dotCase.rhsShape, 2);
  Tensor product = dotGeneral(lhs, rhs, dotCase.dims);
  Tensor addend = randomTensor(dtype, product.shape(), 3);
  Tensor expected = binary(BinaryKind::Add, addend, product);
  Tensor accumulator = addend.clone();
  dotGeneralAccumulate(lhs, rhs, dotCase.dims, accumulator);
  ASSERT_EQ(accumulator.dtype(), dtype);
  ASSERT_EQ(accumulator.shape(), product.shape());
  for (int64_t i = 0; i < expected.numElements(); ++i)
    ASSERT_EQ(accumulator.elementAsDouble(i), expected.elementAsDouble(i))
        << "element " << i;
}

TEST(DotGeneralAccumulateTest, StaysCloseToDotThenAddOverALongContraction) {
  // 3000 terms span several of BLAS's contraction blocks: the partial sums
  // are added to the accumulator block by block, so only closeness holds.
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> values(-1, 1);
  auto random = [&](Shape shape) {
    Tensor tensor = Tensor::empty(DType::F32, std::move(shape));
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      tensor.data<float>()[i] = values(generator);
    return tensor;
  };
  Tensor lhs = random({9, 3000}), rhs = random({3000, 11}), addend = random({9, 11});
  DotDimensions dims{{}, {}, {1}, {0}};
  Tensor expected = binary(BinaryKind::Add, addend, dotGeneral(lhs, rhs, dims));
  Tensor accumulator = addend.clone();
  dotGeneralAccumulate(lhs, rhs, dims, accumulator);
  for (int64_t i = 0; i < expected.numElements(); ++i)
    EXPECT_NEAR(accumulator.data<float>()[i], expected.data<float>()[i], 1e-3)
        << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, DotGeneralTest,
    ::testing::Combine(
        ::testing::Values(
            // Plain [M,K]x[K,N], both transposed, contracting K on dim 0 of
            // both, batch leading, batch in the middle, two contracting dims.
            DotCase{"Plain", {5, 7}, {7, 3}, {{}, {}, {1}, {0}}},
            DotCase{"BothTransposed", {7, 5}, {3, 7}, {{}, {}, {0}, {1}}},
            DotCase{"LhsTransposed", {7, 5}, {7, 3}, {{}, {}, {0}, {0}}},
            DotCase{"BatchLeading", {2, 5, 7}, {2, 7, 3}, {{0}, {0}, {2}, {1}}},
            DotCase{"BatchInTheMiddle", {5, 2, 7}, {3, 7, 2}, {{1}, {2}, {2}, {1}}},
            DotCase{"TwoContractingDims", {4, 3, 6}, {6, 3, 2}, {{}, {}, {1, 2}, {1, 0}}},
            DotCase{"SeveralBlasBlocks", {40, 33}, {33, 37}, {{}, {}, {1}, {0}}}),
        ::testing::Values(DType::F32, DType::F64, DType::BF16, DType::I32,
                          DType::I64)),
    [](const ::testing::TestParamInfo<DotGeneralTest::ParamType> &info) {
      return std::string(std::get<0>(info.param).name) + "_" +
             dtypeName(std::get<1>(info.param));
    });

TEST(TransposeTest, MatchesReferenceOnEveryPermutationOfRank3) {
  Shape shape{37, 5, 41}; // more than one 32x32 tile, uneven edges
  Tensor operand = randomTensor(DType::I16, shape, 3);
  std::vector<int64_t> permutation{0, 1, 2};
  do {
    Tensor result = transpose(operand, permutation);
    for (int64_t r = 0; r < result.numElements(); ++r) {
      std::vector<int64_t> out = unravel(r, result.shape()), in(3);
      for (int64_t d = 0; d < 3; ++d)
        in[permutation[d]] = out[d];
      ASSERT_EQ(result.elementAsInt(r), operand.elementAsInt(ravel(in, shape)));
    }
  } while (std::next_permutation(permutation.begin(), permutation.end()));
}

TEST(ReduceTest, MatchesReferenceOnEverySubsetOfDimensions) {
  Shape shape{3, 4, 5};
  Tensor operand = randomTensor(DType::F64, shape, 4);
  Tensor init = Tensor::zeros(DType::F64, {});
  for (int mask = 0; mask < 8; ++mask) {
    std::vector<int64_t> dims;
    Shape resultShape;
    for (int64_t d = 0; d < 3; ++d) {
      if (mask & (1 << d))
        dims.push_back(d);
      else
        resultShape.push_back(shape[d]);
    }
    Tensor result = reduce(ReduceKind::Add, operand, init, dims);
    ASSERT_EQ(result.shape(), resultShape);
    std::vector<double> expected(numElementsOf(resultShape), 0.0);
    for (int64_t i = 0; i < operand.numElements(); ++i) {
      std::vector<int64_t> index = unravel(i, shape), kept;
      for (int64_t d = 0; d < 3; ++d)
        if (!(mask & (1 << d)))
          kept.push_back(index[d]);
      expected[ravel(kept, resultShape)] += operand.elementAsDouble(i);
    }
    for (int64_t r = 0; r < result.numElements(); ++r)
      ASSERT_EQ(result.elementAsDouble(r), expected[r]) << "mask " << mask;
  }
}

TEST(ReduceTest, LongRowsFoldThroughPartialAccumulators) {
  // 101 elements per row: the 16-lane partial fold plus a remainder.
  Tensor operand = randomTensor(DType::I64, {3, 101}, 9);
  Tensor init = Tensor::zeros(DType::I64, {});
  Tensor sums = reduce(ReduceKind::Add, operand, init, {1});
  Tensor maxima = reduce(ReduceKind::Maximum, operand, init, {1});
  for (int64_t row = 0; row < 3; ++row) {
    int64_t sum = 0, maximum = 0;
    for (int64_t i = 0; i < 101; ++i) {
      sum += operand.elementAsInt(row * 101 + i);
      maximum = std::max(maximum, operand.elementAsInt(row * 101 + i));
    }
    EXPECT_EQ(sums.elementAsInt(row), sum);
    EXPECT_EQ(maxima.elementAsInt(row), maximum);
  }
  Tensor floats = convert(operand, DType::F32);
  floats.data<float>()[150] = NAN;
  Tensor floatInit = Tensor::zeros(DType::F32, {});
  Tensor floatMaxima = reduce(ReduceKind::Maximum, floats, floatInit, {1});
  EXPECT_TRUE(std::isnan(floatMaxima.elementAsDouble(1)));
  EXPECT_FALSE(std::isnan(floatMaxima.elementAsDouble(0)));
}

TEST(ReduceTest, MaximumPropagatesNan) {
  Tensor operand = Tensor::empty(DType::F32, {3});
  operand.data<float>()[0] = 1;
  operand.data<float>()[1] = NAN;
  operand.data<float>()[2] = 2;
  Tensor init = Tensor::empty(DType::F32, {});
  init.data<float>()[0] = -INFINITY;
  EXPECT_TRUE(std::isnan(reduce(ReduceKind::Maximum, operand, init, {0})
                             .elementAsDouble(0)));
}

// forEachRun walks the trailing dimensions a window leaves alone as runs:
// expanded element by element, its visits must be forEach's (in another
// order), on random windows whose trailing dimensions are sometimes left
// alone (runs of several elements) and sometimes not (runs of one).
TEST(WindowIndexerTest, RunsVisitWhatElementVisitsDo) {
  std::mt19937 generator(41);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(generator);
  };
  int64_t longRuns = 0;
  for (int trial = 0; trial < 200; ++trial) {
    int64_t rank = pick(1, 4);
    Shape operand(rank), result(rank);
    WindowDimensions window;
    int64_t plainFrom = pick(0, rank); // dimensions from here on: left alone
    for (int64_t d = 0; d < rank; ++d) {
      operand[d] = pick(1, 5);
      bool plain = d >= plainFrom;
      window.size.push_back(plain ? 1 : pick(1, 3));
      window.strides.push_back(plain ? 1 : pick(1, 2));
      window.baseDilations.push_back(plain ? 1 : pick(1, 2));
      window.windowDilations.push_back(plain ? pick(1, 2) : pick(1, 2));
      window.paddingLow.push_back(plain ? 0 : pick(0, 1));
      window.paddingHigh.push_back(plain ? 0 : pick(0, 1));
      int64_t padded = (operand[d] - 1) * window.baseDilations[d] + 1 +
                       window.paddingLow[d] + window.paddingHigh[d];
      int64_t dilated = (window.size[d] - 1) * window.windowDilations[d] + 1;
      result[d] =
          padded < dilated ? 0 : (padded - dilated) / window.strides[d] + 1;
    }
    WindowIndexer indexer(operand, result, window);
    std::vector<std::array<int64_t, 3>> byElement, byRun;
    indexer.forEach([&](int64_t out, int64_t position, int64_t source) {
      byElement.push_back({out, position, source});
    });
    indexer.forEachRun(
        [&](int64_t out, int64_t position, int64_t source, int64_t length) {
          longRuns += length > 1;
          for (int64_t i = 0; i < length; ++i)
            byRun.push_back({out + i, position, source < 0 ? -1 : source + i});
        });
    std::sort(byElement.begin(), byElement.end());
    std::sort(byRun.begin(), byRun.end());
    ASSERT_EQ(byRun, byElement) << "trial " << trial;
  }
  EXPECT_GT(longRuns, 100);
}

TEST(LayoutTest, PadThenSliceRecoversTheOperand) {
  Tensor operand = randomTensor(DType::I8, {3, 4}, 5);
  Tensor padValue = Tensor::zeros(DType::I8, {});
  Tensor padded = pad(operand, padValue, {2, 1}, {1, 3}, {1, 2});
  ASSERT_EQ(padded.shape(), (Shape{2 + 3 + 2 + 1, 1 + 4 + 6 + 3}));
  Tensor recovered = slice(padded, {2, 1}, {2 + 5, 1 + 10}, {2, 3});
  for (int64_t i = 0; i < operand.numElements(); ++i)
    ASSERT_EQ(recovered.elementAsInt(i), operand.elementAsInt(i));
}

TEST(LayoutTest, BroadcastRepeatsSizeOneDimensions) {
  Tensor operand = randomTensor(DType::F32, {3, 1}, 6);
  Tensor result = broadcastInDim(operand, {2, 3, 4}, {1, 2});
  for (int64_t r = 0; r < result.numElements(); ++r)
    ASSERT_EQ(result.elementAsDouble(r),
              operand.elementAsDouble(unravel(r, result.shape())[1]));
}

TEST(ElementwiseTest, BinaryIntoWritesTheGivenBuffer) {
  Tensor a = randomTensor(DType::F32, {1000}, 7), b = randomTensor(DType::F32, {1000}, 8);
  Tensor out = Tensor::empty(DType::F32, {1000});
  binaryInto(BinaryKind::Add, a, b, out);
  for (int64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(out.elementAsDouble(i), a.elementAsDouble(i) + b.elementAsDouble(i));
}

TEST(ElementwiseTest, SupportTablesRejectMeaninglessCombinations) {
  EXPECT_FALSE(supportsUnary(UnaryKind::Exp, DType::I32));
  EXPECT_FALSE(supportsUnary(UnaryKind::Not, DType::F32));
  EXPECT_TRUE(supportsUnary(UnaryKind::Not, DType::I1));
  EXPECT_FALSE(supportsBinary(BinaryKind::ShiftLeft, DType::F64));
  EXPECT_FALSE(supportsBinary(BinaryKind::Subtract, DType::I1));
  EXPECT_FALSE(supportsReduce(ReduceKind::And, DType::BF16));
}

} // namespace
