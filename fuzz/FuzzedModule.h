//===- FuzzedModule.h - Parsing fuzzer input as a module --------*- C++ -*-===//
//
// What the IR and pipeline fuzzers share: a fresh context per input (so
// that nothing one input uniqued or loaded changes how the next one runs),
// single-threaded (a thread pool per input would dominate the time), every
// dialect of mpmd registered, and diagnostics dropped (a rejected input is
// the expected outcome, not a finding).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_FUZZ_FUZZEDMODULE_H
#define MPMD_FUZZ_FUZZEDMODULE_H

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

namespace mlir::mpmd::fuzz {

class FuzzedModule {
public:
  /// Parses and verifies `text`; getModule() is null when either fails.
  explicit FuzzedModule(llvm::StringRef text)
      : context(getRegistry(), MLIRContext::Threading::DISABLED),
        dropDiagnostics(&context, [](Diagnostic &) { return success(); }) {
    // A copy: MLIR's lexer takes a source at a null address (an empty
    // StringRef's) for its code-completion point, and files never are.
    module = parseSourceString<ModuleOp>(text.str(), &context);
    if (module && failed(verify(*module)))
      module = nullptr;
  }

  ModuleOp getModule() const { return module ? *module : ModuleOp(); }

private:
  static const DialectRegistry &getRegistry() {
    static const DialectRegistry registry = [] {
      DialectRegistry all;
      registerAllDialects(all);
      return all;
    }();
    return registry;
  }

  MLIRContext context;
  ScopedDiagnosticHandler dropDiagnostics;
  OwningOpRef<ModuleOp> module;
};

} // namespace mlir::mpmd::fuzz

#endif // MPMD_FUZZ_FUZZEDMODULE_H
