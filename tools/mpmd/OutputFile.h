//===- OutputFile.h - Files the mpmd subcommands write ----------*- C++ -*-===//
//
// One way to write a whole output file ('-': standard output), kept only
// when everything was written, for every subcommand; and one check, before
// any work, that an output path can be written at all.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_OUTPUTFILE_H
#define MPMD_TOOLS_MPMD_OUTPUTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::mpmd::tools {

/// Writes `text` to `path`; the error names the file and the reason.
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef text);

struct OutputText {
  llvm::StringRef path, text;
};
/// Writes every file, and keeps them only when all were written: a failure
/// leaves none of them behind.
llvm::Error writeOutputFiles(llvm::ArrayRef<OutputText> files);

enum class OutputKind { kFile, kDirectory };

/// A usage error (exit code 2) naming `option` when `path` cannot be written
/// as a file ('-' is standard output) or a directory (created on demand):
/// checked before any work, so that a long run does not fail at its end.
/// Creates nothing.
llvm::Error checkOutputPath(llvm::StringRef option, llvm::StringRef path,
                            OutputKind kind);

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_OUTPUTFILE_H
