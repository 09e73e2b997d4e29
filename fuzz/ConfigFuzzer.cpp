//===- ConfigFuzzer.cpp - The JSON configuration of mpmd compile ----------===//
//
// Input: a configuration file's text. parseConfig must return a Config or
// an error naming the JSON path, for any bytes.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Driver/Config.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<mlir::mpmd::driver::Config> config =
      mlir::mpmd::driver::parseConfig(
          llvm::StringRef(reinterpret_cast<const char *>(data), size));
  if (!config)
    llvm::consumeError(config.takeError());
  return 0;
}
