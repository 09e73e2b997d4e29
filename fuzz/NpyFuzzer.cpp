//===- NpyFuzzer.cpp - Reading .npy files ---------------------------------===//
//
// Input: a .npy file's bytes. parseNpy must return a tensor whose every
// byte is allocated, or an error, for any bytes.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mlir::mpmd::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<Tensor> tensor = parseNpy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "input");
  if (!tensor) {
    llvm::consumeError(tensor.takeError());
    return 0;
  }
  // Touch every byte: a tensor that claims more than it holds is an ASan
  // report here.
  volatile uint8_t sum = 0;
  for (size_t i = 0; i < tensor->byteSize(); ++i)
    sum = sum + static_cast<uint8_t>(tensor->bytes()[i]);
  (void)sum;
  return 0;
}
