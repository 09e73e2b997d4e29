//===- DeviceProgram.cpp - Structure, progress and memory checks ----------===//

#include "mpmd/Runtime/DeviceProgram.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace mlir::mpmd::runtime {

namespace {

llvm::Error makeProgramError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

constexpr int64_t kNone = -1;

} // namespace

int64_t DeviceProgram::getNumDevices() const {
  int64_t total = 0;
  for (const Mesh &mesh : meshes)
    total += mesh.numDevices;
  return total;
}

std::string DeviceProgram::describeDevice(int64_t mesh, int64_t device) const {
  return meshes[mesh].name + ":" + std::to_string(device);
}

llvm::SmallVector<int64_t, 4>
DeviceProgram::getSourceDevices(const Step &step, int64_t device) const {
  if (step.pieces.empty())
    return {device % meshes[getSourceMesh(step)].numDevices};
  llvm::SmallVector<int64_t, 4> sources;
  auto first =
      llvm::partition_point(step.pieces, [&](const TransferPiece &piece) {
        return piece.device < device;
      });
  for (auto at = first; at != step.pieces.end() && at->device == device; ++at)
    sources.push_back(at->sourceDevice);
  llvm::sort(sources);
  return sources;
}

int64_t DeviceProgram::getReceivedBytes(const Step &step,
                                        int64_t device) const {
  if (step.pieces.empty())
    return values[step.results.front()].bytes;
  int64_t bytes = 0;
  for (const TransferPiece &piece : step.pieces)
    if (piece.device == device)
      bytes += piece.bytes;
  return bytes;
}

/// Pieces of `step` (a transfer) on devices of its meshes, sorted by
/// receiving device, each pair of devices once, every receiver served.
static llvm::Error verifyPieces(const DeviceProgram &program,
                                const DeviceProgram::Step &step) {
  if (step.pieces.empty())
    return llvm::Error::success();
  int64_t sources = program.meshes[program.getSourceMesh(step)].numDevices;
  int64_t receivers = program.meshes[step.mesh].numDevices;
  std::string where = "transfer '" + step.name + "'";
  int64_t served = 0;
  for (auto [i, piece] : llvm::enumerate(step.pieces)) {
    if (piece.sourceDevice < 0 || piece.sourceDevice >= sources ||
        piece.device < 0 || piece.device >= receivers || piece.bytes < 0)
      return makeProgramError(where + " has a piece between devices its "
                                      "meshes lack");
    if (i > 0) {
      const DeviceProgram::TransferPiece &before = step.pieces[i - 1];
      if (std::tie(before.device, before.sourceDevice) >=
          std::tie(piece.device, piece.sourceDevice))
        return makeProgramError(where + " has pieces out of order or twice");
      if (before.device == piece.device)
        continue;
    }
    ++served;
  }
  if (served != receivers)
    return makeProgramError(where + " has no piece for some receiving device");
  return llvm::Error::success();
}

llvm::Error verifyStructure(const DeviceProgram &program) {
  const int64_t numMeshes = program.meshes.size();
  const int64_t numValues = program.values.size();
  if (numMeshes == 0)
    return makeProgramError("the program has no meshes");
  for (const DeviceProgram::Mesh &mesh : program.meshes)
    if (mesh.numDevices < 1)
      return makeProgramError("mesh " + mesh.name + " has no devices");
  for (const DeviceProgram::Value &value : program.values)
    if (value.mesh < 0 || value.mesh >= numMeshes || value.bytes < 0)
      return makeProgramError("value " + value.name +
                              " has no valid mesh or size");

  std::vector<bool> produced(numValues, false);
  auto produce = [&](int64_t value, int64_t mesh,
                     const std::string &where) -> llvm::Error {
    if (value < 0 || value >= numValues)
      return makeProgramError(where + " names value " + std::to_string(value) +
                              ", which does not exist");
    if (produced[value])
      return makeProgramError("value " + program.values[value].name +
                              " is produced twice (again by " + where + ")");
    if (mesh != kNone && program.values[value].mesh != mesh)
      return makeProgramError(where + " produces " +
                              program.values[value].name + " on mesh " +
                              program.meshes[mesh].name + ", not on its mesh");
    produced[value] = true;
    return llvm::Error::success();
  };
  for (int64_t input : program.inputs)
    if (llvm::Error error = produce(input, kNone, "the inputs"))
      return error;

  for (const DeviceProgram::Step &step : program.steps) {
    std::string where = "step '" + step.name + "'";
    if (step.mesh < 0 || step.mesh >= numMeshes)
      return makeProgramError(where + " has no valid mesh");
    bool isTransfer = step.kind == DeviceProgram::StepKind::kTransfer;
    if (isTransfer && (step.operands.size() != 1 || step.results.size() != 1))
      return makeProgramError(where +
                              " is a transfer without one operand and result");
    if (!step.donatable.empty() &&
        step.donatable.size() != step.operands.size())
      return makeProgramError(where + " has a donation flag per operand "
                                      "missing");
    for (int64_t operand : step.operands) {
      if (operand < 0 || operand >= numValues)
        return makeProgramError(where + " reads value " +
                                std::to_string(operand) +
                                ", which does not exist");
      if (!isTransfer && program.values[operand].mesh != step.mesh)
        return makeProgramError(where + " reads " +
                                program.values[operand].name +
                                ", which lives on another mesh");
    }
    if (!isTransfer && !step.pieces.empty())
      return makeProgramError(where + " is a fragment with transfer pieces");
    if (isTransfer)
      if (llvm::Error error = verifyPieces(program, step))
        return error;
    for (int64_t result : step.results)
      if (llvm::Error error = produce(result, step.mesh, where))
        return error;
  }
  for (const DeviceProgram::Step &step : program.steps)
    for (int64_t operand : step.operands)
      if (!produced[operand])
        return makeProgramError("step '" + step.name + "' reads " +
                                program.values[operand].name +
                                ", which nothing produces");
  for (int64_t output : program.outputs)
    if (output < 0 || output >= numValues || !produced[output])
      return makeProgramError("output " + std::to_string(output) +
                              " is not a produced value");

  if (static_cast<int64_t>(program.meshOrder.size()) != numMeshes)
    return makeProgramError("the program needs one step order per mesh");
  std::vector<int> seen(program.steps.size(), 0);
  for (auto [mesh, order] : llvm::enumerate(program.meshOrder))
    for (int64_t step : order) {
      if (step < 0 || step >= static_cast<int64_t>(program.steps.size()) ||
          program.steps[step].mesh != static_cast<int64_t>(mesh))
        return makeProgramError("the order of mesh " +
                                program.meshes[mesh].name + " lists step " +
                                std::to_string(step) +
                                ", which does not run on it");
      ++seen[step];
    }
  for (auto [step, count] : llvm::enumerate(seen))
    if (count != 1)
      return makeProgramError("step '" + program.steps[step].name +
                              "' appears " + std::to_string(count) +
                              " times in its mesh's order");
  return llvm::Error::success();
}

namespace {

/// The dependency graph `simulate` sorts: one node per (step, device of the
/// step's mesh) — for a transfer, the issue of the receive — plus one
/// arrival node per (transfer, receiving device).
class StepGraph {
public:
  explicit StepGraph(const DeviceProgram &program) : program(program) {
    for (const DeviceProgram::Step &step : program.steps) {
      runBase.push_back(numNodes);
      numNodes += program.meshes[step.mesh].numDevices;
    }
    for (const DeviceProgram::Step &step : program.steps) {
      arrivalBase.push_back(numNodes);
      if (step.kind == DeviceProgram::StepKind::kTransfer)
        numNodes += program.meshes[step.mesh].numDevices;
    }
    producer.assign(program.values.size(), kNone);
    for (auto [index, step] : llvm::enumerate(program.steps))
      for (int64_t result : step.results)
        producer[result] = index;
    buildEdges();
  }

  int64_t runNode(int64_t step, int64_t device) const {
    return runBase[step] + device;
  }
  int64_t arrivalNode(int64_t step, int64_t device) const {
    return arrivalBase[step] + device;
  }
  /// The node after which `value` exists on `device` of its mesh; kNone for
  /// an input.
  int64_t producerNode(int64_t value, int64_t device) const {
    int64_t step = producer[value];
    if (step == kNone)
      return kNone;
    return program.steps[step].kind == DeviceProgram::StepKind::kTransfer
               ? arrivalNode(step, device)
               : runNode(step, device);
  }
  const DeviceProgram &program;
  int64_t numNodes = 0;
  std::vector<int64_t> runBase, arrivalBase, producer;
  /// Predecessors of each node, CSR.
  std::vector<int64_t> predecessorStart, predecessors;

private:
  void buildEdges() {
    std::vector<std::vector<int64_t>> preds(numNodes);
    for (auto [mesh, order] : llvm::enumerate(program.meshOrder))
      for (int64_t device = 0; device < program.meshes[mesh].numDevices;
           ++device)
        for (size_t i = 1; i < order.size(); ++i)
          preds[runNode(order[i], device)].push_back(
              runNode(order[i - 1], device));
    for (auto [index, step] : llvm::enumerate(program.steps))
      for (int64_t device = 0; device < program.meshes[step.mesh].numDevices;
           ++device) {
        if (step.kind == DeviceProgram::StepKind::kTransfer) {
          int64_t arrival = arrivalNode(index, device);
          preds[arrival].push_back(runNode(index, device));
          for (int64_t sourceDevice : program.getSourceDevices(step, device))
            if (int64_t source =
                    producerNode(step.operands.front(), sourceDevice);
                source != kNone)
              preds[arrival].push_back(source);
          continue;
        }
        for (int64_t operand : step.operands)
          if (int64_t source = producerNode(operand, device); source != kNone)
            preds[runNode(index, device)].push_back(source);
      }
    for (const std::vector<int64_t> &list : preds) {
      predecessorStart.push_back(predecessors.size());
      predecessors.insert(predecessors.end(), list.begin(), list.end());
    }
    predecessorStart.push_back(predecessors.size());
  }
};

/// Names the cycle of waits once the sort of `graph` got stuck: starting
/// from a stuck device, follows "waits for a value made on another device"
/// until a device repeats.
std::string describeDeadlock(const StepGraph &graph,
                             const std::vector<bool> &done) {
  const DeviceProgram &program = graph.program;
  // The first step of each device that did not run.
  auto firstStuck = [&](int64_t mesh, int64_t device) -> int64_t {
    for (int64_t step : program.meshOrder[mesh])
      if (!done[graph.runNode(step, device)])
        return step;
    return kNone;
  };
  int64_t mesh = kNone, device = 0;
  for (int64_t m = 0; m < static_cast<int64_t>(program.meshes.size()) &&
                      mesh == kNone;
       ++m)
    for (int64_t d = 0; d < program.meshes[m].numDevices; ++d)
      if (firstStuck(m, d) != kNone) {
        mesh = m;
        device = d;
        break;
      }

  std::string message;
  llvm::raw_string_ostream os(message);
  os << "the meshes' step orders deadlock:";
  std::vector<std::pair<int64_t, int64_t>> visited;
  while (mesh != kNone &&
         !llvm::is_contained(visited, std::make_pair(mesh, device))) {
    visited.emplace_back(mesh, device);
    int64_t step = firstStuck(mesh, device);
    const DeviceProgram::Step &waiting = program.steps[step];
    // A stuck fragment waits for an operand whose producer did not run; for
    // a transfer source, the wait is on the source device.
    int64_t nextMesh = kNone, nextDevice = 0;
    for (int64_t operand : waiting.operands) {
      int64_t producerStep = graph.producer[operand];
      int64_t node = graph.producerNode(operand, device);
      if (producerStep == kNone || done[node])
        continue;
      const DeviceProgram::Step &made = program.steps[producerStep];
      int64_t madeMesh = made.mesh, madeDevice = device;
      std::string madeBy = made.name;
      if (made.kind == DeviceProgram::StepKind::kTransfer &&
          done[graph.runNode(producerStep, device)]) {
        // The receive is issued: the wait is for the step that makes the
        // source on a sending device that has not made it.
        madeMesh = program.getSourceMesh(made);
        llvm::SmallVector<int64_t, 4> senders =
            program.getSourceDevices(made, device);
        madeDevice = senders.front();
        for (int64_t sender : senders)
          if (int64_t node = graph.producerNode(made.operands.front(), sender);
              node != kNone && !done[node]) {
            madeDevice = sender;
            break;
          }
        if (int64_t source = graph.producer[made.operands.front()];
            source != kNone)
          madeBy = program.steps[source].name;
      }
      os << (visited.size() > 1 ? ";" : "") << " "
         << program.describeDevice(mesh, device) << " waits at '"
         << waiting.name << "' for " << program.values[operand].name
         << " from '" << madeBy << "' on "
         << program.describeDevice(madeMesh, madeDevice);
      nextMesh = madeMesh;
      nextDevice = madeDevice;
      break;
    }
    mesh = nextMesh;
    device = nextDevice;
  }
  return message;
}

} // namespace

llvm::Expected<SimulatedRun>
simulate(const DeviceProgram &program,
         const std::function<double(int64_t, int64_t, int64_t)> &duration) {
  StepGraph graph(program);
  std::vector<int64_t> pending(graph.numNodes);
  std::vector<std::vector<int64_t>> successors(graph.numNodes);
  for (int64_t node = 0; node < graph.numNodes; ++node)
    for (int64_t i = graph.predecessorStart[node];
         i < graph.predecessorStart[node + 1]; ++i) {
      successors[graph.predecessors[i]].push_back(node);
      ++pending[node];
    }

  // Node -> (step, device, is arrival), for the durations.
  struct NodeInfo {
    int64_t step, device;
    bool isArrival;
  };
  std::vector<NodeInfo> info(graph.numNodes);
  for (auto [index, step] : llvm::enumerate(program.steps))
    for (int64_t device = 0; device < program.meshes[step.mesh].numDevices;
         ++device) {
      info[graph.runNode(index, device)] = {int64_t(index), device, false};
      if (step.kind == DeviceProgram::StepKind::kTransfer)
        info[graph.arrivalNode(index, device)] = {int64_t(index), device, true};
    }

  std::vector<double> finish(graph.numNodes, 0);
  std::vector<bool> done(graph.numNodes, false);
  std::vector<int64_t> ready;
  for (int64_t node = 0; node < graph.numNodes; ++node)
    if (pending[node] == 0)
      ready.push_back(node);
  SimulatedRun run;
  int64_t processed = 0;
  while (!ready.empty()) {
    int64_t node = ready.back();
    ready.pop_back();
    double start = 0;
    for (int64_t i = graph.predecessorStart[node];
         i < graph.predecessorStart[node + 1]; ++i)
      start = std::max(start, finish[graph.predecessors[i]]);
    const NodeInfo &at = info[node];
    const DeviceProgram::Step &step = program.steps[at.step];
    bool isIssue = step.kind == DeviceProgram::StepKind::kTransfer &&
                   !at.isArrival;
    finish[node] =
        isIssue ? start : start + duration(at.step, step.mesh, at.device);
    if (!isIssue) {
      run.timings.push_back(
          {at.step, step.mesh, at.device, start, finish[node]});
      run.makespan = std::max(run.makespan, finish[node]);
    }
    done[node] = true;
    ++processed;
    for (int64_t next : successors[node])
      if (--pending[next] == 0)
        ready.push_back(next);
  }
  if (processed != graph.numNodes)
    return makeProgramError(describeDeadlock(graph, done));
  return run;
}

llvm::Error verifyProgress(const DeviceProgram &program) {
  llvm::Expected<SimulatedRun> run =
      simulate(program, [](int64_t, int64_t, int64_t) { return 1.0; });
  return run ? llvm::Error::success() : run.takeError();
}

namespace {

/// Happens-before between the devices of a program whose meshes all have
/// the same number of devices, as vector clocks over meshes. Device d of a
/// mesh then only ever waits for device d of another (it receives from
/// device d mod n), so the devices d of all meshes form a lane that runs
/// like every other lane; the clocks are those of lane 0. A clock holds, per
/// mesh, how many steps of its order the mesh's device has passed (run, or
/// issued for a transfer).
class LaneClocks {
public:
  explicit LaneClocks(const DeviceProgram &program) : program(program) {
    // Lanes exist when device d of every mesh only hears from device d.
    uniform =
        llvm::all_equal(llvm::map_range(
            program.meshes,
            [](const DeviceProgram::Mesh &mesh) { return mesh.numDevices; })) &&
        llvm::all_of(program.steps, [](const DeviceProgram::Step &step) {
          return llvm::all_of(step.pieces,
                              [](const DeviceProgram::TransferPiece &piece) {
                                return piece.sourceDevice == piece.device;
                              });
        });
    if (!uniform)
      return;
    const size_t numMeshes = program.meshes.size();
    position.assign(program.steps.size(), kNone);
    firstReader.assign(program.values.size(), kNone);
    for (const std::vector<int64_t> &order : program.meshOrder)
      for (auto [index, step] : llvm::enumerate(order)) {
        position[step] = index;
        if (program.steps[step].kind == DeviceProgram::StepKind::kFragment)
          for (int64_t operand : program.steps[step].operands)
            if (firstReader[operand] == kNone)
              firstReader[operand] = index;
      }
    StepGraph graph(program);
    // Node -> step, for lane 0's nodes: run nodes first, then arrivals.
    std::vector<int64_t> stepOf(graph.numNodes, kNone);
    for (size_t step = 0; step < program.steps.size(); ++step) {
      stepOf[graph.runNode(step, 0)] = step;
      if (program.steps[step].kind == DeviceProgram::StepKind::kTransfer)
        stepOf[graph.arrivalNode(step, 0)] = step;
    }
    // Lane 0's predecessors are in lane 0: sort its nodes, joining clocks.
    std::vector<int64_t> pending(graph.numNodes, 0);
    std::vector<std::vector<int64_t>> successors(graph.numNodes);
    std::vector<int64_t> ready;
    for (int64_t node = 0; node < graph.numNodes; ++node) {
      if (stepOf[node] == kNone)
        continue;
      for (int64_t i = graph.predecessorStart[node];
           i < graph.predecessorStart[node + 1]; ++i) {
        successors[graph.predecessors[i]].push_back(node);
        ++pending[node];
      }
      if (pending[node] == 0)
        ready.push_back(node);
    }
    std::vector<std::vector<int64_t>> after(graph.numNodes);
    startClocks.assign(program.steps.size(), {});
    while (!ready.empty()) {
      int64_t node = ready.back();
      ready.pop_back();
      std::vector<int64_t> clock(numMeshes, 0);
      for (int64_t i = graph.predecessorStart[node];
           i < graph.predecessorStart[node + 1]; ++i)
        for (size_t mesh = 0; mesh < numMeshes; ++mesh)
          clock[mesh] =
              std::max(clock[mesh], after[graph.predecessors[i]][mesh]);
      int64_t step = stepOf[node];
      if (node == graph.runNode(step, 0)) {
        startClocks[step] = clock;
        int64_t mesh = program.steps[step].mesh;
        clock[mesh] = std::max(clock[mesh], position[step] + 1);
      }
      after[node] = std::move(clock);
      for (int64_t next : successors[node])
        if (--pending[next] == 0)
          ready.push_back(next);
    }
  }

  /// The first position of `mesh`'s order at which its devices know that
  /// every copy `transfer` makes of its operand from them has landed (the
  /// sender then no longer holds the operand for it): once they know that a
  /// fragment reading the copy ran. None (kNone) when they never learn it.
  int64_t getFirstPositionKnowingCopied(int64_t mesh, int64_t transfer) const {
    if (!uniform)
      return kNone;
    const DeviceProgram::Step &step = program.steps[transfer];
    int64_t reader = firstReader[step.results.front()];
    if (reader == kNone)
      return kNone;
    // Clocks only grow along an order.
    const std::vector<int64_t> &order = program.meshOrder[mesh];
    auto known = llvm::partition_point(order, [&](int64_t at) {
      return startClocks[at].empty() || startClocks[at][step.mesh] <= reader;
    });
    return known == order.end() ? kNone : known - order.begin();
  }

private:
  const DeviceProgram &program;
  bool uniform = false;
  /// Per step: its position in its mesh's order.
  std::vector<int64_t> position;
  /// Per value: the position of the first fragment reading it (kNone:
  /// none), in the order of the value's mesh.
  std::vector<int64_t> firstReader;
  /// Per step: the clock of its mesh's device when it starts the step
  /// (issues it, for a transfer).
  std::vector<std::vector<int64_t>> startClocks;
};

} // namespace

llvm::Expected<std::vector<int64_t>>
checkMemory(const DeviceProgram &program,
            std::optional<int64_t> deviceMemoryBytes) {
  const int64_t numValues = program.values.size();
  const size_t numMeshes = program.meshes.size();
  // When each value is freed on its mesh: before the position `freedBefore`
  // of the mesh's order, once it ran its last fragment reading it and the
  // mesh knows every copy from it landed; kNone: never (outputs, values
  // whose copies it never hears of).
  std::vector<int64_t> freedBefore(numValues, 0);
  std::vector<int64_t> lastUse(numValues, kNone);
  LaneClocks clocks(program);
  for (auto [mesh, order] : llvm::enumerate(program.meshOrder))
    for (auto [position, index] : llvm::enumerate(order)) {
      const DeviceProgram::Step &step = program.steps[index];
      for (int64_t result : step.results)
        freedBefore[result] = position + 1;
      if (step.kind == DeviceProgram::StepKind::kTransfer) {
        int64_t source = step.operands.front();
        int64_t sourceMesh = program.values[source].mesh;
        int64_t known =
            clocks.getFirstPositionKnowingCopied(sourceMesh, index);
        if (freedBefore[source] != kNone)
          freedBefore[source] =
              known == kNone ? kNone : std::max(freedBefore[source], known);
        continue;
      }
      for (int64_t operand : step.operands) {
        lastUse[operand] = position;
        if (freedBefore[operand] != kNone)
          freedBefore[operand] =
              std::max<int64_t>(freedBefore[operand], position + 1);
      }
    }
  for (int64_t output : program.outputs)
    freedBefore[output] = kNone;
  std::vector<std::vector<std::vector<int64_t>>> freedAt(numMeshes);
  for (auto [mesh, order] : llvm::enumerate(program.meshOrder))
    freedAt[mesh].resize(order.size() + 1);
  for (int64_t value = 0; value < numValues; ++value) {
    int64_t mesh = program.values[value].mesh;
    if (freedBefore[value] != kNone &&
        freedBefore[value] < static_cast<int64_t>(freedAt[mesh].size()))
      freedAt[mesh][freedBefore[value]].push_back(value);
  }

  std::vector<bool> live(numValues, false);
  std::vector<int64_t> liveBytes(numMeshes, 0), peak(numMeshes, 0);
  auto allocate = [&](int64_t value) {
    live[value] = true;
    int64_t mesh = program.values[value].mesh;
    // Saturated: a total past int64 exceeds any cap.
    liveBytes[mesh] = checkedAdd(liveBytes[mesh], program.values[value].bytes)
                          .value_or(std::numeric_limits<int64_t>::max());
    peak[mesh] = std::max(peak[mesh], liveBytes[mesh]);
  };
  auto release = [&](int64_t value) {
    if (!live[value])
      return;
    live[value] = false;
    liveBytes[program.values[value].mesh] -= program.values[value].bytes;
  };
  auto overflow = [&](int64_t mesh, const std::string &where) -> llvm::Error {
    std::vector<int64_t> buffers;
    for (int64_t value = 0; value < numValues; ++value)
      if (live[value] && program.values[value].mesh == mesh)
        buffers.push_back(value);
    llvm::sort(buffers, [&](int64_t a, int64_t b) {
      return program.values[a].bytes > program.values[b].bytes;
    });
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "device memory exceeded on mesh " << program.meshes[mesh].name
       << " " << where << ": " << liveBytes[mesh] << " bytes live, the cap is "
       << *deviceMemoryBytes << "; largest live buffers:";
    for (auto [i, value] : llvm::enumerate(buffers)) {
      if (i == 5) {
        os << " and " << buffers.size() - 5 << " more";
        break;
      }
      os << (i ? ", " : " ") << program.values[value].name << " ("
         << program.values[value].bytes << " B)";
    }
    return makeProgramError(message);
  };
  auto exceeds = [&](int64_t mesh) {
    return deviceMemoryBytes && liveBytes[mesh] > *deviceMemoryBytes;
  };

  for (int64_t input : program.inputs)
    allocate(input);
  for (size_t mesh = 0; mesh < numMeshes; ++mesh)
    if (exceeds(mesh))
      return overflow(mesh, "by the program inputs alone");

  // Each mesh on its own (live bytes are per device); of the steps that
  // exceed the cap, the first in program order is reported.
  int64_t firstExceeding = kNone;
  llvm::Error error = llvm::Error::success();
  for (auto [mesh, order] : llvm::enumerate(program.meshOrder)) {
    for (auto [position, index] : llvm::enumerate(order)) {
      for (int64_t value : freedAt[mesh][position])
        release(value);
      const DeviceProgram::Step &step = program.steps[index];
      for (auto [i, operand] : llvm::enumerate(step.operands))
        if (!step.donatable.empty() && step.donatable[i] &&
            lastUse[operand] == static_cast<int64_t>(position) &&
            freedBefore[operand] == static_cast<int64_t>(position) + 1)
          release(operand);
      for (int64_t result : step.results)
        allocate(result);
      if (!exceeds(mesh))
        continue;
      if (firstExceeding == kNone || index < firstExceeding) {
        llvm::consumeError(std::move(error));
        error = overflow(mesh, "at '" + step.name + "'");
        firstExceeding = index;
      }
      break;
    }
  }
  if (error)
    return std::move(error);
  return peak;
}

} // namespace mlir::mpmd::runtime
