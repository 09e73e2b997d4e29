//===- ConvolutionTest.cpp - The GEMM convolution against the spec's loop -===//
//
// `convolution` (im2col / col2im tiles on BLAS gemm) must agree with
// `convolutionReference` (the spec's definition, one dot product per result
// element) on randomized configurations: every dimension order, strides,
// padding (negative too), dilations, reversal and group counts, plus shapes
// large enough to split into several tiles. The data are small integers,
// so every sum is exact in f32 and the two must agree exactly.
//
// The gradients JAX derives for a convolution (both again convolutions,
// built here by its transpose rules) are checked against central finite
// differences of <g, conv(x, w)>, which are exact up to rounding because
// the convolution is linear in each operand.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace mlir::mpmd::runtime;

namespace {

Tensor randomIntegers(DType dtype, const Shape &shape, std::mt19937 &generator) {
  std::uniform_int_distribution<int> values(-4, 4);
  Tensor tensor = Tensor::empty(DType::F64, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.data<double>()[i] = values(generator);
  return convert(tensor, dtype);
}

Tensor randomReals(const Shape &shape, std::mt19937 &generator) {
  std::uniform_real_distribution<double> values(-1.0, 1.0);
  Tensor tensor = Tensor::empty(DType::F64, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.data<double>()[i] = values(generator);
  return tensor;
}

/// A convolution problem: operand shapes and dimension numbers, with the
/// result shape of the spec's (C25).
struct Problem {
  Shape lhs, rhs, result;
  ConvolutionDimensions dims;
};

/// (C25), written out again here so that the kernels are not tested against
/// the verifier's own arithmetic.
Shape resultShapeOf(const Shape &lhs, const Shape &rhs,
                    const ConvolutionDimensions &dims) {
  Shape result(lhs.size());
  result[dims.outputBatch] = lhs[dims.inputBatch] / dims.batchGroupCount;
  result[dims.outputFeature] = rhs[dims.kernelOutputFeature];
  for (size_t d = 0; d < dims.inputSpatial.size(); ++d) {
    int64_t input = lhs[dims.inputSpatial[d]];
    int64_t window = rhs[dims.kernelSpatial[d]];
    int64_t padded = (input == 0 ? 0 : (input - 1) * dims.lhsDilation[d] + 1) +
                     dims.paddingLow[d] + dims.paddingHigh[d];
    int64_t dilated = window == 0 ? 0 : (window - 1) * dims.rhsDilation[d] + 1;
    result[dims.outputSpatial[d]] =
        padded <= 0 || dilated > padded
            ? 0
            : (padded - dilated) / dims.strides[d] + 1;
  }
  return result;
}

/// A random problem of `numSpatial` spatial dimensions with sizes up to
/// `maxSize`; every dimension order is random.
Problem randomProblem(std::mt19937 &generator, int64_t numSpatial,
                      int64_t maxSize) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(generator);
  };
  int64_t rank = numSpatial + 2;
  auto permutation = [&] {
    std::vector<int64_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), generator);
    return order;
  };
  Problem p;
  ConvolutionDimensions &d = p.dims;
  std::vector<int64_t> in = permutation(), kernel = permutation(),
                       out = permutation();
  d.inputBatch = in[0];
  d.inputFeature = in[1];
  d.inputSpatial.assign(in.begin() + 2, in.end());
  d.kernelInputFeature = kernel[0];
  d.kernelOutputFeature = kernel[1];
  d.kernelSpatial.assign(kernel.begin() + 2, kernel.end());
  d.outputBatch = out[0];
  d.outputFeature = out[1];
  d.outputSpatial.assign(out.begin() + 2, out.end());
  int64_t groups = pick(1, 3);
  if (pick(0, 1))
    d.featureGroupCount = groups;
  else
    d.batchGroupCount = groups;
  int64_t groupFeatures = pick(1, 4);
  p.lhs.assign(rank, 0);
  p.rhs.assign(rank, 0);
  p.lhs[d.inputBatch] = pick(1, 3) * d.batchGroupCount;
  p.lhs[d.inputFeature] = groupFeatures * d.featureGroupCount;
  p.rhs[d.kernelInputFeature] = groupFeatures;
  p.rhs[d.kernelOutputFeature] = pick(1, 3) * groups;
  for (int64_t s = 0; s < numSpatial; ++s) {
    p.lhs[d.inputSpatial[s]] = pick(0, 7) ? pick(1, maxSize) : 0;
    p.rhs[d.kernelSpatial[s]] = pick(0, 7) ? pick(1, 4) : 0;
    d.strides.push_back(pick(1, 3));
    d.paddingLow.push_back(pick(-2, 3));
    d.paddingHigh.push_back(pick(-2, 3));
    d.lhsDilation.push_back(pick(0, 2) ? 1 : pick(2, 3));
    d.rhsDilation.push_back(pick(0, 2) ? 1 : pick(2, 3));
    d.reversal.push_back(pick(0, 1));
  }
  p.result = resultShapeOf(p.lhs, p.rhs, d);
  return p;
}

// A direct path forced on a problem it does not take (groups, a dilated
// lhs, f64, empty sizes, more than 4 result features) runs a GEMM path: the
// random problems cover both.
constexpr ConvolutionPath kPaths[] = {
    ConvolutionPath::Auto,    ConvolutionPath::Gather,
    ConvolutionPath::Scatter, ConvolutionPath::GatherTransposed,
    ConvolutionPath::Direct,  ConvolutionPath::DirectFewResultFeatures};

void expectSameElements(const Tensor &actual, const Tensor &expected,
                        const std::string &what) {
  ASSERT_EQ(actual.dtype(), expected.dtype()) << what;
  ASSERT_EQ(actual.shape(), expected.shape()) << what;
  for (int64_t i = 0; i < actual.numElements(); ++i)
    ASSERT_EQ(actual.elementAsDouble(i), expected.elementAsDouble(i))
        << what << ", element " << i;
}

std::string describe(const Problem &p) {
  std::string text = "lhs " + shapeToString(p.lhs) + " rhs " +
                     shapeToString(p.rhs) + " result " +
                     shapeToString(p.result);
  text += " groups f" + std::to_string(p.dims.featureGroupCount) + " b" +
          std::to_string(p.dims.batchGroupCount);
  return text;
}

TEST(ConvolutionTest, GemmPathMatchesReferenceOnRandomProblems) {
  std::mt19937 generator(16);
  int64_t nonEmpty = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Problem p = randomProblem(generator, 1 + trial % 3, trial % 3 == 2 ? 5 : 7);
    nonEmpty += numElementsOf(p.result) > 0;
    for (DType dtype : {DType::F32, DType::F64, DType::BF16}) {
      Tensor lhs = randomIntegers(dtype, p.lhs, generator);
      Tensor rhs = randomIntegers(dtype, p.rhs, generator);
      Tensor expected = convolutionReference(lhs, rhs, p.dims, p.result);
      for (ConvolutionPath path : kPaths) {
        expectSameElements(convolution(lhs, rhs, p.dims, p.result, path),
                           expected,
                           describe(p) + " " + dtypeName(dtype) + " path " +
                               std::to_string(static_cast<int>(path)));
        if (HasFatalFailure())
          return;
      }
    }
  }
  // Empty results (windows larger than the padded input, empty operands)
  // are covered, but most problems must compute something.
  EXPECT_GT(nonEmpty, 200);
}

/// NHWC / HWIO / NHWC dimension numbers of a 2-D convolution.
ConvolutionDimensions nhwc() {
  ConvolutionDimensions d;
  d.inputBatch = 0;
  d.inputSpatial = {1, 2};
  d.inputFeature = 3;
  d.kernelSpatial = {0, 1};
  d.kernelInputFeature = 2;
  d.kernelOutputFeature = 3;
  d.outputBatch = 0;
  d.outputSpatial = {1, 2};
  d.outputFeature = 3;
  d.strides = d.lhsDilation = d.rhsDilation = {1, 1};
  d.paddingLow = d.paddingHigh = {0, 0};
  d.reversal = {false, false};
  return d;
}

// Shapes whose im2col or col2im matrices exceed one tile: row tiles, window
// tiles accumulated with beta = 1, several col2im tiles, col2im landing
// positions computed without a table; and the single transposed GEMM of
// windows that cover a feature-major lhs.
TEST(ConvolutionTest, GemmPathMatchesReferenceAcrossTiles) {
  std::mt19937 generator(7);
  std::vector<Problem> problems;
  {
    Problem p; // many rows: row tiles
    p.dims = nhwc();
    p.dims.paddingLow = p.dims.paddingHigh = {1, 1};
    p.lhs = {4, 128, 128, 3};
    p.rhs = {3, 3, 3, 4};
    problems.push_back(p);
  }
  {
    Problem p; // a filter-gradient-like wide window: window tiles
    p.dims = nhwc();
    p.lhs = {3, 40, 40, 8};
    p.rhs = {34, 34, 8, 5};
    problems.push_back(p);
  }
  {
    Problem p; // a dilated input (col2im) over several tiles
    p.dims = nhwc();
    p.dims.lhsDilation = {2, 2};
    p.dims.paddingLow = p.dims.paddingHigh = {2, 1};
    p.dims.reversal = {true, false};
    p.lhs = {2, 64, 64, 8};
    p.rhs = {3, 3, 8, 16};
    problems.push_back(p);
  }
  {
    Problem p; // col2im with a window too long to tabulate its landings
    ConvolutionDimensions &d = p.dims;
    d.inputBatch = 0;
    d.inputSpatial = {1};
    d.inputFeature = 2;
    d.kernelSpatial = {0};
    d.kernelInputFeature = 1;
    d.kernelOutputFeature = 2;
    d.outputBatch = 0;
    d.outputSpatial = {1};
    d.outputFeature = 2;
    d.strides = d.rhsDilation = {1};
    d.lhsDilation = {2};
    d.paddingLow = {3};
    d.paddingHigh = {-2};
    d.reversal = {false};
    p.lhs = {1, 2000, 1};
    p.rhs = {600, 1, 2};
    problems.push_back(p);
  }
  {
    Problem p; // one GEMM on the operands as stored, result [f, 0, 1, b]
    ConvolutionDimensions &d = p.dims;
    d = nhwc();
    d.inputFeature = 0;
    d.inputBatch = 3;
    d.outputFeature = 0;
    d.outputBatch = 3;
    d.reversal = {false, true};
    p.lhs = {3, 4, 5, 2};
    p.rhs = {4, 5, 3, 6};
    problems.push_back(p);
  }
  for (Problem &p : problems) {
    p.result = resultShapeOf(p.lhs, p.rhs, p.dims);
    Tensor lhs = randomIntegers(DType::F32, p.lhs, generator);
    Tensor rhs = randomIntegers(DType::F32, p.rhs, generator);
    Tensor expected = convolutionReference(lhs, rhs, p.dims, p.result);
    for (ConvolutionPath path : kPaths)
      expectSameElements(convolution(lhs, rhs, p.dims, p.result, path),
                         expected, describe(p));
  }
}

TEST(ConvolutionTest, IntegerTypesRunTheReference) {
  std::mt19937 generator(3);
  Problem p = randomProblem(generator, 2, 5);
  for (DType dtype : {DType::I8, DType::I32, DType::I64, DType::UI16}) {
    Tensor lhs = randomIntegers(DType::F64, p.lhs, generator);
    Tensor rhs = randomIntegers(DType::F64, p.rhs, generator);
    if (isUnsignedInt(dtype)) {
      lhs = unary(UnaryKind::Abs, lhs);
      rhs = unary(UnaryKind::Abs, rhs);
    }
    // Small values: no wrap-around, so the f64 result converts exactly.
    Tensor expected = convolutionReference(lhs, rhs, p.dims, p.result);
    expectSameElements(convolution(convert(lhs, dtype), convert(rhs, dtype),
                                   p.dims, p.result),
                       convert(expected, dtype), describe(p));
  }
}

//===----------------------------------------------------------------------===//
// Gradients in JAX's forms
//===----------------------------------------------------------------------===//

/// A forward NHWC convolution x [N, H, W, C] * w [KH, KW, C/G, O].
struct Forward {
  Shape x, w;
  std::vector<int64_t> strides, low, high, rhsDilation;
  int64_t featureGroups = 1;

  ConvolutionDimensions dims() const {
    ConvolutionDimensions d = nhwc();
    d.strides = strides;
    d.paddingLow = low;
    d.paddingHigh = high;
    d.rhsDilation = rhsDilation;
    d.featureGroupCount = featureGroups;
    return d;
  }
};

int64_t dilatedSize(int64_t size, int64_t dilation) {
  return size == 0 ? 0 : (size - 1) * dilation + 1;
}

/// One convolution call: operands, dimension numbers and result shape.
struct Call {
  Tensor lhs, rhs;
  ConvolutionDimensions dims;
  Shape result;

  Tensor run(ConvolutionPath path = ConvolutionPath::Auto) const {
    return convolution(lhs, rhs, dims, result, path);
  }
  Tensor reference() const {
    return convolutionReference(lhs, rhs, dims, result);
  }
};

/// The input gradient as JAX's transpose rule builds it: g convolved with
/// the spatially reversed kernel (feature groups moved from the output
/// features into the input features), input and output features swapped,
/// g dilated by the strides, padding from the forward window.
Call inputGradientCall(const Forward &f, const Tensor &g, const Tensor &w) {
  const Shape &gShape = g.shape();
  int64_t groups = f.featureGroups;
  Tensor kernel = w;
  if (groups > 1) {
    int64_t kh = w.shape()[0], kw = w.shape()[1], in = w.shape()[2],
            out = w.shape()[3];
    kernel = transpose(w.reshaped({kh, kw, in, groups, out / groups}),
                       {0, 1, 3, 2, 4})
                 .reshaped({kh, kw, groups * in, out / groups});
  }
  kernel = reverse(kernel, {0, 1});
  ConvolutionDimensions d = nhwc();
  std::swap(d.kernelInputFeature, d.kernelOutputFeature); // [0, 1, o, i]
  d.featureGroupCount = groups;
  for (int s = 0; s < 2; ++s) {
    int64_t window = dilatedSize(f.w[s], f.rhsDilation[s]);
    int64_t before = window - f.low[s] - 1;
    d.strides[s] = 1;
    d.lhsDilation[s] = f.strides[s];
    d.rhsDilation[s] = f.rhsDilation[s];
    d.paddingLow[s] = before;
    d.paddingHigh[s] = f.x[1 + s] + window - 1 -
                       dilatedSize(gShape[1 + s], f.strides[s]) - before;
  }
  return {g, kernel, d, f.x};
}

Tensor inputGradient(const Forward &f, const Tensor &g, const Tensor &w) {
  return inputGradientCall(f, g, w).run();
}

/// The filter gradient as JAX's transpose rule builds it: x with batch and
/// feature swapped convolved with g (its batch as the input feature), the
/// forward strides as rhs dilation; feature groups become batch groups.
Call filterGradientCall(const Forward &f, const Tensor &x, const Tensor &g) {
  ConvolutionDimensions d;
  d.inputBatch = 3; // [f, 0, 1, b]
  d.inputFeature = 0;
  d.inputSpatial = {1, 2};
  d.kernelInputFeature = 0; // [i, 0, 1, o]
  d.kernelOutputFeature = 3;
  d.kernelSpatial = {1, 2};
  d.outputSpatial = {0, 1}; // [0, 1, b, f]
  d.outputBatch = 2;
  d.outputFeature = 3;
  d.batchGroupCount = f.featureGroups;
  for (int s = 0; s < 2; ++s) {
    d.strides.push_back(f.rhsDilation[s]);
    d.rhsDilation.push_back(f.strides[s]);
    d.lhsDilation.push_back(1);
    d.paddingLow.push_back(f.low[s]);
    d.paddingHigh.push_back(dilatedSize(g.shape()[1 + s], f.strides[s]) -
                            f.x[1 + s] +
                            dilatedSize(f.w[s], f.rhsDilation[s]) - f.low[s] -
                            1);
    d.reversal.push_back(false);
  }
  return {x, g, d, f.w};
}

Tensor filterGradient(const Forward &f, const Tensor &x, const Tensor &g) {
  return filterGradientCall(f, x, g).run();
}

double innerProduct(const Tensor &a, const Tensor &b) {
  double sum = 0;
  for (int64_t i = 0; i < a.numElements(); ++i)
    sum += a.data<double>()[i] * b.data<double>()[i];
  return sum;
}

/// d<g, conv(x, w)> / d(operand) by central differences, one element at a
/// time, through the reference.
Tensor finiteDifferences(const Forward &f, const Tensor &x, const Tensor &w,
                         const Tensor &g, bool ofInput) {
  ConvolutionDimensions d = f.dims();
  Tensor operand = (ofInput ? x : w).clone();
  Tensor gradient = Tensor::empty(DType::F64, operand.shape());
  const double step = 0.5;
  for (int64_t i = 0; i < operand.numElements(); ++i) {
    double saved = operand.data<double>()[i];
    double values[2];
    for (int side = 0; side < 2; ++side) {
      operand.data<double>()[i] = saved + (side ? step : -step);
      values[side] = innerProduct(
          g, convolutionReference(ofInput ? operand : x, ofInput ? w : operand,
                                  d, g.shape()));
    }
    operand.data<double>()[i] = saved;
    gradient.data<double>()[i] = (values[1] - values[0]) / (2 * step);
  }
  return gradient;
}

void expectNear(const Tensor &actual, const Tensor &expected,
                const std::string &what) {
  ASSERT_EQ(actual.shape(), expected.shape()) << what;
  for (int64_t i = 0; i < actual.numElements(); ++i)
    ASSERT_NEAR(actual.data<double>()[i], expected.data<double>()[i], 1e-9)
        << what << ", element " << i;
}

TEST(ConvolutionTest, JaxGradientFormsMatchFiniteDifferences) {
  std::vector<Forward> cases = {
      // 1x1: its filter gradient is one GEMM on the operands as they are.
      {{2, 4, 5, 3}, {1, 1, 3, 4}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 1},
      // 3x3 "same", stride 1.
      {{2, 6, 5, 3}, {3, 3, 3, 4}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1},
      // Stride 2 (lhs dilation in the input gradient), uneven padding.
      {{2, 7, 6, 2}, {3, 2, 2, 3}, {2, 2}, {1, 0}, {1, 1}, {1, 1}, 1},
      // 7x7 stride 2 stem-like, padding 3.
      {{1, 9, 9, 3}, {7, 7, 3, 2}, {2, 2}, {3, 3}, {3, 3}, {1, 1}, 1},
      // Dilated kernel, stride 3 that leaves input rows unread.
      {{1, 8, 7, 2}, {2, 3, 2, 2}, {3, 1}, {0, 2}, {1, 0}, {2, 1}, 1},
      // Grouped and depthwise (feature_group_count = C).
      {{2, 5, 5, 4}, {3, 3, 2, 6}, {1, 2}, {1, 1}, {1, 1}, {1, 1}, 2},
      {{1, 6, 6, 3}, {3, 3, 1, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, 3},
  };
  std::mt19937 generator(11);
  for (const Forward &f : cases) {
    Shape y = resultShapeOf(f.x, f.w, f.dims());
    Tensor x = randomReals(f.x, generator), w = randomReals(f.w, generator),
           g = randomReals(y, generator);
    std::string what = "x " + shapeToString(f.x) + " w " + shapeToString(f.w);
    expectNear(inputGradient(f, g, w), finiteDifferences(f, x, w, g, true),
               what + " input gradient");
    expectNear(filterGradient(f, x, g), finiteDifferences(f, x, w, g, false),
               what + " filter gradient");
  }
}

// The direct kernel on stem-like problems past its block sizes: result rows
// that do not fill the last register block, output features that do not
// fill the last 16-feature chunk, padding on both sides (the lhs copied
// with margins) and none (read in place), a filter gradient whose
// reduction spans several kernel tiles. Auto takes the direct kernel on
// all of these (at most 4 features), Direct forces it.
TEST(ConvolutionTest, DirectPathMatchesReferenceOnStemShapes) {
  std::mt19937 generator(5);
  std::vector<Forward> cases = {
      // 7x7 stride 2 padded 3 (ResNet's stem), odd sizes, 19 outputs.
      {{2, 37, 41, 3}, {7, 7, 3, 19}, {2, 2}, {3, 3}, {3, 2}, {1, 1}, 1},
      // 3x3 "same" (the example CNN's stem), 32 outputs.
      {{3, 16, 13, 3}, {3, 3, 3, 32}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1},
      // No padding (rows read in place), a dilated kernel, 1 feature.
      {{2, 12, 15, 1}, {3, 2, 1, 5}, {1, 3}, {0, 0}, {0, 0}, {2, 1}, 1},
      // Negative padding, 4 features.
      {{1, 14, 14, 4}, {5, 5, 4, 8}, {2, 1}, {-1, 1}, {2, -1}, {1, 1}, 1},
  };
  for (const Forward &f : cases) {
    Shape y = resultShapeOf(f.x, f.w, f.dims());
    Tensor x = randomIntegers(DType::F32, f.x, generator);
    Tensor w = randomIntegers(DType::F32, f.w, generator);
    Call forward{x, w, f.dims(), y};
    std::string what = "x " + shapeToString(f.x) + " w " + shapeToString(f.w);
    Tensor expected = forward.reference();
    expectSameElements(forward.run(ConvolutionPath::Direct), expected,
                       what + " forward");
    expectSameElements(forward.run(), expected, what + " forward, auto");
  }
  // A filter gradient whose dy rows (60 taps of the window) make the
  // reduction 4 images x 60 rows long: several tiles of 34 units.
  Forward stem{{4, 120, 120, 3}, {7, 7, 3, 20}, {2, 2}, {3, 3}, {3, 2},
               {1, 1}, 1};
  Shape y = resultShapeOf(stem.x, stem.w, stem.dims());
  ASSERT_EQ(y, (Shape{4, 60, 60, 20}));
  Tensor x = randomIntegers(DType::F32, stem.x, generator);
  Tensor g = randomIntegers(DType::F32, y, generator);
  Call call = filterGradientCall(stem, x, g);
  Tensor expected = call.reference();
  expectSameElements(call.run(ConvolutionPath::Direct), expected,
                     "stem filter gradient");
  expectSameElements(call.run(), expected, "stem filter gradient, auto");
}

// The few-result-features kernel on the input gradients of stem-like
// convolutions (JAX's form: the output gradient dilated by the stride, the
// result the image's 1-4 features) and on forwards with 1-4 output
// features: strides 1-3, padding (negative too), odd sizes, batch > 1,
// input features a multiple of 8 (read in place) or not (zero-padded
// copies), interiors of several register blocks and a remainder, and
// positions that are all at a border. Auto takes it on all of these
// (more than 4 input features: not the other direct kernel's), Direct
// forces it.
TEST(ConvolutionTest, FewResultFeaturesPathMatchesReference) {
  std::mt19937 generator(13);
  std::vector<Forward> gradients = {
      // ResNet's stem, smaller: 7x7 stride 2 padded 3, 64 output features.
      {{2, 37, 41, 3}, {7, 7, 3, 64}, {2, 2}, {3, 3}, {3, 2}, {1, 1}, 1},
      // The CNN's stem: 3x3 "same", stride 1, 32 output features.
      {{3, 16, 13, 3}, {3, 3, 3, 32}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1},
      // Stride 3, 1 image feature, 13 output features (padded to 16).
      {{2, 17, 20, 1}, {4, 5, 1, 13}, {3, 3}, {2, 1}, {0, 2}, {1, 1}, 1},
      // Strides (2, 3), a dilated kernel, 2 image features, 9 outputs.
      {{1, 19, 23, 2}, {3, 3, 2, 9}, {2, 3}, {1, 2}, {2, 1}, {2, 1}, 1},
      // 4 image features, stride 2, negative padding, 24 outputs.
      {{3, 15, 14, 4}, {5, 5, 4, 24}, {2, 2}, {-1, 2}, {1, -1}, {1, 1}, 1},
      // Windows wider than the image: every position a border one.
      {{2, 4, 5, 3}, {7, 7, 3, 8}, {1, 2}, {3, 3}, {3, 3}, {1, 1}, 1},
  };
  for (const Forward &f : gradients) {
    Shape y = resultShapeOf(f.x, f.w, f.dims());
    Tensor w = randomIntegers(DType::F32, f.w, generator);
    Tensor g = randomIntegers(DType::F32, y, generator);
    Call call = inputGradientCall(f, g, w);
    std::string what = "input gradient of x " + shapeToString(f.x) + " w " +
                       shapeToString(f.w);
    Tensor expected = call.reference();
    expectSameElements(call.run(ConvolutionPath::DirectFewResultFeatures),
                       expected, what);
    expectSameElements(call.run(), expected, what + ", auto");
  }
  std::vector<Forward> forwards = {
      // A 3x3 "same" convolution back to 3 features.
      {{2, 13, 17, 32}, {3, 3, 32, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1},
      // Stride 2, a 1x1 window, 1 output feature, 12 input features.
      {{3, 9, 11, 12}, {1, 1, 12, 1}, {2, 2}, {0, 0}, {0, 1}, {1, 1}, 1},
      // Strides (3, 2), a dilated kernel, 4 output features.
      {{1, 20, 18, 16}, {3, 4, 16, 4}, {3, 2}, {2, 0}, {1, 2}, {1, 2}, 1},
  };
  for (const Forward &f : forwards) {
    Call call{randomIntegers(DType::F32, f.x, generator),
              randomIntegers(DType::F32, f.w, generator), f.dims(),
              resultShapeOf(f.x, f.w, f.dims())};
    std::string what =
        "forward of x " + shapeToString(f.x) + " w " + shapeToString(f.w);
    Tensor expected = call.reference();
    expectSameElements(call.run(ConvolutionPath::DirectFewResultFeatures),
                       expected, what);
    expectSameElements(call.run(), expected, what + ", auto");
  }
}

// The three convolutions of a training step (forward, and both gradients
// in JAX's forms) on random forward problems, every path against the
// reference: the gradients' layouts are the ones the fast paths recognize
// (filter gradients: the transposed im2col reading x and g where they are;
// input gradients of strided convolutions: col2im adding runs of taps).
// Some problems are large enough for several tiles.
TEST(ConvolutionTest, TrainingStepConvolutionsMatchReferenceOnRandomShapes) {
  std::mt19937 generator(29);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(generator);
  };
  for (int trial = 0; trial < 120; ++trial) {
    bool large = trial % 10 == 0;
    Forward f;
    f.featureGroups = pick(0, 2) ? 1 : pick(2, 3);
    int64_t groupFeatures = pick(1, large ? 8 : 3);
    f.x = {pick(1, large ? 4 : 3), pick(1, large ? 40 : 9),
           pick(1, large ? 40 : 9), groupFeatures * f.featureGroups};
    f.w = {pick(1, large ? 7 : 4), pick(1, large ? 7 : 4), groupFeatures,
           pick(1, 4) * f.featureGroups};
    for (int s = 0; s < 2; ++s) {
      f.strides.push_back(pick(1, 3));
      f.low.push_back(pick(-1, 3));
      f.high.push_back(pick(-1, 3));
      f.rhsDilation.push_back(pick(0, 2) ? 1 : 2);
    }
    Shape y = resultShapeOf(f.x, f.w, f.dims());
    if (numElementsOf(y) == 0)
      continue;
    Tensor x = randomIntegers(DType::F32, f.x, generator);
    Tensor w = randomIntegers(DType::F32, f.w, generator);
    Tensor g = randomIntegers(DType::F32, y, generator);
    std::string what = "x " + shapeToString(f.x) + " w " + shapeToString(f.w) +
                       " strides " + std::to_string(f.strides[0]) + "," +
                       std::to_string(f.strides[1]) + " groups " +
                       std::to_string(f.featureGroups);
    Call calls[] = {{x, w, f.dims(), y},
                    inputGradientCall(f, g, w),
                    filterGradientCall(f, x, g)};
    const char *names[] = {" forward", " input gradient", " filter gradient"};
    for (int i = 0; i < 3; ++i) {
      Tensor expected = calls[i].reference();
      for (ConvolutionPath path : kPaths) {
        expectSameElements(calls[i].run(path), expected,
                           what + names[i] + " path " +
                               std::to_string(static_cast<int>(path)));
        if (HasFatalFailure())
          return;
      }
    }
  }
}

} // namespace
