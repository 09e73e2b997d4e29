//===- mpmd-opt.cpp - mlir-opt with mpmd's dialects and passes ------------===//

#include "mpmd/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::mpmd::registerAllDialects(registry);
  mlir::mpmd::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mpmd optimizer driver: mpmd, sdy and stablehlo IR\n",
      registry));
}
