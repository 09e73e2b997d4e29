//===- Executor.cpp - Device and copy-engine threads over an MPMD module --===//
//
// One mutex guards the per-device state (value slots, byte counts, the
// transfers in flight): steps are whole fragments (micro- to milliseconds),
// so the lock is held for bookkeeping only, never while a kernel runs.
// Transfers go through the run's Transport, which calls back (without a
// lock of its own held) when a copy starts and ends; a transfer of a whole
// value between two devices of this process is a handover instead (the
// receiver shares the sender's buffer, no copy and no copy-engine thread).
//
// Waiting for an operand, a device thread first spins (while there are no
// more device threads than cores), then parks: a fine-grained pipeline
// waits tens to hundreds of microseconds between fragments, and waking a
// parked thread on a virtual machine costs about as much when its core
// went idle. With every device in this process, a core for each and no
// other work on the machine, each device thread is pinned to its own core
// while it spins: the device threads are new every run, and the scheduler
// often left two of them on one core for the whole step (the thread a
// device wakes goes to the waker's core), so the pipeline's stages took
// turns instead of overlapping.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Executor.h"

#include "InterpreterCollectives.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Runtime/CollectiveBackend.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/ThreadsTransport.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include <sys/resource.h>
#include <time.h>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace mlir::mpmd::runtime {

namespace {

constexpr llvm::StringLiteral kBufferDonorAttrName = "jax.buffer_donor";
constexpr llvm::StringLiteral kAliasingOutputAttrName = "tf.aliasing_output";

llvm::Error makeRunError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// How long a device thread spins for an operand before it parks: longer
/// than the gaps of a fine-grained pipeline (a 1F1B stage waits about one
/// forward plus one backward of the next stage), short enough that a
/// device stalled for long gives its core back soon.
constexpr std::chrono::microseconds kSpinBeforeParking{2000};

/// A spinning thread that finds this much time passed between two looks
/// at the clock (normally microseconds apart) lost its core to another
/// thread: the run stops spinning (Run::spins).
constexpr std::chrono::microseconds kDescheduled{500};

/// Tries of Run::lockDevice before it blocks: tens to a few hundred
/// microseconds (a pause costs 10 to 140 cycles, by CPU), far longer than
/// the bookkeeping any thread does under the lock.
constexpr int kLockAttempts = 200;

/// Below this share of a fragment's wall time on the CPU, the device
/// threads stop spinning (Run::spins).
constexpr double kBusyShareToSpin = 0.8;

/// Device threads pinned to cores of their own: the process's allowed
/// CPUs in order, one per device; none pinned for one device, more devices
/// than allowed CPUs, or off Linux.
class DeviceThreadPinning {
public:
  explicit DeviceThreadPinning(int64_t localDevices) {
#if defined(__linux__)
    CPU_ZERO(&allowed);
    if (localDevices < 2 ||
        sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
      return;
    for (int cpu = 0; cpu < CPU_SETSIZE && int64_t(cpus.size()) < localDevices;
         ++cpu)
      if (CPU_ISSET(cpu, &allowed))
        cpus.push_back(cpu);
    if (int64_t(cpus.size()) < localDevices)
      cpus.clear();
#endif
  }
  bool pins() const { return !cpus.empty(); }
  int getCpu(int64_t index) const { return cpus[index]; }
  /// Pins the calling thread to the core of local device `index` (best
  /// effort: a failure leaves it where the scheduler puts it).
  void pin(int64_t index) const {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(getCpu(index), &set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#endif
  }
  /// Lets the calling thread run on any allowed CPU again.
  void unpin() const {
#if defined(__linux__)
    pthread_setaffinity_np(pthread_self(), sizeof(allowed), &allowed);
#endif
  }

private:
  std::vector<int> cpus;
#if defined(__linux__)
  cpu_set_t allowed;
#endif
};

/// Whether no thread of another process is runnable now (Linux: the
/// machine's runnable count of /proc/loadavg, "0.52 0.58 0.59 3/467 12345",
/// less this process's own runnable threads, /proc/self/task/*/stat: the
/// caller, and the threads of the previous run still winding down, which
/// made a bare "runnable == 1" fail on an idle machine); false when that
/// cannot be read.
bool isMachineIdle() {
#if defined(__linux__)
  std::FILE *loadavg = std::fopen("/proc/loadavg", "r");
  if (!loadavg)
    return false;
  long running = -1;
  if (std::fscanf(loadavg, "%*f %*f %*f %ld/", &running) != 1)
    running = -1;
  std::fclose(loadavg);
  if (running < 1)
    return false;
  long ownRunning = 0;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator task("/proc/self/task", error), end;
       !error && task != end; task.increment(error)) {
    std::FILE *stat = std::fopen((task->path() + "/stat").c_str(), "r");
    if (!stat)
      continue;
    // "tid (comm) S ...": the state follows the last ')' (comm may hold
    // spaces and parentheses).
    char line[512];
    size_t length = std::fread(line, 1, sizeof(line) - 1, stat);
    std::fclose(stat);
    line[length] = 0;
    const char *close = std::strrchr(line, ')');
    ownRunning += close && close[1] == ' ' && close[2] == 'R';
  }
  return running <= std::max<long>(ownRunning, 1);
#else
  return false;
#endif
}

/// CPU time of the calling thread, in microseconds.
double getThreadCpuMicros() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e6 + now.tv_nsec * 1e-3;
}

/// One iteration of a spin-wait: a few hundred cycles without touching
/// memory, so that the sibling hyperthread and the lock holder run.
inline void pauseBriefly() {
  for (int i = 0; i < 32; ++i) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
}

/// 'F' when every origin is a forward, 'B' when one is a backward, 'o'
/// without origins.
char getFragmentLetter(ArrayAttr origins) {
  if (origins.empty())
    return 'o';
  return llvm::any_of(origins.getAsRange<UserOriginAttr>(),
                      [](UserOriginAttr origin) {
                        return origin.getTransposeCount() != 0;
                      })
             ? 'B'
             : 'F';
}

/// "layer_1(1) mb 3": the origins, then the call counter when there is one;
/// `fallback` (the callee) for a fragment without origins.
std::string describeFragment(ArrayAttr origins, Operation *op,
                             llvm::StringRef fallback) {
  std::string name;
  llvm::raw_string_ostream os(name);
  llvm::interleave(
      origins.getAsRange<UserOriginAttr>(), os,
      [&](UserOriginAttr origin) {
        os << origin.getUserName();
        if (origin.getTransposeCount() != 0)
          os << "(" << origin.getTransposeCount() << ")";
      },
      "+");
  if (name.empty())
    os << fallback;
  if (std::optional<uint32_t> counter = getCallCounter(op))
    os << " mb " << *counter;
  return name;
}

/// The shards of a value of `type` (global `shape`) over `mesh`, the
/// topology's mesh of the type: each dimension split by its (sub-)axes,
/// major to minor. Errors name the value `name`, its sharding and the mesh.
FailureOr<ShardLayout> getShardLayout(MeshTensorType type, sdy::MeshAttr mesh,
                                      const Shape &shape, Location loc,
                                      llvm::StringRef name) {
  sdy::TensorShardingAttr sharding = type.getSharding();
  if (!sharding)
    return ShardLayout::replicated(shape, mesh.getTotalSize());
  auto fail = [&] {
    return emitError(loc) << "value " << name << " with sharding " << sharding
                          << " on mesh \"" << type.getMeshName() << "\" ";
  };
  if (!sharding.getUnreducedAxes().empty())
    return fail() << "has unreduced axes: values between fragments must be "
                     "reduced (the MPMD executor moves no partial sums)";
  llvm::Expected<ShardLayout> layout = createShardLayout(sharding, mesh, shape);
  if (!layout)
    return fail() << "cannot be split into shards: "
                  << llvm::toString(layout.takeError());
  return std::move(*layout);
}

} // namespace

//===----------------------------------------------------------------------===//
// Reading the module
//===----------------------------------------------------------------------===//

int64_t getMaxVirtualDevices() {
  int64_t limit = kMaxVirtualDevices;
  rlimit threads;
  if (getrlimit(RLIMIT_NPROC, &threads) == 0 &&
      threads.rlim_cur != RLIM_INFINITY)
    limit = std::min<int64_t>(limit, threads.rlim_cur / 2);
  return limit;
}

FailureOr<std::unique_ptr<Executable>> Executable::create(ModuleOp module) {
  func::FuncOp main = getMainFunction(module);
  if (!main || main.isExternal())
    return module.emitError("the MPMD executor runs @main, which this module "
                            "lacks");
  auto topology =
      main->getAttrOfType<TopologyAttr>(MpmdDialect::kTopologyAttrName);
  if (!topology)
    return main.emitError("@main has no topology: not an MPMD program");

  std::unique_ptr<Executable> executable(new Executable());
  executable->module = module;
  DeviceProgram &program = executable->program;
  int64_t numDevices = 0;
  std::vector<sdy::MeshAttr> meshAttrs;
  for (NamedMeshAttr mesh : topology.getMeshes()) {
    meshAttrs.push_back(mesh.getMesh());
    int64_t meshDevices = mesh.getMesh().getTotalSize();
    numDevices = checkedAdd(numDevices, meshDevices)
                     .value_or(std::numeric_limits<int64_t>::max());
    program.meshes.push_back({mesh.getName().str(), meshDevices});
  }
  // Threads that cannot be created would fail in the middle of a run.
  if (int64_t maxDevices = getMaxVirtualDevices(); numDevices > maxDevices)
    return main.emitError("the topology has ")
           << numDevices << " devices; the MPMD executor runs at most "
           << maxDevices
           << " (two threads each, within the process's thread limit)";

  llvm::DenseMap<Value, int64_t> valueIds;
  // Per value: the shards its sharding gives (the layout it has unless a
  // fragment with global types reads or writes it).
  std::vector<ShardLayout> typedLayouts;
  // Registers `value` (a mesh tensor) and returns its id.
  auto addValue = [&](Value value, Location loc, std::string name,
                      std::vector<TensorSpec> *specs) -> FailureOr<int64_t> {
    auto type = dyn_cast<MeshTensorType>(value.getType());
    if (!type)
      return emitError(loc) << "the MPMD executor supports mesh tensors only, "
                               "not "
                            << value.getType();
    FailureOr<TensorSpec> spec = getTensorSpec(type.getRankedTensorType(), loc);
    if (failed(spec))
      return failure();
    int64_t mesh = *topology.getMeshIndex(type.getMeshName());
    FailureOr<ShardLayout> layout =
        getShardLayout(type, meshAttrs[mesh], spec->shape, loc, name);
    if (failed(layout))
      return failure();
    int64_t id = program.values.size();
    // The bytes a device holds are known once the layouts are (below).
    program.values.push_back({mesh, 0, std::move(name)});
    valueIds[value] = id;
    typedLayouts.push_back(std::move(*layout));
    executable->valueSpecs.push_back(*spec);
    if (specs)
      specs->push_back(std::move(*spec));
    return id;
  };
  auto idsOf = [&](ValueRange values) {
    std::vector<int64_t> ids;
    for (Value value : values)
      ids.push_back(valueIds.lookup(value));
    return ids;
  };

  for (BlockArgument argument : main.getArguments()) {
    FailureOr<int64_t> id =
        addValue(argument, main.getLoc(),
                 "input " + std::to_string(argument.getArgNumber()),
                 &executable->inputSpecs);
    if (failed(id))
      return failure();
    program.inputs.push_back(*id);
  }

  // Per step: the types of the fragment body's arguments, then results.
  std::vector<SmallVector<Type>> bodyTypes;
  for (Operation &op : main.getBody().front()) {
    DeviceProgram::Step step;
    Region *body = nullptr;
    SmallVector<Type> types;
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      program.outputs = idsOf(ret.getOperands());
      for (Value output : ret.getOperands()) {
        auto type = cast<MeshTensorType>(output.getType());
        RankedTensorType tensorType = type.getRankedTensorType();
        executable->outputSpecs.push_back(
            {*getDType(tensorType.getElementType(), ret.getLoc()),
             Shape(tensorType.getShape())});
      }
      continue;
    }
    if (auto call = dyn_cast<FragmentCallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return call.emitError("the MPMD executor cannot find the body of @")
               << call.getCallee();
      body = &callee.getBody();
      llvm::append_range(types, callee.getFunctionType().getInputs());
      llvm::append_range(types, callee.getFunctionType().getResults());
      step.mesh = *topology.getMeshIndex(call.getMeshName());
      step.name = describeFragment(call.getOrigin(), call, call.getCallee());
      step.letter = getFragmentLetter(call.getOrigin());
      for (unsigned i = 0; i < call.getNumOperands(); ++i)
        step.donatable.push_back(callee.getArgAttr(i, kBufferDonorAttrName) ||
                                 callee.getArgAttr(i, kAliasingOutputAttrName));
    } else if (auto fragment = dyn_cast<FragmentOp>(op)) {
      body = &fragment.getRegion();
      llvm::append_range(types, body->front().getArgumentTypes());
      llvm::append_range(types,
                         body->front().getTerminator()->getOperandTypes());
      step.mesh = *topology.getMeshIndex(fragment.getMeshName());
      step.name = describeFragment(fragment.getOrigin(), fragment, "inferred");
      step.letter = getFragmentLetter(fragment.getOrigin());
    } else if (auto transfer = dyn_cast<TransferOp>(op)) {
      step.kind = DeviceProgram::StepKind::kTransfer;
      step.letter = 'T';
      auto resultType = cast<MeshTensorType>(transfer.getType());
      step.mesh = *topology.getMeshIndex(resultType.getMeshName());
      step.name = "transfer " +
                  cast<MeshTensorType>(transfer.getTensor().getType())
                      .getMeshName()
                      .str() +
                  "->" + resultType.getMeshName().str();
    } else {
      return op.emitError("the MPMD executor runs fragment calls, fragments "
                          "and transfers; '")
             << op.getName()
             << "' cannot run here (lower the program with `mpmd compile`)";
    }
    for (Value operand : op.getOperands())
      if (!valueIds.count(operand))
        return op.emitError("the MPMD executor supports mesh tensors only, "
                            "not ")
               << operand.getType();
    step.operands = idsOf(op.getOperands());
    for (OpResult result : op.getResults()) {
      FailureOr<int64_t> id = addValue(
          result, op.getLoc(),
          step.name + " #" + std::to_string(result.getResultNumber()), nullptr);
      if (failed(id))
        return failure();
      step.results.push_back(*id);
    }
    program.meshOrder.resize(program.meshes.size());
    program.meshOrder[step.mesh].push_back(program.steps.size());
    program.steps.push_back(std::move(step));
    executable->stepBodies.push_back(body);
    executable->stepOps.push_back(&op);
    bodyTypes.push_back(std::move(types));
  }
  program.meshOrder.resize(program.meshes.size());
  if (failed(executable->layOutValues(std::move(typedLayouts), bodyTypes)))
    return failure();
  // The groups the fragment bodies' collectives meet in (nested regions
  // included), each body on its mesh's 1 x N grid: O(ops + processes per
  // collective).
  std::vector<int64_t> firstDevice;
  int64_t nextDevice = 0;
  for (const DeviceProgram::Mesh &mesh : program.meshes) {
    firstDevice.push_back(nextDevice);
    nextDevice += mesh.numDevices;
  }
  std::set<std::vector<int64_t>> seenGroups;
  for (auto [index, step] : llvm::enumerate(program.steps)) {
    Region *body = executable->stepBodies[index];
    int64_t numDevices = program.meshes[step.mesh].numDevices;
    if (!body || numDevices < 2)
      continue;
    WalkResult walked = body->walk([&](Operation *op) {
      if (!isProcessOp(*op))
        return WalkResult::advance();
      FailureOr<std::vector<std::vector<int64_t>>> groups =
          runtime::getCollectiveGroups(*op, ProcessGrid{1, numDevices});
      if (failed(groups))
        return WalkResult::interrupt();
      for (std::vector<int64_t> &group : *groups) {
        for (int64_t &member : group)
          member += firstDevice[step.mesh];
        if (seenGroups.insert(group).second)
          executable->collectiveGroups.push_back(std::move(group));
      }
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return failure();
  }

  if (llvm::Error error = verifyStructure(program))
    return main.emitError("internal error: ")
           << llvm::toString(std::move(error));
  if (llvm::Error error = verifyProgress(program))
    return main.emitError("the program cannot run: ")
           << llvm::toString(std::move(error));
  return executable;
}

Executable::~Executable() = default;

std::unique_ptr<Interpreter> Executable::takeInterpreter(int64_t device) const {
  {
    std::lock_guard<std::mutex> lock(interpretersMutex);
    if (device < int64_t(idleInterpreters.size()) &&
        !idleInterpreters[device].empty()) {
      std::unique_ptr<Interpreter> kept =
          std::move(idleInterpreters[device].back());
      idleInterpreters[device].pop_back();
      return kept;
    }
  }
  return std::make_unique<Interpreter>(module);
}

void Executable::giveBackInterpreter(
    int64_t device, std::unique_ptr<Interpreter> interpreter) const {
  std::lock_guard<std::mutex> lock(interpretersMutex);
  if (device >= int64_t(idleInterpreters.size()))
    idleInterpreters.resize(device + 1);
  idleInterpreters[device].push_back(std::move(interpreter));
}

LogicalResult
Executable::layOutValues(std::vector<ShardLayout> typedLayouts,
                         llvm::ArrayRef<SmallVector<Type>> bodyTypes) {
  const int64_t numValues = program.values.size();
  // A fragment runs on shards when its body has the local types, replicated
  // when it has the global ones (all equal when nothing is split).
  stepOnShards.assign(program.steps.size(), false);
  std::vector<bool> readWhole(numValues, false);
  for (auto [index, step] : llvm::enumerate(program.steps)) {
    if (step.kind == DeviceProgram::StepKind::kTransfer)
      continue;
    std::vector<int64_t> ids = step.operands;
    llvm::append_range(ids, step.results);
    llvm::ArrayRef<Type> types = bodyTypes[index];
    auto shapeOf = [&](size_t i) {
      return cast<RankedTensorType>(types[i]).getShape();
    };
    bool global = types.size() == ids.size(), local = global;
    for (size_t i = 0; i < types.size() && (global || local); ++i) {
      if (!isa<RankedTensorType>(types[i])) {
        global = local = false;
        break;
      }
      global &= shapeOf(i) == llvm::ArrayRef(valueSpecs[ids[i]].shape);
      local &=
          shapeOf(i) == llvm::ArrayRef(typedLayouts[ids[i]].getLocalShape());
    }
    if (global) {
      for (int64_t id : ids)
        readWhole[id] = true;
      continue;
    }
    if (local) {
      stepOnShards[index] = true;
      continue;
    }
    // The verifier of fragment calls and fragments allows nothing else.
    return stepOps[index]->emitError("fragment '")
           << step.name
           << "': its body has neither the global types of its "
              "operands and results nor their shards";
  }

  // A value a replicated fragment touches is held whole by every device.
  operandShards.assign(numValues, std::nullopt);
  for (int64_t value = 0; value < numValues; ++value) {
    ShardLayout &typed = typedLayouts[value];
    if (readWhole[value] && !typed.isReplicated()) {
      layouts.push_back(ShardLayout::replicated(typed.getGlobalShape(),
                                                typed.getNumDevices()));
      operandShards[value] = std::move(typed);
    } else {
      layouts.push_back(std::move(typed));
    }
    // The shard is no larger than the global tensor, whose size fits.
    program.values[value].bytes = *checkedProduct(
        layouts[value].getLocalShape(), dtypeSize(valueSpecs[value].dtype));
  }
  for (auto [index, step] : llvm::enumerate(program.steps))
    if (stepOnShards[index])
      for (int64_t result : step.results)
        if (operandShards[result])
          return stepOps[index]->emitError("fragment '")
                 << step.name << "' writes shards of "
                 << program.values[result].name
                 << ", which a fragment with global types reads whole: run "
                    "both on shards or both replicated";

  stepPieces.resize(program.steps.size());
  for (auto [index, step] : llvm::enumerate(program.steps)) {
    if (step.kind != DeviceProgram::StepKind::kTransfer)
      continue;
    int64_t source = step.operands.front(), result = step.results.front();
    stepPieces[index] = planRelayout(layouts[source], layouts[result]);
    for (const RelayoutPiece &piece : stepPieces[index])
      step.pieces.push_back(
          {piece.sourceDevice, piece.device,
           *checkedProduct(piece.sourceBox.shape,
                           dtypeSize(valueSpecs[result].dtype))});
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// The state of one run: value slots per device, byte counts, the
/// transfers in flight.
class Executable::Run {
public:
  /// `pinsWhenSpinning`: whether device threads that spin are pinned to
  /// cores (ExecutorOptions::pinDeviceThreads, else whether the machine was
  /// idle before the run).
  Run(const Executable &executable, const ExecutorOptions &options,
      Transport &transport, bool pinsWhenSpinning)
      : executable(executable), program(executable.program), options(options),
        transport(transport) {
    for (const DeviceProgram::Mesh &mesh : program.meshes) {
      meshBase.push_back(numDevices);
      numDevices += mesh.numDevices;
      maxMeshDevices = std::max(maxMeshDevices, mesh.numDevices);
    }
    for (const DeviceProgram::Value &value : program.values) {
      slotBase.push_back(numSlots);
      numSlots += program.meshes[value.mesh].numDevices;
    }
    slots.resize(numSlots);
    devices = std::make_unique<DeviceState[]>(numDevices);
    isOutput.assign(program.values.size(), false);
    gatheredOutputs.resize(program.outputs.size());
    for (int64_t output : program.outputs)
      isOutput[output] = true;
    readers.resize(program.values.size());
    handsOver.resize(program.steps.size());
    int64_t localDevices = 0;
    for (int64_t device = 0; device < numDevices; ++device)
      localDevices += transport.isLocal(device);
    // One device never waits for another.
    spins = localDevices > 1 &&
            localDevices <= int64_t(std::thread::hardware_concurrency());
    startedSpinning = spins;
    // Only when every device runs here (processes sharing a machine, MPI
    // ranks, would each pin theirs to the same first cores), while
    // spinning, and unless the options say otherwise, on an idle machine.
    if (spins && localDevices == numDevices && pinsWhenSpinning)
      pinning.emplace(localDevices);
    for (auto [index, step] : llvm::enumerate(program.steps)) {
      int64_t meshDevices = program.meshes[step.mesh].numDevices;
      if (step.kind == DeviceProgram::StepKind::kTransfer) {
        int64_t source = step.operands.front(), result = step.results.front();
        int64_t fromMesh = program.getSourceMesh(step);
        readers[source].push_back(index);
        for (const RelayoutPiece &piece : executable.stepPieces[index]) {
          ++slot(source, piece.sourceDevice).usesLeft;
          handsOver[index].push_back(
              transport.isLocal(deviceIndex(fromMesh, piece.sourceDevice)) &&
              transport.isLocal(deviceIndex(step.mesh, piece.device)) &&
              isWholeValue(piece.sourceBox, source) &&
              isWholeValue(piece.destinationBox, result));
        }
        continue;
      }
      for (int64_t operand : step.operands)
        for (int64_t device = 0; device < meshDevices; ++device)
          ++slot(operand, device).usesLeft;
    }
  }

  llvm::Expected<RunResult> execute(std::vector<Tensor> inputs);

private:
  struct Slot {
    Tensor tensor;
    bool ready = false;
    bool live = false;
    /// A handed-over transfer result whose receive is issued and whose
    /// source is not ready yet: the source's device completes it.
    bool awaitingHandover = false;
    /// A transfer result: when its first piece started landing, and how
    /// many pieces are still to land.
    double receiveStartUs = 0;
    int64_t piecesLeft = 0;
    int64_t usesLeft = 0;
  };
  struct DeviceState {
    int64_t liveBytes = 0, peakBytes = 0;
    double busyUs = 0;
    /// The step the device thread is at (for the timeout's message); -1
    /// once it finished its order.
    int64_t currentStep = -1;
    /// Bumped (with `mutex` held) whenever an operand of the device lands
    /// or the run fails: what a spinning device thread watches without
    /// the lock.
    std::atomic<uint64_t> wakeups{0};
    /// The device thread waits on `operandsArrived` (no longer spins).
    bool parked = false;
    std::condition_variable operandsArrived;
    std::vector<ExecutedStep> executed;
  };

  Slot &slot(int64_t value, int64_t device) {
    return slots[slotBase[value] + device];
  }
  int64_t deviceIndex(int64_t mesh, int64_t device) const {
    return meshBase[mesh] + device;
  }
  /// The message tag of transfer `step` into `device` of its mesh: unique
  /// per (transfer, receiving device), the same in every process.
  int64_t transferTag(int64_t step, int64_t device) const {
    return step * maxMeshDevices + device;
  }
  double now() const {
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now() - startTime)
        .count();
  }

  // All below run with `mutex` held.
  /// `where` (e.g. "at 'layer_1 mb 0'") is only rendered for the error.
  llvm::Error allocate(int64_t value, int64_t device, const llvm::Twine &where);
  void release(int64_t value, int64_t device);
  void consume(int64_t value, int64_t device) {
    Slot &used = slot(value, device);
    if (--used.usesLeft == 0)
      release(value, device);
  }
  /// Sends `value`, now on `device` of its mesh, to the devices of the
  /// transfers that read it.
  void onReady(int64_t value, int64_t device);
  /// Posts the receive of transfer `index` into `device` of its mesh.
  void postReceive(int64_t index, int64_t device);
  /// Whether `box` is all of what a device holds of `value`.
  bool isWholeValue(const TensorBox &box, int64_t value) const {
    return llvm::all_of(box.begin, [](int64_t begin) { return begin == 0; }) &&
           llvm::ArrayRef(box.shape) ==
               llvm::ArrayRef(executable.layouts[value].getLocalShape());
  }
  /// Transfer `index` into `device` of its mesh, a handover (its one piece,
  /// from `sourceDevice`, is the whole value, both devices in this
  /// process): the receiver takes the sender's tensor, sharing its buffer
  /// (tensors are immutable once made; a kernel writes in place only into a
  /// buffer it holds alone). Runs when both the receive is issued and the
  /// source is ready, on the thread that saw the second.
  void handOver(int64_t index, int64_t device, int64_t sourceDevice);
  /// Wakes `device`'s thread to recheck its operands.
  void wake(DeviceState &state) {
    state.wakeups.fetch_add(1, std::memory_order_release);
    if (state.parked)
      state.operandsArrived.notify_one();
  }
  /// Takes `lock` (the run's mutex): when spinning, first by trying for a
  /// while, so that a device thread that just saw its operand land does not
  /// sleep on the mutex its sender still holds (a futex wait, then a wake-up
  /// call by the sender: tens of microseconds on a virtual machine).
  void lockDevice(std::unique_lock<std::mutex> &lock) {
    if (spins.load(std::memory_order_relaxed))
      for (int attempt = 0; attempt < kLockAttempts; ++attempt) {
        if (lock.try_lock())
          return;
        pauseBriefly();
      }
    lock.lock();
  }
  /// Waits (spinning, then parked) until `ready()`, with `lock` held on
  /// entry and exit; `ready` is evaluated with the lock held.
  template <typename Ready>
  void waitForOperands(DeviceState &state, std::unique_lock<std::mutex> &lock,
                       Ready ready);
  /// A transfer of this run completed (or failed).
  void transferFinished() {
    if (--pendingTransfers == 0)
      progressed.notify_all();
  }
  void fail(llvm::Error error) {
    if (aborted) {
      llvm::consumeError(std::move(error));
      return;
    }
    firstError = llvm::toString(std::move(error));
    aborted = true;
    transport.abort(firstError);
    for (int64_t device = 0; device < numDevices; ++device) {
      devices[device].wakeups.fetch_add(1, std::memory_order_release);
      devices[device].operandsArrived.notify_all();
    }
    progressed.notify_all();
  }
  /// After the steps: the shards of each output held (by their first
  /// holder) in another process than its mesh's device 0 go there, through
  /// the transport.
  void gatherOutputShards();
  /// Output `index` (value `value`), the global tensor from its shards (a
  /// single shard as is): an empty tensor when device 0 of its mesh runs in
  /// another process. O(bytes).
  Tensor assembleOutput(int64_t index, int64_t value);
  /// "m0:0 at 'layer_1 mb 2'; m1:0 at ..." for the devices still running.
  std::string describeWaitingDevices();

  void runDevice(int64_t mesh, int64_t device);
  void runSteps(int64_t mesh, int64_t device,
                std::unique_lock<std::mutex> &lock);
  void waitForStart() {
    std::unique_lock<std::mutex> lock(mutex);
    started.wait(lock, [&] { return isStarted; });
  }

  const Executable &executable;
  const DeviceProgram &program;
  const ExecutorOptions &options;
  Transport &transport;
  int64_t numDevices = 0, numSlots = 0, maxMeshDevices = 1;
  std::vector<int64_t> meshBase, slotBase;
  std::vector<Slot> slots;
  std::unique_ptr<DeviceState[]> devices;
  std::vector<bool> isOutput;
  /// Per value: the transfers that read it.
  std::vector<std::vector<int64_t>> readers;
  /// Per transfer step, per piece: whether it is a handover (handOver).
  std::vector<std::vector<bool>> handsOver;
  /// Whether waiting device threads spin before they park: only when each
  /// local device has a core of its own, else spinning takes the core of a
  /// device that has work. Cleared for the rest of the run when a fragment
  /// got less than kBusyShareToSpin of its wall time on the CPU, or a
  /// spinning thread was descheduled (kDescheduled): other processes want
  /// the cores, and a spinning device would keep one from them (and from
  /// the device it waits for).
  std::atomic<bool> spins = false;
  /// Whether the run started spinning, and why and when it stopped (set
  /// once, by the thread that cleared `spins`; read after the threads end).
  bool startedSpinning = false;
  double spinStoppedUs = 0;
  std::string spinStopReason;
  /// A device thread lost its core while spinning or computing. Another
  /// process wants the core, or (unpinned) the two devices share one: the
  /// run stops spinning. But a pinned run on a machine where no other
  /// process is runnable lost it to the hypervisor (steal time on a virtual
  /// machine): spinning and the cores stay, since unpinning would let the
  /// scheduler put two devices on one core for the rest of the step.
  void onCoreLost(std::string reason) {
    if (pinning && pinning->pins() && isMachineIdle()) {
      hostPreemptions.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    stopSpinning(std::move(reason));
  }
  std::atomic<int64_t> hostPreemptions = 0;
  /// Clears `spins` for the rest of the run; the first caller records why.
  void stopSpinning(std::string reason) {
    bool expected = true;
    if (!spins.compare_exchange_strong(expected, false,
                                       std::memory_order_relaxed))
      return;
    spinStoppedUs = now();
    spinStopReason = std::move(reason);
  }
  /// The device threads' cores, while they spin (set up when every device
  /// is local and the run starts spinning): a thread lets go of its core
  /// once the run stops spinning, since on a loaded machine a pinned
  /// thread cannot move off a core that another process holds.
  std::optional<DeviceThreadPinning> pinning;
  /// Per output: the buffer other processes' shards land in (empty when
  /// none do).
  std::vector<Tensor> gatheredOutputs;
  int64_t transferredBytes = 0;

  std::mutex mutex;
  std::condition_variable started;
  /// Notified when a device thread finishes, the last transfer in flight
  /// completes, or the run fails.
  std::condition_variable progressed;
  int64_t runningDevices = 0;
  /// Sends and receives posted to the transport and not yet completed.
  int64_t pendingTransfers = 0;
  bool isStarted = false;
  std::chrono::steady_clock::time_point startTime;
  bool aborted = false;
  std::string firstError;
};

llvm::Error Executable::Run::allocate(int64_t value, int64_t device,
                                      const llvm::Twine &where) {
  const DeviceProgram::Value &info = program.values[value];
  DeviceState &state = devices[deviceIndex(info.mesh, device)];
  slot(value, device).live = true;
  state.liveBytes += info.bytes;
  state.peakBytes = std::max(state.peakBytes, state.liveBytes);
  if (!options.deviceMemoryBytes ||
      state.liveBytes <= *options.deviceMemoryBytes)
    return llvm::Error::success();
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "device " << program.describeDevice(info.mesh, device)
     << " exceeded its memory (" << *options.deviceMemoryBytes << " bytes) "
     << where << ": " << state.liveBytes << " bytes live:";
  int64_t listed = 0;
  for (int64_t other = 0; other < static_cast<int64_t>(program.values.size());
       ++other)
    if (program.values[other].mesh == info.mesh && slot(other, device).live &&
        listed++ < 8)
      os << (listed > 1 ? ", " : " ") << program.values[other].name << " ("
         << program.values[other].bytes << " B)";
  return makeRunError(message);
}

void Executable::Run::release(int64_t value, int64_t device) {
  Slot &freed = slot(value, device);
  if (!freed.live || isOutput[value])
    return;
  freed.live = false;
  freed.tensor = Tensor();
  devices[deviceIndex(program.values[value].mesh, device)].liveBytes -=
      program.values[value].bytes;
}

void Executable::Run::onReady(int64_t value, int64_t device) {
  int64_t fromMesh = program.values[value].mesh;
  for (int64_t transfer : readers[value]) {
    const DeviceProgram::Step &step = program.steps[transfer];
    for (auto [pieceIndex, piece] :
         llvm::enumerate(executable.stepPieces[transfer])) {
      if (piece.sourceDevice != device)
        continue;
      if (handsOver[transfer][pieceIndex]) {
        if (slot(step.results.front(), piece.device).awaitingHandover)
          handOver(transfer, piece.device, device);
        continue;
      }
      ++pendingTransfers;
      transport.postSendPiece(
          deviceIndex(fromMesh, device), deviceIndex(step.mesh, piece.device),
          transferTag(transfer, piece.device), slot(value, device).tensor,
          piece.sourceBox, [this, value, device](llvm::Error error) {
            std::lock_guard<std::mutex> lock(mutex);
            if (error)
              fail(std::move(error));
            else
              consume(value, device);
            transferFinished();
          });
    }
  }
}

void Executable::Run::handOver(int64_t index, int64_t device,
                               int64_t sourceDevice) {
  const DeviceProgram::Step &step = program.steps[index];
  int64_t source = step.operands.front(), result = step.results.front();
  Slot &made = slot(result, device);
  made.awaitingHandover = false;
  if (llvm::Error error =
          allocate(result, device, "at '" + llvm::Twine(step.name) + "'")) {
    fail(std::move(error));
    return;
  }
  made.tensor = slot(source, sourceDevice).tensor;
  made.ready = true;
  double at = now();
  int64_t bytes = program.values[result].bytes;
  transferredBytes += bytes;
  DeviceState &state = devices[deviceIndex(step.mesh, device)];
  state.executed.push_back({index, step.mesh, device,
                            program.getSourceMesh(step), sourceDevice, at, at,
                            bytes});
  consume(source, sourceDevice);
  if (made.usesLeft == 0) {
    release(result, device);
  } else {
    onReady(result, device);
    wake(state);
  }
}

template <typename Ready>
void Executable::Run::waitForOperands(DeviceState &state,
                                      std::unique_lock<std::mutex> &lock,
                                      Ready ready) {
  if (ready())
    return;
  if (spins.load(std::memory_order_relaxed)) {
    auto last = std::chrono::steady_clock::now();
    auto deadline = last + kSpinBeforeParking;
    while (true) {
      uint64_t seen = state.wakeups.load(std::memory_order_acquire);
      lock.unlock();
      bool late = false;
      for (int64_t round = 0;
           state.wakeups.load(std::memory_order_acquire) == seen; ++round) {
        pauseBriefly();
        // Every 16th round (microseconds): the clock, and the core offered
        // to other threads (on a loaded machine, the one this device waits
        // for). A long pause since the last look means the thread lost its
        // core: the machine has more work than cores, stop spinning.
        if (round % 16 == 15) {
          auto now = std::chrono::steady_clock::now();
          if (now - last > kDescheduled)
            onCoreLost(
                "a waiting device thread lost its core for " +
                std::to_string(std::chrono::duration_cast<
                                   std::chrono::microseconds>(now - last)
                                   .count()) +
                " us");
          last = now;
          late = now >= deadline || !spins.load(std::memory_order_relaxed);
          if (late)
            break;
          std::this_thread::yield();
        }
      }
      lockDevice(lock);
      if (ready())
        return;
      if (late)
        break;
    }
  }
  state.parked = true;
  state.operandsArrived.wait(lock, ready);
  state.parked = false;
}

void Executable::Run::postReceive(int64_t index, int64_t device) {
  const DeviceProgram::Step &step = program.steps[index];
  int64_t fromMesh = program.getSourceMesh(step);
  int64_t result = step.results.front();
  const TensorSpec &spec = executable.valueSpecs[result];
  auto isMine = [device](const RelayoutPiece &piece) {
    return piece.device == device;
  };
  // A handover: the only piece of the device (it is the whole value).
  for (auto [pieceIndex, piece] : llvm::enumerate(executable.stepPieces[index]))
    if (piece.device == device && handsOver[index][pieceIndex]) {
      if (slot(step.operands.front(), piece.sourceDevice).ready)
        handOver(index, device, piece.sourceDevice);
      else
        slot(result, device).awaitingHandover = true;
      return;
    }
  auto pieces = llvm::make_filter_range(executable.stepPieces[index], isMine);
  slot(result, device).piecesLeft =
      llvm::count_if(executable.stepPieces[index], isMine);
  int64_t firstSource = (*pieces.begin()).sourceDevice;
  for (const RelayoutPiece &piece : pieces) {
    PieceReceiveCallbacks callbacks;
    // The first piece to land allocates the device's shard; the others
    // land in it.
    callbacks.onStart = [this, index, device,
                         result]() -> std::optional<Tensor> {
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (aborted)
          return std::nullopt;
        Slot &made = slot(result, device);
        if (made.live)
          return made.tensor;
        // The first piece: the shard is allocated and starts landing.
        if (llvm::Error error = allocate(
                result, device,
                "at '" + llvm::Twine(program.steps[index].name) + "'")) {
          fail(std::move(error));
          return std::nullopt;
        }
        made.tensor = Tensor::empty(executable.valueSpecs[result].dtype,
                                    executable.layouts[result].getLocalShape());
      }
      if (options.beforeStepForTesting)
        options.beforeStepForTesting(index);
      double start = now();
      std::lock_guard<std::mutex> lock(mutex);
      Slot &made = slot(result, device);
      made.receiveStartUs = start;
      return made.tensor;
    };
    int64_t bytes =
        checkedProduct(piece.destinationBox.shape, dtypeSize(spec.dtype))
            .value_or(0);
    callbacks.onDone = [this, index, device, result, fromMesh, firstSource,
                        bytes](llvm::Error error) {
      double end = now();
      std::lock_guard<std::mutex> lock(mutex);
      transferFinished();
      if (error) {
        fail(std::move(error));
        return;
      }
      transferredBytes += bytes;
      Slot &made = slot(result, device);
      if (--made.piecesLeft > 0)
        return;
      const DeviceProgram::Step &step = program.steps[index];
      DeviceState &state = devices[deviceIndex(step.mesh, device)];
      state.executed.push_back({index, step.mesh, device, fromMesh, firstSource,
                                made.receiveStartUs, end,
                                program.values[result].bytes});
      made.ready = true;
      if (made.usesLeft == 0) {
        release(result, device);
      } else {
        onReady(result, device);
        wake(state);
      }
    };
    ++pendingTransfers;
    transport.postReceivePiece(deviceIndex(fromMesh, piece.sourceDevice),
                               deviceIndex(step.mesh, device),
                               transferTag(index, device), spec.dtype,
                               piece.destinationBox, std::move(callbacks));
  }
}

void Executable::Run::runDevice(int64_t mesh, int64_t device) {
  waitForStart();
  std::unique_lock<std::mutex> lock(mutex);
  runSteps(mesh, device, lock);
  devices[deviceIndex(mesh, device)].currentStep = -1;
  if (--runningDevices == 0)
    progressed.notify_all();
}

void Executable::Run::runSteps(int64_t mesh, int64_t device,
                               std::unique_lock<std::mutex> &lock) {
  lock.unlock();
  // The device is partition `device` of its mesh's 1 x N grid: the
  // collectives and partition_id of an SPMD-partitioned fragment body run
  // over the mesh's devices through the transport.
  TransportCollectives collectives(transport, deviceIndex(mesh, 0));
  std::unique_ptr<Interpreter> interpreter =
      executable.takeInterpreter(deviceIndex(mesh, device));
  llvm::scope_exit giveBack([&] {
    executable.giveBackInterpreter(deviceIndex(mesh, device),
                                   std::move(interpreter));
  });
  interpreter->resetRunState();
  interpreter->setProcess({ProcessGrid{1, program.meshes[mesh].numDevices},
                           ProcessId{0, device},
                           /*rendezvous=*/nullptr, &collectives});
  bool pinned = pinning && pinning->pins();
  if (pinned)
    pinning->pin(deviceIndex(mesh, device));
  lock.lock();
  DeviceState &state = devices[deviceIndex(mesh, device)];
  for (int64_t index : program.meshOrder[mesh]) {
    if (aborted)
      return;
    if (pinned && !spins.load(std::memory_order_relaxed)) {
      pinning->unpin();
      pinned = false;
    }
    state.currentStep = index;
    const DeviceProgram::Step &step = program.steps[index];
    if (step.kind == DeviceProgram::StepKind::kTransfer) {
      postReceive(index, device);
      continue;
    }
    waitForOperands(state, lock, [&] {
      return aborted || llvm::all_of(step.operands, [&](int64_t operand) {
               return slot(operand, device).ready;
             });
    });
    if (aborted)
      return;

    // Donated operands at their last use move into the fragment (their
    // bytes are released before the results are allocated: the results
    // take their place).
    std::vector<Tensor> arguments;
    std::vector<bool> moved(step.operands.size(), false);
    for (auto [i, operand] : llvm::enumerate(step.operands)) {
      Slot &used = slot(operand, device);
      // One use left: this one, and the operand appears once.
      if (!step.donatable.empty() && step.donatable[i] && used.usesLeft == 1 &&
          !isOutput[operand]) {
        arguments.push_back(std::move(used.tensor));
        used.usesLeft = 0;
        release(operand, device);
        moved[i] = true;
      } else if (const std::optional<ShardLayout> &shards =
                     executable.operandShards[operand];
                 shards && executable.stepOnShards[index]) {
        // Held whole for a replicated fragment; this one reads its shard.
        arguments.push_back(extractBox(used.tensor, shards->getBox(device)));
      } else {
        arguments.push_back(used.tensor);
      }
    }
    for (int64_t result : step.results)
      if (llvm::Error error =
              allocate(result, device, "at '" + llvm::Twine(step.name) + "'")) {
        fail(std::move(error));
        return;
      }

    lock.unlock();
    if (options.beforeStepForTesting)
      options.beforeStepForTesting(index);
    llvm::Error injected = options.faultForTesting
                               ? options.faultForTesting(index, mesh, device)
                               : llvm::Error::success();
    bool spinning = spins.load(std::memory_order_relaxed);
    double start = now(), cpuStart = spinning ? getThreadCpuMicros() : 0;
    FailureOr<std::vector<Tensor>> results =
        injected ? FailureOr<std::vector<Tensor>>(failure())
                 : interpreter->runRegion(*executable.stepBodies[index],
                                          std::move(arguments));
    double end = now();
    if (double cpu = spinning ? getThreadCpuMicros() - cpuStart : 0;
        spinning && cpu < kBusyShareToSpin * (end - start))
      onCoreLost("fragment '" + step.name + "' on " +
                 program.describeDevice(mesh, device) + " got " +
                 std::to_string(int(100 * cpu / (end - start))) +
                 "% of its wall time on a CPU");
    lockDevice(lock);

    if (failed(results)) {
      fail(makeRunError("fragment '" + step.name + "' failed on device " +
                        program.describeDevice(mesh, device) +
                        (injected ? ": " + llvm::toString(std::move(injected))
                                  : std::string(" (see the error above)"))));
      return;
    }
    state.busyUs += end - start;
    state.executed.push_back({index, mesh, device, mesh, device, start, end});
    for (auto [result, tensor] : llvm::zip(step.results, *results)) {
      Slot &made = slot(result, device);
      made.tensor = std::move(tensor);
      made.ready = true;
      if (made.usesLeft == 0)
        release(result, device);
      else
        onReady(result, device);
    }
    for (auto [i, operand] : llvm::enumerate(step.operands))
      if (!moved[i])
        consume(operand, device);
  }
}

void Executable::Run::gatherOutputShards() {
  for (auto [index, value] : llvm::enumerate(program.outputs)) {
    int64_t mesh = program.values[value].mesh;
    int64_t owner = deviceIndex(mesh, 0);
    const ShardLayout &layout = executable.layouts[value];
    const TensorSpec &spec = executable.valueSpecs[value];
    for (int64_t shard = 0; shard < layout.getNumShards(); ++shard) {
      int64_t holder = layout.getHolders(shard).front();
      int64_t from = deviceIndex(mesh, holder);
      if (transport.getProcessOf(from) == transport.getProcessOf(owner))
        continue;
      int64_t tag =
          (int64_t(program.steps.size()) + int64_t(index)) * maxMeshDevices;
      if (transport.isLocal(owner)) {
        if (!gatheredOutputs[index].bytes())
          gatheredOutputs[index] = Tensor::empty(spec.dtype, spec.shape);
        PieceReceiveCallbacks callbacks;
        callbacks.onStart = [this, index]() -> std::optional<Tensor> {
          std::lock_guard<std::mutex> lock(mutex);
          if (aborted)
            return std::nullopt;
          return gatheredOutputs[index];
        };
        callbacks.onDone = [this](llvm::Error error) {
          std::lock_guard<std::mutex> lock(mutex);
          if (error)
            fail(std::move(error));
          transferFinished();
        };
        ++pendingTransfers;
        transport.postReceivePiece(from, owner, tag, spec.dtype,
                                   layout.getBox(holder), std::move(callbacks));
      } else if (transport.isLocal(from)) {
        ++pendingTransfers;
        const Tensor &held = slot(value, holder).tensor;
        transport.postSendPiece(
            from, owner, tag, held,
            {std::vector<int64_t>(held.rank(), 0), held.shape()},
            [this](llvm::Error error) {
              std::lock_guard<std::mutex> lock(mutex);
              if (error)
                fail(std::move(error));
              transferFinished();
            });
      }
    }
  }
}

Tensor Executable::Run::assembleOutput(int64_t index, int64_t value) {
  int64_t mesh = program.values[value].mesh;
  if (!transport.isLocal(deviceIndex(mesh, 0)))
    return Tensor();
  const ShardLayout &layout = executable.layouts[value];
  if (layout.getNumShards() == 1 && !gatheredOutputs[index].bytes())
    return slot(value, 0).tensor;
  const TensorSpec &spec = executable.valueSpecs[value];
  Tensor whole = gatheredOutputs[index].bytes()
                     ? gatheredOutputs[index]
                     : Tensor::empty(spec.dtype, spec.shape);
  // The shards held in this process (the others were received into it).
  for (int64_t shard = 0; shard < layout.getNumShards(); ++shard) {
    int64_t holder = layout.getHolders(shard).front();
    if (!transport.isLocal(deviceIndex(mesh, holder)))
      continue;
    copyBox(slot(value, holder).tensor,
            std::vector<int64_t>(spec.shape.size(), 0), whole,
            layout.getBegin(holder).vec(), layout.getLocalShape());
  }
  return whole;
}

std::string Executable::Run::describeWaitingDevices() {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [mesh, info] : llvm::enumerate(program.meshes))
    for (int64_t device = 0; device < info.numDevices; ++device) {
      int64_t step = devices[deviceIndex(mesh, device)].currentStep;
      if (step < 0 || !transport.isLocal(deviceIndex(mesh, device)))
        continue;
      os << (text.empty() ? "" : "; ") << program.describeDevice(mesh, device)
         << " at '" << program.steps[step].name << "'";
    }
  if (text.empty())
    os << "every device finished its steps; transfers are still in flight";
  return text;
}

llvm::Expected<RunResult> Executable::Run::execute(std::vector<Tensor> inputs) {
  // Transfers, then the gathering of the outputs' shards.
  const int64_t tagBlocks = program.steps.size() + program.outputs.size();
  if (std::optional<int64_t> tags = checkedMul(tagBlocks, maxMeshDevices);
      !tags || *tags - 1 > transport.getMaxTag())
    return makeRunError("the program needs " + std::to_string(tagBlocks) +
                        " x " + std::to_string(maxMeshDevices) +
                        " message tags; the transport allows " +
                        std::to_string(transport.getMaxTag() + 1));
  std::vector<std::pair<int64_t, int64_t>> readyInputs;
  for (auto [index, value] : llvm::enumerate(program.inputs)) {
    int64_t mesh = program.values[value].mesh;
    for (int64_t device = 0; device < program.meshes[mesh].numDevices;
         ++device) {
      if (!transport.isLocal(deviceIndex(mesh, device)))
        continue;
      Slot &input = slot(value, device);
      input.tensor =
          extractBox(inputs[index], executable.layouts[value].getBox(device));
      input.ready = true;
      if (llvm::Error error = allocate(value, device, "with the inputs"))
        return makeRunError("the inputs do not fit: " +
                            llvm::toString(std::move(error)));
      if (input.usesLeft == 0)
        release(value, device);
      else
        readyInputs.push_back({value, device});
    }
  }
  inputs.clear();

  std::vector<std::thread> threads;
  for (auto [mesh, info] : llvm::enumerate(program.meshes))
    for (int64_t device = 0; device < info.numDevices; ++device)
      if (transport.isLocal(deviceIndex(mesh, device)))
        threads.emplace_back([this, mesh, device] { runDevice(mesh, device); });
  RunResult result;
  {
    std::unique_lock<std::mutex> lock(mutex);
    runningDevices = threads.size();
    startTime = std::chrono::steady_clock::now();
    result.startUnixMicros =
        std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::system_clock::now().time_since_epoch())
            .count();
    isStarted = true;
    // Inputs that other devices receive go out right away.
    for (auto [value, device] : readyInputs)
      onReady(value, device);
    started.notify_all();
    // Waits until `done` (or the run's timeout, which fails the run).
    auto waitFor = [&](auto done) {
      if (!options.timeoutSeconds) {
        progressed.wait(lock, done);
        return;
      }
      auto deadline =
          startTime +
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              std::chrono::duration<double>(*options.timeoutSeconds));
      if (progressed.wait_until(lock, deadline, done))
        return;
      std::string message =
          "the step did not finish within the timeout of " +
          std::string(llvm::formatv(
              "{0}", llvm::format("%g", *options.timeoutSeconds))) +
          " s; still running: " + describeWaitingDevices();
      fail(makeRunError(message));
      if (options.onTimeout) {
        lock.unlock();
        options.onTimeout(message);
        lock.lock();
      }
    };
    waitFor([&] {
      return aborted || (runningDevices == 0 && pendingTransfers == 0);
    });
    if (!aborted) {
      gatherOutputShards();
      waitFor([&] { return aborted || pendingTransfers == 0; });
    }
  }
  for (std::thread &thread : threads)
    thread.join();
  // No callback of the transport reaches this run after this.
  transport.endRun();
  if (aborted)
    return makeRunError(firstError);

  for (auto [index, output] : llvm::enumerate(program.outputs))
    result.outputs.push_back(assembleOutput(index, output));
  for (auto [mesh, info] : llvm::enumerate(program.meshes))
    for (int64_t device = 0; device < info.numDevices; ++device) {
      if (!transport.isLocal(deviceIndex(mesh, device)))
        continue;
      DeviceState &state = devices[deviceIndex(mesh, device)];
      result.devices.push_back(
          {int64_t(mesh), device, state.peakBytes, state.busyUs,
           pinning && pinning->pins()
               ? pinning->getCpu(deviceIndex(mesh, device))
               : -1});
      for (const ExecutedStep &executed : state.executed) {
        result.stepUs = std::max(result.stepUs, executed.endUs);
        result.executed.push_back(executed);
      }
    }
  result.transferredBytes = transferredBytes;
  result.spun = startedSpinning;
  // A thread checks whether it lost its core after its fragment ends, so a
  // stop can come after the step's last fragment: it stopped nothing of the
  // step, and is reported at the step's end.
  result.spinStoppedUs = std::min(spinStoppedUs, result.stepUs);
  result.spinStopReason = spinStopReason;
  result.hostPreemptions = hostPreemptions.load(std::memory_order_relaxed);
  return result;
}

llvm::Error Executable::checkInputs(llvm::ArrayRef<Tensor> inputs,
                                    const Transport *transport) const {
  if (inputs.size() != inputSpecs.size())
    return makeRunError("the program takes " +
                        std::to_string(inputSpecs.size()) + " inputs, got " +
                        std::to_string(inputs.size()));
  // Inputs of meshes that run in other processes are not read.
  auto isRead = [&](int64_t index) {
    if (!transport)
      return true;
    int64_t mesh = program.values[program.inputs[index]].mesh, base = 0;
    for (int64_t earlier = 0; earlier < mesh; ++earlier)
      base += program.meshes[earlier].numDevices;
    for (int64_t device = 0; device < program.meshes[mesh].numDevices; ++device)
      if (transport->isLocal(base + device))
        return true;
    return false;
  };
  for (auto [index, spec] : llvm::enumerate(inputSpecs))
    if (isRead(index) && (inputs[index].dtype() != spec.dtype ||
                          inputs[index].shape() != spec.shape))
      return makeRunError(
          "input " + std::to_string(index) + ": expected " + toString(spec) +
          ", got " + toString({inputs[index].dtype(), inputs[index].shape()}));
  return llvm::Error::success();
}

llvm::Expected<RunResult>
Executable::run(std::vector<Tensor> inputs,
                const ExecutorOptions &options) const {
  if (llvm::Error error = checkInputs(inputs, options.transport))
    return std::move(error);
  if (options.deviceMemoryBytes)
    if (llvm::Expected<std::vector<int64_t>> peak =
            checkMemory(program, options.deviceMemoryBytes);
        !peak)
      return peak.takeError();

  // Decided before this run starts threads of its own (the transport's
  // copy engines are runnable while they start); one device never pins, so
  // its runs skip reading /proc.
  bool pinsWhenSpinning =
      options.pinDeviceThreads
          ? *options.pinDeviceThreads
          : program.getNumDevices() > 1 && isMachineIdle();
  // One core per device: BLAS must not spread each GEMM over every core.
  BlasThreadLimit oneThread(1);
  std::optional<ThreadsTransport> ownTransport;
  Transport *transport = options.transport;
  if (!transport)
    transport = &ownTransport.emplace(program.getNumDevices());
  Run run(*this, options, *transport, pinsWhenSpinning);
  return run.execute(std::move(inputs));
}

} // namespace mlir::mpmd::runtime
