//===- ExampleCommand.cpp - mpmd example ----------------------------------===//
//
// Argument parsing and files only: the models are the MPMDExamples
// library's. `mpmd example <model> [options]` for `mlp`, `transformer` and
// `cnn`, which share every option but their sizes.
// Schedule names are resolved by the driver (`resolveExampleSchedule`).
// Exit codes (CommandError.h): 2 for bad options, 1 for files that cannot
// be written.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "OutputFile.h"

#include "mpmd/Driver/Session.h"
#include "mpmd/Examples/Cnn.h"
#include "mpmd/Examples/Mlp.h"
#include "mpmd/Examples/Transformer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::tools {

namespace {

using llvm::StringRef;

void printExampleHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd example <model> [options]\n\n"
        "Writes an example model and a matching 'mpmd compile' "
        "configuration.\n\nmodels:\n"
        "  mlp          a training step of an MLP: forward, backward, "
        "gradient\n"
        "               accumulation over microbatches, SGD update\n"
        "  transformer  the same for decoder blocks: pre-norm causal "
        "self-attention\n"
        "               (one head) and a tanh MLP, each with a residual\n"
        "  cnn          the same for a small ResNet: a convolutional stem "
        "with max\n"
        "               pooling, residual convolution blocks, a dense head\n\n"
        "'mpmd example <model> --help' describes a model's options.\n";
}

void printMlpHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd example mlp --layers L --width W --batch B "
        "--microbatches M\n"
        "                        --meshes P [--dtype f32|f64|bf16] "
        "[--learning-rate LR]\n"
        "                        [--schedule NAME] [--mesh-shape AXES] "
        "[--sharding S]\n"
        "                        -o MODEL.mlir --config-out CONFIG.json\n\n"
        "A training step of an L-layer MLP (h = tanh(h w_i), the last "
        "layer linear,\nloss 0.5 * sum((h_L - y)^2) / B) with inputs "
        "x[B,W], y[B,W] and weights\nw_i[W,W]: @main slices the batch into "
        "M microbatches, calls @microbatch\n(forward \"layer_i\", backward "
        "\"layer_i\"(1)) for each, sums the gradients and\nreturns the loss "
        "and the updated weights. The configuration puts the layers on\n"
        "P meshes m0..m{P-1} (one device each unless --mesh-shape) in "
        "contiguous stages.\n\n"
        "  --layers L           layers (at least one per stage)\n"
        "  --width W            features of every layer\n"
        "  --batch B            rows of x and y (a multiple of M)\n"
        "  --microbatches M     microbatches per step\n"
        "  --meshes P           pipeline meshes\n"
        "  --dtype T            f32 (default), f64 or bf16: mixed precision, "
        "the inputs,\n"
        "                       weights, loss and update in f32, each layer "
        "converting\n"
        "                       its weights to bf16 and computing in bf16, "
        "the weight\n"
        "                       gradients converted back to f32\n"
        "  --learning-rate LR   the SGD step (default 0.01)\n"
        "  --schedule NAME      a built-in schedule of 'mpmd compile' "
        "(default 1F1B), or a\n"
        "                       generated one ('mpmd schedule --help'); "
        "Interleaved1F1B,\n"
        "                       ZB-V and DualPipeV put two stages on each "
        "mesh\n"
        "  --mesh-shape AXES    the axes of every mesh, e.g. data=2,model=2 "
        "(default x=1)\n"
        "  --sharding S         sharding rules of the config (SPMD inside "
        "each mesh):\n"
        "                       dp: the batch (x, y) over \"data\"; tp: "
        "Megatron tensor\n"
        "                       parallelism over \"model\" (w_0, w_2, ... "
        "column-parallel,\n"
        "                       w_1, w_3, ... row-parallel); fsdp: the batch "
        "and every\n"
        "                       weight over \"data\"; tp+dp: tp and dp; "
        "none (default)\n"
        "  -o FILE              the model ('-': standard output)\n"
        "  --config-out FILE    the JSON configuration\n";
}

void printTransformerHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd example transformer --layers L --seq S --dim D --ffn F "
        "--batch B\n"
        "                                --microbatches M --meshes P "
        "[--dtype f32|f64|bf16]\n"
        "                                [--dropout R] [--learning-rate LR] "
        "[--schedule NAME]\n"
        "                                [--mesh-shape AXES] [--sharding S]\n"
        "                                -o MODEL.mlir --config-out "
        "CONFIG.json\n\n"
        "A training step of L pre-norm decoder blocks on inputs x[B,S,D] "
        "(already\nembedded) and targets y[B,S,D]: each block normalizes "
        "(no learned scale), runs\ncausal self-attention with one head (wq, "
        "wk, wv, wo [D,D]) plus a residual,\nnormalizes again and runs a "
        "tanh MLP (w1 [D,F], w2 [F,D]) plus a residual.\nThe loss is 0.5 * "
        "sum((h_L - y)^2) / (B*S).\n"
        "Microbatches, the \"layer_i\" and \"layer_i\"(1) computations, "
        "the update and\nthe configuration are the MLP's ('mpmd example mlp "
        "--help').\n\n"
        "  --layers L           blocks (at least one per stage)\n"
        "  --seq S              positions per sequence\n"
        "  --dim D              the model width\n"
        "  --ffn F              the hidden width of the MLP; F0,F1,... gives\n"
        "                       one per layer (unbalanced layers, e.g. to try\n"
        "                       'mpmd plan')\n"
        "  --batch B            sequences (a multiple of M)\n"
        "  --microbatches M     microbatches per step\n"
        "  --meshes P           pipeline meshes\n"
        "  --dropout R          drop elements with probability R (default 0, "
        "none) after\n"
        "                       the attention and after the MLP, before each "
        "residual, as\n"
        "                       flax does with JAX's rbg PRNG: @main takes a "
        "key\n"
        "                       key_i[M,4] (ui32, one row per microbatch) per "
        "layer after\n"
        "                       the weights; the masks come from "
        "rng_bit_generator\n"
        "                       (DEFAULT) and the backward reuses them\n"
        "  --sharding S         as for mlp; tp shards wq, wk, wv and w1 "
        "column-parallel,\n"
        "                       wo and w2 row-parallel; tp+sp: tp with "
        "Megatron's\n"
        "                       sequence parallelism (norms, residual adds "
        "and their\n"
        "                       gradients sharded along the sequence over "
        "\"model\":\n"
        "                       sharding constraints in the layers)\n"
        "  --dtype, --learning-rate, --schedule, --mesh-shape, -o, "
        "--config-out:\n"
        "                       as for mlp\n";
}

void printCnnHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd example cnn --layers L --image S --channels C --classes K "
        "--batch B\n"
        "                        --microbatches M --meshes P [--dtype "
        "f32|f64]\n"
        "                        [--learning-rate LR] [--schedule NAME]\n"
        "                        -o MODEL.mlir --config-out CONFIG.json\n\n"
        "A training step of a small ResNet on images x[B,S,S,3] (NHWC) and "
        "targets\ny[B,K]. Layer 0, the stem, convolves (3x3, C channels, "
        "padding 1),\nnormalizes over the channels of each position (no "
        "learned scale), applies\nrelu and max-pools 2x2 windows "
        "(reduce_window); every other layer adds\nrelu(norm(conv(h))) to h; "
        "the last one then averages the positions and\napplies a dense head "
        "[C,K]. The loss is 0.5 * sum((o - y)^2) / B. The\nbackward takes "
        "the pool's gradient through select_and_scatter and each\n"
        "convolution's through its filter and input gradients.\n"
        "Microbatches, the \"layer_i\" and \"layer_i\"(1) computations, "
        "the update and\nthe configuration are the MLP's ('mpmd example mlp "
        "--help').\n\n"
        "  --layers L           the stem and L-1 residual blocks (at least "
        "one per stage)\n"
        "  --image S            the side of the images (even)\n"
        "  --channels C         channels of every convolution\n"
        "  --classes K          outputs of the head\n"
        "  --batch B            images (a multiple of M)\n"
        "  --microbatches M     microbatches per step\n"
        "  --meshes P           pipeline meshes\n"
        "  --dtype, --learning-rate, --schedule, -o, --config-out: as for "
        "mlp\n";
}

/// A size option and where its value goes; with `perLayer`, the option also
/// takes a comma-separated list of one value per layer, which goes there.
struct SizeOption {
  StringRef name;
  int64_t *value;
  std::vector<int64_t> *perLayer = nullptr;
};

/// Parses "N" into `*size.value` or, where allowed, "N,N,..." into
/// `*size.perLayer`.
llvm::Error parseSize(const SizeOption &size, StringRef text) {
  auto notAnInteger = [&] {
    return makeUsageError(size.name + " expects an integer" +
                          (size.perLayer ? " or a comma-separated list of "
                                           "integers, one per layer"
                                         : "") +
                          " (got '" + text + "')");
  };
  if (!size.perLayer || !text.contains(',')) {
    if (text.getAsInteger(10, *size.value))
      return notAnInteger();
    return llvm::Error::success();
  }
  llvm::SmallVector<StringRef> items;
  text.split(items, ',');
  for (StringRef item : items) {
    int64_t value;
    if (item.trim().getAsInteger(10, value))
      return notAnInteger();
    size.perLayer->push_back(value);
  }
  return llvm::Error::success();
}

/// Parses "data=2,model=2" into ordered (axis, size) pairs.
llvm::Error parseMeshShape(StringRef text,
                           std::vector<std::pair<std::string, int64_t>> &axes) {
  llvm::SmallVector<StringRef> items;
  text.split(items, ',');
  axes.clear();
  for (StringRef item : items) {
    auto [name, sizeText] = item.trim().split('=');
    int64_t size;
    if (name.empty() || sizeText.trim().getAsInteger(10, size) || size < 1)
      return makeUsageError("--mesh-shape expects AXIS=SIZE,... with positive "
                            "sizes, e.g. data=2,model=2 (got '" +
                            text + "')");
    if (llvm::any_of(axes,
                     [&](const auto &axis) { return axis.first == name; }))
      return makeUsageError("--mesh-shape names axis '" + name + "' twice");
    axes.emplace_back(name.str(), size);
  }
  return llvm::Error::success();
}

llvm::Error parseSharding(StringRef text, examples::ExampleSharding &sharding) {
  using examples::ExampleSharding;
  std::optional<ExampleSharding> parsed =
      llvm::StringSwitch<std::optional<ExampleSharding>>(text)
          .Case("none", ExampleSharding::kNone)
          .Case("dp", ExampleSharding::kData)
          .Case("tp", ExampleSharding::kTensor)
          .Case("fsdp", ExampleSharding::kFsdp)
          .Case("tp+dp", ExampleSharding::kTensorAndData)
          .Case("tp+sp", ExampleSharding::kTensorAndSequence)
          .Default(std::nullopt);
  if (!parsed)
    return makeUsageError("--sharding expects none, dp, tp, fsdp, tp+dp or "
                          "tp+sp "
                          "(got '" +
                          text + "')");
  sharding = *parsed;
  return llvm::Error::success();
}

/// What differs between models: the help, the model's own sizes, its
/// options (the shared part filled in here) and the generator (reading the
/// options filled in).
struct ModelCommand {
  StringRef name;
  void (*printHelp)(llvm::raw_ostream &);
  /// The sizes between --layers and --batch on the model's command line.
  std::vector<SizeOption> modelSizes;
  examples::ExampleTrainingOptions *training;
  /// Where --dropout goes, for the models that have it.
  double *dropout;
  llvm::function_ref<llvm::Expected<examples::ExampleModel>()> generate;
};

llvm::Error runModel(const ModelCommand &model,
                     llvm::ArrayRef<StringRef> args) {
  auto required = [&](const llvm::Twine &option) {
    return makeUsageError(option + " is required; see 'mpmd example " +
                          model.name + " --help'");
  };
  examples::ExampleTrainingOptions &training = *model.training;
  std::vector<SizeOption> sizes = {{"--layers", &training.layers}};
  llvm::append_range(sizes, model.modelSizes);
  sizes.insert(sizes.end(), {{"--batch", &training.batch},
                             {"--microbatches", &training.microbatches},
                             {"--meshes", &training.meshes}});
  std::vector<std::optional<std::string>> sizeTexts(sizes.size());
  std::optional<std::string> dtype, learningRate, scheduleName, meshShape,
      sharding, dropout, output, configOutput, positional;
  bool help = false;
  std::vector<ValuedOption> options;
  for (auto [size, text] : llvm::zip(sizes, sizeTexts))
    options.push_back({size.name, &text});
  options.insert(options.end(), {{"--dtype", &dtype},
                                 {"--learning-rate", &learningRate},
                                 {"--schedule", &scheduleName},
                                 {"--mesh-shape", &meshShape},
                                 {"--sharding", &sharding},
                                 {"-o", &output},
                                 {"--config-out", &configOutput}});
  if (model.dropout)
    options.push_back({"--dropout", &dropout});
  if (llvm::Error error =
          parseArguments(args, options, {}, help, positional, "a model name"))
    return error;
  if (help) {
    model.printHelp(llvm::outs());
    return llvm::Error::success();
  }
  if (positional)
    return makeUsageError("unexpected argument '" + *positional + "'");
  for (auto [size, text] : llvm::zip(sizes, sizeTexts)) {
    if (!text)
      return required(size.name);
    if (llvm::Error error = parseSize(size, *text))
      return error;
  }
  if (dtype) {
    if (*dtype == "f32")
      training.elementType = examples::ElementType::kF32;
    else if (*dtype == "f64")
      training.elementType = examples::ElementType::kF64;
    else if (*dtype == "bf16")
      training.elementType = examples::ElementType::kBF16;
    else
      return makeUsageError("--dtype expects f32, f64 or bf16 (got '" + *dtype +
                            "')");
  }
  if (dropout && StringRef(*dropout).getAsDouble(*model.dropout))
    return makeUsageError("--dropout expects a number (got '" + *dropout +
                          "')");
  if (learningRate && StringRef(*learningRate).getAsDouble(training.learningRate))
    return makeUsageError("--learning-rate expects a number (got '" +
                          *learningRate + "')");
  if (scheduleName) {
    session::Outcome<examples::ExampleSchedule> schedule =
        session::resolveExampleSchedule(*scheduleName);
    if (!schedule.ok())
      return makeUsageError(schedule.error().message);
    training.schedule = std::move(schedule.value());
  }
  if (meshShape)
    if (llvm::Error error =
            parseMeshShape(*meshShape, training.parallelism.meshShape))
      return error;
  if (sharding)
    if (llvm::Error error =
            parseSharding(*sharding, training.parallelism.sharding))
      return error;
  for (auto [name, path] :
       {std::pair{"-o", &output}, std::pair{"--config-out", &configOutput}}) {
    if (!*path)
      return required(name);
    if (llvm::Error error = checkOutputPath(name, **path, OutputKind::kFile))
      return error;
  }
  // The generator rejects sizes that do not fit together: option values.
  llvm::Expected<examples::ExampleModel> example = model.generate();
  if (!example)
    return makeUsageError(llvm::toString(example.takeError()));
  return writeOutputFiles(
      {{*output, example->module}, {*configOutput, example->config}});
}

/// Runs `mlp`, `transformer` or `cnn`.
llvm::Error runNamedModel(StringRef name, llvm::ArrayRef<StringRef> args) {
  if (name == "mlp") {
    examples::MlpOptions mlp;
    return runModel({name,
                     printMlpHelp,
                     {{"--width", &mlp.width}},
                     &mlp,
                     /*dropout=*/nullptr,
                     [&] { return examples::generateMlp(mlp); }},
                    args);
  }
  if (name == "cnn") {
    examples::CnnOptions cnn;
    return runModel({name,
                     printCnnHelp,
                     {{"--image", &cnn.image},
                      {"--channels", &cnn.channels},
                      {"--classes", &cnn.classes}},
                     &cnn,
                     /*dropout=*/nullptr,
                     [&] { return examples::generateCnn(cnn); }},
                    args);
  }
  examples::TransformerOptions transformer;
  return runModel({name,
                   printTransformerHelp,
                   {{"--seq", &transformer.sequence},
                    {"--dim", &transformer.dim},
                    {"--ffn", &transformer.ffn, &transformer.ffnPerLayer}},
                   &transformer,
                   &transformer.dropout,
                   [&] { return examples::generateTransformer(transformer); }},
                  args);
}

} // namespace

int runExampleCommand(llvm::ArrayRef<StringRef> args) {
  if (args.empty())
    return reportError("example",
                       makeUsageError("no model; see 'mpmd example --help'"));
  if (args.front() == "--help" || args.front() == "-h") {
    printExampleHelp(llvm::outs());
    return kExitSuccess;
  }
  if (args.front() != "mlp" && args.front() != "transformer" &&
      args.front() != "cnn")
    return reportError("example",
                       makeUsageError("unknown model '" + args.front() +
                                      "'; models: mlp, transformer, cnn"));
  if (llvm::Error error = runNamedModel(args.front(), args.drop_front()))
    return reportError(("example " + args.front()).str(), std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
