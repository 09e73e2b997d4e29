//===- PartitionFragmentBodies.cpp - -mpmd-partition-fragment-bodies ------===//
//
// Runs Shardy's partitioner on each fragment callee of a multi-device mesh.
// The sdy passes work on modules of functions that name `sdy.mesh` symbols,
// so each callee is partitioned inside a scratch module nested in the
// program's module (holding copies of the meshes), with the pipeline run as a
// dynamic pipeline of this pass, and moved back once it has local types.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"
#include "mpmd/Transforms/Sdy/Partitioning/ScratchModule.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_PARTITIONFRAGMENTBODIESPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// The shardings a call gives its callee's signature: operands then results,
/// a UnitAttr for a value without one or with one that shards nothing.
/// Calls with equal keys share a partitioned callee.
ArrayAttr getSignatureShardings(FragmentCallOp call) {
  SmallVector<Attribute> shardings;
  auto append = [&](TypeRange types) {
    for (Type type : types) {
      auto meshTensor = dyn_cast<MeshTensorType>(type);
      sdy::TensorShardingAttr sharding =
          meshTensor ? meshTensor.getSharding() : nullptr;
      shardings.push_back(sharding && !sharding.isFullyReplicated()
                              ? Attribute(sharding)
                              : UnitAttr::get(call.getContext()));
    }
  };
  append(call->getOperandTypes());
  append(call->getResultTypes());
  return ArrayAttr::get(call.getContext(), shardings);
}

/// Gives `callee`'s arguments and results the `sdy.sharding`s of `key`.
void setSignatureShardings(func::FuncOp callee, ArrayAttr key) {
  StringRef name = sdy::SdyDialect::kShardingAttrName;
  unsigned numInputs = callee.getNumArguments();
  for (auto [index, sharding] : llvm::enumerate(key.getValue())) {
    auto tensorSharding = dyn_cast<sdy::TensorShardingAttr>(sharding);
    if (index < numInputs) {
      if (tensorSharding)
        callee.setArgAttr(index, name, tensorSharding);
      else
        callee.removeArgAttr(index, name);
    } else if (tensorSharding) {
      callee.setResultAttr(index - numInputs, name, tensorSharding);
    } else {
      callee.removeResultAttr(index - numInputs,
                              StringAttr::get(callee.getContext(), name));
    }
  }
}

/// Marks every argument and result of `callee` without a sharding as
/// replicated on `meshOrRef`, closed: the call's values are replicated
/// there, and propagation in the body must not shard them (an open, absent
/// sharding would let it). O(arguments + results).
void closeReplicatedSignature(func::FuncOp callee, Attribute meshOrRef) {
  StringRef name = sdy::SdyDialect::kShardingAttrName;
  FunctionType type = callee.getFunctionType();
  auto replicated = [&](Type valueType) -> sdy::TensorShardingAttr {
    auto ranked = dyn_cast<RankedTensorType>(valueType);
    return ranked ? sdy::getFullyClosedSharding(meshOrRef, ranked.getRank())
                  : nullptr;
  };
  for (auto [index, input] : llvm::enumerate(type.getInputs()))
    if (!callee.getArgAttr(index, name))
      if (sdy::TensorShardingAttr sharding = replicated(input))
        callee.setArgAttr(index, name, sharding);
  for (auto [index, result] : llvm::enumerate(type.getResults()))
    if (!callee.getResultAttr(index, name))
      if (sdy::TensorShardingAttr sharding = replicated(result))
        callee.setResultAttr(index, name, sharding);
}

/// Every sharding `callee` mentions: its signature's and those in the
/// attributes of its ops (`sdy.sharding`, constraints, reshards, the
/// `out_sharding` of sdy collectives). O(ops + attributes).
SmallVector<sdy::TensorShardingAttr> collectShardings(func::FuncOp callee) {
  SmallVector<sdy::TensorShardingAttr> shardings;
  auto collect = [&](Attribute attr) {
    if (attr)
      attr.walk([&](sdy::TensorShardingAttr sharding) {
        shardings.push_back(sharding);
      });
  };
  collect(callee.getAllArgAttrs());
  collect(callee.getAllResultAttrs());
  callee.getBody().walk(
      [&](Operation *op) { collect(op->getAttrDictionary()); });
  return shardings;
}

/// True if partitioning `callee` changes it: a sharding shards something or
/// an sdy op (a collective, a reshard) is in the body.
bool needsPartitioning(func::FuncOp callee,
                       ArrayRef<sdy::TensorShardingAttr> shardings) {
  if (llvm::any_of(shardings, [](sdy::TensorShardingAttr sharding) {
        return !sharding.isFullyReplicated();
      }))
    return true;
  return callee.getBody()
      .walk([](Operation *op) {
        return isa<sdy::SdyDialect>(op->getDialect()) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True if `mesh` has the devices `meshShape` numbers: the same axes and
/// device ids (iota when a mesh lists none), or one device of it (a maximal
/// mesh). O(devices).
bool isMeshOf(sdy::MeshAttr mesh, sdy::MeshAttr meshShape) {
  ArrayRef<int64_t> ids = mesh.getDeviceIds();
  ArrayRef<int64_t> shapeIds = meshShape.getDeviceIds();
  if (mesh.getAxes().empty())
    return ids.size() == 1 &&
           (shapeIds.empty() ? ids.front() >= 0 &&
                                   ids.front() < meshShape.getTotalSize()
                             : llvm::is_contained(shapeIds, ids.front()));
  if (mesh.getAxes() != meshShape.getAxes())
    return false;
  // Meshes built with an explicit iota keep it, parsed ones drop it: compare
  // the device at each position.
  auto getDevice = [](ArrayRef<int64_t> deviceIds, int64_t position) {
    return deviceIds.empty() ? position : deviceIds[position];
  };
  for (int64_t position = 0, size = meshShape.getTotalSize(); position < size;
       ++position)
    if (getDevice(ids, position) != getDevice(shapeIds, position))
      return false;
  return true;
}

/// The sharding's mesh must number the devices of the callee's mesh as the
/// executor does (the topology mesh's device ids, row-major over its axes
/// when it lists none).
LogicalResult
verifyShardingMeshes(func::FuncOp callee, FragmentCallOp call,
                     sdy::MeshAttr meshShape,
                     ArrayRef<sdy::TensorShardingAttr> shardings) {
  for (sdy::TensorShardingAttr sharding : shardings) {
    sdy::MeshAttr mesh = sharding.getMesh(callee);
    if (mesh && isMeshOf(mesh, meshShape))
      continue;
    InFlightDiagnostic error = call.emitError()
                               << "cannot be SPMD-partitioned: callee "
                               << call.getCalleeAttr() << " has sharding "
                               << sharding << ", ";
    if (!mesh)
      return error << "whose mesh no sdy.mesh of the module defines";
    return error << "whose mesh " << mesh << " is not mesh \""
                 << call.getMeshName() << "\" " << meshShape
                 << " of the topology (same axes and device ids)";
  }
  return success();
}

/// Values cross fragment boundaries reduced: a partitioned callee returning
/// partial sums (unreduced axes) would hand the executor shards it cannot
/// assemble, and one taking them would need them reduced first.
LogicalResult verifyNoUnreducedBoundary(FragmentCallOp call) {
  for (auto [kind, types] :
       {std::pair{"operand", TypeRange(call->getOperandTypes())},
        std::pair{"result", TypeRange(call->getResultTypes())}})
    for (auto [index, type] : llvm::enumerate(types)) {
      auto meshTensor = dyn_cast<MeshTensorType>(type);
      sdy::TensorShardingAttr sharding =
          meshTensor ? meshTensor.getSharding() : nullptr;
      if (!sharding || sharding.getUnreducedAxes().empty())
        continue;
      return call.emitError()
             << "cannot be SPMD-partitioned: " << kind << " " << index
             << " has sharding " << sharding
             << ", whose unreduced axes would make the fragment take or "
                "return partial sums; values cross fragment boundaries "
                "reduced (reduce it inside the fragment)";
    }
  return success();
}

/// The per-device types a call's values have on its mesh.
SmallVector<Type> getLocalTypes(TypeRange types, Operation *anchor) {
  return llvm::map_to_vector(types, [&](Type type) -> Type {
    if (auto meshTensor = dyn_cast<MeshTensorType>(type))
      return meshTensor.getLocalTensorType(anchor);
    return type;
  });
}

/// Shardy's propagation from the callee's signature shardings, then
/// upstream's partitioner sequence (see the Sdy Partitioning Passes.td),
/// preceded by the export steps that turn what propagation leaves in a
/// body (sharding groups, constraints) into what the partitioner reads.
/// The propagation is what XLA does when upstream hands it a fragment with
/// its in/out shardings: -mpmd-convert-sdy-shardings-to-mpmd-types left
/// the body without shardings, and without it every sharded argument would
/// be all-gathered at the top of the body and the mesh's devices would each
/// compute the whole fragment. As in Shardy's propagation pipeline, each
/// use of a constant gets its own copy first (export's CSE left one
/// constant per value, e.g. one learning rate for weights sharded along
/// different dimensions, which would tie their shardings together and
/// push one weight's sharding onto the other's gradient), and copies that
/// ended up sharded alike are merged again after.
void buildPartitionerPipeline(OpPassManager &pm, int64_t devices) {
  pm.addPass(sdy::createConstantOrScalarSplitterPass());
  pm.addPass(sdy::createUserPriorityPropagatePass());
  pm.addPass(sdy::createRemoveShardingGroupsPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(sdy::createConstantOrScalarMergerPass());
  funcPm.addPass(sdy::createShardingConstraintToReshardPass());
  funcPm.addPass(sdy::createInsertExplicitReshardsPass(
      sdy::InsertExplicitReshardsPassOptions{/*enableFullVersion=*/true}));
  sdy::ResolvePermutationFactorsPassOptions permutation;
  permutation.partitionCount = devices;
  funcPm.addPass(sdy::createResolvePermutationFactorsPass(permutation));
  funcPm.addPass(sdy::createReshardToCollectivesPass());
  // As upstream's export pipeline: fold the collective pairs the
  // reshards (or the user) left, e.g. an all_slice of an all_gather on the
  // same axes, before they become communication.
  funcPm.addPass(createCanonicalizerPass(
      GreedyRewriteConfig(), /*disabledPatterns=*/{},
      /*enabledPatterns=*/{sdy::SdyDialect::kCollectivePatternLabel.str()}));
  funcPm.addPass(sdy::createPadForDivisibilityPass());
  sdy::ResolveSingleDeviceShardingPassOptions singleDevice;
  singleDevice.partitionCount = devices;
  funcPm.addPass(sdy::createResolveSingleDeviceShardingPass(singleDevice));
  sdy::ConvertGlobalToLocalPassOptions globalToLocal;
  globalToLocal.partitionCount = devices;
  pm.addPass(sdy::createConvertGlobalToLocalPass(globalToLocal));
  pm.addPass(sdy::createDropShardingAndMeshPass());
}

class PartitionFragmentBodiesPass
    : public impl::PartitionFragmentBodiesPassBase<
          PartitionFragmentBodiesPass> {
  using PartitionFragmentBodiesPassBase::PartitionFragmentBodiesPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    PartitionFragmentBodiesPassBase::getDependentDialects(registry);
    OpPassManager pm(ModuleOp::getOperationName());
    buildPartitionerPipeline(pm, /*devices=*/2);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbolTable(module);

    // Calls grouped by callee (first call first), then by the shardings
    // they give its signature.
    llvm::MapVector<func::FuncOp,
                    llvm::MapVector<ArrayAttr, SmallVector<FragmentCallOp>>>
        calls;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!isMpmdFunction(function))
        continue;
      function.walk([&](FragmentCallOp call) {
        if (auto callee = symbolTable.lookup<func::FuncOp>(call.getCallee()))
          calls[callee][getSignatureShardings(call)].push_back(call);
      });
    }

    bool failed = false;
    for (auto &[callee, byShardings] : calls) {
      auto meshShape =
          callee->getAttrOfType<sdy::MeshAttr>(MpmdDialect::kMeshShapeAttrName);
      if (!meshShape || meshShape.getTotalSize() <= 1)
        continue;
      // Another layout of the same values is a program of its own: copies
      // are made from the callee before it is partitioned.
      SmallVector<func::FuncOp> groupCallees = {callee};
      Block::iterator insertionPoint = std::next(callee->getIterator());
      for (auto &[key, groupCalls] : llvm::drop_begin(byShardings)) {
        func::FuncOp copy = callee.clone();
        symbolTable.insert(copy, insertionPoint);
        for (FragmentCallOp call : groupCalls)
          call.setCalleeAttr(FlatSymbolRefAttr::get(copy));
        groupCallees.push_back(copy);
      }
      for (auto [groupCallee, group] : llvm::zip(groupCallees, byShardings)) {
        setSignatureShardings(groupCallee, group.first);
        failed |=
            ::mlir::failed(partition(groupCallee, group.second, meshShape));
      }
    }
    if (failed)
      signalPassFailure();
  }

  /// Partitions `callee` for the devices of `meshShape`, unless nothing in
  /// it is sharded.
  LogicalResult partition(func::FuncOp callee, ArrayRef<FragmentCallOp> calls,
                          sdy::MeshAttr meshShape) {
    FragmentCallOp call = calls.front();
    SmallVector<sdy::TensorShardingAttr> shardings = collectShardings(callee);
    if (!needsPartitioning(callee, shardings))
      return success();
    if (failed(verifyNoUnreducedBoundary(call)) ||
        failed(verifyShardingMeshes(callee, call, meshShape, shardings)))
      return failure();
    // Any sharding over the mesh's axes names the mesh the replicated
    // signature entries are closed on (one device's maximal mesh does not).
    auto overAxes = llvm::find_if(shardings, [&](sdy::TensorShardingAttr s) {
      return !s.getMesh(callee).getAxes().empty();
    });
    if (overAxes != shardings.end())
      closeReplicatedSignature(callee, overAxes->getMeshOrRef());

    ModuleOp module = getOperation();
    ModuleOp scratch = sdy::createScratchModule(module, callee.getLoc());
    Block::iterator position = std::next(callee->getIterator());
    callee->moveBefore(scratch.getBody(), scratch.getBody()->end());

    OpPassManager pm(ModuleOp::getOperationName());
    buildPartitionerPipeline(pm, meshShape.getTotalSize());
    LogicalResult result = runPipeline(pm, scratch);
    callee->moveBefore(module.getBody(), position);
    scratch.erase();
    if (failed(result))
      return call.emitError()
             << "cannot be SPMD-partitioned over the "
             << meshShape.getTotalSize() << " devices of mesh \""
             << call.getMeshName() << "\": the partitioner failed on callee "
             << call.getCalleeAttr() << " (see the error above)";

    // The executor's side of the contract: each argument and result has the
    // type of one device's shard of the call's value.
    FunctionType type = callee.getFunctionType();
    if (TypeRange(getLocalTypes(call->getOperandTypes(), call)) !=
            type.getInputs() ||
        TypeRange(getLocalTypes(call->getResultTypes(), call)) !=
            type.getResults())
      return call.emitError()
             << "internal error: the partitioned callee "
             << call.getCalleeAttr() << " has type " << type
             << ", not the per-device types of the call's values";
    callee->setAttr(kSpmdPartitionedAttrName, UnitAttr::get(&getContext()));
    return success();
  }
};

} // namespace
} // namespace mlir::mpmd
