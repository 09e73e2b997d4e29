//===- StepMeasurement.cpp - A configuration's step, run here -------------===//

#include "mpmd/Driver/StepMeasurement.h"

#include "mpmd/Driver/Compile.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/ProgramIO.h"
#include "mpmd/Runtime/Trace.h"

#include "mlir/IR/Diagnostics.h"

#include <algorithm>
#include <limits>

namespace mlir::mpmd::driver {

namespace {

llvm::Error makeMeasurementError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

llvm::Expected<MeasuredStep> measureStep(ModuleOp model, const Config &config,
                                         int64_t runs, uint64_t seed) {
  if (runs < 1)
    return makeMeasurementError("the measured runs must be at least 1");
  // The lowering's diagnostics are about this configuration, not the
  // caller's program: the first error becomes the message, the rest (and
  // warnings, such as a schedule the data flow reorders) are dropped.
  std::string firstError;
  FailureOr<Lowered> lowered = failure();
  {
    ScopedDiagnosticHandler capture(model.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
        firstError = d.str();
      return success();
    });
    lowered = lower(model, config);
  }
  if (failed(lowered))
    return makeMeasurementError("the configuration does not lower: " +
                                firstError);
  FailureOr<std::unique_ptr<runtime::Executable>> executable =
      lowered->compile();
  if (failed(executable))
    return makeMeasurementError("the lowered program does not load");
  const std::vector<runtime::Tensor> inputs =
      runtime::randomInputs(seed, (*executable)->getInputSpecs());
  MeasuredStep measured;
  measured.fastestStepSeconds = std::numeric_limits<double>::infinity();
  // Run 0 warms up and is not counted.
  for (int64_t run = 0; run <= runs; ++run) {
    llvm::Expected<runtime::RunResult> result =
        (*executable)->run(inputs, runtime::ExecutorOptions());
    if (!result)
      return result.takeError();
    const double stepSeconds = result->stepUs * 1e-6;
    if (run == 0 || stepSeconds >= measured.fastestStepSeconds)
      continue;
    llvm::Expected<runtime::SimulatedRun> replay =
        runtime::replayMeasured((*executable)->getProgram(), *result);
    if (!replay)
      return replay.takeError();
    measured.fastestStepSeconds = stepSeconds;
    measured.replaySeconds = replay->makespan * 1e-6;
    measured.fragmentSeconds = 0;
    const runtime::DeviceProgram &program = (*executable)->getProgram();
    for (const runtime::ExecutedStep &executed : result->executed)
      if (program.steps[executed.step].kind ==
          runtime::DeviceProgram::StepKind::kFragment)
        measured.fragmentSeconds += (executed.endUs - executed.startUs) * 1e-6;
  }
  return measured;
}

} // namespace mlir::mpmd::driver
