//===- ModuleFile.cpp - A module the mpmd subcommands read ----------------===//

#include "ModuleFile.h"

#include "mpmd/InitAllDialects.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::mpmd::tools {

namespace {

DialectRegistry getAllDialects() {
  DialectRegistry registry;
  registerAllDialects(registry);
  return registry;
}

} // namespace

ModuleFile::ModuleFile()
    : context(getAllDialects()), diagnostics(sourceMgr, &context) {
  context.printOpOnDiagnostic(false);
}

std::unique_ptr<ModuleFile> ModuleFile::read(llvm::StringRef path,
                                             std::string &openError) {
  openError.clear();
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &openError);
  if (!buffer)
    return nullptr;
  std::unique_ptr<ModuleFile> file(new ModuleFile());
  file->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  file->module = parseSourceFile<ModuleOp>(file->sourceMgr, &file->context);
  if (!file->module)
    return nullptr;
  return file;
}

} // namespace mlir::mpmd::tools
