//===- StablehloRoundTripShardMapImport.cpp -------------------------------===//
//
// -xla-sdy-stablehlo-round-trip-shard-map-import
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_STABLEHLOROUNDTRIPSHARDMAPIMPORTPASS
#include "mpmd/Transforms/Sdy/Gspmd/Passes.h.inc"

namespace {

stablehlo::CustomCallOp getCustomCall(Value value, StringRef target) {
  auto call = value.getDefiningOp<stablehlo::CustomCallOp>();
  if (call && call.getCallTargetName() == target &&
      call->getNumOperands() == 1 && call->getNumResults() == 1)
    return call;
  return nullptr;
}

TensorShardingAttr getSingleSharding(Operation *op) {
  auto shardings = op->getAttrOfType<TensorShardingPerValueAttr>(
      SdyDialect::kShardingAttrName);
  if (!shardings || shardings.getShardings().size() != 1)
    return nullptr;
  return shardings.getShardings().front();
}

/// The custom calls of one shard_map call, and what they say.
struct ShardMapPattern {
  SmallVector<Value> globalOperands;
  SmallVector<TensorShardingAttr> inShardings, outShardings;
  SmallVector<stablehlo::CustomCallOp> fullToShard, manualShardings,
      shardToFull;
  ManualAxesAttr manualAxes;
};

/// The global type of `localType` under `sharding`'s manual axes, checked
/// against `globalType`.
LogicalResult checkLocalType(Operation *op, TensorShardingAttr sharding,
                             ManualAxesAttr manualAxes, Type globalType,
                             Type localType, const Twine &what) {
  auto global = dyn_cast<RankedTensorType>(globalType);
  auto local = dyn_cast<RankedTensorType>(localType);
  if (!global || !local || global.getRank() != local.getRank() ||
      global.getElementType() != local.getElementType() ||
      int64_t(sharding.getDimShardings().size()) != global.getRank())
    return op->emitError() << what << ": the local type " << localType
                           << " does not match the global type " << globalType
                           << " under " << sharding;
  MeshAttr mesh = sharding.getMesh(op);
  if (!mesh)
    return op->emitError() << what << ": unknown mesh in " << sharding;
  for (StringAttr axis : manualAxes.getValue())
    if (!mesh.getAxisSize(axis.getValue()))
      return op->emitError() << what << ": manual axis \"" << axis.getValue()
                             << "\" is not an axis of the mesh of " << sharding;
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.getDimShardings())) {
    int64_t manualSize = 1;
    bool seenFree = false;
    for (AxisRefAttr axis : dimSharding.getAxes()) {
      bool isManual =
          llvm::is_contained(manualAxes.getValue(),
                             StringAttr::get(op->getContext(), axis.getName()));
      // sdy lays manual axes out before free ones in a dimension.
      if (isManual && seenFree)
        return op->emitError() << what << ": dimension " << dim << " of "
                               << sharding << " has manual axis \""
                               << axis.getName() << "\" after a free one";
      seenFree |= !isManual;
      if (isManual)
        manualSize *= axis.getSize(mesh);
    }
    if (global.getDimSize(dim) % manualSize != 0 ||
        global.getDimSize(dim) / manualSize != local.getDimSize(dim))
      return op->emitError()
             << what << ": the local type " << localType
             << " is not the global type " << globalType << " under "
             << sharding << " with manual axes " << manualAxes;
  }
  return success();
}

/// The pattern around `call`, or failure (with an error) when `call` takes
/// a full-to-shard value but is no shard_map call.
FailureOr<ShardMapPattern> matchPattern(func::CallOp call) {
  ShardMapPattern pattern;
  auto fail = [&](const Twine &message) {
    return call.emitError("a call of shard_map body @")
           << call.getCallee() << " " << message;
  };
  for (auto [index, operand] : llvm::enumerate(call.getOperands())) {
    stablehlo::CustomCallOp fullToShard =
        getCustomCall(operand, kFullToShardCustomCallTarget);
    if (!fullToShard)
      return fail("takes operand " + Twine(index) + " not made by @" +
                  kFullToShardCustomCallTarget);
    stablehlo::CustomCallOp sharding =
        getCustomCall(fullToShard->getOperand(0), kShardingCustomCallTarget);
    TensorShardingAttr inSharding =
        sharding ? getSingleSharding(sharding) : nullptr;
    if (!inSharding)
      return fail("takes operand " + Twine(index) + " whose @" +
                  kFullToShardCustomCallTarget +
                  " does not read a @Sharding with the global sharding");
    auto manualAxes =
        fullToShard->getAttrOfType<ManualAxesAttr>(kGspmdManualAxesAttrName);
    if (!manualAxes)
      return fail("takes operand " + Twine(index) + " whose @" +
                  kFullToShardCustomCallTarget + " has no manual sharding");
    if (pattern.manualAxes && pattern.manualAxes != manualAxes)
      return fail("has operands with different manual axes");
    pattern.manualAxes = manualAxes;
    pattern.globalOperands.push_back(sharding.getResult(0));
    pattern.inShardings.push_back(inSharding);
    pattern.fullToShard.push_back(fullToShard);
  }
  for (auto [index, result] : llvm::enumerate(call.getResults())) {
    stablehlo::CustomCallOp manual =
        result.hasOneUse()
            ? dyn_cast<stablehlo::CustomCallOp>(*result.getUsers().begin())
            : nullptr;
    if (!manual || manual.getCallTargetName() != kShardingCustomCallTarget ||
        manual->getNumResults() != 1 || !manual.getResult(0).hasOneUse())
      return fail("has result " + Twine(index) +
                  " not used once by a manual @Sharding");
    auto shardToFull =
        dyn_cast<stablehlo::CustomCallOp>(*manual->getUsers().begin());
    TensorShardingAttr outSharding = shardToFull &&
                                             shardToFull.getCallTargetName() ==
                                                 kShardToFullCustomCallTarget &&
                                             shardToFull->getNumResults() == 1
                                         ? getSingleSharding(shardToFull)
                                         : nullptr;
    if (!outSharding)
      return fail("has result " + Twine(index) + " that does not reach an @" +
                  kShardToFullCustomCallTarget + " with the global sharding");
    auto manualAxes =
        manual->getAttrOfType<ManualAxesAttr>(kGspmdManualAxesAttrName);
    if (!manualAxes || (pattern.manualAxes && pattern.manualAxes != manualAxes))
      return fail("has result " + Twine(index) +
                  " whose @Sharding does not have the manual axes of the "
                  "operands");
    pattern.manualAxes = manualAxes;
    pattern.outShardings.push_back(outSharding);
    pattern.manualShardings.push_back(manual);
    pattern.shardToFull.push_back(shardToFull);
  }
  if (!pattern.manualAxes)
    return fail("has neither operands nor results");
  StringRef mesh;
  for (const auto *list : {&pattern.inShardings, &pattern.outShardings})
    for (TensorShardingAttr sharding : *list) {
      if (!mesh.empty() && sharding.getMeshName() != mesh)
        return fail("has operands and results on different meshes");
      mesh = sharding.getMeshName();
    }
  for (auto [index, sharding] : llvm::enumerate(pattern.inShardings))
    if (failed(checkLocalType(call, sharding, pattern.manualAxes,
                              pattern.globalOperands[index].getType(),
                              call.getOperand(index).getType(),
                              "operand " + Twine(index))))
      return failure();
  for (auto [index, sharding] : llvm::enumerate(pattern.outShardings))
    if (failed(checkLocalType(call, sharding, pattern.manualAxes,
                              pattern.shardToFull[index].getType(0),
                              call.getResult(index).getType(),
                              "result " + Twine(index))))
      return failure();
  return pattern;
}

class StablehloRoundTripShardMapImportPass
    : public impl::StablehloRoundTripShardMapImportPassBase<
          StablehloRoundTripShardMapImportPass> {
  using StablehloRoundTripShardMapImportPassBase::
      StablehloRoundTripShardMapImportPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (llvm::any_of(call.getOperands(), [](Value operand) {
            return getCustomCall(operand, kFullToShardCustomCallTarget);
          }))
        calls.push_back(call);
    });
    bool failed = false;
    llvm::SetVector<func::FuncOp> callees;
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock()) {
        call.emitError("shard_map body @")
            << call.getCallee() << " must be a function with one block";
        failed = true;
        continue;
      }
      FailureOr<ShardMapPattern> pattern = matchPattern(call);
      if (mlir::failed(pattern)) {
        failed = true;
        continue;
      }
      OpBuilder builder(call);
      SmallVector<Type> resultTypes;
      for (stablehlo::CustomCallOp shardToFull : pattern->shardToFull)
        resultTypes.push_back(shardToFull.getType(0));
      auto manual = ManualComputationOp::create(
          builder, call.getLoc(), resultTypes, pattern->globalOperands,
          TensorShardingPerValueAttr::get(ctx, pattern->inShardings),
          TensorShardingPerValueAttr::get(ctx, pattern->outShardings),
          pattern->manualAxes);
      Block *body = builder.createBlock(&manual.getBody());
      IRMapping mapping;
      for (BlockArgument argument : callee.getArguments())
        mapping.map(argument,
                    body->addArgument(argument.getType(), argument.getLoc()));
      for (Operation &op : callee.front().without_terminator())
        builder.clone(op, mapping);
      Operation *ret = callee.front().getTerminator();
      SmallVector<Value> returned;
      for (Value value : ret->getOperands())
        returned.push_back(mapping.lookup(value));
      ReturnOp::create(builder, ret->getLoc(), returned);
      for (auto [index, shardToFull] : llvm::enumerate(pattern->shardToFull)) {
        shardToFull.getResult(0).replaceAllUsesWith(manual.getResult(index));
        shardToFull.erase();
        pattern->manualShardings[index].erase();
      }
      call.erase();
      for (stablehlo::CustomCallOp fullToShard : pattern->fullToShard)
        if (fullToShard->use_empty())
          fullToShard.erase();
      callees.insert(callee);
    }
    for (func::FuncOp callee : callees)
      if (callee.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(callee, module))
        callee.erase();
    // Custom calls of a call that did not match were reported with it.
    if (failed)
      return signalPassFailure();
    module.walk([&](stablehlo::CustomCallOp call) {
      StringRef target = call.getCallTargetName();
      if (target != kFullToShardCustomCallTarget &&
          target != kShardToFullCustomCallTarget)
        return;
      call.emitError("@") << target << " is not part of a shard_map call (@"
                          << kFullToShardCustomCallTarget << " operands, @"
                          << kShardingCustomCallTarget << " + @"
                          << kShardToFullCustomCallTarget << " results)";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::sdy
