//===- PipelineFuzzer.cpp - One pass pipeline on fuzzed modules -----------===//
//
// Built once per pipeline. MPMD_FUZZED_PIPELINE names a registered one
// (mpmd-import-pipeline, mpmd-optimize-pipeline,
// mpmd-sharding-propagation-pipeline, mpmd-export-pipeline,
// sdy-propagation-pipeline): the input is a first line with the pipeline's
// options as mpmd-opt takes them ("name-to-mesh-assignment=f@m1
// infer-transfers=true", possibly empty), then a module.
// MPMD_FUZZED_PASS_PIPELINE is instead a textual pass pipeline (the sdy
// partitioner's passes, which have no registered pipeline); its inputs
// keep the first line, ignored, so that one seed format serves both. A
// module that verifies goes through the pipeline as `mpmd compile` runs it
// (the verifier at the end only): a pass may reject the module with a
// diagnostic, but must neither crash nor leave invalid IR behind a
// successful run.
//
//===----------------------------------------------------------------------===//

#include "FuzzedModule.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

#if defined(MPMD_FUZZED_PIPELINE) == defined(MPMD_FUZZED_PASS_PIPELINE)
#error "define one of MPMD_FUZZED_PIPELINE (a registered pipeline) and \
MPMD_FUZZED_PASS_PIPELINE (a textual pass pipeline)"
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
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
#ifdef MPMD_FUZZED_PIPELINE
  const char *name = MPMD_FUZZED_PIPELINE;
  const PassPipelineInfo *pipeline = PassPipelineInfo::lookup(name);
  if (!pipeline) {
    llvm::errs() << name << " is not registered\n";
    std::abort();
  }
  // Bad options are the option parser's errors: not a finding.
  if (failed(pipeline->addToPipeline(
          pm, options, [](const llvm::Twine &) { return failure(); })))
    return 0;
#else
  const char *name = MPMD_FUZZED_PASS_PIPELINE;
  (void)options;
  if (failed(parsePassPipeline(name, pm))) {
    llvm::errs() << "the fuzzed pass pipeline does not parse\n";
    std::abort();
  }
#endif
  pm.enableVerifier(false);
  if (failed(pm.run(module)))
    return 0;
  if (failed(verify(module))) {
    llvm::errs() << name << " succeeded on invalid IR\n";
    std::abort();
  }
  return 0;
}
