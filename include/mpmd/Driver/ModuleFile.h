//===- ModuleFile.h - A parsed program and its diagnostics ------*- C++ -*-===//
//
// One way to read an input module for every front end: a context with all
// our dialects, and for as long as the module is in use (lowering and
// running it emit diagnostics too) its diagnostics either printed with the
// file's source lines (the `mpmd` subcommands) or collected as records
// (the Python package, which raises them as exceptions).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_MODULEFILE_H
#define MPMD_DRIVER_MODULEFILE_H

#include "mpmd/Driver/DiagnosticRecord.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::driver {

/// What happens to the diagnostics of a module file.
enum class DiagnosticMode {
  /// Printed to stderr with their source lines as they are emitted.
  kPrint,
  /// Kept as DiagnosticRecords until `takeDiagnostics`.
  kCollect,
};

class ModuleFile {
public:
  /// Reads and parses `path` ('-': standard input). On failure returns null
  /// with `openError` saying why the file could not be read, or with
  /// `openError` empty when the parser reported the errors.
  static std::unique_ptr<ModuleFile>
  read(llvm::StringRef path, std::string &openError,
       DiagnosticMode mode = DiagnosticMode::kPrint);

  /// Parses `text`, whose locations name `bufferName`. The file is
  /// returned also when parsing fails (no module then), so that collected
  /// diagnostics can be taken from it.
  static std::unique_ptr<ModuleFile>
  parse(llvm::StringRef text, llvm::StringRef bufferName, DiagnosticMode mode);

  /// Null when parsing failed.
  ModuleOp getModule() const { return module ? *module : ModuleOp(); }
  MLIRContext &getContext() { return context; }

  /// The diagnostics collected since the last call (kCollect), in emission
  /// order; notes follow their diagnostic. Thread-safe: the executor's
  /// devices emit diagnostics concurrently.
  std::vector<DiagnosticRecord> takeDiagnostics();

private:
  explicit ModuleFile(DiagnosticMode mode);
  void collect(Diagnostic &diagnostic);

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::optional<SourceMgrDiagnosticHandler> printer;
  std::optional<ScopedDiagnosticHandler> collector;
  std::mutex collectedMutex;
  std::vector<DiagnosticRecord> collected;
  OwningOpRef<ModuleOp> module;
};

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_MODULEFILE_H
