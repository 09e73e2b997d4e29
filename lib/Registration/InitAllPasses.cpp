//===- InitAllPasses.cpp - Register every pass mpmd tools use -------------===//

#include "mpmd/InitAllDialects.h"

#include "mpmd/Transforms/Common/Passes.h"
#include "mpmd/Transforms/Export/Passes.h"
#include "mpmd/Transforms/Export/Pipelines.h"
#include "mpmd/Transforms/Import/Passes.h"
#include "mpmd/Transforms/Import/Pipelines.h"
#include "mpmd/Transforms/Optimize/Passes.h"
#include "mpmd/Transforms/Optimize/Pipelines.h"
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"
#include "mpmd/Transforms/Sdy/Pipelines.h"
#include "mpmd/Transforms/ShardingPropagation/Passes.h"
#include "mpmd/Transforms/ShardingPropagation/Pipelines.h"

#include "mlir/Transforms/Passes.h"

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
  mlir::sdy::registerSdyPartitioningPasses();
  mlir::sdy::registerSdyPipelines();
  mlir::sdy::registerSdyGspmdPasses();
  mlir::sdy::registerStablehloImportPipeline();
  registerInferMeshPipeline();
  registerImportPipeline();
  registerMpmdExportPasses();
  registerExportPipeline();
}
