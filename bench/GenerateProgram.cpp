//===- GenerateProgram.cpp - mpmd-generate-program ------------------------===//
//
// Writes a generated training-step program (SyntheticProgram.h) to standard
// output and, with `--config FILE`, an `mpmd compile` configuration for it:
// the program's topology, the layers cut into `meshes × virtual-stages`
// contiguous stages, stage s on mesh s mod meshes (round robin, for
// interleaved schedules) or, with `--v-shape`, on mesh s then back
// (2·meshes − 1 − s: ZB-V, DualPipeV), transfer inference, and the schedule
// `--schedule NAME` (a built-in name, or `generated:NAME`).
// For tests and demos of `mpmd compile` on programs of any size.
//
//   mpmd-generate-program --layers 8 --microbatches 8 --meshes 4
//       --config c.json --schedule 1F1B > model.mlir
//
//===----------------------------------------------------------------------===//

#include "SyntheticProgram.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir::mpmd::bench;
using llvm::StringRef;

namespace {

void printUsage(llvm::raw_ostream &os) {
  os << "usage: mpmd-generate-program [--layers N] [--microbatches M] "
        "[--meshes P]\n"
        "                             [--width W] [--config FILE "
        "[--schedule NAME]\n"
        "                             [--virtual-stages V] [--v-shape]]\n";
}

struct StagePlacement {
  int64_t stagesPerMesh = 1;
  bool vShape = false;
};

/// The configuration of `program`: meshes `m0..m<P-1>` with one axis
/// `x`=1 (the program's topology), contiguous stages.
std::string buildConfig(const SyntheticProgramShape &shape,
                        const StagePlacement &placement, StringRef schedule) {
  std::string json;
  llvm::raw_string_ostream os(json);
  os << "{\n  \"topology\": [";
  for (int64_t m = 0; m < shape.meshes; ++m)
    os << (m ? ", " : "") << "[\"m" << m << "\", [[\"x\", 1]]]";
  os << "],\n  \"assignment\": {";
  for (int64_t i = 0; i < shape.layers; ++i) {
    int64_t stages = shape.meshes * placement.stagesPerMesh;
    int64_t stage = i * stages / shape.layers;
    int64_t round = stage / shape.meshes, position = stage % shape.meshes;
    int64_t mesh = placement.vShape && round % 2 == 1
                       ? shape.meshes - 1 - position
                       : position;
    os << (i ? "," : "")
       << llvm::formatv("\n    \"layer_{0}\": {{\"mesh\": \"m{1}\", "
                        "\"stage\": {2}}",
                        i, mesh, stage);
  }
  os << "\n  },\n";
  if (!schedule.empty()) {
    if (schedule.consume_front("generated:"))
      os << "  \"schedule\": {\"generated\": \"" << schedule << "\"},\n";
    else
      os << "  \"schedule\": \"" << schedule << "\",\n";
  }
  os << "  \"partitioning_options\": {\"mpmd_infer_transfers\": true}\n}\n";
  return json;
}

} // namespace

int main(int argc, char **argv) {
  SyntheticProgramShape shape;
  std::optional<std::string> configPath;
  std::string schedule;
  StagePlacement placement;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--help") {
      printUsage(llvm::outs());
      return 0;
    }
    if (arg == "--v-shape") {
      placement.vShape = true;
      continue;
    }
    if (i + 1 >= argc) {
      llvm::errs() << "mpmd-generate-program: error: unknown or incomplete "
                      "option '"
                   << arg << "'\n";
      printUsage(llvm::errs());
      return 1;
    }
    StringRef value = argv[++i];
    int64_t *integer = llvm::StringSwitch<int64_t *>(arg)
                           .Case("--layers", &shape.layers)
                           .Case("--microbatches", &shape.microbatches)
                           .Case("--meshes", &shape.meshes)
                           .Case("--width", &shape.width)
                           .Case("--virtual-stages", &placement.stagesPerMesh)
                           .Default(nullptr);
    if (integer) {
      if (value.getAsInteger(10, *integer) || *integer <= 0) {
        llvm::errs() << "mpmd-generate-program: error: " << arg
                     << " expects a positive integer (got '" << value << "')\n";
        return 1;
      }
    } else if (arg == "--config") {
      configPath = value.str();
    } else if (arg == "--schedule") {
      schedule = value.str();
    } else {
      llvm::errs() << "mpmd-generate-program: error: unknown option '" << arg
                   << "'\n";
      printUsage(llvm::errs());
      return 1;
    }
  }
  if (configPath) {
    std::error_code error;
    llvm::raw_fd_ostream config(*configPath, error, llvm::sys::fs::OF_Text);
    if (error) {
      llvm::errs() << "mpmd-generate-program: error: cannot write '"
                   << *configPath << "': " << error.message() << "\n";
      return 1;
    }
    config << buildConfig(shape, placement, schedule);
  }
  llvm::outs() << generateSyntheticProgram(shape).text;
  return 0;
}
