//===- CommandError.cpp - Errors and exit codes of the subcommands --------===//

#include "CommandError.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::mpmd::tools {

char CommandError::ID = 0;

void CommandError::log(llvm::raw_ostream &os) const { os << message; }

std::error_code CommandError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error makeUsageError(const llvm::Twine &message) {
  return llvm::make_error<CommandError>(message.str(), kExitUsageError);
}

llvm::Error makeInputError(const llvm::Twine &message) {
  return llvm::make_error<CommandError>(message.str(), kExitInputError);
}

int reportError(llvm::StringRef command, llvm::Error error) {
  int exitCode = kExitInputError;
  llvm::handleAllErrors(std::move(error), [&](const llvm::ErrorInfoBase &info) {
    if (info.isA<CommandError>())
      exitCode = static_cast<const CommandError &>(info).getExitCode();
    llvm::errs() << "mpmd " << command << ": error: " << info.message() << "\n";
  });
  return exitCode;
}

} // namespace mlir::mpmd::tools
