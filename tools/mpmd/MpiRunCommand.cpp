//===- MpiRunCommand.cpp - mpmd run --backend mpi -------------------------===//
//
// Every rank compiles the same program, checks that all ranks agree on it,
// loads the inputs its devices use and runs its devices on the executor
// over the MPI transport. Rank 0 then gathers the outputs (to print and
// validate them) and the executed steps (for --summary); every rank writes
// its own output shards and trace. Any error on a rank ends every rank
// (MpiTransport::failJob), naming the rank.
//
//===----------------------------------------------------------------------===//

#include "CommandError.h"
#include "RunCommand.h"

#include "mpmd/Driver/Validate.h"
#include "mpmd/Runtime/Mpi/MpiTransport.h"
#include "mpmd/Runtime/Npy.h"
#include "mpmd/Runtime/Prediction.h"
#include "mpmd/Runtime/Trace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::tools {

namespace {

/// The file of rank `rank` for a per-run file `path`: "trace.json" →
/// "trace.rank1.json".
std::string perRankPath(llvm::StringRef path, int64_t rank) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  return (path.drop_back(extension.size()) + ".rank" + llvm::Twine(rank) +
          extension)
      .str();
}

/// Executed steps as an f64 table (one row each), and back, shifted by
/// `shiftUs` onto rank 0's clock.
constexpr int64_t kExecutedColumns = 8;
runtime::Tensor packExecuted(llvm::ArrayRef<runtime::ExecutedStep> steps) {
  runtime::Tensor table = runtime::Tensor::empty(
      runtime::DType::F64, {int64_t(steps.size()), kExecutedColumns});
  double *row = table.data<double>();
  for (const runtime::ExecutedStep &step : steps) {
    double values[kExecutedColumns] = {double(step.step),
                                       double(step.mesh),
                                       double(step.device),
                                       double(step.sourceMesh),
                                       double(step.sourceDevice),
                                       step.startUs,
                                       step.endUs,
                                       double(step.bytes)};
    std::copy(values, values + kExecutedColumns, row);
    row += kExecutedColumns;
  }
  return table;
}
void unpackExecuted(const runtime::Tensor &table, double shiftUs,
                    std::vector<runtime::ExecutedStep> &steps) {
  const double *row = table.data<double>();
  for (int64_t i = 0; i < table.shape()[0]; ++i, row += kExecutedColumns)
    steps.push_back({int64_t(row[0]), int64_t(row[1]), int64_t(row[2]),
                     int64_t(row[3]), int64_t(row[4]), row[5] + shiftUs,
                     row[6] + shiftUs, int64_t(row[7])});
}
runtime::Tensor packDevices(llvm::ArrayRef<runtime::DeviceUsage> devices) {
  runtime::Tensor table = runtime::Tensor::empty(
      runtime::DType::F64, {int64_t(devices.size()), 4});
  double *row = table.data<double>();
  for (const runtime::DeviceUsage &usage : devices) {
    row[0] = double(usage.mesh);
    row[1] = double(usage.device);
    row[2] = double(usage.peakBytes);
    row[3] = usage.busyUs;
    row += 4;
  }
  return table;
}
void unpackDevices(const runtime::Tensor &table,
                   std::vector<runtime::DeviceUsage> &devices) {
  const double *row = table.data<double>();
  for (int64_t i = 0; i < table.shape()[0]; ++i, row += 4)
    devices.push_back(
        {int64_t(row[0]), int64_t(row[1]), int64_t(row[2]), row[3]});
}

/// The global device index of device 0 of `mesh`.
int64_t firstDeviceOf(const runtime::DeviceProgram &program, int64_t mesh) {
  int64_t base = 0;
  for (int64_t earlier = 0; earlier < mesh; ++earlier)
    base += program.meshes[earlier].numDevices;
  return base;
}

/// Writes this rank's outputs (those of meshes whose device 0 it runs) as
/// DIR/rank<R>/output_<i>.npy; rank 0 also writes DIR/index.json, which
/// says where each output's shards are (meshes run replicated, so each
/// output is one shard: the whole array, at offset 0).
llvm::Error writeOutputShards(const runtime::Executable &executable,
                              runtime::MpiTransport &mpi,
                              llvm::ArrayRef<runtime::Tensor> outputs,
                              llvm::StringRef directory) {
  const runtime::DeviceProgram &program = executable.getProgram();
  int64_t rank = mpi.getRank();
  llvm::json::Array index;
  for (auto [i, output] : llvm::enumerate(program.outputs)) {
    int64_t owner =
        mpi.getProcessOf(firstDeviceOf(program, program.values[output].mesh));
    std::string file = "rank" + std::to_string(owner) + "/output_" +
                       std::to_string(i) + ".npy";
    const runtime::TensorSpec &spec = executable.getOutputSpecs()[i];
    if (owner == rank) {
      llvm::SmallString<256> path(directory);
      llvm::sys::path::append(path, "rank" + std::to_string(rank));
      if (std::error_code error = llvm::sys::fs::create_directories(path))
        return makeInputError("cannot create '" + path + "': " +
                              error.message());
      llvm::sys::path::append(path, "output_" + std::to_string(i) + ".npy");
      if (llvm::Error error = runtime::writeNpy(path, outputs[i]))
        return error;
    }
    llvm::json::Array shape(spec.shape), offset;
    for (size_t d = 0; d < spec.shape.size(); ++d)
      offset.push_back(0);
    index.push_back(llvm::json::Object{
        {"output", int64_t(i)},
        {"dtype", runtime::npyDescr(spec.dtype)},
        {"shape", std::move(shape)},
        {"shards", llvm::json::Array{llvm::json::Object{
                       {"file", file},
                       {"rank", owner},
                       {"offset", std::move(offset)},
                       {"shape", llvm::json::Array(spec.shape)}}}}});
  }
  if (rank != 0)
    return llvm::Error::success();
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "index.json");
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return makeInputError("cannot write '" + path + "': " + error.message());
  os << llvm::formatv(
      "{0:2}\n", llvm::json::Value(llvm::json::Object{
                     {"format", "mpmd-shards-1"},
                     {"ranks", mpi.getNumRanks()},
                     {"outputs", std::move(index)}}));
  return llvm::Error::success();
}

} // namespace

int runOnMpi(const runtime::Executable &executable, ModuleOp reference,
             RunOptions &options, uint64_t agreementHash, Progress &progress) {
  llvm::Expected<std::unique_ptr<runtime::MpiTransport>> created =
      runtime::MpiTransport::create();
  if (!created)
    return reportError("run", makeInputError(llvm::toString(
                                  created.takeError())));
  runtime::MpiTransport &mpi = **created;
  int64_t rank = mpi.getRank();
  // From here on an error on any rank ends every rank.
  auto failRank = [&](llvm::Error error) -> int {
    std::string message;
    int exitCode = kExitInputError;
    llvm::handleAllErrors(std::move(error),
                          [&](const llvm::ErrorInfoBase &info) {
                            if (info.isA<CommandError>())
                              exitCode = static_cast<const CommandError &>(info)
                                             .getExitCode();
                            message = info.message();
                          });
    // One write, so that the lines of several ranks do not interleave.
    llvm::errs() << ("mpmd run: error: rank " + llvm::Twine(rank) + ": " +
                     message + "\n")
                        .str();
    mpi.failJob(message, exitCode);
  };

  // Start-up agreement: every rank runs the same program and config.
  llvm::Expected<std::vector<uint64_t>> hashes =
      mpi.allGatherWords(agreementHash);
  if (!hashes)
    return failRank(hashes.takeError());
  for (auto [other, hash] : llvm::enumerate(*hashes))
    if (hash != hashes->front()) {
      std::string line;
      llvm::raw_string_ostream os(line);
      os << "mpmd run: error: rank " << rank << ": rank " << other
         << " runs a different program or configuration than rank 0 (hash "
         << llvm::format_hex(hash, 18) << " vs "
         << llvm::format_hex(hashes->front(), 18) << ")\n";
      llvm::errs() << line;
      return kExitUsageError;
    }

  const runtime::DeviceProgram &program = executable.getProgram();
  // Every rank finds the same placement error: each ends on its own
  // (no abort needed), rank 0 says why.
  if (llvm::Error error =
          mpi.placeDevices(program.getNumDevices(), options.devicesPerRank)) {
    if (rank == 0)
      return reportError("run", makeUsageError(llvm::toString(std::move(error))));
    llvm::consumeError(std::move(error));
    return kExitUsageError;
  }
  // The collectives of SPMD fragment bodies run on communicators made
  // here, in the same order on every rank.
  if (llvm::Error error =
          mpi.prepareGroups(executable.getCollectiveGroups())) {
    if (rank == 0)
      return reportError("run", makeUsageError(llvm::toString(std::move(error))));
    llvm::consumeError(std::move(error));
    return kExitUsageError;
  }
  if (llvm::Error error = installInjectedFault(options, rank))
    return failRank(std::move(error));
  options.executor.transport = &mpi;
  if (options.executor.onTimeout)
    options.executor.onTimeout = [&](const std::string &message) {
      failRank(makeInputError(message));
    };

  // Each rank reads the inputs of its devices' meshes (rank 0 all of them
  // when it validates: the reference runs on every input).
  auto usedHere = [&](size_t input) {
    int64_t mesh = program.values[program.inputs[input]].mesh;
    int64_t base = firstDeviceOf(program, mesh);
    for (int64_t device = 0; device < program.meshes[mesh].numDevices;
         ++device)
      if (mpi.isLocal(base + device))
        return true;
    return rank == 0 && bool(reference);
  };
  llvm::Expected<std::vector<runtime::Tensor>> arguments = loadArguments(
      "@main", executable.getInputSpecs(), options, usedHere);
  if (!arguments)
    return failRank(arguments.takeError());

  std::optional<runtime::RunResult> result;
  for (int64_t run = 1; run <= options.repeat; ++run) {
    if (llvm::Error error = mpi.barrier())
      return failRank(std::move(error));
    llvm::Expected<runtime::RunResult> ran =
        executable.run(*arguments, options.executor);
    if (!ran)
      return failRank(ran.takeError());
    result = std::move(*ran);
    progress.finished("run " + llvm::Twine(run) + "/" +
                      llvm::Twine(options.repeat));
  }

  // Outputs to rank 0, in output order (tag: the output's index).
  const std::vector<runtime::TensorSpec> &outputSpecs =
      executable.getOutputSpecs();
  for (auto [i, output] : llvm::enumerate(program.outputs)) {
    int64_t owner =
        mpi.getProcessOf(firstDeviceOf(program, program.values[output].mesh));
    if (owner == 0)
      continue;
    if (rank == owner) {
      if (llvm::Error error = mpi.sendTensor(0, i, result->outputs[i]))
        return failRank(std::move(error));
    } else if (rank == 0) {
      llvm::Expected<runtime::Tensor> received =
          mpi.receiveTensor(owner, i, outputSpecs[i]);
      if (!received)
        return failRank(received.takeError());
      result->outputs[i] = std::move(*received);
    }
  }
  std::vector<runtime::Tensor> localOutputs = result->outputs;

  // Executed steps and device usage to rank 0, on its clock.
  llvm::Expected<std::vector<uint64_t>> starts =
      mpi.allGatherWords(uint64_t(result->startUnixMicros));
  llvm::Expected<std::vector<uint64_t>> counts =
      starts ? mpi.allGatherWords(result->executed.size())
             : llvm::Expected<std::vector<uint64_t>>(starts.takeError());
  llvm::Expected<std::vector<uint64_t>> bytes =
      counts ? mpi.allGatherWords(uint64_t(result->transferredBytes))
             : llvm::Expected<std::vector<uint64_t>>(counts.takeError());
  if (!bytes)
    return failRank(bytes.takeError());
  int64_t executedTag = program.outputs.size(), devicesTag = executedTag + 1;
  if (rank != 0) {
    if (llvm::Error error = mpi.sendTensor(0, executedTag,
                                           packExecuted(result->executed)))
      return failRank(std::move(error));
    if (llvm::Error error =
            mpi.sendTensor(0, devicesTag, packDevices(result->devices)))
      return failRank(std::move(error));
  } else {
    int64_t devicesPerRank = options.devicesPerRank;
    for (int64_t other = 1; other < mpi.getNumRanks(); ++other) {
      double shiftUs =
          double(int64_t((*starts)[other]) - int64_t((*starts)[0]));
      llvm::Expected<runtime::Tensor> executed = mpi.receiveTensor(
          other, executedTag,
          {runtime::DType::F64, {int64_t((*counts)[other]), kExecutedColumns}});
      if (!executed)
        return failRank(executed.takeError());
      unpackExecuted(*executed, shiftUs, result->executed);
      llvm::Expected<runtime::Tensor> devices = mpi.receiveTensor(
          other, devicesTag, {runtime::DType::F64, {devicesPerRank, 4}});
      if (!devices)
        return failRank(devices.takeError());
      unpackDevices(*devices, result->devices);
      result->transferredBytes += int64_t((*bytes)[other]);
      for (const runtime::ExecutedStep &step : result->executed)
        result->stepUs = std::max(result->stepUs, step.endUs);
    }
    llvm::sort(result->devices, [](const runtime::DeviceUsage &a,
                                   const runtime::DeviceUsage &b) {
      return std::tie(a.mesh, a.device) < std::tie(b.mesh, b.device);
    });
  }

  int exitCode = kExitSuccess;
  if (rank == 0) {
    printOutputs(result->outputs, options.print);
    llvm::outs() << "ranks: " << mpi.getNumRanks() << " ("
                 << options.devicesPerRank << " device(s) each)\n";
    if (options.summary) {
      llvm::Expected<runtime::SimulatedRun> replay =
          runtime::replayMeasured(program, *result);
      if (!replay)
        return failRank(replay.takeError());
      runtime::printRunSummary(program, *result, &*replay, llvm::outs());
      llvm::Expected<runtime::PipelinePrediction> prediction =
          runtime::predictWithScheduleSimulator(executable, *result);
      if (prediction)
        runtime::printPrediction(*prediction, llvm::outs());
      else
        llvm::outs() << "pipeline simulator: not applicable ("
                     << llvm::toString(prediction.takeError()) << ")\n";
      if (options.plannedStepSeconds)
        runtime::printPlannedStep(*options.plannedStepSeconds,
                                  options.plannedDescription, {result->stepUs},
                                  llvm::outs());
    }
    if (reference) {
      llvm::Expected<driver::ValidationReport> report =
          driver::validateAgainstReference(reference, *arguments,
                                           result->outputs, options.tolerance);
      if (!report)
        return failRank(report.takeError());
      progress.finished("validation");
      report->print(llvm::outs());
      if (!report->passed())
        exitCode = kExitValidationMismatch;
    }
    llvm::outs().flush();
  }
  // Every rank learns the verdict, so that files are written only after a
  // passing run and every rank exits with the same code.
  llvm::Expected<std::vector<uint64_t>> verdicts =
      mpi.allGatherWords(uint64_t(exitCode));
  if (!verdicts)
    return failRank(verdicts.takeError());
  exitCode = int((*verdicts)[0]);
  if (exitCode != kExitSuccess)
    return exitCode;
  if (options.outputs)
    if (llvm::Error error = writeOutputShards(executable, mpi, localOutputs,
                                              *options.outputs))
      return failRank(std::move(error));
  if (options.trace) {
    runtime::RunResult local = *result;
    if (rank == 0) {
      // Rank 0's trace shows its own devices, like every other rank's.
      llvm::erase_if(local.executed, [&](const runtime::ExecutedStep &step) {
        return !mpi.isLocal(firstDeviceOf(program, step.mesh) + step.device);
      });
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    runtime::writeChromeTrace(program, local, os);
    std::string path = perRankPath(*options.trace, rank);
    std::error_code error;
    llvm::raw_fd_ostream file(path, error);
    if (error)
      return failRank(makeInputError("cannot write '" + path +
                                     "': " + error.message()));
    file << text;
  }
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
