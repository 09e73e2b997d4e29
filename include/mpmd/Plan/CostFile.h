//===- CostFile.h - The cost table of `mpmd profile` and `mpmd plan` -*- C++
//-*-===//
//
// The JSON that `mpmd profile` writes and `mpmd plan --costs` reads:
//
//   {
//     "microbatches": 4,
//     "link_bandwidth_bytes_per_second": 1e10,   (optional: unlimited)
//     "link_latency_seconds": 1e-5,              (optional: 0)
//     "action_overhead_seconds": 0,              (optional: 0)
//     "compute_factor": 1.1,                     (optional: 1)
//     "computations": [
//       {"name": "layer_0", "transpose_count": 0, "seconds": 1.2e-4,
//        "activation_bytes": 4096, "boundary_bytes": 512,
//        "parameter_bytes": 2048, "accumulate_seconds": 2e-6,
//        "update_seconds": 4e-6},
//       {"name": "layer_0", "transpose_count": 1, "seconds": 2.5e-4,
//        "weight_gradient_seconds": 1.2e-4},
//       ...
//     ]
//   }
//
// One entry per named computation and transpose count, with the costs of
// one microbatch when the step runs `microbatches` of them. The forward
// (transpose count 0) carries the bytes; the backward (1) the time of the
// whole backward, of which `weight_gradient_seconds` (default: half, as
// when the input and weight gradients are equal matrix products) is the
// weight gradient that zero-bubble schedules split off. A forward may also
// carry the work outside the named computations that belongs to its layer:
// `accumulate_seconds` per microbatch (summing its gradients over the
// microbatches, whatever the microbatch size) and `update_seconds` once per
// step (the optimizer update of its weights); both default to 0.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_PLAN_COSTFILE_H
#define MPMD_PLAN_COSTFILE_H

#include "mpmd/Plan/Planner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::plan {

struct ComputationCost {
  std::string name;
  int64_t transposeCount = 0;
  double seconds = 0;
  /// Of a backward's `seconds`; unset: half.
  std::optional<double> weightGradientSeconds;
  double activationBytes = 0;
  double boundaryBytes = 0;
  double parameterBytes = 0;
  /// Forwards only: per microbatch, and once per step.
  double accumulateSeconds = 0;
  double updateSeconds = 0;
};

struct CostFile {
  int64_t microbatches = 1;
  std::optional<double> linkBandwidth;
  double linkLatency = 0;
  double actionOverhead = 0;
  double computeFactor = 1;
  std::vector<ComputationCost> computations;
};

/// Parses the JSON; errors name the JSON path (`costs.computations[2].seconds:
/// ...`).
llvm::Expected<CostFile> parseCostFile(llvm::StringRef jsonText);

/// The JSON text, one computation per line.
std::string writeCostFile(const CostFile &file);

/// The planner's table for the layers `layerNames` (in program order): an
/// error for a computation the list lacks, or a layer without a forward.
llvm::Expected<CostTable> makeCostTable(const CostFile &file,
                                        llvm::ArrayRef<std::string> layerNames);

} // namespace mlir::mpmd::plan

#endif // MPMD_PLAN_COSTFILE_H
