//===- StablehloDialect.cpp - stablehlo dialect registration --------------===//

#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Dialect/Utils/InlineAnywhere.h"

#include "mlir/Dialect/Quant/IR/Quant.h"

using namespace mlir;
using namespace mlir::stablehlo;

#include "mpmd/Dialect/StableHLO/IR/StablehloDialect.cpp.inc"

// Each op list lives in its own TU (see StablehloOps.td); these add them.
namespace mlir::stablehlo {
void registerElementwiseOps(StablehloDialect &dialect);
void registerShapeOps(StablehloDialect &dialect);
void registerRegionOps(StablehloDialect &dialect);
void registerCompoundOps(StablehloDialect &dialect);
} // namespace mlir::stablehlo

void StablehloDialect::initialize() {
  registerAttributes();
  registerTypes();
  registerElementwiseOps(*this);
  registerShapeOps(*this);
  registerRegionOps(*this);
  registerCompoundOps(*this);
  addInterfaces<mlir::mpmd::InlineAnywhereInterface>();
}
