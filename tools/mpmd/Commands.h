//===- Commands.h - The subcommands of the mpmd driver ----------*- C++ -*-===//
//
// Each subcommand takes the arguments after its name and returns the exit
// code: 0 on success, non-zero on bad input (after the errors on stderr).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_COMMANDS_H
#define MPMD_TOOLS_MPMD_COMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::mpmd::tools {

/// `mpmd compile`: lowers a program with a JSON configuration (exit code 2
/// for configuration errors).
int runCompileCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd schedule`: simulates a built-in pipeline schedule.
int runScheduleCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd interpret`: runs a module's test functions with check ops.
int runInterpretCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd example`: writes an example model and its configuration.
int runExampleCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd profile`: times the named computations of an unpartitioned model
/// and writes the cost file of `mpmd plan`.
int runProfileCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd plan`: searches the pipeline plan of a model from its costs and
/// writes the best as a compile configuration.
int runPlanCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd run`: runs a function with inputs from .npy files or a seed and
/// writes its outputs as .npy files.
int runRunCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd gather`: assembles an output from the shards of an MPI run.
int runGatherCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd trace-merge`: joins the per-rank traces of an MPI run.
int runTraceMergeCommand(llvm::ArrayRef<llvm::StringRef> args);

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_COMMANDS_H
