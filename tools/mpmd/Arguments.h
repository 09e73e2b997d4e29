//===- Arguments.h - Command lines of the mpmd subcommands -----*- C++ -*-===//
//
// One parser for every subcommand: `--name value` and `--name=value` options
// (each at most once), flags, `--help`/`-h`, and at most one positional
// argument (`-` included: standard input).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_ARGUMENTS_H
#define MPMD_TOOLS_MPMD_ARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::mpmd::tools {

struct ValuedOption {
  llvm::StringRef name;
  std::optional<std::string> *value;
};

struct FlagOption {
  llvm::StringRef name;
  bool *value;
};

/// Fills the options, flags and `positional` from `args`; `help` is set by
/// `--help`/`-h`. `positionalName` describes the positional argument in the
/// error about a second one. Errors are usage errors (CommandError.h).
llvm::Error parseArguments(llvm::ArrayRef<llvm::StringRef> args,
                           llvm::ArrayRef<ValuedOption> options,
                           llvm::ArrayRef<FlagOption> flags, bool &help,
                           std::optional<std::string> &positional,
                           llvm::StringRef positionalName);

/// The integer value of `option`, or a usage error quoting `text`.
llvm::Expected<int64_t> parseIntegerOption(llvm::StringRef option,
                                           llvm::StringRef text);

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_ARGUMENTS_H
