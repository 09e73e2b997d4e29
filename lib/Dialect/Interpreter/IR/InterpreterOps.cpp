//===- InterpreterOps.cpp - interpreter dialect and operations ------------===//

#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::interpreter;

#include "mpmd/Dialect/Interpreter/IR/InterpreterDialect.cpp.inc"

#define GET_OP_CLASSES
#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.cpp.inc"

void InterpreterDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.cpp.inc"
      >();
}

LogicalResult RunParallelOp::verify() {
  ArrayAttr programs = getPrograms();
  if (programs.empty())
    return emitOpError() << "programs must list at least one replica";
  int64_t numPartitions = -1;
  for (auto [replica, row] : llvm::enumerate(programs)) {
    auto partitions = dyn_cast<ArrayAttr>(row);
    if (!partitions)
      return emitOpError() << "programs[" << replica
                           << "] must be an array of function symbols";
    if (partitions.empty())
      return emitOpError() << "programs[" << replica
                           << "] must list at least one partition";
    if (numPartitions >= 0 &&
        static_cast<int64_t>(partitions.size()) != numPartitions)
      return emitOpError() << "programs[" << replica << "] has "
                           << partitions.size() << " partitions but programs[0] has "
                           << numPartitions;
    numPartitions = partitions.size();
    for (auto [partition, program] : llvm::enumerate(partitions))
      if (!isa<FlatSymbolRefAttr>(program))
        return emitOpError() << "programs[" << replica << "][" << partition
                             << "] must be a function symbol, got " << program;
  }
  if (std::optional<ArrayAttr> infeed = getInfeed())
    for (auto [i, function] : llvm::enumerate(*infeed))
      if (!isa<FlatSymbolRefAttr>(function))
        return emitOpError() << "infeed[" << i
                             << "] must be a function symbol, got " << function;
  return success();
}

LogicalResult
RunParallelOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto lookup = [&](Attribute symbol) {
    return symbolTable.lookupNearestSymbolFrom<func::FuncOp>(
        *this, cast<FlatSymbolRefAttr>(symbol));
  };
  // The processes' arguments and results, concatenated replica-major, must
  // be the op's inputs and results.
  SmallVector<Type> argumentTypes, resultTypes;
  for (Attribute row : getPrograms())
    for (Attribute program : cast<ArrayAttr>(row)) {
      func::FuncOp function = lookup(program);
      if (!function)
        return emitOpError() << "program " << program
                             << " is not a function of this module";
      llvm::append_range(argumentTypes, function.getArgumentTypes());
      llvm::append_range(resultTypes, function.getResultTypes());
    }
  auto compare = [&](StringRef what, TypeRange actual,
                     ArrayRef<Type> expected) -> LogicalResult {
    if (actual.size() != expected.size())
      return emitOpError() << "has " << actual.size() << " " << what
                           << " but the programs take " << expected.size();
    for (auto [i, pair] : llvm::enumerate(llvm::zip(actual, expected)))
      if (std::get<0>(pair) != std::get<1>(pair))
        return emitOpError() << what << " #" << i << " has type "
                             << std::get<0>(pair) << " but its program takes "
                             << std::get<1>(pair);
    return success();
  };
  if (failed(compare("inputs", getInputs().getTypes(), argumentTypes)) ||
      failed(compare("results", getResultTypes(), resultTypes)))
    return failure();
  if (std::optional<ArrayAttr> infeed = getInfeed())
    for (Attribute symbol : *infeed) {
      func::FuncOp function = lookup(symbol);
      if (!function)
        return emitOpError() << "infeed " << symbol
                             << " is not a function of this module";
      if (function.getNumArguments() != 0 || function.getNumResults() != 1 ||
          !isa<TensorType>(function.getResultTypes()[0]))
        return emitOpError() << "infeed " << symbol
                             << " must take no argument and return one tensor";
    }
  return success();
}

LogicalResult ProbeOp::verify() {
  // The id names a file in the probe directory: no path separators, no
  // hidden or relative names.
  StringRef id = getProbeId();
  if (id.empty() || id.front() == '.' ||
      !llvm::all_of(id, [](char c) {
        return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
      }))
    return emitOpError() << "probe_id must be letters, digits, '_', '-' and "
                            "'.' (not first), got \""
                         << id << "\"";
  return success();
}
