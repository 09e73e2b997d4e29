//===- ProfileCommand.cpp - mpmd profile ----------------------------------===//
//
// Runs an unpartitioned model on the interpreter, once to warm up (buffer
// pool, constants) and once timed, and writes the cost file `mpmd plan`
// reads (mpmd/Plan/CostFile.h). Times are the mean wall time of each
// named computation and transpose count per call (one call per
// microbatch); bytes come from the types of the forward computation's
// values:
// * parameters: the operands that every microbatch receives unchanged
//   (the same value at that argument of each mpmd.call of the enclosing
//   function), counted twice (the weights and their gradient sums);
// * activations: the forward's other operands and results that the
//   backward of the same name takes;
// * boundary: the forward's results that another layer's forward takes.
// Exit codes (CommandError.h): 2 for bad options, 1 for a model that
// cannot be read or run.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "ModelLayers.h"
#include "OutputFile.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Mpmd/IR/TensorSizes.h"
#include "mpmd/Driver/ModuleFile.h"
#include "mpmd/Plan/CostFile.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/ProgramIO.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::mpmd::tools {

namespace {

using llvm::StringRef;

void printProfileHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd profile MODEL.mlir [--random-inputs SEED] -o "
        "COSTS.json\n\n"
        "Runs the unpartitioned model's @main on the interpreter (once to "
        "warm up, once\ntimed) and writes, per named computation and "
        "transpose count, its mean time\nper microbatch and, for forwards, "
        "the bytes of its parameters, of the\nactivations its backward "
        "takes and of what it sends to the next layer: the\ncost file of "
        "'mpmd plan --costs'.\n\n"
        "  --random-inputs SEED  seeded random arguments (default 0)\n"
        "  -o FILE               the cost file\n";
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

struct MeasuredTime {
  double seconds = 0;
  int64_t calls = 0;
};

llvm::Error runProfile(llvm::ArrayRef<StringRef> args) {
  std::optional<std::string> model, seedText, output;
  bool help = false;
  if (llvm::Error error = parseArguments(
          args, {{"--random-inputs", &seedText}, {"-o", &output}}, {}, help,
          model, "a model"))
    return error;
  if (help) {
    printProfileHelp(llvm::outs());
    return llvm::Error::success();
  }
  if (!model)
    return makeUsageError("a model is required; see 'mpmd profile --help'");
  if (!output)
    return makeUsageError("-o is required; see 'mpmd profile --help'");
  if (llvm::Error error = checkOutputPath("-o", *output, OutputKind::kFile))
    return error;
  uint64_t seed = 0;
  if (seedText && StringRef(*seedText).getAsInteger(10, seed))
    return makeUsageError("--random-inputs expects a non-negative integer "
                          "(got '" +
                          *seedText + "')");

  std::string openError;
  std::unique_ptr<driver::ModuleFile> file =
      driver::ModuleFile::read(*model, openError);
  if (!file)
    return makeInputError(openError.empty() ? "cannot parse '" + *model + "'"
                                            : openError);
  ModuleOp module = file->getModule();
  const ModelLayers layers = getModelLayers(module);
  if (layers.names.empty())
    return makeInputError("'" + *model +
                          "' has no named computation to "
                          "profile");
  func::FuncOp main = getMainFunction(module);
  if (!main)
    return makeInputError("'" + *model + "' has no @main to run");
  FailureOr<std::vector<runtime::TensorSpec>> specs =
      runtime::getArgumentSpecs(main);
  if (failed(specs))
    return makeInputError("@main has an argument the interpreter cannot "
                          "hold");
  const std::vector<runtime::Tensor> arguments =
      runtime::randomInputs(seed, *specs);

  runtime::Interpreter interpreter(module);
  if (failed(interpreter.run(main, arguments)))
    return makeInputError("@main failed on the interpreter");
  // Keyed by name, then transpose count.
  llvm::StringMap<std::array<MeasuredTime, 2>> measured;
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
  if (failed(interpreter.run(main, arguments)))
    return makeInputError("@main failed on the interpreter");

  // The first backward of each layer, for the activations it takes.
  llvm::StringMap<NamedComputationOp> backwardOf;
  module.walk([&](NamedComputationOp computation) {
    if (computation.getOrigin().getTransposeCount() == 1)
      backwardOf.try_emplace(computation.getOrigin().getUserName(),
                             computation);
  });
  plan::CostFile costs;
  costs.microbatches = layers.microbatches;
  for (auto [name, forward] : llvm::zip(layers.names, layers.forwards)) {
    const std::array<MeasuredTime, 2> &times = measured[name];
    plan::ComputationCost &cost = costs.computations.emplace_back();
    cost.name = name;
    cost.seconds = times[0].seconds / std::max<int64_t>(times[0].calls, 1);
    addForwardBytes(forward, backwardOf.lookup(name), module, cost);
    if (!times[1].calls)
      continue;
    plan::ComputationCost &backward = costs.computations.emplace_back();
    backward.name = name;
    backward.transposeCount = 1;
    backward.seconds = times[1].seconds / times[1].calls;
  }
  return writeOutputFile(*output, plan::writeCostFile(costs));
}

} // namespace

int runProfileCommand(llvm::ArrayRef<StringRef> args) {
  if (llvm::Error error = runProfile(args))
    return reportError("profile", std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
