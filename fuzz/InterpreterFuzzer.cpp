//===- InterpreterFuzzer.cpp - Running fuzzed StableHLO programs ----------===//
//
// Input: MLIR text, as `mpmd interpret` reads it (StableHLO's interpreter
// tests are the seeds). A module that verifies has every function without
// arguments run by the interpreter: any program must end in a result or a
// diagnostic, never a crash, a sanitizer report or a hang.
//
// Inputs that would only find slowness are skipped, not run: a tensor type
// of more than kMaxElements elements (bounding each op's work to about
// kMaxElements^2), a dynamic dimension (its size is a runtime value), and
// the ops whose work no type bounds: `stablehlo.while` (a loop may not
// end), `func.call` (recursion) and `interpreter.run_parallel` (threads per
// input).
//
//===----------------------------------------------------------------------===//

#include "FuzzedModule.h"

#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Runtime/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>

namespace {

constexpr int64_t kMaxElements = 4096;

/// Whether `type` (possibly nested in a tuple or a function type) is a
/// tensor the interpreter runs in bounded time.
bool isSmallStatic(mlir::Type type) {
  bool small = true;
  type.walk([&](mlir::ShapedType shaped) {
    if (!shaped.hasStaticShape() || shaped.getNumElements() > kMaxElements)
      small = false;
  });
  return small;
}

bool isBoundedProgram(mlir::ModuleOp module) {
  mlir::WalkResult result = module.walk([](mlir::Operation *op) {
    if (mlir::isa<mlir::stablehlo::WhileOp, mlir::func::CallOp,
                  mlir::interpreter::RunParallelOp>(op))
      return mlir::WalkResult::interrupt();
    auto smallTypes = [](mlir::TypeRange types) {
      return llvm::all_of(types, isSmallStatic);
    };
    if (!smallTypes(op->getOperandTypes()) || !smallTypes(op->getResultTypes()))
      return mlir::WalkResult::interrupt();
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        if (!smallTypes(block.getArgumentTypes()))
          return mlir::WalkResult::interrupt();
    return mlir::WalkResult::advance();
  });
  return !result.wasInterrupted();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::mpmd::fuzz::FuzzedModule input(
      llvm::StringRef(reinterpret_cast<const char *>(data), size));
  mlir::ModuleOp module = input.getModule();
  if (!module || !isBoundedProgram(module))
    return 0;
  for (auto function : module.getOps<mlir::func::FuncOp>()) {
    if (function.isExternal() || function.getNumArguments() != 0)
      continue;
    mlir::mpmd::runtime::Interpreter interpreter(module);
    // A failure is a diagnostic (dropped by FuzzedModule), not a finding.
    (void)interpreter.run(function, {});
  }
  return 0;
}
