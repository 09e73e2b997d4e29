//===- PipelineFuzzer.cpp - One pass pipeline on fuzzed modules -----------===//
//
// Built once per pipeline (MPMD_FUZZED_PIPELINE: mpmd-import-pipeline,
// mpmd-optimize-pipeline, mpmd-export-pipeline). Input: a first line with
// the pipeline's options as mpmd-opt takes them
// ("name-to-mesh-assignment=f@m1 infer-transfers=true", possibly empty),
// then a module. A module that verifies goes through the pipeline as
// `mpmd compile` runs it (the verifier at the end only): a pass may reject
// the module with a diagnostic, but must neither crash nor leave invalid IR
// behind a successful run.
//
//===----------------------------------------------------------------------===//

#include "FuzzedModule.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

#ifndef MPMD_FUZZED_PIPELINE
#error "MPMD_FUZZED_PIPELINE names the registered pipeline to fuzz"
#endif

using namespace mlir;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  mpmd::registerAllPasses();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto [options, text] =
      llvm::StringRef(reinterpret_cast<const char *>(data), size).split('\n');
  mpmd::fuzz::FuzzedModule input(text);
  ModuleOp module = input.getModule();
  if (!module)
    return 0;
  const PassPipelineInfo *pipeline =
      PassPipelineInfo::lookup(MPMD_FUZZED_PIPELINE);
  if (!pipeline) {
    llvm::errs() << MPMD_FUZZED_PIPELINE " is not registered\n";
    std::abort();
  }
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  // Bad options are the option parser's errors: not a finding.
  if (failed(pipeline->addToPipeline(
          pm, options, [](const llvm::Twine &) { return failure(); })))
    return 0;
  pm.enableVerifier(false);
  if (failed(pm.run(module)))
    return 0;
  if (failed(verify(module))) {
    llvm::errs() << MPMD_FUZZED_PIPELINE " succeeded on invalid IR\n";
    std::abort();
  }
  return 0;
}
