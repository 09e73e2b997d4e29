//===- ExampleCommand.cpp - mpmd example ----------------------------------===//
//
// Argument parsing and files only: the models are the MPMDExamples
// library's. `mpmd example <model> [options]`; one model so far, `mlp`.
// Schedule names are resolved here, where the compiler's built-in names are
// known: a built-in schedule of `mpmd compile` first, else a generated one.
// Every error exits with 1.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Commands.h"
#include "OutputFile.h"

#include "mpmd/Examples/Mlp.h"
#include "mpmd/Schedule/Generators.h"
#include "mpmd/Transforms/Optimize/PipelineSchedule.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <tuple>

namespace mlir::mpmd::tools {

namespace {

using llvm::StringRef;

void printExampleHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd example <model> [options]\n\n"
        "Writes an example model and a matching 'mpmd compile' "
        "configuration.\n\nmodels:\n"
        "  mlp    a training step of an MLP: forward, backward, gradient "
        "accumulation\n"
        "         over microbatches, SGD update\n\n"
        "'mpmd example <model> --help' describes a model's options.\n";
}

void printMlpHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd example mlp --layers L --width W --batch B "
        "--microbatches M\n"
        "                        --meshes P [--dtype f32|f64] "
        "[--learning-rate LR]\n"
        "                        [--schedule NAME] -o MODEL.mlir "
        "--config-out CONFIG.json\n\n"
        "A training step of an L-layer MLP (h = tanh(h w_i), the last "
        "layer linear,\nloss 0.5 * sum((h_L - y)^2) / B) with inputs "
        "x[B,W], y[B,W] and weights\nw_i[W,W]: @main slices the batch into "
        "M microbatches, calls @microbatch\n(forward \"layer_i\", backward "
        "\"layer_i\"(1)) for each, sums the gradients and\nreturns the loss "
        "and the updated weights. The configuration puts the layers on\n"
        "P meshes m0..m{P-1} of one device each, in contiguous stages.\n\n"
        "  --layers L           layers (at least one per stage)\n"
        "  --width W            features of every layer\n"
        "  --batch B            rows of x and y (a multiple of M)\n"
        "  --microbatches M     microbatches per step\n"
        "  --meshes P           pipeline meshes\n"
        "  --dtype T            f32 (default) or f64\n"
        "  --learning-rate LR   the SGD step (default 0.01)\n"
        "  --schedule NAME      a built-in schedule of 'mpmd compile' "
        "(default 1F1B), or a\n"
        "                       generated one ('mpmd schedule --help'); "
        "Interleaved1F1B,\n"
        "                       ZB-V and DualPipeV put two stages on each "
        "mesh\n"
        "  -o FILE              the model ('-': standard output)\n"
        "  --config-out FILE    the JSON configuration\n";
}

llvm::Error makeExampleError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

struct MlpCommandLine {
  std::optional<std::string> layers, width, batch, microbatches, meshes, dtype,
      learningRate, schedule, output, configOutput, positional;
  bool help = false;
};

llvm::Expected<int64_t> parseInteger(StringRef option,
                                     const std::optional<std::string> &text) {
  if (!text)
    return makeExampleError(option +
                            " is required; see 'mpmd example mlp --help'");
  int64_t value;
  if (StringRef(*text).getAsInteger(10, value))
    return makeExampleError(option + " expects an integer (got '" + *text +
                            "')");
  return value;
}

/// A built-in schedule of the compiler, else a generated one.
llvm::Expected<examples::MlpSchedule> parseSchedule(StringRef name) {
  if (std::optional<PipelineSchedule> builtin = symbolizePipelineSchedule(name))
    return examples::MlpSchedule{stringifyPipelineSchedule(*builtin).str(),
                                 /*generated=*/false};
  if (std::optional<schedule::ScheduleKind> kind =
          schedule::parseScheduleKind(name))
    return examples::MlpSchedule{schedule::getScheduleName(*kind).str(),
                                 /*generated=*/true};
  return makeExampleError("unknown schedule '" + name + "'; built-in: " +
                          getPipelineScheduleNameList() +
                          "; generated: " + schedule::getScheduleNameList());
}

llvm::Expected<examples::MlpOptions>
parseMlpOptions(const MlpCommandLine &line) {
  examples::MlpOptions options;
  if (line.positional)
    return makeExampleError("unexpected argument '" + *line.positional + "'");
  for (auto [name, text, value] :
       {std::tuple{"--layers", &line.layers, &options.layers},
        std::tuple{"--width", &line.width, &options.width},
        std::tuple{"--batch", &line.batch, &options.batch},
        std::tuple{"--microbatches", &line.microbatches, &options.microbatches},
        std::tuple{"--meshes", &line.meshes, &options.meshes}}) {
    llvm::Expected<int64_t> integer = parseInteger(name, *text);
    if (!integer)
      return integer.takeError();
    *value = *integer;
  }
  if (line.dtype) {
    if (*line.dtype == "f32")
      options.elementType = examples::ElementType::kF32;
    else if (*line.dtype == "f64")
      options.elementType = examples::ElementType::kF64;
    else
      return makeExampleError("--dtype expects f32 or f64 (got '" +
                              *line.dtype + "')");
  }
  if (line.learningRate &&
      StringRef(*line.learningRate).getAsDouble(options.learningRate))
    return makeExampleError("--learning-rate expects a number (got '" +
                            *line.learningRate + "')");
  if (line.schedule) {
    llvm::Expected<examples::MlpSchedule> schedule =
        parseSchedule(*line.schedule);
    if (!schedule)
      return schedule.takeError();
    options.schedule = std::move(*schedule);
  }
  for (auto [name, path] : {std::pair{"-o", &line.output},
                            std::pair{"--config-out", &line.configOutput}})
    if (!*path)
      return makeExampleError(llvm::Twine(name) +
                              " is required; see 'mpmd example mlp --help'");
  return options;
}

llvm::Error runMlp(llvm::ArrayRef<StringRef> args) {
  MlpCommandLine line;
  if (llvm::Error error = parseArguments(
          args,
          {{"--layers", &line.layers},
           {"--width", &line.width},
           {"--batch", &line.batch},
           {"--microbatches", &line.microbatches},
           {"--meshes", &line.meshes},
           {"--dtype", &line.dtype},
           {"--learning-rate", &line.learningRate},
           {"--schedule", &line.schedule},
           {"-o", &line.output},
           {"--config-out", &line.configOutput}},
          {}, line.help, line.positional, "a model name"))
    return error;
  if (line.help) {
    printMlpHelp(llvm::outs());
    return llvm::Error::success();
  }
  llvm::Expected<examples::MlpOptions> options = parseMlpOptions(line);
  if (!options)
    return options.takeError();
  llvm::Expected<examples::MlpExample> example = examples::generateMlp(*options);
  if (!example)
    return example.takeError();
  if (llvm::Error error = writeOutputFile(*line.output, example->module))
    return error;
  return writeOutputFile(*line.configOutput, example->config);
}

} // namespace

int runExampleCommand(llvm::ArrayRef<StringRef> args) {
  if (args.empty()) {
    llvm::errs() << "mpmd example: error: no model; see 'mpmd example --help'\n";
    return 1;
  }
  if (args.front() == "--help" || args.front() == "-h") {
    printExampleHelp(llvm::outs());
    return 0;
  }
  if (args.front() != "mlp") {
    llvm::errs() << "mpmd example: error: unknown model '" << args.front()
                 << "'; models: mlp\n";
    return 1;
  }
  if (llvm::Error error = runMlp(args.drop_front())) {
    llvm::errs() << "mpmd example mlp: error: "
                 << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace mlir::mpmd::tools
