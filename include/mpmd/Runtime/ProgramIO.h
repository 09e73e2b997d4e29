//===- ProgramIO.h - A program's inputs and outputs as files ----*- C++ -*-===//
//
// What `mpmd run` does around the execution, kept out of the command so
// that every runner (the interpreter for plain modules, the MPMD executor
// for exported programs, with the local types of its mesh tensors) loads
// and checks inputs and writes outputs the same way. Inputs are checked
// against the types the program expects before anything runs. No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_PROGRAMIO_H
#define MPMD_RUNTIME_PROGRAMIO_H

#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

/// Inputs that do not fit the program: too many or too few, or an argument
/// of the wrong type (`argument` is its index).
class InputError : public llvm::ErrorInfo<InputError> {
public:
  static char ID;
  InputError(std::optional<size_t> argument, std::string problem)
      : argument(argument), problem(std::move(problem)) {}

  const std::optional<size_t> &getArgument() const { return argument; }
  /// "argument I: PROBLEM", or the problem alone.
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::optional<size_t> argument;
  std::string problem;
};

/// One tensor per expected argument, read from the .npy file of the same
/// index. A bf16 argument reads a '<f4' file rounded to nearest even (NumPy
/// has no bf16; see Npy.h). Fails with an InputError for a wrong count,
/// dtype or shape, and with an NpyError for a file that cannot be read.
llvm::Expected<std::vector<Tensor>>
readInputs(llvm::ArrayRef<std::string> paths,
           llvm::ArrayRef<TensorSpec> expected);

/// One random tensor per expected argument: argument i gets
/// randomTensor(dtype, shape, SplitMix64(seed + i).next(), storageRange)
/// (see Random.h).
std::vector<Tensor> randomInputs(uint64_t seed,
                                 llvm::ArrayRef<TensorSpec> expected);

/// Writes output i to DIRECTORY/output_<i>.npy, creating the directory.
llvm::Error writeOutputs(llvm::StringRef directory,
                         llvm::ArrayRef<Tensor> outputs);

/// One line about a tensor: its type, min, max and mean (for integers and
/// booleans too; none without elements) and its first `limit` values.
std::string summarize(const Tensor &tensor, int64_t limit = 6);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_PROGRAMIO_H
