//===- ExampleLowering.h - Generated examples lowered for benchmarks -*- C++ -*-===//
//
// What the benchmarks that run or transform `mpmd example` models share:
// parse the generated module and lower it with its own config, as `mpmd
// compile` does, with the config adjusted first where a benchmark needs
// (e.g. a pass turned off to time it alone).
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_BENCH_EXAMPLELOWERING_H
#define MPMD_BENCH_EXAMPLELOWERING_H

#include "mpmd/Driver/Compile.h"
#include "mpmd/Driver/Config.h"
#include "mpmd/Examples/Example.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

namespace mlir::mpmd::bench {

/// `example` parsed in `context` and lowered with its config (changed by
/// `adjust`, when given); an error names the step that failed.
inline llvm::Expected<driver::Lowered>
lowerExample(MLIRContext &context,
             llvm::Expected<examples::ExampleModel> example,
             llvm::function_ref<void(driver::Config &)> adjust = {}) {
  if (!example)
    return example.takeError();
  llvm::Expected<driver::Config> config = driver::parseConfig(example->config);
  if (!config)
    return config.takeError();
  if (adjust)
    adjust(*config);
  auto fail = [](const char *message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(example->module, &context);
  if (!module)
    return fail("cannot parse the generated model");
  FailureOr<driver::Lowered> lowered = driver::lower(*module, *config);
  if (failed(lowered))
    return fail("cannot lower the generated model");
  return std::move(*lowered);
}

} // namespace mlir::mpmd::bench

#endif // MPMD_BENCH_EXAMPLELOWERING_H
