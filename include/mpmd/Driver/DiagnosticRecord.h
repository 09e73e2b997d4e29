//===- DiagnosticRecord.h - A diagnostic as plain data ----------*- C++ -*-===//
//
// A compiler or runtime diagnostic detached from MLIR, for front ends that
// hand diagnostics on rather than print them (the Python package raises
// them). No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_DRIVER_DIAGNOSTICRECORD_H
#define MPMD_DRIVER_DIAGNOSTICRECORD_H

#include <cstdint>
#include <string>

namespace mlir::mpmd::driver {

struct DiagnosticRecord {
  /// "error", "warning", "note" or "remark".
  std::string severity;
  /// The file (or buffer name) of the first file location of the
  /// diagnostic; empty with line 0 when it has none.
  std::string file;
  int64_t line = 0;
  int64_t column = 0;
  std::string message;
};

} // namespace mlir::mpmd::driver

#endif // MPMD_DRIVER_DIAGNOSTICRECORD_H
