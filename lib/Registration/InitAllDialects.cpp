//===- InitAllDialects.cpp - Register every dialect mpmd tools use --------===//

#include "mpmd/InitAllDialects.h"

#include "mpmd/Dialect/Check/IR/CheckOps.h"
#include "mpmd/Dialect/Chlo/IR/ChloOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdDialect.h"
#include "mpmd/Dialect/Sdy/IR/SdyDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"
#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Export/Passes.h"
#include "mpmd/Transforms/Export/Pipelines.h"
#include "mpmd/Transforms/Import/Passes.h"
#include "mpmd/Transforms/Import/Pipelines.h"
#include "mpmd/Transforms/Optimize/Passes.h"
#include "mpmd/Transforms/Optimize/Pipelines.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"
#include "mpmd/Transforms/ShardingPropagation/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::mpmd::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::mpmd::MpmdDialect, mlir::sdy::SdyDialect,
                  mlir::stablehlo::StablehloDialect, mlir::chlo::ChloDialect,
                  mlir::check::CheckDialect>();
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::tensor::TensorDialect>();
  mlir::func::registerInlinerExtension(registry);
}

void mlir::mpmd::registerAllPasses() {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  registerMpmdCommonPasses();
  registerMpmdImportPasses();
  registerMpmdOptimizePasses();
  registerOptimizePipeline();
  registerMpmdShardingPropagationPasses();
  registerShardingPropagationPipeline();
  mlir::sdy::registerSdyPropagationPasses();
  registerInferMeshPipeline();
  registerImportPipeline();
  registerMpmdExportPasses();
  registerExportPipeline();
}
