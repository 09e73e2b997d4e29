//===- ProgramIO.cpp - A program's inputs and outputs as files ------------===//

#include "mpmd/Runtime/ProgramIO.h"

#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Npy.h"
#include "mpmd/Runtime/Random.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace mlir::mpmd::runtime {

char InputError::ID = 0;

void InputError::log(llvm::raw_ostream &os) const {
  if (argument)
    os << "argument " << *argument << ": ";
  os << problem;
}

std::error_code InputError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Expected<std::vector<Tensor>>
readInputs(llvm::ArrayRef<std::string> paths,
           llvm::ArrayRef<TensorSpec> expected) {
  if (paths.size() != expected.size())
    return llvm::make_error<InputError>(
        std::nullopt, "expected " + std::to_string(expected.size()) +
                          " input(s), one per argument, got " +
                          std::to_string(paths.size()));
  std::vector<Tensor> inputs;
  for (auto [index, path, spec] : llvm::enumerate(paths, expected)) {
    llvm::Expected<Tensor> tensor = readNpy(path);
    if (!tensor)
      return tensor.takeError();
    // NumPy has no bf16, f8, tf32, i4...: such arguments come as the type
    // writeNpy stores them as (see Npy.h), rounded here.
    DType stored = npyStorageType(spec.dtype);
    if (stored != spec.dtype && tensor->dtype() == stored)
      *tensor = convert(*tensor, spec.dtype);
    if (tensor->dtype() != spec.dtype || tensor->shape() != spec.shape)
      return llvm::make_error<InputError>(
          index, "expected " + toString(spec) +
                     (stored != spec.dtype
                          ? std::string(" (as '") + npyDescr(spec.dtype) + "')"
                          : std::string()) +
                     ", got " + toString({tensor->dtype(), tensor->shape()}) +
                     " from " + path);
    inputs.push_back(std::move(*tensor));
  }
  return inputs;
}

std::vector<Tensor> randomInputs(uint64_t seed,
                                 llvm::ArrayRef<TensorSpec> expected) {
  std::vector<Tensor> inputs;
  for (auto [index, spec] : llvm::enumerate(expected))
    inputs.push_back(
        randomTensor(spec.dtype, spec.shape, SplitMix64(seed + index).next(),
                     spec.storageRange));
  return inputs;
}

llvm::Error writeOutputs(llvm::StringRef directory,
                         llvm::ArrayRef<Tensor> outputs) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return llvm::make_error<NpyError>(directory.str(),
                                      "cannot create the output directory: " +
                                          error.message());
  for (auto [index, output] : llvm::enumerate(outputs)) {
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, "output_" + llvm::Twine(index) + ".npy");
    if (llvm::Error error = writeNpy(path, output))
      return error;
  }
  return llvm::Error::success();
}

std::string summarize(const Tensor &tensor, int64_t limit) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << toString({tensor.dtype(), tensor.shape()});
  if (int64_t count = tensor.numElements()) {
    double min = tensor.elementAsDouble(0), max = min, sum = 0;
    for (int64_t i = 0; i < count; ++i) {
      double value = tensor.elementAsDouble(i);
      min = std::fmin(min, value); // NaNs show in the mean only
      max = std::fmax(max, value);
      sum += value;
    }
    os << llvm::format(" min %g max %g mean %g ", min, max, sum / count);
  } else {
    os << " ";
  }
  os << tensor.valuesToString(limit);
  return text;
}

} // namespace mlir::mpmd::runtime
