//===- ModelProfile.cpp - The cost table of a model, measured here --------===//

#include "mpmd/Driver/ModelProfile.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Mpmd/IR/TensorSizes.h"
#include "mpmd/Driver/Config.h"
#include "mpmd/Driver/ExecutorCalibration.h"
#include "mpmd/Driver/ModelLayers.h"
#include "mpmd/Driver/StepMeasurement.h"
#include "mpmd/Examples/ConfigText.h"
#include "mpmd/Plan/Planner.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/ProgramIO.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

namespace mlir::mpmd::driver {

namespace {

using llvm::StringRef;

llvm::Error makeProfileError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

double getBytes(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  std::optional<int64_t> bits = type ? getSizeInBits(type) : std::nullopt;
  return bits ? static_cast<double>(*bits) / 8 : 0;
}

/// Whether every microbatch receives `value` unchanged: an argument of a
/// function that at least two mpmd.call ops call with the same value there.
bool isParameter(Value value, ModuleOp module) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument)
    return false;
  auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
  if (!function)
    return false;
  std::optional<std::optional<SymbolTable::UseRange>> uses =
      SymbolTable::getSymbolUses(function, module);
  Value passed;
  int64_t calls = 0;
  for (const SymbolTable::SymbolUse &use : **uses) {
    auto call = dyn_cast<CallOp>(use.getUser());
    if (!call)
      return false;
    Value operand = call.getOperand(argument.getArgNumber());
    if (passed && operand != passed)
      return false;
    passed = operand;
    ++calls;
  }
  return calls >= 2;
}

/// The bytes of `forward` (see the file comment); `backward` may be null.
void addForwardBytes(NamedComputationOp forward, NamedComputationOp backward,
                     ModuleOp module, plan::ComputationCost &cost) {
  auto isBackwardInput = [&](Value value) {
    return backward && llvm::is_contained(backward.getTensors(), value);
  };
  for (Value operand : forward.getTensors()) {
    if (isParameter(operand, module))
      cost.parameterBytes += 2 * getBytes(operand);
    else if (isBackwardInput(operand))
      cost.activationBytes += getBytes(operand);
  }
  for (Value result : forward.getResults()) {
    if (isBackwardInput(result))
      cost.activationBytes += getBytes(result);
    bool feedsNextLayer = llvm::any_of(result.getUsers(), [&](Operation *user) {
      auto next = dyn_cast<NamedComputationOp>(user);
      return next && next.getOrigin().getTransposeCount() == 0 &&
             next.getOrigin().getUserName() !=
                 forward.getOrigin().getUserName();
    });
    if (feedsNextLayer)
      cost.boundaryBytes += getBytes(result);
  }
}

/// The layer the work of an op outside the named computations belongs to:
/// the layer whose named computation produced one of its operands (through
/// mpmd.call results and other ops), else the first layer that takes one
/// of them (an input of @main, through calls and other ops). Memoized: O(ops
/// + uses) over all queries.
class LayerOfOps {
public:
  explicit LayerOfOps(ModuleOp module) : symbols(module) {}

  StringRef getLayer(Operation &op) {
    for (Value operand : op.getOperands())
      if (StringRef layer = getProducer(operand); !layer.empty())
        return layer;
    for (Value operand : op.getOperands())
      if (StringRef layer = getConsumer(operand); !layer.empty())
        return layer;
    for (Value result : op.getResults())
      if (StringRef layer = getConsumer(result); !layer.empty())
        return layer;
    return {};
  }

private:
  func::FuncOp getCallee(CallOp call) {
    return symbols.lookup<func::FuncOp>(call.getCallee());
  }

  StringRef getProducer(Value value) {
    auto [it, inserted] = producers.try_emplace(value);
    if (!inserted)
      return it->second;
    StringRef layer;
    Operation *op = value.getDefiningOp();
    if (auto named = dyn_cast_or_null<NamedComputationOp>(op)) {
      layer = named.getOrigin().getUserName();
    } else if (auto call = dyn_cast_or_null<CallOp>(op)) {
      if (func::FuncOp callee = getCallee(call))
        layer = getProducer(callee.front().getTerminator()->getOperand(
            cast<OpResult>(value).getResultNumber()));
    } else if (op) {
      for (Value operand : op->getOperands())
        if (layer = getProducer(operand); !layer.empty())
          break;
    }
    return producers[value] = layer;
  }

  StringRef getConsumer(Value value) {
    auto [it, inserted] = consumers.try_emplace(value);
    if (!inserted)
      return it->second;
    StringRef layer;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto named = dyn_cast<NamedComputationOp>(user)) {
        layer = named.getOrigin().getUserName();
      } else if (auto call = dyn_cast<CallOp>(user)) {
        if (func::FuncOp callee = getCallee(call))
          layer = getConsumer(callee.getArgument(use.getOperandNumber()));
      } else {
        for (Value result : user->getResults())
          if (layer = getConsumer(result); !layer.empty())
            break;
      }
      if (!layer.empty())
        break;
    }
    return consumers[value] = layer;
  }

  SymbolTable symbols;
  llvm::DenseMap<Value, StringRef> producers, consumers;
};

/// Whether `op` (outside the named computations) runs once per microbatch:
/// it sits in a function that mpmd.call calls, or reads a call's results.
bool runsPerMicrobatch(Operation &op,
                       const llvm::DenseSet<Operation *> &calledFunctions) {
  if (calledFunctions.contains(op.getParentOfType<func::FuncOp>()))
    return true;
  return llvm::any_of(op.getOperands(), [](Value operand) {
    return isa_and_nonnull<CallOp>(operand.getDefiningOp());
  });
}

struct MeasuredTime {
  double seconds = 0;
  int64_t calls = 0;
};

/// A layer's times in one measured run: per call of its forward and
/// backward, its gradient sums per microbatch and its update.
struct LayerTimes {
  double forward, backward, accumulate, update;
  bool hasBackward;

  static LayerTimes min(const LayerTimes &a, const LayerTimes &b) {
    return {std::min(a.forward, b.forward), std::min(a.backward, b.backward),
            std::min(a.accumulate, b.accumulate), std::min(a.update, b.update),
            a.hasBackward};
  }

  /// The work the fragments of a pipelined step run, as profiled: all
  /// `microbatches`' forwards, backwards and gradient sums, and the update.
  double getStepSeconds(int64_t microbatches) const {
    return microbatches * (forward + backward + accumulate) + update;
  }
};

/// The model's layers cut evenly over two meshes of one device with 1F1B,
/// lowered and loaded: the pipeline whose fragments measure the factor of
/// the computed times. None for a model of one layer or one whose even
/// split does not lower or load (the error is dropped: the factor is 1).
/// O(lowering).
std::unique_ptr<StepRunner>
loadEvenSplit(ModuleOp module, const ModelLayers &layers, uint64_t seed) {
  constexpr int64_t kMeshes = 2;
  const int64_t layerCount = layers.names.size();
  if (layerCount < kMeshes)
    return nullptr;
  std::vector<examples::ConfigMesh> meshes;
  for (int64_t mesh = 0; mesh < kMeshes; ++mesh)
    meshes.push_back({"m" + std::to_string(mesh), {{"x", 1}}});
  const std::vector<int64_t> firstLayers =
      plan::getEvenCut(layerCount, kMeshes);
  std::vector<examples::ConfigPlacement> assignment;
  for (int64_t layer = 0, stage = 0; layer < layerCount; ++layer) {
    if (stage + 1 < kMeshes && layer == firstLayers[stage + 1])
      ++stage;
    assignment.push_back({layers.names[layer], stage, stage});
  }
  llvm::Expected<Config> config =
      parseConfig(examples::writeCompileConfig(meshes, assignment, "1F1B"));
  if (!config) {
    llvm::consumeError(config.takeError());
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<StepRunner>> runner =
      StepRunner::create(module, *config, seed);
  if (!runner) {
    llvm::consumeError(runner.takeError());
    return nullptr;
  }
  return std::move(*runner);
}

} // namespace

llvm::Expected<plan::CostFile> profileModel(ModuleOp module, uint64_t seed) {
  const ModelLayers layers = getModelLayers(module);
  if (layers.names.empty())
    return makeProfileError("no named computation to profile");
  func::FuncOp main = getMainFunction(module);
  if (!main)
    return makeProfileError("no @main to run");
  FailureOr<std::vector<runtime::TensorSpec>> specs =
      runtime::getArgumentSpecs(main);
  if (failed(specs))
    return makeProfileError("@main has an argument the interpreter cannot "
                            "hold");
  const std::vector<runtime::Tensor> arguments =
      runtime::randomInputs(seed, *specs);

  // One BLAS thread, as each device of the executor runs: the thread's CPU
  // time then counts all the work.
  runtime::BlasThreadLimit oneThread(1);
  runtime::Interpreter interpreter(module);
  if (failed(interpreter.run(main, arguments)))
    return makeProfileError("@main failed on the interpreter");
  // Its first step warms the executor's buffer pool and caches.
  std::unique_ptr<StepRunner> evenSplit = loadEvenSplit(module, layers, seed);
  if (evenSplit) {
    llvm::Expected<MeasuredStep> warmUp = evenSplit->run();
    if (!warmUp) {
      llvm::consumeError(warmUp.takeError());
      evenSplit.reset();
    }
  }
  // Keyed by name, then transpose count; of the run being measured.
  llvm::StringMap<std::array<MeasuredTime, 2>> measured;
  // The work outside the named computations, by layer: per microbatch (all
  // microbatches together) and per step.
  llvm::StringMap<std::pair<double, double>> outside;
  LayerOfOps layerOfOps(module);
  llvm::DenseSet<Operation *> calledFunctions;
  module.walk([&](CallOp call) {
    if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
      calledFunctions.insert(callee);
  });
  // A fused chain's time is shared equally by its ops (elementwise, on
  // tensors of one shape).
  interpreter.setOpObserver([&](llvm::ArrayRef<Operation *> ops,
                                double seconds) {
    for (Operation *op : ops) {
      StringRef layer = layerOfOps.getLayer(*op);
      if (layer.empty())
        continue;
      std::pair<double, double> &time = outside[layer];
      (runsPerMicrobatch(*op, calledFunctions) ? time.first : time.second) +=
          seconds / double(ops.size());
    }
  });
  interpreter.setNamedComputationObserver(
      [&](NamedComputationOp computation, double seconds) {
        int64_t transposeCount = computation.getOrigin().getTransposeCount();
        if (transposeCount > 1)
          return;
        MeasuredTime &time =
            measured[computation.getOrigin().getUserName()][transposeCount];
        time.seconds += seconds;
        ++time.calls;
      });
  // Per layer, the smallest of each time over the measured runs: other work
  // on a shared machine slows some runs down, never speeds one up.
  llvm::StringMap<LayerTimes> fastest;
  // The even split's fragments in its fastest step, summed over both
  // devices. Its steps run in turns with the unpartitioned runs, so that
  // the fastest of each comes from the same stretch of time: a change of
  // the machine's state (another process starting, the caches it takes)
  // between a profile and a pipeline measured one after the other would
  // otherwise become part of the factor.
  std::optional<double> pipelineSeconds;
  for (int64_t run = 0; run < kProfiledRuns; ++run) {
    measured.clear();
    outside.clear();
    if (failed(interpreter.run(main, arguments)))
      return makeProfileError("@main failed on the interpreter");
    for (const std::string &name : layers.names) {
      const std::array<MeasuredTime, 2> &times = measured[name];
      auto [perMicrobatch, perStep] = outside.lookup(name);
      LayerTimes now{times[0].seconds / std::max<int64_t>(times[0].calls, 1),
                     times[1].calls ? times[1].seconds / times[1].calls : 0,
                     perMicrobatch / layers.microbatches, perStep,
                     times[1].calls > 0};
      auto [it, first] = fastest.try_emplace(name, now);
      if (!first)
        it->second = LayerTimes::min(it->second, now);
    }
    if (!evenSplit)
      continue;
    llvm::Expected<MeasuredStep> step = evenSplit->run();
    if (!step) {
      llvm::consumeError(step.takeError());
      evenSplit.reset();
      pipelineSeconds.reset();
      continue;
    }
    pipelineSeconds = std::min(pipelineSeconds.value_or(step->fragmentSeconds),
                               step->fragmentSeconds);
  }

  // The first backward of each layer, for the activations it takes.
  llvm::StringMap<NamedComputationOp> backwardOf;
  module.walk([&](NamedComputationOp computation) {
    if (computation.getOrigin().getTransposeCount() == 1)
      backwardOf.try_emplace(computation.getOrigin().getUserName(),
                             computation);
  });
  plan::CostFile costs;
  costs.microbatches = layers.microbatches;
  llvm::Expected<ExecutorCosts> executor = calibrateExecutor();
  if (!executor)
    return executor.takeError();
  costs.actionOverhead = executor->fragmentSeconds;
  costs.linkLatency = executor->transferSeconds;
  // The factor: the even split's fastest fragments against the profiled
  // time of the same work (all microbatches' forwards and backwards, the
  // gradient sums and updates), as the costs written below say.
  double profiledSeconds = 0;
  for (const std::string &name : layers.names)
    profiledSeconds += fastest[name].getStepSeconds(layers.microbatches);
  // One device computes at the two-mesh split's factor too, within a few
  // percent: the factor is mostly the partitioned program's fragments
  // against the profile (their grouping and results, the executor's
  // threads, the caches), not devices slowing each other (docs/plan.md),
  // and it may be below 1. Without the split, the profile stands as is.
  costs.computeFactor = pipelineSeconds && profiledSeconds > 0
                            ? *pipelineSeconds / profiledSeconds
                            : 1;
  if (std::isfinite(executor->transferBandwidth))
    costs.linkBandwidth = executor->transferBandwidth;
  for (auto [name, forward] : llvm::zip(layers.names, layers.forwards)) {
    const LayerTimes &times = fastest[name];
    plan::ComputationCost &cost = costs.computations.emplace_back();
    cost.name = name;
    cost.seconds = times.forward;
    addForwardBytes(forward, backwardOf.lookup(name), module, cost);
    cost.accumulateSeconds = times.accumulate;
    cost.updateSeconds = times.update;
    if (!times.hasBackward)
      continue;
    plan::ComputationCost &backward = costs.computations.emplace_back();
    backward.name = name;
    backward.transposeCount = 1;
    backward.seconds = times.backward;
  }
  return costs;
}

} // namespace mlir::mpmd::driver
