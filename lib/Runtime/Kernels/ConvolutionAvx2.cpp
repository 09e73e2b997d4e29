//===- ConvolutionAvx2.cpp - The direct convolution for AVX2 + FMA --------===//
//
// Compiled with -mavx2 -mfma: the direct loops with 8-float registers and
// fused multiply-adds, 6 result rows (12 accumulators) per block, and the
// few-result-features loops with 12 accumulators per block (4 result
// positions of 3 features, say). Convolution.cpp calls these only on CPUs
// that have both.
//
//===----------------------------------------------------------------------===//

#include "ConvolutionDirectLoops.h"

namespace mlir::mpmd::runtime::detail {

void directConvolutionAvx2(const DirectConvolution &problem) {
  directConvolutionLoops<6>(problem);
}

void fewResultFeaturesConvolutionAvx2(
    const FewResultFeaturesConvolution &problem) {
  fewResultFeaturesLoops<12>(problem);
}

} // namespace mlir::mpmd::runtime::detail
