//===- Statistics.h - Summaries of repeated measurements --------*- C++ -*-===//
//
// Timings on a shared or virtual machine move from one run to the next; the
// median of several runs is what `mpmd run --summary` and `mpmd plan
// --measure` report next to the fastest. Plain C++ (no MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_SUPPORT_STATISTICS_H
#define MPMD_SUPPORT_STATISTICS_H

#include <algorithm>
#include <vector>

namespace mlir::mpmd {

/// The median of `values` (the mean of the middle two for an even count);
/// 0 for none. O(n log n).
inline double getMedian(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : (values[middle - 1] + values[middle]) / 2;
}

} // namespace mlir::mpmd

#endif // MPMD_SUPPORT_STATISTICS_H
