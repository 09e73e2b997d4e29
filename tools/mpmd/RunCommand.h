//===- RunCommand.h - What `mpmd run`'s backends share ----------*- C++ -*-===//
//
// The parsed options of `mpmd run` and the steps both backends take (load
// the arguments, print and write the outputs), so that the MPI backend
// (MpiRunCommand.cpp, built with MPMD_ENABLE_MPI) runs the same command.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_RUNCOMMAND_H
#define MPMD_TOOLS_MPMD_RUNCOMMAND_H

#include "Progress.h"

#include "mpmd/Runtime/Executor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::mpmd::tools {

struct RunOptions {
  std::optional<std::string> inputs, outputs, trace;
  std::optional<uint64_t> randomSeed;
  std::optional<double> tolerance;
  int64_t repeat = 1;
  bool print = false, summary = false, validate = false, quiet = false;
  /// "threads" (one process) or "mpi" (one rank per device group).
  std::string backend = "threads";
  int64_t devicesPerRank = 1;
  runtime::ExecutorOptions executor;
  /// From the configuration's "plan" section (`mpmd plan`): the predicted
  /// step in seconds and the planned candidate in words, which --summary
  /// puts next to the measured step.
  std::optional<double> plannedStepSeconds;
  std::string plannedDescription;
};

/// The arguments of `what` (a function), from the input files or the seed.
/// With `isNeeded`, only the arguments it accepts are read (the others are
/// empty tensors): a rank loads only what its devices use.
llvm::Expected<std::vector<runtime::Tensor>>
loadArguments(const llvm::Twine &what,
              llvm::ArrayRef<runtime::TensorSpec> specs,
              const RunOptions &options,
              const std::function<bool(size_t)> &isNeeded = nullptr);

/// One summary line per output.
void printOutputs(llvm::ArrayRef<runtime::Tensor> results, bool print);

/// The test-only fault of MPMD_INJECT_FAULT=RANK:N:KIND: the N-th fragment
/// that rank RANK runs fails with an error (`error`), kills the process
/// (`kill`) or stalls for a minute first (`stall`). Sets `options.executor.faultForTesting` when the
/// variable names `rank`; a malformed value is a usage error.
llvm::Error installInjectedFault(RunOptions &options, int64_t rank);

#ifdef MPMD_ENABLE_MPI
/// `mpmd run --backend mpi`: runs `executable` on this rank's devices and
/// reports on rank 0 (see docs/runtime.md). `agreementHash` is what every
/// rank must share (program and configuration). Returns the exit code.
int runOnMpi(const runtime::Executable &executable, ModuleOp reference,
             RunOptions &options, uint64_t agreementHash, Progress &progress);
#endif

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_RUNCOMMAND_H
