//===- ConvolutionAvx2.cpp - The direct convolution for AVX2 + FMA --------===//
//
// Compiled with -mavx2 -mfma: the direct loops with 8-float registers and
// fused multiply-adds, 6 result rows (12 accumulators) per block.
// Convolution.cpp calls this only on CPUs that have both.
//
//===----------------------------------------------------------------------===//

#include "ConvolutionDirectLoops.h"

namespace mlir::mpmd::runtime::detail {

void directConvolutionAvx2(const DirectConvolution &problem) {
  directConvolutionLoops<6>(problem);
}

} // namespace mlir::mpmd::runtime::detail
