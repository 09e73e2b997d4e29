//===- InitAllDialects.cpp - Register every dialect mpmd tools use --------===//

#include "mpmd/InitAllDialects.h"

#include "mpmd/Dialect/Check/IR/CheckOps.h"
#include "mpmd/Dialect/Chlo/IR/ChloOps.h"
#include "mpmd/Dialect/Interpreter/IR/InterpreterOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdShardingInterfaces.h"
#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::mpmd::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::mpmd::MpmdDialect, mlir::sdy::SdyDialect,
                  mlir::stablehlo::StablehloDialect, mlir::chlo::ChloDialect,
                  mlir::check::CheckDialect,
                  mlir::interpreter::InterpreterDialect>();
  // quant: the `!quant.uniform` element types of quantized tensors, which
  // may appear (in function signatures) before any stablehlo op loads it.
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect, mlir::quant::QuantDialect>();
  mlir::func::registerInlinerExtension(registry);
  mlir::mpmd::registerShardingInterfaceModels(registry);
}
