//===- OutputFile.cpp - Files the mpmd subcommands write ------------------===//

#include "OutputFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>
#include <string>

namespace mlir::mpmd::tools {

llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef text) {
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
  if (!file)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  file->os() << text;
  file->os().flush();
  if (std::error_code error = file->os().error()) {
    file->os().clear_error(); // reported here, not as a fatal error on close
    return llvm::createStringError(error, "cannot write '" + path +
                                              "': " + error.message());
  }
  file->keep();
  return llvm::Error::success();
}

} // namespace mlir::mpmd::tools
