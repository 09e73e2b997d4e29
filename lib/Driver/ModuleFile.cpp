//===- ModuleFile.cpp - A parsed program and its diagnostics --------------===//

#include "mpmd/Driver/ModuleFile.h"

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

#include <utility>

namespace mlir::mpmd::driver {

namespace {

DialectRegistry getAllDialects() {
  DialectRegistry registry;
  registerAllDialects(registry);
  return registry;
}

const char *getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

DiagnosticRecord makeRecord(const Diagnostic &diagnostic) {
  DiagnosticRecord record;
  record.severity = getSeverityName(diagnostic.getSeverity());
  record.message = diagnostic.str();
  // The first file location inside name, call-site and fused locations.
  diagnostic.getLocation()->walk([&](Location location) {
    auto file = dyn_cast<FileLineColLoc>(location);
    if (!file)
      return WalkResult::advance();
    record.file = file.getFilename().str();
    record.line = file.getLine();
    record.column = file.getColumn();
    return WalkResult::interrupt();
  });
  return record;
}

} // namespace

ModuleFile::ModuleFile(DiagnosticMode mode) : context(getAllDialects()) {
  context.printOpOnDiagnostic(false);
  if (mode == DiagnosticMode::kPrint)
    printer.emplace(sourceMgr, &context);
  else
    collector.emplace(&context, [this](Diagnostic &diagnostic) {
      collect(diagnostic);
      return success();
    });
}

void ModuleFile::collect(Diagnostic &diagnostic) {
  std::lock_guard<std::mutex> lock(collectedMutex);
  collected.push_back(makeRecord(diagnostic));
  for (const Diagnostic &note : diagnostic.getNotes())
    collected.push_back(makeRecord(note));
}

std::vector<DiagnosticRecord> ModuleFile::takeDiagnostics() {
  std::lock_guard<std::mutex> lock(collectedMutex);
  return std::exchange(collected, {});
}

std::unique_ptr<ModuleFile> ModuleFile::read(llvm::StringRef path,
                                             std::string &openError,
                                             DiagnosticMode mode) {
  openError.clear();
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &openError);
  if (!buffer)
    return nullptr;
  std::unique_ptr<ModuleFile> file(new ModuleFile(mode));
  file->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  file->module = parseSourceFile<ModuleOp>(file->sourceMgr, &file->context);
  if (!file->module)
    return nullptr;
  return file;
}

std::unique_ptr<ModuleFile> ModuleFile::parse(llvm::StringRef text,
                                              llvm::StringRef bufferName,
                                              DiagnosticMode mode) {
  std::unique_ptr<ModuleFile> file(new ModuleFile(mode));
  file->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  file->module = parseSourceFile<ModuleOp>(file->sourceMgr, &file->context);
  return file;
}

} // namespace mlir::mpmd::driver
