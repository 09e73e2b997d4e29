//===- ConvolutionDirectLoops.h - The direct convolution's loops -*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the register-blocked loops of the direct
// f32 convolution (Convolution.cpp prepares the operands and chooses it).
// Included by Convolution.cpp (the build's baseline ISA) and by
// ConvolutionAvx2.cpp (compiled with -mavx2 -mfma, chosen at run time on
// CPUs that have both); internal linkage, so each includer gets its own
// copy compiled for its ISA.
//
// One problem form covers the two convolutions with few features that
// im2col makes slow (a 3-channel stem's forward and filter gradient):
//
//   out[n, y..., b, o] = sum over i, k..., c of
//                        lhs[n, i, x..., b, c] * kernel[i, k..., c, o],
//   x_d = y_d * stride_d + k_d * dilation_d - low_d (zero outside the lhs)
//
// forward: n = batch, i = b = 1, c = input features (lhs [N, X..., C],
// kernel [K..., C, O]); filter gradient as JAX writes it: n = c = 1, i = the
// lhs features (the images), b = the lhs batch (the channels), lhs
// [I, X..., B], kernel [I, K..., O]. The lhs comes with its innermost
// spatial dimension already padded (Convolution.cpp), so the inner loop
// reads without bounds checks; the outer spatial dimensions skip rows that
// fall into padding.
//
// The result rows (y_last, b) of one (n, y_outer...) are computed kRows at
// a time, each as 16 output features in two 8-float vectors: 2 * kRows
// accumulators stay in registers over the whole reduction, and each
// reduction step loads two kernel vectors and kRows lhs scalars for
// 2 * kRows multiply-adds. The kernel is read where it is (only a last
// chunk of fewer than 16 features comes zero-padded), and the reduction is
// cut into tiles of (i, k_outer...) units whose kernel rows stay in cache
// while every row block of every (n, y_outer) passes over them; the
// result accumulates in `out` from tile to tile.
// Cost: O(N x Y x B x ceil(O/16)*16 x I x K x C) multiply-adds, no copies.
//
// A second form covers convolutions whose *result* has few features (at
// most 4: the input gradient of a 3-channel stem, whose lhs is the output
// gradient with 32 or 64 features, dilated by the forward's stride):
//
//   out[b, y..., o] = sum over k..., i of lhs[b, x..., i] * kernel[k..., o, i],
//   x_d = (y_d * stride_d + k_d * rhs_dilation_d - low_d) / lhs_dilation_d
//         (only where that divides exactly and falls inside the lhs)
//
// with the features i padded to a multiple of 8 (zeros, in both operands).
// Products are formed only for taps that land on lhs elements, never for
// the dilation's holes: along the innermost dimension, result positions y
// of one residue class modulo q = lhs_dilation / gcd(stride,
// lhs_dilation) share the set of landing taps (for a stride-2 gradient:
// the even and the odd columns, 4 and 3 of 7 taps), and consecutive
// positions of a class read lhs positions xStep = q * stride /
// lhs_dilation apart. The kernel is packed per class with only its
// landing taps, so that landing taps reading consecutive lhs positions
// (every run of them when the rhs is undilated) are one run of features
// in both operands. The interior positions of a class, where every
// landing tap falls inside the lhs, go kPixels at a time through one
// register block: kPixels x O accumulators of 8 features each, and per
// reduction step O kernel vectors shared by kPixels lhs vectors
// (kPixels x O multiply-adds), the lane sums at the end in a shuffle tree
// over 8 accumulators at a time. Positions at the borders go one at a
// time with the taps that fall inside. Cost: O(B x Y x O x (landing taps)
// x ceil(I/8)*8) multiply-adds; copies only of the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_KERNELS_CONVOLUTIONDIRECTLOOPS_H
#define MPMD_LIB_RUNTIME_KERNELS_CONVOLUTIONDIRECTLOOPS_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace mlir::mpmd::runtime::detail {

/// Output features per chunk (two 8-float vectors).
constexpr int64_t kDirectChunk = 16;

/// The prepared problem (see the file comment). Spatial vectors have one
/// entry per spatial dimension; only the outer ones' strides, dilations and
/// padding are used here (the innermost is padded into `lhs`).
struct DirectConvolution {
  int64_t n, i, b, c, o;
  std::vector<int64_t> input, window, output, strides, dilations, low;
  /// [N, I, X_outer..., rowLength]: each innermost row padded so that
  /// position u of the row is x = u - low_last, as B * C interleaved
  /// elements per position.
  const float *lhs;
  int64_t rowLength;
  /// [I, K..., C, O], read in place for every whole chunk of 16 output
  /// features; the last chunk, when O is not a multiple of 16, from
  /// `tailKernel` [I x K... x C][16] (zero-padded features).
  const float *kernel;
  const float *tailKernel;
  /// [N, Y..., B, O].
  float *out;
};

/// Features per vector of the few-result-features form: its operands'
/// features come padded to a multiple of this.
constexpr int64_t kFewResultLanes = 8;
/// The most result features that form computes.
constexpr int64_t kFewResultMaxFeatures = 4;

/// The prepared few-result-features problem (see the file comment).
/// Spatial vectors have one entry per spatial dimension, all sizes > 0.
struct FewResultFeaturesConvolution {
  int64_t batch;
  /// I, a multiple of kFewResultLanes (zero-padded in both operands).
  int64_t features;
  /// O, 1..kFewResultMaxFeatures.
  int64_t outFeatures;
  std::vector<int64_t> input, window, output, strides, lhsDilation, rhsDilation,
      low;
  /// [B, X..., I].
  const float *lhs;
  /// [K..., O, I].
  const float *kernel;
  /// [B, Y..., O].
  float *out;
};

/// The loops compiled for AVX2 with FMA (ConvolutionAvx2.cpp, in x86-64
/// builds where MPMD_CONVOLUTION_AVX2 is defined); callers check the CPU.
void directConvolutionAvx2(const DirectConvolution &problem);
void fewResultFeaturesConvolutionAvx2(
    const FewResultFeaturesConvolution &problem);

namespace {

/// The lhs position that `padded` (a coordinate in the padded, dilated
/// lhs) reads, or -1 for padding and dilation holes. No division for the
/// undilated lhs: im2col calls this once per run of a few elements.
inline int64_t lhsPosition(int64_t padded, int64_t dilation, int64_t size) {
  if (padded < 0)
    return -1;
  if (dilation != 1) {
    if (padded % dilation != 0)
      return -1;
    padded /= dilation;
  }
  return padded < size ? padded : -1;
}

using DirectVector = float __attribute__((vector_size(32)));

/// Unaligned vector load and store (memcpy compiles to one instruction).
inline DirectVector loadVector(const float *from) {
  DirectVector v;
  std::memcpy(&v, from, sizeof(v));
  return v;
}
inline void storeVector(float *to, DirectVector v) {
  std::memcpy(to, &v, sizeof(v));
}

/// One reduction unit (i, k_outer...) of one (n, y_outer...): where its
/// lhs row starts, and its first kernel row (i, k_outer..., 0, 0).
struct DirectUnit {
  const float *row;
  int64_t kernelRow;
};

/// Rows [r0, r0 + Rows) of one (n, y_outer...), output features
/// [16 chunk, 16 chunk + 16) whose kernel rows start at `kernel` every
/// `kernelStride` elements: accumulate every unit into registers, then
/// write (or add, after the first tile) to `out`, row r at out + r * O.
template <int Rows>
void directRowBlock(const DirectConvolution &p, const DirectUnit *units,
                    int64_t numUnits, int64_t r0, int64_t chunk,
                    const float *kernel, int64_t kernelStride, float *out,
                    bool firstTile) {
  int64_t lastWindow = p.window.back();
  int64_t unitWidth = p.b * p.c; // elements per padded row position
  int64_t tapStep = p.dilations.back() * unitWidth;
  int64_t stride = p.strides.back();
  int64_t offsets[Rows];
  for (int q = 0; q < Rows; ++q) {
    int64_t r = r0 + q;
    offsets[q] = r / p.b * stride * unitWidth + r % p.b * p.c;
  }
  DirectVector acc[Rows][2] = {};
  for (int64_t u = 0; u < numUnits; ++u) {
    const float *row = units[u].row;
    const float *w = kernel + units[u].kernelRow * kernelStride;
    for (int64_t k = 0; k < lastWindow; ++k, row += tapStep)
      for (int64_t ci = 0; ci < p.c; ++ci, w += kernelStride) {
        DirectVector w0 = loadVector(w), w1 = loadVector(w + 8);
        for (int q = 0; q < Rows; ++q) {
          float x = row[offsets[q] + ci];
          acc[q][0] += w0 * x;
          acc[q][1] += w1 * x;
        }
      }
  }
  int64_t first = chunk * kDirectChunk;
  int64_t lanes = std::min<int64_t>(kDirectChunk, p.o - first);
  for (int q = 0; q < Rows; ++q) {
    float *to = out + (r0 + q) * p.o + first;
    if (lanes == kDirectChunk) {
      if (!firstTile) {
        acc[q][0] += loadVector(to);
        acc[q][1] += loadVector(to + 8);
      }
      storeVector(to, acc[q][0]);
      storeVector(to + 8, acc[q][1]);
      continue;
    }
    float lane[kDirectChunk];
    storeVector(lane, acc[q][0]);
    storeVector(lane + 8, acc[q][1]);
    for (int64_t l = 0; l < lanes; ++l)
      to[l] = firstTile ? lane[l] : to[l] + lane[l];
  }
}

/// directRowBlock for `rows` (1..MaxRows) rows: the last block of a row.
template <int MaxRows>
void directRowBlockOf(int64_t rows, const DirectConvolution &p,
                      const DirectUnit *units, int64_t numUnits, int64_t r0,
                      int64_t chunk, const float *kernel, int64_t kernelStride,
                      float *out, bool firstTile) {
  if constexpr (MaxRows >= 1) {
    if (rows == MaxRows)
      return directRowBlock<MaxRows>(p, units, numUnits, r0, chunk, kernel,
                                     kernelStride, out, firstTile);
    directRowBlockOf<MaxRows - 1>(rows, p, units, numUnits, r0, chunk, kernel,
                                  kernelStride, out, firstTile);
  }
}

/// The whole problem, kRows result rows per register block.
template <int kRows>
void directConvolutionLoops(const DirectConvolution &p) {
  int64_t s = static_cast<int64_t>(p.window.size());
  int64_t outerTaps = 1, outerOutputs = 1;
  for (int64_t d = 0; d + 1 < s; ++d) {
    outerTaps *= p.window[d];
    outerOutputs *= p.output[d];
  }
  int64_t rows = p.output.back() * p.b; // (y_last, b) per (n, y_outer)
  int64_t units = p.i * outerTaps;
  int64_t unitRows = p.window.back() * p.c; // kernel rows per unit
  // Units per tile: their kernel rows (all output features) within 64 KiB,
  // read from L1/L2 by every row block of every (n, y_outer).
  int64_t tileUnits = std::clamp<int64_t>(
      (int64_t(16) << 10) / std::max<int64_t>(unitRows * p.o, 1), 1, units);
  int64_t wholeChunks = p.o / kDirectChunk;
  int64_t chunks = (p.o + kDirectChunk - 1) / kDirectChunk;
  std::vector<DirectUnit> valid(tileUnits);
  std::vector<int64_t> y(s > 1 ? s - 1 : 0), k(y.size());
  for (int64_t u0 = 0; u0 < units; u0 += tileUnits) {
    int64_t u1 = std::min(units, u0 + tileUnits);
    bool firstTile = u0 == 0;
    for (int64_t n = 0; n < p.n; ++n) {
      std::fill(y.begin(), y.end(), 0);
      for (int64_t yo = 0; yo < outerOutputs; ++yo) {
        // The tile's units whose outer positions fall inside the lhs.
        int64_t numValid = 0;
        for (int64_t u = u0; u < u1; ++u) {
          int64_t i = u / outerTaps, rest = u % outerTaps;
          for (int64_t d = s - 2; d >= 0; --d) {
            k[d] = rest % p.window[d];
            rest /= p.window[d];
          }
          int64_t row = n * p.i + i;
          bool inside = true;
          for (int64_t d = 0; d + 1 < s && inside; ++d) {
            int64_t x = y[d] * p.strides[d] + k[d] * p.dilations[d] - p.low[d];
            inside = x >= 0 && x < p.input[d];
            row = row * p.input[d] + x;
          }
          if (inside)
            valid[numValid++] = {p.lhs + row * p.rowLength, u * unitRows};
        }
        float *out = p.out + (n * outerOutputs + yo) * rows * p.o;
        for (int64_t chunk = 0; chunk < chunks; ++chunk) {
          bool whole = chunk < wholeChunks;
          const float *kernel =
              whole ? p.kernel + chunk * kDirectChunk : p.tailKernel;
          int64_t kernelStride = whole ? p.o : kDirectChunk;
          for (int64_t r0 = 0; r0 < rows; r0 += kRows)
            directRowBlockOf<kRows>(std::min<int64_t>(kRows, rows - r0), p,
                                    valid.data(), numValid, r0, chunk, kernel,
                                    kernelStride, out, firstTile);
        }
        for (int64_t d = s - 2; d >= 0; --d) { // next y_outer
          if (++y[d] < p.output[d])
            break;
          y[d] = 0;
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Few result features
//===----------------------------------------------------------------------===//

/// A run of a result position's reduction: `length` lhs elements from
/// `lhs` on (one or more landing taps whose lhs positions are
/// consecutive), against as many kernel elements from `kernel` on in each
/// of the O rows of the packed kernel.
struct FewResultUnit {
  int64_t lhs, kernel, length;
};

/// Lane sums of 8 vectors, the i-th of v[i] in lane i: the halves of
/// pairs added, then the quarters, then neighbouring lanes (21 operations
/// instead of 6 per vector summed alone); the pairs are chosen so that the
/// sums come out in order.
inline DirectVector sumLanesOf8(const DirectVector *v) {
  auto halves = [](DirectVector a, DirectVector b) {
    return __builtin_shufflevector(a, b, 0, 1, 2, 3, 8, 9, 10, 11) +
           __builtin_shufflevector(a, b, 4, 5, 6, 7, 12, 13, 14, 15);
  };
  auto quarters = [](DirectVector a, DirectVector b) {
    return __builtin_shufflevector(a, b, 0, 1, 8, 9, 4, 5, 12, 13) +
           __builtin_shufflevector(a, b, 2, 3, 10, 11, 6, 7, 14, 15);
  };
  auto neighbours = [](DirectVector a, DirectVector b) {
    return __builtin_shufflevector(a, b, 0, 8, 2, 10, 4, 12, 6, 14) +
           __builtin_shufflevector(a, b, 1, 9, 3, 11, 5, 13, 7, 15);
  };
  return neighbours(quarters(halves(v[0], v[4]), halves(v[2], v[6])),
                    quarters(halves(v[1], v[5]), halves(v[3], v[7])));
}

/// Pixels result positions, the p-th reading the lhs at lhs + p *
/// pixelStep (plus each unit's offset) and written at out + p * outStep:
/// every unit's products accumulated in registers, then summed over lanes.
/// The kernel's O rows are `kernelRowStride` elements apart.
template <int Pixels, int Outputs>
void fewResultBlock(const float *lhs, int64_t pixelStep,
                    const FewResultUnit *units, int64_t numUnits,
                    const float *kernel, int64_t kernelRowStride, float *out,
                    int64_t outStep) {
  DirectVector acc[Pixels][Outputs] = {};
  for (int64_t u = 0; u < numUnits; ++u) {
    const float *x = lhs + units[u].lhs;
    const float *w = kernel + units[u].kernel;
    for (int64_t f = 0; f < units[u].length; f += kFewResultLanes) {
      DirectVector weights[Outputs];
      for (int o = 0; o < Outputs; ++o)
        weights[o] = loadVector(w + o * kernelRowStride + f);
      for (int q = 0; q < Pixels; ++q) {
        DirectVector value = loadVector(x + q * pixelStep + f);
        for (int o = 0; o < Outputs; ++o)
          acc[q][o] += value * weights[o];
      }
    }
  }
  // The accumulators in groups of 8 (the last padded with zeros).
  constexpr int kCount = Pixels * Outputs, kGroups = (kCount + 7) / 8;
  DirectVector all[kGroups * 8] = {};
  for (int q = 0; q < Pixels; ++q)
    for (int o = 0; o < Outputs; ++o)
      all[q * Outputs + o] = acc[q][o];
  float sums[kGroups * 8];
  for (int g = 0; g < kGroups; ++g)
    storeVector(sums + 8 * g, sumLanesOf8(all + 8 * g));
  for (int q = 0; q < Pixels; ++q)
    for (int o = 0; o < Outputs; ++o)
      out[q * outStep + o] = sums[q * Outputs + o];
}

/// fewResultBlock for `pixels` (1..MaxPixels) positions: the last block of
/// a class's interior.
template <int MaxPixels, int Outputs>
void fewResultBlockOf(int64_t pixels, const float *lhs, int64_t pixelStep,
                      const FewResultUnit *units, int64_t numUnits,
                      const float *kernel, int64_t kernelRowStride, float *out,
                      int64_t outStep) {
  if constexpr (MaxPixels >= 1) {
    if (pixels == MaxPixels)
      return fewResultBlock<MaxPixels, Outputs>(lhs, pixelStep, units, numUnits,
                                                kernel, kernelRowStride, out,
                                                outStep);
    fewResultBlockOf<MaxPixels - 1, Outputs>(pixels, lhs, pixelStep, units,
                                             numUnits, kernel, kernelRowStride,
                                             out, outStep);
  }
}

/// The whole few-result-features problem with Outputs result features, in
/// blocks of about kAccumulators / Outputs result positions.
template <int kAccumulators, int Outputs>
void fewResultFeaturesLoopsOf(const FewResultFeaturesConvolution &p) {
  constexpr int kPixels = std::max(1, kAccumulators / Outputs);
  int64_t s = static_cast<int64_t>(p.window.size()), d = s - 1;
  int64_t features = p.features;
  // Element strides of x... in one image [X..., I]; the outer dimensions'
  // result positions and taps.
  std::vector<int64_t> inputStrides(s);
  for (int64_t e = s - 1; e >= 0; --e)
    inputStrides[e] =
        e == s - 1 ? features : inputStrides[e + 1] * p.input[e + 1];
  int64_t imageStride = inputStrides[0] * p.input[0];
  int64_t outerOutputs = 1, outerTaps = 1;
  for (int64_t e = 0; e < d; ++e) {
    outerOutputs *= p.output[e];
    outerTaps *= p.window[e];
  }

  // The innermost dimension: result positions y = r + j * q of class r
  // read, through tap k, x = x0 + j * xStep (x0 that of j = 0) when
  // (r * stride + k * rhs_dilation - low) divides by the lhs dilation.
  // Each tap lands for one class at most, so the classes' kernels, packed
  // as [K_outer..., O, landing taps, I] each (a landing tap's features
  // next to the next one's: taps reading consecutive lhs positions, as
  // with rhs dilation 1, make one run), hold the kernel once at most.
  int64_t lastInput = p.input[d], lastOutput = p.output[d],
          lastWindow = p.window[d];
  int64_t stride = p.strides[d], lhsDilation = p.lhsDilation[d];
  int64_t q = lhsDilation / std::gcd(stride, lhsDilation);
  int64_t xStep = q * stride / lhsDilation;
  struct Class {
    std::vector<int64_t> x0; // of each landing tap, in tap order
    int64_t kernel;          // where its packed kernel starts
    int64_t positions;       // result positions in the class
    int64_t begin, end;      // its interior [begin, end) of j
  };
  std::vector<Class> classes(std::min(q, lastOutput));
  std::vector<float> packed;
  for (int64_t r = 0; r < static_cast<int64_t>(classes.size()); ++r) {
    Class &cls = classes[r];
    cls.positions = (lastOutput - r + q - 1) / q;
    cls.begin = 0;
    cls.end = cls.positions;
    std::vector<int64_t> taps;
    for (int64_t k = 0; k < lastWindow; ++k) {
      int64_t padded = r * stride + k * p.rhsDilation[d] - p.low[d];
      if (((padded % lhsDilation) + lhsDilation) % lhsDilation != 0)
        continue;
      int64_t x0 = padded / lhsDilation; // exact, negative too
      taps.push_back(k);
      cls.x0.push_back(x0);
      // 0 <= x0 + j * xStep < lastInput.
      if (x0 < 0)
        cls.begin = std::max(cls.begin, (-x0 + xStep - 1) / xStep);
      cls.end = std::min(cls.end, lastInput - 1 - x0 < 0
                                      ? int64_t(0)
                                      : (lastInput - 1 - x0) / xStep + 1);
    }
    cls.begin = std::min(cls.begin, cls.positions);
    cls.end = std::clamp(cls.end, cls.begin, cls.positions);
    cls.kernel = static_cast<int64_t>(packed.size());
    for (int64_t t = 0; t < outerTaps; ++t)
      for (int64_t o = 0; o < Outputs; ++o)
        for (int64_t k : taps) {
          const float *from =
              p.kernel + ((t * lastWindow + k) * Outputs + o) * features;
          packed.insert(packed.end(), from, from + features);
        }
  }

  // Outer taps that land on the lhs: lhs offset, and tap index t.
  std::vector<std::pair<int64_t, int64_t>> outerTapsIn;
  std::vector<FewResultUnit> units;
  // The units of class `cls` for the result position j (offsets from the
  // image) or, when `interior`, for j = 0 (offsets from the block's first
  // position, every tap inside).
  auto collectUnits = [&](const Class &cls, int64_t j, bool interior) {
    units.clear();
    int64_t landing = static_cast<int64_t>(cls.x0.size());
    for (auto [offset, t] : outerTapsIn) {
      int64_t lastX = -2, lastTap = -2;
      for (int64_t i = 0; i < landing; ++i) {
        int64_t x = cls.x0[i] + (interior ? 0 : j * xStep);
        if (!interior && (x < 0 || x >= lastInput))
          continue;
        if (x == lastX + 1 && i == lastTap + 1)
          units.back().length += features;
        else
          units.push_back({offset + x * features,
                           cls.kernel + (t * Outputs * landing + i) * features,
                           features});
        lastX = x;
        lastTap = i;
      }
    }
  };
  std::vector<int64_t> y(d), k(d);
  for (int64_t b = 0; b < p.batch; ++b) {
    const float *image = p.lhs + b * imageStride;
    std::fill(y.begin(), y.end(), 0);
    for (int64_t yo = 0; yo < outerOutputs; ++yo) {
      // The outer taps that land on the lhs for this row of results.
      outerTapsIn.clear();
      std::fill(k.begin(), k.end(), 0);
      for (int64_t t = 0; t < outerTaps; ++t) {
        int64_t offset = 0;
        for (int64_t e = 0; e < d && offset >= 0; ++e) {
          int64_t x = lhsPosition(y[e] * p.strides[e] +
                                      k[e] * p.rhsDilation[e] - p.low[e],
                                  p.lhsDilation[e], p.input[e]);
          offset = x < 0 ? -1 : offset + x * inputStrides[e];
        }
        if (offset >= 0)
          outerTapsIn.push_back({offset, t});
        for (int64_t e = d - 1; e >= 0; --e) { // next outer tap
          if (++k[e] < p.window[e])
            break;
          k[e] = 0;
        }
      }
      float *outRow = p.out + (b * outerOutputs + yo) * lastOutput * Outputs;
      for (int64_t r = 0; r < static_cast<int64_t>(classes.size()); ++r) {
        const Class &cls = classes[r];
        const float *kernel = packed.data();
        int64_t kernelRowStride =
            static_cast<int64_t>(cls.x0.size()) * features;
        // A border position alone, with the taps that fall inside.
        auto border = [&](int64_t j) {
          collectUnits(cls, j, false);
          fewResultBlock<1, Outputs>(image, 0, units.data(), units.size(),
                                     kernel, kernelRowStride,
                                     outRow + (r + j * q) * Outputs, 0);
        };
        for (int64_t j = 0; j < cls.begin; ++j)
          border(j);
        collectUnits(cls, 0, true);
        for (int64_t j = cls.begin; j < cls.end; j += kPixels)
          fewResultBlockOf<kPixels, Outputs>(
              std::min<int64_t>(kPixels, cls.end - j),
              image + j * xStep * features, xStep * features, units.data(),
              units.size(), kernel, kernelRowStride,
              outRow + (r + j * q) * Outputs, q * Outputs);
        for (int64_t j = cls.end; j < cls.positions; ++j)
          border(j);
      }
      for (int64_t e = d - 1; e >= 0; --e) { // next outer result position
        if (++y[e] < p.output[e])
          break;
        y[e] = 0;
      }
    }
  }
}

/// The few-result-features problem, kAccumulators vector accumulators per
/// register block.
template <int kAccumulators>
void fewResultFeaturesLoops(const FewResultFeaturesConvolution &p) {
  switch (p.outFeatures) {
  case 1:
    return fewResultFeaturesLoopsOf<kAccumulators, 1>(p);
  case 2:
    return fewResultFeaturesLoopsOf<kAccumulators, 2>(p);
  case 3:
    return fewResultFeaturesLoopsOf<kAccumulators, 3>(p);
  default:
    return fewResultFeaturesLoopsOf<kAccumulators, 4>(p);
  }
}

} // namespace
} // namespace mlir::mpmd::runtime::detail

#endif // MPMD_LIB_RUNTIME_KERNELS_CONVOLUTIONDIRECTLOOPS_H
