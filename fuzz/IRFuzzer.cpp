//===- IRFuzzer.cpp - Parsing and verifying IR of our dialects ------------===//
//
// Input: MLIR text (mpmd, sdy, stablehlo, chlo, check, func). The custom
// parsers and the verifiers of our dialects must reject anything malformed
// with a diagnostic. A module that verifies is printed and parsed again:
// what the printers write must read back and verify.
//
//===----------------------------------------------------------------------===//

#include "FuzzedModule.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using mlir::mpmd::fuzz::FuzzedModule;
  FuzzedModule input(
      llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!input.getModule())
    return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  input.getModule().print(os);
  if (!FuzzedModule(printed).getModule()) {
    llvm::errs() << "a verified module does not read back as printed:\n"
                 << printed;
    std::abort();
  }
  return 0;
}
