//===- PerInstructionPartitioning.cpp - -sdy-per-instruction-partitioning -===//
//
// Partitions selected ops one at a time (sdy-notes 2.5): each op is copied
// into a scratch module as the body of a function whose signature carries
// the op's operand and result shardings, that module runs through the
// partitioner passes, and the per-device function body comes back in place
// of the op inside an `sdy.manual_computation` over the axes the op uses.
//
//===----------------------------------------------------------------------===//

#include "DeviceIds.h"
#include "ExplicitReshards.h"

#include "../Propagation/DataFlowEdges.h"
#include "mpmd/Dialect/Sdy/IR/TensorShardings.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h"
#include "mpmd/Transforms/Sdy/Partitioning/ScratchModule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallSet.h"

#include <limits>

namespace mlir::sdy {
#define GEN_PASS_DEF_PERINSTRUCTIONPARTITIONINGPASS
#include "mpmd/Transforms/Sdy/Partitioning/Passes.h.inc"

namespace {

namespace hlo = ::mlir::stablehlo;

constexpr StringLiteral kChannelHandleAttrName = "channel_handle";

/// The `filter` option: op-name substrings (any may match; none listed:
/// every name matches) and an inclusive range of candidate indices.
struct InstructionFilter {
  SmallVector<std::string> nameSubstrings;
  int64_t selectLow = 0;
  int64_t selectHigh = std::numeric_limits<int64_t>::max();

  bool selects(Operation *op, int64_t index) const {
    if (index < selectLow || index > selectHigh)
      return false;
    if (nameSubstrings.empty())
      return true;
    StringRef name = op->getName().getStringRef();
    return llvm::any_of(nameSubstrings, [&](const std::string &substring) {
      return name.contains(substring);
    });
  }
};

/// Parses `filter`: comma-separated entries, each `selectLow=N`,
/// `selectHigh=N` or an op-name substring; empty entries are ignored.
FailureOr<InstructionFilter> parseFilter(StringRef text, Operation *anchor) {
  InstructionFilter filter;
  SmallVector<StringRef> entries;
  text.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    entry = entry.trim();
    if (entry.empty())
      continue;
    auto [key, value] = entry.split('=');
    if (entry.contains('=') && key != "selectLow" && key != "selectHigh")
      return anchor->emitError()
             << "filter entry '" << entry
             << "' is neither selectLow=N, selectHigh=N nor an op name";
    if (!entry.contains('=')) {
      filter.nameSubstrings.push_back(entry.str());
      continue;
    }
    int64_t bound;
    if (value.trim().getAsInteger(10, bound) || bound < 0)
      return anchor->emitError() << "filter entry '" << entry
                                 << "' needs a non-negative integer after '='";
    (key == "selectLow" ? filter.selectLow : filter.selectHigh) = bound;
  }
  return filter;
}

/// The shardings an op is partitioned with: closed forms of the current
/// ones, a missing one closed and replicated on the op's mesh.
SmallVector<TensorShardingAttr>
getClosedShardings(ArrayRef<TensorShardingAttr> shardings, TypeRange types,
                   const OpMesh &mesh) {
  SmallVector<TensorShardingAttr> closed;
  for (auto [sharding, type] : llvm::zip(shardings, types)) {
    auto tensorType = cast<RankedTensorType>(type);
    closed.push_back(sharding ? getClosedForm(sharding)
                              : getFullyClosedSharding(mesh.meshOrRef,
                                                       tensorType.getRank()));
  }
  return closed;
}

/// `types` with every sharded dimension rounded up to a multiple of its
/// shard count, as a manual computation requires of its operands and
/// results; nullopt for a dynamic dimension or a size that overflows.
std::optional<SmallVector<Type>>
getDivisibleTypes(ArrayRef<TensorShardingAttr> shardings, TypeRange types,
                  Operation *op) {
  SmallVector<Type> divisible;
  for (auto [sharding, type] : llvm::zip(shardings, types)) {
    auto tensorType = cast<RankedTensorType>(type);
    MeshAttr mesh = sharding.getMesh(op);
    SmallVector<int64_t> shape(tensorType.getShape());
    for (auto [size, dim] : llvm::zip(shape, sharding.getDimShardings())) {
      int64_t shards = dim.getShardedSize(mesh);
      if (ShapedType::isDynamic(size) || shards <= 0)
        return std::nullopt;
      std::optional<int64_t> rounded =
          mpmd::checkedAdd(size, (shards - size % shards) % shards);
      if (!rounded)
        return std::nullopt;
      size = *rounded;
    }
    divisible.push_back(tensorType.clone(shape));
  }
  return divisible;
}

/// `value` padded at the high end of each dimension to `type` (zeros),
/// sharded by `sharding`; `value` itself when it has that type already.
Value padTo(OpBuilder &builder, Location loc, Value value, Type type,
            TensorShardingAttr sharding) {
  auto valueType = cast<RankedTensorType>(value.getType());
  auto target = cast<RankedTensorType>(type);
  if (valueType == target)
    return value;
  auto scalarType = RankedTensorType::get({}, valueType.getElementType());
  Value zero = hlo::ConstantOp::create(
      builder, loc, scalarType,
      DenseElementsAttr::get(scalarType,
                             builder.getZeroAttr(valueType.getElementType())));
  SmallVector<int64_t> zeros(valueType.getRank(), 0), high;
  for (auto [size, padded] : llvm::zip(valueType.getShape(), target.getShape()))
    high.push_back(padded - size);
  auto pad = hlo::PadOp::create(
      builder, loc, target, value, zero, builder.getDenseI64ArrayAttr(zeros),
      builder.getDenseI64ArrayAttr(high), builder.getDenseI64ArrayAttr(zeros));
  pad->setAttr(SdyDialect::kShardingAttrName,
               TensorShardingPerValueAttr::get(builder.getContext(), sharding));
  return pad;
}

/// The first elements of `value` along each dimension, of type `type`,
/// sharded by `sharding`; `value` itself when it has that type already.
Value sliceTo(OpBuilder &builder, Location loc, Value value, Type type,
              TensorShardingAttr sharding) {
  auto target = cast<RankedTensorType>(type);
  if (value.getType() == target)
    return value;
  SmallVector<int64_t> zeros(target.getRank(), 0), ones(target.getRank(), 1);
  auto slice = hlo::SliceOp::create(
      builder, loc, target, value, builder.getDenseI64ArrayAttr(zeros),
      builder.getDenseI64ArrayAttr(target.getShape()),
      builder.getDenseI64ArrayAttr(ones));
  slice->setAttr(
      SdyDialect::kShardingAttrName,
      TensorShardingPerValueAttr::get(builder.getContext(), sharding));
  return slice;
}

/// The names of the mesh axes sharding dimensions of `shardings`, in mesh
/// order.
SmallVector<StringAttr> getUsedAxes(ArrayRef<TensorShardingAttr> shardings,
                                    MeshAttr mesh) {
  llvm::SmallSet<StringRef, 8> used;
  for (TensorShardingAttr sharding : shardings) {
    for (DimensionShardingAttr dim : sharding.getDimShardings())
      for (AxisRefAttr axis : dim.getAxes())
        used.insert(axis.getName());
  }
  SmallVector<StringAttr> ordered;
  for (MeshAxisAttr axis : mesh.getAxes())
    if (used.contains(axis.getName()))
      ordered.push_back(StringAttr::get(mesh.getContext(), axis.getName()));
  return ordered;
}

/// An op this pass can partition on its own: a StableHLO-level op with a
/// non-custom rule on one non-maximal mesh, statically shaped ranked
/// tensors only, shardings without unreduced axes, and some operand or
/// result not fully replicated. Data-flow ops, terminators and sdy ops are
/// left to the whole-program partitioner.
struct Candidate {
  Operation *op;
  OpMesh mesh;
  SmallVector<TensorShardingAttr> operandShardings;
  SmallVector<TensorShardingAttr> resultShardings;
  /// The types the manual computation exchanges: non-divisible dimensions
  /// padded at the high end.
  SmallVector<Type> divisibleOperandTypes;
  SmallVector<Type> divisibleResultTypes;
};

std::optional<Candidate> getCandidate(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (!dialect || isa<SdyDialect, func::FuncDialect>(dialect) ||
      op->hasTrait<OpTrait::IsTerminator>() || isDataFlowOp(op) ||
      op->getNumResults() == 0)
    return std::nullopt;
  auto isRankedTensor = [](Type type) { return isa<RankedTensorType>(type); };
  if (!llvm::all_of(op->getOperandTypes(), isRankedTensor) ||
      !llvm::all_of(op->getResultTypes(), isRankedTensor))
    return std::nullopt;
  std::optional<OpFactorView> view = OpFactorView::build(op);
  if (!view || !view->mesh.mesh)
    return std::nullopt;
  // A partial (unreduced) value has no per-device program of its own: the
  // partitioner only lowers a sharded contraction followed by its
  // all-reduce, which -sdy-insert-explicit-reshards has made a separate op.
  auto isUnreduced = [](TensorShardingAttr sharding) {
    return sharding && !sharding.getUnreducedAxes().empty();
  };
  if (llvm::any_of(view->operandShardings, isUnreduced) ||
      llvm::any_of(view->resultShardings, isUnreduced))
    return std::nullopt;
  auto isSharded = [](TensorShardingAttr sharding) {
    return sharding && !sharding.isFullyReplicated();
  };
  if (llvm::none_of(view->operandShardings, isSharded) &&
      llvm::none_of(view->resultShardings, isSharded))
    return std::nullopt;
  Candidate candidate{op, view->mesh,
                      getClosedShardings(view->operandShardings,
                                         op->getOperandTypes(), view->mesh),
                      getClosedShardings(view->resultShardings,
                                         op->getResultTypes(), view->mesh)};
  std::optional<SmallVector<Type>> operandTypes =
      getDivisibleTypes(candidate.operandShardings, op->getOperandTypes(), op);
  std::optional<SmallVector<Type>> resultTypes =
      getDivisibleTypes(candidate.resultShardings, op->getResultTypes(), op);
  if (!operandTypes || !resultTypes)
    return std::nullopt;
  candidate.divisibleOperandTypes = std::move(*operandTypes);
  candidate.divisibleResultTypes = std::move(*resultTypes);
  return candidate;
}

class PerInstructionPartitioningPass
    : public impl::PerInstructionPartitioningPassBase<
          PerInstructionPartitioningPass> {
  using PerInstructionPartitioningPassBase::PerInstructionPartitioningPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<InstructionFilter> filter = parseFilter(this->filter, module);
    if (failed(filter))
      return signalPassFailure();

    // Candidates in program order, numbered for selectLow/selectHigh; the
    // regions of a candidate go with it, and manual computation bodies are
    // local already.
    SmallVector<Candidate, 0> selected;
    int64_t index = 0;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<ManualComputationOp>(op))
        return WalkResult::skip();
      std::optional<Candidate> candidate = getCandidate(op);
      if (!candidate)
        return WalkResult::advance();
      if (filter->selects(op, index))
        selected.push_back(std::move(*candidate));
      ++index;
      return WalkResult::skip();
    });
    if (selected.empty())
      return;

    OpPassManager partitioner = buildPartitioner();
    int64_t channelBase = ChannelCounter::getLargestHandle(module);
    for (Candidate &candidate : selected)
      if (failed(partition(module, candidate, partitioner, channelBase)))
        return signalPassFailure();
  }

  /// The partitioner passes each scratch module runs through.
  OpPassManager buildPartitioner() {
    OpPassManager pm(ModuleOp::getOperationName());
    ResolvePermutationFactorsPassOptions permutation;
    permutation.enableHaloExchange = enableHaloExchange;
    permutation.replicaCount = replicaCount;
    permutation.partitionCount = partitionCount;
    pm.addPass(createResolvePermutationFactorsPass(permutation));
    pm.addNestedPass<func::FuncOp>(createInsertExplicitReshardsPass(
        InsertExplicitReshardsPassOptions{/*enableFullVersion=*/true}));
    pm.addNestedPass<func::FuncOp>(createReshardToCollectivesPass());
    pm.addNestedPass<func::FuncOp>(createPadForDivisibilityPass());
    ConvertGlobalToLocalPassOptions local;
    local.replicaCount = replicaCount;
    local.partitionCount = partitionCount;
    pm.addPass(createConvertGlobalToLocalPass(local));
    pm.addPass(createDropShardingAndMeshPass());
    return pm;
  }

  /// Partitions `candidate.op` in a scratch module nested in `module` (a
  /// dynamic pipeline must run under the current op) and replaces it by a
  /// manual computation holding the result. The collectives' channels are
  /// shifted past `channelBase`, which then moves past them.
  LogicalResult partition(ModuleOp module, Candidate &candidate,
                          OpPassManager &partitioner, int64_t &channelBase) {
    Operation *op = candidate.op;
    MLIRContext *context = op->getContext();
    Location loc = op->getLoc();
    ModuleOp scratch = createScratchModule(module, loc);
    OpBuilder builder = OpBuilder::atBlockEnd(scratch.getBody());
    // Non-divisible operands arrive padded and are sliced back before the
    // op; its non-divisible results leave padded (pad-for-divisibility
    // keeps the padding out of the computation).
    auto function = func::FuncOp::create(
        builder, loc, "per_instruction",
        builder.getFunctionType(candidate.divisibleOperandTypes,
                                candidate.divisibleResultTypes));
    for (auto [index, sharding] : llvm::enumerate(candidate.operandShardings))
      function.setArgAttr(index, SdyDialect::kShardingAttrName, sharding);
    for (auto [index, sharding] : llvm::enumerate(candidate.resultShardings))
      function.setResultAttr(index, SdyDialect::kShardingAttrName, sharding);
    Block *entry = function.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    IRMapping mapping;
    for (auto [operand, argument, sharding] :
         llvm::zip(op->getOperands(), entry->getArguments(),
                   candidate.operandShardings))
      mapping.map(operand,
                  sliceTo(builder, loc, argument, operand.getType(), sharding));
    Operation *copy = builder.clone(*op, mapping);
    SmallVector<Value> returned;
    for (auto [result, type, sharding] :
         llvm::zip(copy->getResults(), candidate.divisibleResultTypes,
                   candidate.resultShardings))
      returned.push_back(padTo(builder, loc, result, type, sharding));
    func::ReturnOp::create(builder, loc, returned);

    if (failed(runPipeline(partitioner, scratch))) {
      scratch.erase();
      return op->emitError()
             << "could not be partitioned on its own (see the errors above)";
    }

    // The per-device body goes into a manual computation over every axis
    // the op's shardings use, so that its types are the local ones.
    SmallVector<TensorShardingAttr> all(candidate.operandShardings);
    llvm::append_range(all, candidate.resultShardings);
    builder.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (auto [operand, type, sharding] :
         llvm::zip(op->getOperands(), candidate.divisibleOperandTypes,
                   candidate.operandShardings))
      operands.push_back(padTo(builder, loc, operand, type, sharding));
    auto manual = ManualComputationOp::create(
        builder, loc, candidate.divisibleResultTypes, operands,
        TensorShardingPerValueAttr::get(context, candidate.operandShardings),
        TensorShardingPerValueAttr::get(context, candidate.resultShardings),
        ManualAxesAttr::get(context, getUsedAxes(all, candidate.mesh.mesh)));
    function = *scratch.getOps<func::FuncOp>().begin();
    manual.getBody().takeBody(function.getBody());
    Block &body = manual.getBody().front();
    Operation *ret = body.getTerminator();
    builder.setInsertionPoint(ret);
    ReturnOp::create(builder, ret->getLoc(), ret->getOperands());
    ret->erase();
    scratch.erase();
    builder.setInsertionPointAfter(manual);
    for (auto [result, manualResult, sharding] : llvm::zip(
             op->getResults(), manual->getResults(), candidate.resultShardings))
      result.replaceAllUsesWith(
          sliceTo(builder, loc, manualResult, result.getType(), sharding));
    op->erase();
    return renumberChannels(manual, channelBase);
  }

  /// Moves every channel handle of `manual` past `channelBase` (each scratch
  /// module counted from 1) and `channelBase` past them.
  LogicalResult renumberChannels(ManualComputationOp manual,
                                 int64_t &channelBase) {
    int64_t largest = channelBase;
    WalkResult result = manual.walk([&](Operation *op) {
      std::optional<Attribute> attr =
          op->getInherentAttr(kChannelHandleAttrName);
      auto handle =
          dyn_cast_or_null<hlo::ChannelHandleAttr>(attr.value_or(nullptr));
      if (!handle)
        return WalkResult::advance();
      std::optional<int64_t> shifted =
          mpmd::checkedAdd(handle.getHandle(), channelBase);
      if (!shifted) {
        op->emitError() << "channel handle " << handle.getHandle()
                        << " overflows when numbered after " << channelBase;
        return WalkResult::interrupt();
      }
      op->setInherentAttr(
          StringAttr::get(op->getContext(), kChannelHandleAttrName),
          hlo::ChannelHandleAttr::get(op->getContext(), *shifted,
                                      handle.getType()));
      largest = std::max(largest, *shifted);
      return WalkResult::advance();
    });
    channelBase = largest;
    return failure(result.wasInterrupted());
  }
};

} // namespace
} // namespace mlir::sdy
