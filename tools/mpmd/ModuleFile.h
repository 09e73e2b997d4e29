//===- ModuleFile.h - A module the mpmd subcommands read --------*- C++ -*-===//
//
// One way to read an input module for every subcommand: a context with all
// our dialects, and diagnostics printed with the file's source lines for as
// long as the module is in use (lowering and running it emit them too).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_TOOLS_MPMD_MODULEFILE_H
#define MPMD_TOOLS_MPMD_MODULEFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mlir::mpmd::tools {

class ModuleFile {
public:
  /// Reads and parses `path` ('-': standard input). On failure returns null
  /// with `openError` saying why the file could not be read, or with
  /// `openError` empty when the parser reported the errors.
  static std::unique_ptr<ModuleFile> read(llvm::StringRef path,
                                          std::string &openError);

  ModuleOp getModule() const { return *module; }

private:
  ModuleFile();

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> module;
};

} // namespace mlir::mpmd::tools

#endif // MPMD_TOOLS_MPMD_MODULEFILE_H
