//===- OutputFile.h - Files the mpmd subcommands write ----------*- C++ -*-===//
//
// One way to write a whole output file ('-': standard output), kept only
// when everything was written, for every subcommand.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_OUTPUTFILE_H
#define MPMD_TOOLS_MPMD_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir::mpmd::tools {

/// Writes `text` to `path`; the error names the file and the reason.
llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef text);

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_OUTPUTFILE_H
