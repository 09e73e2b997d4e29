//===- ModelLayers.h - The layers of an unpartitioned model -----*- C++ -*-===//
//
// What `mpmd profile` (ModelProfile.h) and `mpmd plan` read from a model before
// it is partitioned: its layers are its forward named computations (transpose
// count 0) in program order, and its microbatch count is the number of its
// mpmd.call ops.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_MODELLAYERS_H
#define MPMD_DRIVER_MODELLAYERS_H

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mpmd::driver {

struct ModelLayers {
  std::vector<std::string> names;
  /// The first forward computation of each layer, in `names` order.
  std::vector<NamedComputationOp> forwards;
  /// At least 1.
  int64_t microbatches = 1;
};

/// O(ops).
ModelLayers getModelLayers(ModuleOp module);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_MODELLAYERS_H
