//===- Validate.h - Reference replay of a partitioned run -------*- C++ -*-===//
//
// Proof that partitioning kept the numbers: run the *unpartitioned* program
// (named computations and calls inlined by the interpreter, one device) on
// the inputs a partitioned run got, and compare every output. The measure
// is the normwise relative error max|actual - expected| / max|expected|,
// which elementwise noise near zero cannot blow up; the largest elementwise
// relative error is reported too. NaNs must sit at the same places.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_VALIDATE_H
#define MPMD_DRIVER_VALIDATE_H

#include "mpmd/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace mlir::mpmd::driver {

struct OutputCheck {
  runtime::TensorDifference difference;
  /// max|actual - expected| / max|expected| (0 when both are all zeros).
  double normwiseRelative = 0;
  double tolerance = 0;
  bool passed = false;
  /// For an output that missed its tolerance: how far the unpartitioned
  /// program's own output moves (normwise, as above) when each
  /// floating-point input moves by one unit in the last place; none when
  /// not measured (the output passed, or no input is f32/f64). Above the
  /// tolerance, the inputs make the program too ill-conditioned for any
  /// other summation order to match it, partitioned or not.
  std::optional<double> referenceSensitivity;
};

struct ValidationReport {
  std::vector<OutputCheck> outputs;

  bool passed() const;
  /// One line per output and the verdict.
  void print(llvm::raw_ostream &os) const;
};

/// The default normwise tolerance of a dtype: f64 1e-12, f32 1e-5,
/// f16/bf16 1e-2, integers and booleans 0 (exact).
double getDefaultTolerance(runtime::DType dtype);

/// Runs @main of `original` on `inputs` with the interpreter and compares its
/// results with `outputs` (a partitioned run's), with `tolerance` or by
/// default the larger of the output dtype's tolerance and that of the least
/// precise floating-point type the program computes with (an f32 output of
/// a program with bf16 layers gets bf16's). When an output misses, the
/// reference runs once more on inputs moved by one ulp to measure its
/// sensitivity (OutputCheck::referenceSensitivity). Fails when the reference cannot run (after its
/// diagnostic) or the outputs do not match it in number, dtype or shape.
llvm::Expected<ValidationReport>
validateAgainstReference(ModuleOp original,
                         const std::vector<runtime::Tensor> &inputs,
                         const std::vector<runtime::Tensor> &outputs,
                         std::optional<double> tolerance);

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_VALIDATE_H
