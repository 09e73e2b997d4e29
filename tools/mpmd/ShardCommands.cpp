//===- ShardCommands.cpp - mpmd gather, mpmd trace-merge ------------------===//
//
// What the ranks of `mpmd run --backend mpi` leave behind, put back
// together: `gather` assembles an output from the shard files its index
// lists; `trace-merge` joins the per-rank traces into one timeline.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "CommandError.h"
#include "Commands.h"
#include "OutputFile.h"

#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <set>

namespace mlir::mpmd::tools {

namespace {

llvm::Expected<llvm::json::Value> readJsonFile(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeInputError("cannot read '" + path +
                          "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> value =
      llvm::json::parse((*buffer)->getBuffer());
  if (!value)
    return makeInputError("'" + path +
                          "' is not JSON: " + llvm::toString(value.takeError()));
  return value;
}

std::optional<std::vector<int64_t>> readIntegers(const llvm::json::Array *array) {
  if (!array)
    return std::nullopt;
  std::vector<int64_t> values;
  for (const llvm::json::Value &value : *array) {
    std::optional<int64_t> integer = value.getAsInteger();
    if (!integer || *integer < 0)
      return std::nullopt;
    values.push_back(*integer);
  }
  return values;
}

/// Output `index` of the shard directory `directory`, assembled.
llvm::Expected<runtime::Tensor> gatherOutput(llvm::StringRef directory,
                                             const llvm::json::Object &entry) {
  auto malformed = [&](const llvm::Twine &what) {
    return makeInputError(directory + "/index.json: " + what);
  };
  std::optional<std::vector<int64_t>> shape =
      readIntegers(entry.getArray("shape"));
  const llvm::json::Array *shards = entry.getArray("shards");
  if (!shape || !shards || shards->empty())
    return malformed("an output without a shape or shards");
  std::optional<runtime::Tensor> full;
  // Elements covered so far: every element must come from exactly one
  // shard (the shards tile the array).
  int64_t covered = 0;
  for (const llvm::json::Value &shardValue : *shards) {
    const llvm::json::Object *shard = shardValue.getAsObject();
    std::optional<llvm::StringRef> file =
        shard ? shard->getString("file") : std::nullopt;
    std::optional<std::vector<int64_t>> offset =
        shard ? readIntegers(shard->getArray("offset")) : std::nullopt;
    if (!file || !offset || offset->size() != shape->size())
      return malformed("a shard without a file or a matching offset");
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, *file);
    llvm::Expected<runtime::Tensor> part = runtime::readNpy(path);
    if (!part)
      return part.takeError();
    if (part->rank() != int64_t(shape->size()))
      return malformed("shard '" + *file + "' has rank " +
                       llvm::Twine(part->rank()) + ", the output " +
                       llvm::Twine(shape->size()));
    for (size_t d = 0; d < shape->size(); ++d)
      if ((*offset)[d] + part->shape()[d] > (*shape)[d])
        return malformed("shard '" + *file + "' lies outside the output");
    if (!full)
      full = runtime::Tensor::zeros(part->dtype(), *shape);
    if (part->dtype() != full->dtype())
      return malformed("shard '" + *file + "' has another dtype");
    full = runtime::dynamicUpdateSlice(*full, *part, *offset);
    covered += part->numElements();
  }
  if (covered != runtime::numElementsOf(*shape))
    return malformed("the shards cover " + llvm::Twine(covered) + " of " +
                     llvm::Twine(runtime::numElementsOf(*shape)) +
                     " elements");
  return std::move(*full);
}

void printGatherHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd gather DIR [--output I] -o FILE.npy\n\n"
        "Assembles output I (default: the only one) from the shard files "
        "that\n'mpmd run --backend mpi --outputs DIR' wrote, as DIR/index.json "
        "lists them.\n\n"
        "  --output I   the output to assemble (index in @main's results)\n"
        "  -o FILE      the .npy file to write\n";
}

void printTraceMergeHelp(llvm::raw_ostream &os) {
  os << "usage: mpmd trace-merge TRACE.json -o MERGED.json\n\n"
        "Joins the per-rank traces TRACE.rank0.json, TRACE.rank1.json, ... "
        "that\n'mpmd run --backend mpi --trace TRACE.json' wrote into one "
        "Chrome/Perfetto\ntrace, each rank's events moved onto the earliest "
        "rank's clock (by the\nstart time each trace records).\n\n"
        "  -o FILE   the merged trace\n";
}

} // namespace

int runGatherCommand(llvm::ArrayRef<llvm::StringRef> args) {
  std::optional<std::string> directory, output, outputIndex;
  bool help = false;
  if (llvm::Error error =
          parseArguments(args, {{"-o", &output}, {"--output", &outputIndex}},
                         {}, help, directory, "a shard directory"))
    return reportError("gather",
                       makeUsageError(llvm::toString(std::move(error)) +
                                      "; see 'mpmd gather --help'"));
  if (help) {
    printGatherHelp(llvm::outs());
    return kExitSuccess;
  }
  if (!directory || !output)
    return reportError("gather",
                       makeUsageError("give a shard directory and -o FILE.npy; "
                                      "see 'mpmd gather --help'"));
  std::optional<int64_t> wanted;
  if (outputIndex) {
    llvm::Expected<int64_t> index = parseIntegerOption("--output", *outputIndex);
    if (!index)
      return reportError("gather", index.takeError());
    wanted = *index;
  }
  llvm::SmallString<256> indexPath(*directory);
  llvm::sys::path::append(indexPath, "index.json");
  llvm::Expected<llvm::json::Value> index = readJsonFile(indexPath);
  if (!index)
    return reportError("gather", index.takeError());
  const llvm::json::Object *root = index->getAsObject();
  const llvm::json::Array *outputs = root ? root->getArray("outputs") : nullptr;
  if (!outputs)
    return reportError("gather", makeInputError(indexPath + ": no 'outputs'"));
  if (!wanted && outputs->size() != 1)
    return reportError("gather",
                       makeUsageError(llvm::Twine(outputs->size()) +
                                      " outputs in " + indexPath +
                                      ": choose one with --output I"));
  int64_t chosen = wanted.value_or(0);
  if (chosen < 0 || chosen >= int64_t(outputs->size()))
    return reportError("gather",
                       makeUsageError("--output " + llvm::Twine(chosen) +
                                      " is out of range: " + indexPath +
                                      " lists " +
                                      llvm::Twine(outputs->size()) +
                                      " outputs"));
  const llvm::json::Object *entry = (*outputs)[chosen].getAsObject();
  if (!entry)
    return reportError("gather", makeInputError(indexPath + ": output " +
                                                llvm::Twine(chosen) +
                                                " is not an object"));
  llvm::Expected<runtime::Tensor> full = gatherOutput(*directory, *entry);
  if (!full)
    return reportError("gather", full.takeError());
  if (llvm::Error error = runtime::writeNpy(*output, *full))
    return reportError("gather", std::move(error));
  return kExitSuccess;
}

int runTraceMergeCommand(llvm::ArrayRef<llvm::StringRef> args) {
  std::optional<std::string> base, output;
  bool help = false;
  if (llvm::Error error = parseArguments(args, {{"-o", &output}}, {}, help,
                                         base, "a trace path"))
    return reportError("trace-merge",
                       makeUsageError(llvm::toString(std::move(error)) +
                                      "; see 'mpmd trace-merge --help'"));
  if (help) {
    printTraceMergeHelp(llvm::outs());
    return kExitSuccess;
  }
  if (!base || !output)
    return reportError(
        "trace-merge",
        makeUsageError("give the --trace path of the run and -o MERGED.json; "
                       "see 'mpmd trace-merge --help'"));
  llvm::StringRef extension = llvm::sys::path::extension(*base);
  llvm::StringRef stem = llvm::StringRef(*base).drop_back(extension.size());
  std::vector<llvm::json::Value> traces;
  std::vector<int64_t> starts;
  for (int64_t rank = 0;; ++rank) {
    std::string path =
        (stem + ".rank" + llvm::Twine(rank) + extension).str();
    if (!llvm::sys::fs::exists(path))
      break;
    llvm::Expected<llvm::json::Value> trace = readJsonFile(path);
    if (!trace)
      return reportError("trace-merge", trace.takeError());
    const llvm::json::Object *root = trace->getAsObject();
    const llvm::json::Object *other =
        root ? root->getObject("otherData") : nullptr;
    std::optional<int64_t> start =
        other ? other->getInteger("startUnixMicros") : std::nullopt;
    if (!root || !root->getArray("traceEvents") || !start)
      return reportError("trace-merge",
                         makeInputError("'" + path +
                                        "' is not a trace of 'mpmd run "
                                        "--backend mpi'"));
    starts.push_back(*start);
    traces.push_back(std::move(*trace));
  }
  if (traces.empty())
    return reportError("trace-merge",
                       makeInputError("no per-rank trace '" + stem +
                                      ".rank0" + extension + "'"));
  int64_t earliest = *llvm::min_element(starts);
  llvm::json::Array events;
  std::set<std::string> metadataSeen;
  int64_t flowBase = 0;
  for (auto [rank, trace] : llvm::enumerate(traces)) {
    double shiftUs = double(starts[rank] - earliest);
    int64_t maxFlow = 0;
    for (llvm::json::Value &event :
         *trace.getAsObject()->getArray("traceEvents")) {
      llvm::json::Object *object = event.getAsObject();
      if (!object)
        continue;
      // Every rank describes every mesh and device: keep one description.
      if (object->getString("ph") == llvm::StringRef("M")) {
        std::string key;
        llvm::raw_string_ostream os(key);
        os << llvm::json::Value(llvm::json::Object(*object));
        if (!metadataSeen.insert(key).second)
          continue;
      }
      if (std::optional<double> ts = object->getNumber("ts"))
        (*object)["ts"] = *ts + shiftUs;
      // Flow ids restart in each trace: renumber them apart.
      if (std::optional<int64_t> id = object->getInteger("id")) {
        maxFlow = std::max(maxFlow, *id);
        (*object)["id"] = *id + flowBase;
      }
      events.push_back(std::move(event));
    }
    flowBase += maxFlow;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(llvm::json::Object{
      {"displayTimeUnit", "ms"},
      {"otherData", llvm::json::Object{{"startUnixMicros", earliest},
                                       {"ranks", int64_t(traces.size())}}},
      {"traceEvents", std::move(events)}});
  if (llvm::Error error = writeOutputFile(*output, text))
    return reportError("trace-merge", std::move(error));
  return kExitSuccess;
}

} // namespace mlir::mpmd::tools
