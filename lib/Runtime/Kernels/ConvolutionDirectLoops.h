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
//===----------------------------------------------------------------------===//

#ifndef MPMD_LIB_RUNTIME_KERNELS_CONVOLUTIONDIRECTLOOPS_H
#define MPMD_LIB_RUNTIME_KERNELS_CONVOLUTIONDIRECTLOOPS_H

#include <algorithm>
#include <cstdint>
#include <cstring>
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

/// The loops compiled for AVX2 with FMA (ConvolutionAvx2.cpp, in x86-64
/// builds where MPMD_CONVOLUTION_AVX2 is defined); callers check the CPU.
void directConvolutionAvx2(const DirectConvolution &problem);

namespace {

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

} // namespace
} // namespace mlir::mpmd::runtime::detail

#endif // MPMD_LIB_RUNTIME_KERNELS_CONVOLUTIONDIRECTLOOPS_H
