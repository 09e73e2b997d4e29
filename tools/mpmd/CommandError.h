//===- CommandError.h - Exit codes of the subcommands ----------*- C++ -*-===//
//
// One exit-code convention for every `mpmd` subcommand (docs/reliability.md)
// and one way to report an error: "mpmd <command>: error: <message>" on
// stderr, then the exit code the error carries.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_COMMANDERROR_H
#define MPMD_TOOLS_MPMD_COMMANDERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::mpmd::tools {

enum ExitCode : int {
  kExitSuccess = 0,
  /// The program or an input is wrong or cannot be run (MLIR diagnostics,
  /// unreadable files, a failed check or run).
  kExitInputError = 1,
  /// The command line or the configuration is wrong; nothing was run.
  kExitUsageError = 2,
  /// `mpmd run --validate`: the outputs differ from the reference's.
  kExitValidationMismatch = 3,
  /// A bug in mpmd (an uncaught exception); sysexits' EX_SOFTWARE.
  kExitInternalError = 70,
};

/// An error that ends a subcommand with its exit code.
class CommandError : public llvm::ErrorInfo<CommandError> {
public:
  static char ID;
  CommandError(std::string message, ExitCode exitCode)
      : message(std::move(message)), exitCode(exitCode) {}

  ExitCode getExitCode() const { return exitCode; }
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string message;
  ExitCode exitCode;
};

/// A wrong command line, option value or configuration: exit code 2.
llvm::Error makeUsageError(const llvm::Twine &message);
/// A wrong program or input: exit code 1.
llvm::Error makeInputError(const llvm::Twine &message);

/// Prints "mpmd <command>: error: <message>" and returns the exit code of
/// `error` (kExitInputError for errors that carry none).
int reportError(llvm::StringRef command, llvm::Error error);

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_COMMANDERROR_H
