//===- OutputFile.cpp - Files the mpmd subcommands write ------------------===//

#include "OutputFile.h"

#include "CommandError.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::mpmd::tools {

llvm::Error writeOutputFile(llvm::StringRef path, llvm::StringRef text) {
  return writeOutputFiles({{path, text}});
}

llvm::Error writeOutputFiles(llvm::ArrayRef<OutputText> files) {
  // Files not kept are removed when their ToolOutputFile goes away.
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> written;
  for (const OutputText &output : files) {
    std::string message;
    std::unique_ptr<llvm::ToolOutputFile> file =
        openOutputFile(output.path, &message);
    if (!file)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
    file->os() << output.text;
    file->os().flush();
    if (std::error_code error = file->os().error()) {
      file->os().clear_error(); // reported here, not as a fatal error on close
      return llvm::createStringError(error, "cannot write '" + output.path +
                                                "': " + error.message());
    }
    written.push_back(std::move(file));
  }
  for (std::unique_ptr<llvm::ToolOutputFile> &file : written)
    file->keep();
  return llvm::Error::success();
}

llvm::Error checkOutputPath(llvm::StringRef option, llvm::StringRef path,
                            OutputKind kind) {
  auto unwritable = [&](const llvm::Twine &reason) {
    return makeUsageError(option + " '" + path +
                          "' cannot be written: " + reason);
  };
  if (kind == OutputKind::kFile && path == "-")
    return llvm::Error::success();
  if (path.empty())
    return unwritable("empty path");
  auto checkWritable = [&](llvm::StringRef existing,
                           bool mustBeDirectory) -> llvm::Error {
    bool isDirectory = llvm::sys::fs::is_directory(existing);
    if (mustBeDirectory && !isDirectory)
      return unwritable("'" + existing + "' is not a directory");
    if (!mustBeDirectory && isDirectory)
      return unwritable("it is a directory");
    if (llvm::sys::fs::access(existing, llvm::sys::fs::AccessMode::Write))
      return unwritable("'" + existing + "' is not writable");
    return llvm::Error::success();
  };
  if (llvm::sys::fs::exists(path))
    return checkWritable(path, kind == OutputKind::kDirectory);
  // A file is created in its existing parent directory; a directory with
  // the missing directories above it, under its nearest existing ancestor.
  llvm::SmallString<128> ancestor(path);
  if (std::error_code error = llvm::sys::fs::make_absolute(ancestor))
    return unwritable(error.message());
  do {
    llvm::sys::path::remove_filename(ancestor);
  } while (kind == OutputKind::kDirectory && !ancestor.empty() &&
           !llvm::sys::fs::exists(ancestor));
  if (!llvm::sys::fs::exists(ancestor))
    return unwritable("directory '" + ancestor + "' does not exist");
  return checkWritable(ancestor, /*mustBeDirectory=*/true);
}

} // namespace mlir::mpmd::tools
