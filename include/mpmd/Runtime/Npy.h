//===- Npy.h - NumPy .npy files as runtime tensors --------------*- C++ -*-===//
//
// `mpmd run` takes its inputs and writes its outputs as .npy files so that
// NumPy (np.load / np.save) is the other side. Read: format versions 1.0,
// 2.0 and 3.0, little-endian (or byte-sized) C-order arrays of the dtypes
// that match runtime::DType ('<f8', '<f4', '<f2', '|b1', '|i1', '<i2', '<i4',
// '<i8', '|u1', '<u2', '<u4', '<u8'). Write: version 1.0 (2.0 when the
// header does not fit), the same dtypes. bf16 has no NumPy dtype: a bf16
// tensor is written as '<f4' (exact widening) and a file never reads as
// bf16; callers that expect bf16 round f32 to it (see ProgramIO.h). No MLIR
// here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_NPY_H
#define MPMD_RUNTIME_NPY_H

#include "mpmd/Runtime/Tensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::mpmd::runtime {

/// A .npy file (or the directory for one) that cannot be read or written:
/// the path and the problem.
class NpyError : public llvm::ErrorInfo<NpyError> {
public:
  static char ID;
  NpyError(std::string path, std::string problem)
      : path(std::move(path)), problem(std::move(problem)) {}

  const std::string &getPath() const { return path; }
  const std::string &getProblem() const { return problem; }
  /// "PATH: PROBLEM".
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string path;
  std::string problem;
};

/// The dtype a tensor of `dtype` is written as: itself where NumPy has it,
/// else f32 for floats (bf16, tf32, f8, f6, f4: exact) and i8/ui8 for
/// i2/i4/ui2/ui4.
DType npyStorageType(DType dtype);
/// The .npy descriptor of `dtype` ("<f4", "|b1", ...); that of its
/// npyStorageType (bf16 gives "<f4").
const char *npyDescr(DType dtype);

/// Reads the array in the .npy file at `path`. Boolean bytes other than 0
/// become 1 (the runtime's i1 is 0 or 1).
llvm::Expected<Tensor> readNpy(llvm::StringRef path);

/// Parses `bytes`, the contents of a .npy file; `path` names it in errors.
llvm::Expected<Tensor> parseNpy(llvm::StringRef bytes, llvm::StringRef path);

/// Writes `tensor` to `path` (replacing it) as a .npy file.
llvm::Error writeNpy(llvm::StringRef path, const Tensor &tensor);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_NPY_H
