//===- Trace.cpp - Chrome traces, replays and summaries of runs -----------===//

#include "mpmd/Runtime/Trace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>
#include <thread>
#include <tuple>

namespace mlir::mpmd::runtime {

namespace {

/// Track ids inside a mesh's process: fragments, then received copies.
int64_t computeTrack(int64_t device) { return 2 * device; }
int64_t copyTrack(int64_t device) { return 2 * device + 1; }

std::string formatBytes(int64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes < 1024)
    os << bytes << " B";
  else if (bytes < 1024 * 1024)
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  else
    os << llvm::format("%.1f MiB", bytes / (1024.0 * 1024.0));
  return text;
}

std::string formatMicros(double micros) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (micros < 1000)
    os << llvm::format("%.1f us", micros);
  else
    os << llvm::format("%.3f ms", micros / 1000);
  return text;
}

} // namespace

void writeChromeTrace(const DeviceProgram &program, const RunResult &result,
                      llvm::raw_ostream &os) {
  llvm::json::OStream json(os);
  json.object([&] {
    json.attribute("displayTimeUnit", "ms");
    // What `mpmd trace-merge` lines the traces of several ranks up with.
    json.attributeObject("otherData", [&] {
      json.attribute("startUnixMicros", result.startUnixMicros);
    });
    json.attributeArray("traceEvents", [&] {
      auto metadata = [&](llvm::StringRef kind, int64_t pid,
                          std::optional<int64_t> tid, const std::string &name) {
        json.object([&] {
          json.attribute("name", kind);
          json.attribute("ph", "M");
          json.attribute("pid", pid);
          if (tid)
            json.attribute("tid", *tid);
          json.attributeObject("args", [&] { json.attribute("name", name); });
        });
      };
      for (auto [mesh, info] : llvm::enumerate(program.meshes)) {
        metadata("process_name", mesh, std::nullopt, "mesh " + info.name);
        for (int64_t device = 0; device < info.numDevices; ++device) {
          metadata("thread_name", mesh, computeTrack(device),
                   "device " + std::to_string(device));
          metadata("thread_name", mesh, copyTrack(device),
                   "device " + std::to_string(device) + " copies in");
        }
      }
      int64_t flowId = 0;
      for (const ExecutedStep &executed : result.executed) {
        const DeviceProgram::Step &step = program.steps[executed.step];
        bool isTransfer = step.kind == DeviceProgram::StepKind::kTransfer;
        json.object([&] {
          json.attribute("name", step.name);
          json.attribute("cat", isTransfer ? "transfer" : "fragment");
          json.attribute("ph", "X");
          json.attribute("ts", executed.startUs);
          json.attribute("dur", executed.endUs - executed.startUs);
          json.attribute("pid", executed.mesh);
          json.attribute("tid", isTransfer ? copyTrack(executed.device)
                                           : computeTrack(executed.device));
          json.attributeObject("args", [&] {
            json.attribute("step", executed.step);
            if (isTransfer)
              json.attribute("bytes", executed.bytes);
            else
              json.attribute("kind", llvm::StringRef(&step.letter, 1));
          });
        });
        if (!isTransfer)
          continue;
        // A flow from the sending device to the receiving one.
        ++flowId;
        auto flow = [&](llvm::StringRef phase, int64_t pid, int64_t tid,
                        double ts) {
          json.object([&] {
            json.attribute("name", "transfer");
            json.attribute("cat", "transfer");
            json.attribute("ph", phase);
            json.attribute("id", flowId);
            json.attribute("pid", pid);
            json.attribute("tid", tid);
            json.attribute("ts", ts);
            if (phase == "f")
              json.attribute("bp", "e");
          });
        };
        flow("s", executed.sourceMesh, computeTrack(executed.sourceDevice),
             executed.startUs);
        flow("f", executed.mesh, copyTrack(executed.device), executed.endUs);
      }
    });
  });
}

llvm::Expected<SimulatedRun> replayMeasured(const DeviceProgram &program,
                                            const RunResult &result) {
  std::map<std::tuple<int64_t, int64_t, int64_t>, double> measured;
  for (const ExecutedStep &executed : result.executed)
    measured[{executed.step, executed.mesh, executed.device}] =
        executed.endUs - executed.startUs;
  return simulate(program, [&](int64_t step, int64_t mesh, int64_t device) {
    auto it = measured.find({step, mesh, device});
    return it == measured.end() ? 0.0 : it->second;
  });
}

namespace {

/// One row of a text timeline: each fragment's letter over the columns its
/// time covers, '.' where the device is idle.
template <typename Timed>
std::string drawTimeline(const DeviceProgram &program,
                         const std::vector<Timed> &steps, int64_t mesh,
                         int64_t device, double scale, int64_t width,
                         double Timed::*start, double Timed::*end) {
  std::string row(width, '.');
  for (const Timed &timed : steps) {
    const DeviceProgram::Step &step = program.steps[timed.step];
    if (timed.mesh != mesh || timed.device != device ||
        step.kind == DeviceProgram::StepKind::kTransfer)
      continue;
    auto column = [&](double time) {
      return std::clamp<int64_t>(int64_t(time / scale * double(width)), 0,
                                 width - 1);
    };
    for (int64_t c = column(timed.*start), e = column(timed.*end); c <= e; ++c)
      row[c] = step.letter;
  }
  return row;
}

} // namespace

void printRunSummary(const DeviceProgram &program, const RunResult &result,
                     const SimulatedRun *replay, llvm::raw_ostream &os,
                     int64_t width) {
  os << "step time: " << formatMicros(result.stepUs);
  if (replay && replay->makespan > 0)
    os << " (replay of the measured step times: "
       << formatMicros(replay->makespan)
       << llvm::format(", measured/replay %.2f)", result.stepUs / replay->makespan);
  os << "\n";
  int64_t fragments = 0, transfers = 0;
  for (const ExecutedStep &executed : result.executed)
    (program.steps[executed.step].kind == DeviceProgram::StepKind::kTransfer
         ? transfers
         : fragments)++;
  unsigned cores = std::thread::hardware_concurrency();
  if (cores != 0 && program.getNumDevices() > int64_t(cores))
    os << "note: " << program.getNumDevices() << " devices share " << cores
       << " cores; the replay gives each device a core of its own\n";
  os << "steps: " << fragments << " fragment runs, " << transfers
     << " copies moving " << formatBytes(result.transferredBytes) << "\n";
  // Per device: the bytes its incoming transfers moved (its shards' pieces).
  std::map<std::pair<int64_t, int64_t>, int64_t> received;
  for (const ExecutedStep &executed : result.executed)
    if (program.steps[executed.step].kind == DeviceProgram::StepKind::kTransfer)
      received[{executed.mesh, executed.device}] += executed.bytes;
  os << llvm::format("%-14s %12s %8s %12s %12s\n", "device", "busy", "bubble",
                     "peak memory", "received");
  for (const DeviceUsage &usage : result.devices) {
    double bubble =
        result.stepUs > 0 ? 100.0 * (1 - usage.busyUs / result.stepUs) : 0;
    os << llvm::format(
        "%-14s %12s %7.1f%% %12s %12s\n",
        program.describeDevice(usage.mesh, usage.device).c_str(),
        formatMicros(usage.busyUs).c_str(), bubble,
        formatBytes(usage.peakBytes).c_str(),
        formatBytes(received[{usage.mesh, usage.device}]).c_str());
  }
  // How the device threads waited: spinning and pinning decide whether the
  // stages of a fine-grained pipeline overlap (docs/runtime.md, "Waiting").
  if (result.spun) {
    os << "waiting: spin, then park";
    std::string cpus;
    for (const DeviceUsage &usage : result.devices)
      if (usage.pinnedCpu >= 0)
        cpus += (cpus.empty() ? "" : ", ") + std::to_string(usage.pinnedCpu);
    if (!cpus.empty())
      os << "; device threads pinned to CPUs " << cpus;
    if (result.hostPreemptions > 0)
      os << "; kept through " << result.hostPreemptions
         << " preemption" << (result.hostPreemptions > 1 ? "s" : "")
         << " with no other process runnable";
    if (!result.spinStopReason.empty())
      os << "; stopped spinning (and pinning) at "
         << formatMicros(result.spinStoppedUs) << ": "
         << result.spinStopReason;
    os << "\n";
  }
  if (!replay || width < 1)
    return;
  double scale = std::max(result.stepUs, replay->makespan);
  if (scale <= 0)
    return;
  os << "timelines (one column = " << formatMicros(scale / double(width))
     << "; F forward, B backward, o other fragments, . idle):\n";
  for (const DeviceUsage &usage : result.devices) {
    std::string device = program.describeDevice(usage.mesh, usage.device);
    os << llvm::format("%-8s measured |", device.c_str())
       << drawTimeline(program, result.executed, usage.mesh, usage.device,
                       scale, width, &ExecutedStep::startUs,
                       &ExecutedStep::endUs)
       << "|\n"
       << llvm::format("%-8s replay   |", "")
       << drawTimeline(program, replay->timings, usage.mesh, usage.device,
                       scale, width, &StepTiming::start, &StepTiming::end)
       << "|\n";
  }
}

} // namespace mlir::mpmd::runtime
