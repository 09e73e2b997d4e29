//===- InitAllDialects.cpp - Register every dialect mpmd tools use --------===//

#include "mpmd/InitAllDialects.h"

#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mpmd::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::sdy::SdyDialect>();
  registry.insert<mlir::stablehlo::StablehloDialect>();
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect>();
  mlir::func::registerInlinerExtension(registry);
}

void mpmd::registerAllPasses() {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
}
