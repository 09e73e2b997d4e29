//===- SyntheticProgram.cpp - Generated pipeline-parallel programs --------===//

#include "SyntheticProgram.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::mpmd::bench;
using llvm::formatv;

SyntheticProgram
mlir::mpmd::bench::generateSyntheticProgram(const SyntheticProgramShape &shape) {
  const int64_t layers = shape.layers;
  const std::string act =
      formatv("tensor<{0}x{1}xf32>", shape.batch, shape.width).str();
  const std::string weight = formatv("tensor<{0}x{0}xf32>", shape.width).str();
  SyntheticProgram program;
  llvm::raw_string_ostream os(program.text);
  int64_t ops = 1; // The module.

  auto weightTypes = [&] {
    std::string types;
    for (int64_t i = 0; i < layers; ++i)
      types += ", " + weight;
    return types;
  };

  os << "#topology = #mpmd.topology<";
  for (int64_t m = 0; m < shape.meshes; ++m)
    os << (m ? ", " : "") << "<\"m" << m << "\": <[\"x\"=1]>>";
  os << ">\n\n";

  // @microbatch: forward through every layer, a loss, backward; returns the
  // loss and the weight gradients.
  os << "func.func private @microbatch(%x: " << act;
  for (int64_t i = 0; i < layers; ++i)
    os << ", %w" << i << ": " << weight;
  os << ") -> (tensor<f32>" << weightTypes() << ") {\n";
  ++ops;
  std::string input = "%x";
  for (int64_t i = 0; i < layers; ++i) {
    os << formatv("  %a{0} = mpmd.named_computation<\"layer_{0}\"> ({1}, %w{0}) "
                  "(%in: {2}, %w: {3}) {{\n"
                  "    %d = stablehlo.dot_general %in, %w, contracting_dims = "
                  "[1] x [0] : ({2}, {3}) -> {2}\n"
                  "    %t = stablehlo.tanh %d : {2}\n"
                  "    mpmd.return %t : {2}\n"
                  "  } : ({2}, {3}) -> {2}\n",
                  i, input, act, weight);
    // Unlabelled glue between layers, for mesh inference to place.
    os << formatv("  %s{0} = stablehlo.multiply %a{0}, %a{0} : {1}\n"
                  "  %h{0} = stablehlo.add %a{0}, %s{0} : {1}\n",
                  i, act);
    ops += 4 + 2;
    input = formatv("%h{0}", i).str();
  }
  os << formatv("  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
                "  %loss = stablehlo.reduce({0} init: %zero) applies "
                "stablehlo.add across dimensions = [0, 1] : ({1}, tensor<f32>) "
                "-> tensor<f32>\n"
                "  %g{2} = stablehlo.sine {0} : {1}\n",
                input, act, layers);
  ops += 3 + 2; // The reduce's body holds an add and a return.
  for (int64_t i = layers - 1; i >= 0; --i) {
    std::string layerInput = i ? formatv("%h{0}", i - 1).str() : "%x";
    os << formatv("  %b{0}:2 = mpmd.named_computation<\"layer_{0}\"(1)> "
                  "(%g{1}, {2}, %a{0}) (%g: {3}, %in: {3}, %a: {3}) {{\n"
                  "    %da = stablehlo.multiply %g, %a : {3}\n"
                  "    %dw = stablehlo.dot_general %in, %da, contracting_dims "
                  "= [0] x [0] : ({3}, {3}) -> {4}\n"
                  "    mpmd.return %da, %dw : {3}, {4}\n"
                  "  } : ({3}, {3}, {3}) -> ({3}, {4})\n"
                  "  %g{0} = stablehlo.negate %b{0}#0 : {3}\n",
                  i, i + 1, layerInput, act, weight);
    ops += 4 + 1;
  }
  os << "  return %loss";
  for (int64_t i = 0; i < layers; ++i)
    os << ", %b" << i << "#1";
  os << " : tensor<f32>" << weightTypes() << "\n}\n\n";
  ++ops;

  // @main: one mpmd.call per microbatch, gradient accumulation, SGD update.
  os << "func.func @main(%x: " << act;
  for (int64_t i = 0; i < layers; ++i)
    os << ", %w" << i << ": " << weight;
  os << ") -> (tensor<f32>" << weightTypes()
     << ") attributes {topology = #topology} {\n";
  ++ops;
  std::string args = "%x";
  for (int64_t i = 0; i < layers; ++i)
    args += formatv(", %w{0}", i).str();
  std::string callType = formatv("({0}{1}) -> (tensor<f32>{1})", act,
                                 weightTypes())
                             .str();
  for (int64_t m = 0; m < shape.microbatches; ++m) {
    os << formatv("  %r{0}:{1} = mpmd.call @microbatch({2}) {{call_counter = "
                  "{0} : ui32} : {3}\n",
                  m, layers + 1, args, callType);
    ++ops;
  }
  os << formatv("  %lr = stablehlo.constant dense<0.01> : {0}\n", weight);
  ++ops;
  for (int64_t i = 0; i < layers; ++i) {
    std::string sum = formatv("%r0#{0}", i + 1).str();
    for (int64_t m = 1; m < shape.microbatches; ++m) {
      os << formatv("  %acc{0}_{1} = stablehlo.add {2}, %r{1}#{3} : {4}\n", i,
                    m, sum, i + 1, weight);
      sum = formatv("%acc{0}_{1}", i, m).str();
      ++ops;
    }
    os << formatv("  %step{0} = stablehlo.multiply {1}, %lr : {2}\n"
                  "  %nw{0} = stablehlo.subtract %w{0}, %step{0} : {2}\n",
                  i, sum, weight);
    ops += 2;
  }
  os << "  return %r0#0";
  for (int64_t i = 0; i < layers; ++i)
    os << ", %nw" << i;
  os << " : tensor<f32>" << weightTypes() << "\n}\n";
  ++ops;

  // Contiguous stages: layer i (fwd and bwd) on mesh i * meshes / layers.
  for (int64_t i = 0; i < layers; ++i)
    program.assignment +=
        formatv("{0}layer_{1}@m{2}", i ? "," : "", i, i * shape.meshes / layers)
            .str();
  program.numOps = ops;
  return program;
}
