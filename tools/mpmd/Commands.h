//===- Commands.h - The subcommands of the mpmd driver ----------*- C++ -*-===//
//
// Each subcommand takes the arguments after its name and returns the exit
// code: 0 on success, 1 on bad input (after one error line on stderr).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_COMMANDS_H
#define MPMD_TOOLS_MPMD_COMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::mpmd::tools {

/// `mpmd schedule`: simulates a built-in pipeline schedule.
int runScheduleCommand(llvm::ArrayRef<llvm::StringRef> args);

/// `mpmd interpret`: runs a module's test functions with check ops.
int runInterpretCommand(llvm::ArrayRef<llvm::StringRef> args);

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_COMMANDS_H
