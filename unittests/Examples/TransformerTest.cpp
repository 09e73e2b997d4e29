//===- TransformerTest.cpp - The generated transformer training step ------===//
//
// The transformer in the suite every example model passes
// (ExampleModelTests.h): its loss must match the plain C++ forward pass
// below (so the causal mask and the softmax mean what the header says), and
// every applied gradient central differences of that loss.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Examples/Transformer.h"
#include "mpmd/Runtime/BitGenerators.h"

#include "ExampleModelTests.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mlir;
using namespace mlir::mpmd;
using namespace mlir::mpmd::examples;
using namespace mlir::mpmd::examples::testing;
using runtime::DType;
using runtime::Tensor;

namespace {

constexpr const char *kWeightNames[] = {"wq", "wk", "wv", "wo", "w1", "w2"};

/// out[n, :] = in[n, :] w for `n` rows; w is [k, m] row-major.
std::vector<double> matmul(const std::vector<double> &in, const double *w,
                           int64_t n, int64_t k, int64_t m) {
  std::vector<double> out(n * m, 0.0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t l = 0; l < k; ++l)
        out[r * m + j] += in[r * k + l] * w[l * m + j];
  return out;
}

/// (x - mean) / sqrt(var + 1e-5) of each of the `n` rows of `width`.
std::vector<double> norm(const std::vector<double> &x, int64_t n,
                         int64_t width) {
  std::vector<double> out(x.size());
  for (int64_t r = 0; r < n; ++r) {
    double mean = 0, var = 0;
    for (int64_t j = 0; j < width; ++j)
      mean += x[r * width + j] / width;
    for (int64_t j = 0; j < width; ++j)
      var += (x[r * width + j] - mean) * (x[r * width + j] - mean) / width;
    for (int64_t j = 0; j < width; ++j)
      out[r * width + j] = (x[r * width + j] - mean) / std::sqrt(var + 1e-5);
  }
  return out;
}

/// The MLP's hidden width in `layer`.
int64_t ffnOf(const TransformerOptions &options, int64_t layer) {
  return options.ffnPerLayer.empty() ? options.ffn
                                     : options.ffnPerLayer[layer];
}

/// The dropout keep mask of `layer` for `sequence` (S*D elements): draw 0
/// (attention) or 1 (MLP) from the microbatch's key, as the header says,
/// in f64 (64-bit bits, uniform (bits >> 12 | bits of 1.0) - 1).
std::vector<bool> keepMask(const TransformerOptions &options,
                           const std::vector<Tensor> &args, int64_t layer,
                           int64_t sequence, int draw) {
  const int64_t rows = options.batch / options.microbatches;
  const int64_t s = options.sequence, d = options.dim;
  const uint32_t *key =
      args[2 + options.layers * kTransformerWeightsPerLayer + layer]
          .data<uint32_t>() +
      4 * (sequence / rows);
  // The u32[4] key as the u64[2] state: element j's low half first.
  std::vector<uint64_t> state = {key[0] | uint64_t{key[1]} << 32,
                                 key[2] | uint64_t{key[3]} << 32};
  runtime::RandomBits bits = runtime::generateRandomBits(
      runtime::BitGenerator::Philox, state, DType::UI64, {rows, s, d});
  if (draw == 1)
    bits = runtime::generateRandomBits(runtime::BitGenerator::Philox,
                                       bits.state, DType::UI64, {rows, s, d});
  const uint64_t *words =
      bits.output.data<uint64_t>() + (sequence % rows) * s * d;
  std::vector<bool> keep(s * d);
  for (int64_t i = 0; i < s * d; ++i) {
    const uint64_t oneToTwo = words[i] >> 12 | 0x3FF0000000000000ull;
    double uniform;
    std::memcpy(&uniform, &oneToTwo, sizeof(uniform));
    keep[i] = uniform - 1.0 < 1.0 - options.dropout;
  }
  return keep;
}

/// x with the elements `keep` drops zeroed and the others divided by 1 - R.
void applyDropout(std::vector<double> &x, const std::vector<bool> &keep,
                  double rate) {
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = keep[i] ? x[i] / (1.0 - rate) : 0.0;
}

/// The loss in plain loops, one sequence at a time, with the header's math:
/// pre-norm causal single-head attention (no max subtraction here), tanh
/// MLP, residuals, 0.5 * sum((h_L - y)^2) / (B * S); with dropout, the
/// keys follow the weights in `args`.
double plainLoopLoss(const TransformerOptions &options,
                     const std::vector<Tensor> &args) {
  const int64_t s = options.sequence, d = options.dim;
  double loss = 0;
  for (int64_t b = 0; b < options.batch; ++b) {
    const double *x = args[0].data<double>() + b * s * d;
    std::vector<double> h(x, x + s * d);
    for (int64_t layer = 0; layer < options.layers; ++layer) {
      const int64_t f = ffnOf(options, layer);
      auto weight = [&](int64_t kind) {
        return args[2 + layer * kTransformerWeightsPerLayer + kind]
            .data<double>();
      };
      const std::vector<double> n1 = norm(h, s, d);
      std::vector<double> q = matmul(n1, weight(0), s, d, d),
                          k = matmul(n1, weight(1), s, d, d),
                          v = matmul(n1, weight(2), s, d, d);
      std::vector<double> c(s * d, 0.0);
      for (int64_t n = 0; n < s; ++n) {
        std::vector<double> e(n + 1);
        double total = 0;
        for (int64_t m = 0; m <= n; ++m) {
          double dot = 0;
          for (int64_t j = 0; j < d; ++j)
            dot += q[n * d + j] * k[m * d + j];
          e[m] = std::exp(dot / std::sqrt(static_cast<double>(d)));
          total += e[m];
        }
        for (int64_t m = 0; m <= n; ++m)
          for (int64_t j = 0; j < d; ++j)
            c[n * d + j] += e[m] / total * v[m * d + j];
      }
      std::vector<double> g = matmul(c, weight(3), s, d, d);
      if (options.dropout > 0)
        applyDropout(g, keepMask(options, args, layer, b, 0), options.dropout);
      for (int64_t i = 0; i < s * d; ++i)
        g[i] += h[i];
      std::vector<double> a = matmul(norm(g, s, d), weight(4), s, d, f);
      for (double &value : a)
        value = std::tanh(value);
      h = matmul(a, weight(5), s, f, d);
      if (options.dropout > 0)
        applyDropout(h, keepMask(options, args, layer, b, 1), options.dropout);
      for (int64_t i = 0; i < s * d; ++i)
        h[i] += g[i];
    }
    const double *y = args[1].data<double>() + b * s * d;
    for (int64_t i = 0; i < s * d; ++i)
      loss += (h[i] - y[i]) * (h[i] - y[i]);
  }
  return 0.5 * loss / (options.batch * options.sequence);
}

struct TransformerModel {
  using Options = TransformerOptions;

  static llvm::Expected<ExampleModel>
  generate(const TransformerOptions &options) {
    return generateTransformer(options);
  }

  /// B=2, S=3, D=4, F=6, L=2 in two microbatches.
  static TransformerOptions smallF64() {
    TransformerOptions options;
    options.layers = 2;
    options.sequence = 3;
    options.dim = 4;
    options.ffn = 6;
    options.batch = 2;
    options.microbatches = 2;
    options.meshes = 2;
    options.elementType = ElementType::kF64;
    options.learningRate = 0.25;
    return options;
  }

  /// One position: the attention of a single token.
  static void shrinkForOneLayer(TransformerOptions &options) {
    options.sequence = 1;
  }

  /// x, y (in (-1, 1)) and the weights (in (-0.6, 0.6)).
  static std::vector<Tensor> randomArguments(const TransformerOptions &options,
                                             DType dtype, uint64_t seed) {
    const int64_t d = options.dim;
    std::mt19937_64 random(seed);
    std::vector<Tensor> args;
    for (int i = 0; i < 2; ++i)
      args.push_back(randomTensor(dtype, {options.batch, options.sequence, d},
                                  1.0, random));
    for (int64_t i = 0; i < options.layers; ++i) {
      const int64_t f = ffnOf(options, i);
      const runtime::Shape shapes[] = {{d, d}, {d, d}, {d, d},
                                       {d, d}, {d, f}, {f, d}};
      for (const runtime::Shape &shape : shapes)
        args.push_back(randomTensor(dtype, shape, 0.6, random));
    }
    return args;
  }

  static double referenceLoss(const TransformerOptions &options,
                              const std::vector<Tensor> &args) {
    return plainLoopLoss(options, args);
  }

  static size_t resultCount(const TransformerOptions &options) {
    return 1 + options.layers * kTransformerWeightsPerLayer;
  }

  static std::string weightName(const TransformerOptions &, size_t weight) {
    return std::string(kWeightNames[weight % kTransformerWeightsPerLayer]) +
           "_" + std::to_string(weight / kTransformerWeightsPerLayer);
  }

  /// As the MLP's (MlpTest.cpp): the bf16 roundings on the longest path,
  /// each at most u to first order. x's conversion, then per layer forward
  /// 33: a weight's conversion, each norm 9 (sum, mean, centre, square,
  /// sum, variance, + eps, rsqrt, scale), q, q k^T, the scale, the shift,
  /// exp, the sum, p, c, c wo, g, z, tanh, a w2 and h' (one each);
  /// backward 41: dh' for the last layer, dw2, da, a^2, 1 - a^2, dz, dw1,
  /// dn2, normback 9, dg, dwo, dc, dv, dp, p dp, its row sum, the
  /// centring, dsoft, ds, dq, dk, dwq, the three dn1 products and their two
  /// sums, normback 9, dh (one each unless counted). Attention's softmax
  /// gradient cancels (dp minus its p-weighted mean), so dwq and dwk of the
  /// upper layer err most (25 u and 12 u of the 149 u allowed here).
  static double bf16RoundingBound(const TransformerOptions &options) {
    return 1 + (33 + 41) * options.layers;
  }
};

INSTANTIATE_TYPED_TEST_SUITE_P(Transformer, ExampleModelTest,
                               TransformerModel);
INSTANTIATE_TYPED_TEST_SUITE_P(Transformer, MixedPrecisionExampleTest,
                               TransformerModel);

using TransformerTest = ExampleModelTest<TransformerModel>;

// Unbalanced layers (one MLP width per layer) compute the same math.
TEST_F(TransformerTest, PerLayerFfnWidthsGiveTheReferenceLoss) {
  TransformerOptions options = TransformerModel::smallF64();
  options.layers = 3;
  options.ffnPerLayer = {6, 2, 9};
  generate(options);
  std::vector<Tensor> args =
      TransformerModel::randomArguments(options, DType::F64, 11);
  std::vector<Tensor> results = runMain(args);
  ASSERT_EQ(results.size(), TransformerModel::resultCount(options));
  EXPECT_NEAR(results[0].data<double>()[0], plainLoopLoss(options, args),
              1e-12);
  // The updated w1 of each layer keeps that layer's [D, F] shape.
  for (int64_t layer = 0; layer < options.layers; ++layer)
    EXPECT_EQ(results[1 + layer * kTransformerWeightsPerLayer + 4].shape(),
              (runtime::Shape{options.dim, options.ffnPerLayer[layer]}));
}

/// Random rbg keys key_i[M,4], one per layer, after `args`.
void appendDropoutKeys(const TransformerOptions &options,
                       std::vector<Tensor> &args, uint64_t seed) {
  std::mt19937_64 random(seed);
  for (int64_t i = 0; i < options.layers; ++i) {
    Tensor key = Tensor::empty(DType::UI32, {options.microbatches, 4});
    for (int64_t j = 0; j < key.numElements(); ++j)
      key.data<uint32_t>()[j] = static_cast<uint32_t>(random());
    args.push_back(std::move(key));
  }
}

// Dropout: the loss of the reference with the masks drawn from the keys,
// and the backward drops what the forward dropped (the masks are fixed by
// the keys, so central differences see the same masks).
TEST_F(TransformerTest, DropoutGivesTheReferenceLossAndFollowsItsGradient) {
  TransformerOptions options = TransformerModel::smallF64();
  options.dropout = 0.5;
  generate(options);
  std::vector<Tensor> args =
      TransformerModel::randomArguments(options, DType::F64, 13);
  appendDropoutKeys(options, args, 17);
  std::vector<Tensor> results = runMain(args);
  ASSERT_EQ(results.size(), TransformerModel::resultCount(options));
  const double loss = results[0].data<double>()[0];
  EXPECT_NEAR(loss, plainLoopLoss(options, args), 1e-12);
  expectUpdateFollowsLossGradient(
      args, results, options.learningRate,
      [&](size_t weight) {
        return TransformerModel::weightName(options, weight);
      },
      /*trailingInputs=*/options.layers);
  // The masks drop about half (96 draws here) and change the loss.
  int64_t kept = 0, drawn = 0;
  for (int64_t layer = 0; layer < options.layers; ++layer)
    for (int64_t b = 0; b < options.batch; ++b)
      for (int draw = 0; draw < 2; ++draw)
        for (bool keep : keepMask(options, args, layer, b, draw)) {
          kept += keep;
          ++drawn;
        }
  EXPECT_GT(kept, drawn / 4);
  EXPECT_LT(kept, 3 * drawn / 4);
  TransformerOptions noDropout = options;
  noDropout.dropout = 0;
  EXPECT_GT(std::abs(loss - plainLoopLoss(noDropout, args)), 1e-3);
  // Other keys, other masks.
  appendDropoutKeys(options, args, 19);
  args.erase(args.end() - 2 * options.layers, args.end() - options.layers);
  EXPECT_NEAR(runMain(args)[0].data<double>()[0], plainLoopLoss(options, args),
              1e-12);
  EXPECT_NE(runMain(args)[0].data<double>()[0], loss);
}

// Mixed precision with dropout: the masks are drawn from f32 uniforms and
// applied to the bf16 activations; the pipelined step is checked by
// mpmd_example_transformer_dropout.test, this one that it runs and keeps
// f32 master types.
TEST_F(TransformerTest, DropoutInBf16KeepsF32MasterTypes) {
  TransformerOptions options = TransformerModel::smallF64();
  options.dropout = 0.25;
  options.elementType = ElementType::kBF16;
  generate(options);
  std::vector<Tensor> args =
      TransformerModel::randomArguments(options, DType::F32, 23);
  appendDropoutKeys(options, args, 29);
  std::vector<Tensor> results = runMain(args);
  ASSERT_EQ(results.size(), TransformerModel::resultCount(options));
  for (const Tensor &result : results)
    EXPECT_EQ(result.dtype(), DType::F32);
  EXPECT_TRUE(std::isfinite(results[0].data<float>()[0]));
}

TEST(TransformerConfigTest, ModelSizesAreChecked) {
  auto errorFor = [](auto change) {
    TransformerOptions options;
    change(options);
    return errorOf(generateTransformer(options));
  };
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.sequence = 0; }),
            "seq must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.dim = -1; }),
            "dim must be at least 1 (got -1)");
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.ffn = 0; }),
            "ffn must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.ffnPerLayer = {8, 8}; }),
            "ffn lists 2 widths for 4 layers (give one width, or one per "
            "layer)");
  EXPECT_EQ(
      errorFor([](TransformerOptions &o) { o.ffnPerLayer = {8, 8, 0, 8}; }),
      "ffn must be at least 1 (got 0)");
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.dropout = 1; }),
            "the dropout rate must be at least 0 and below 1 (got 1)");
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.dropout = -0.5; }),
            "the dropout rate must be at least 0 and below 1 (got -0.5)");
  EXPECT_EQ(errorFor([](TransformerOptions &o) { o.dropout = NAN; }),
            "the dropout rate must be at least 0 and below 1 (got nan)");
}

} // namespace
