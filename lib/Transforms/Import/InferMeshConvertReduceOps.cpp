//===- InferMeshConvertReduceOps.cpp - -mpmd-infer-mesh-convert-reduce-ops ===//

#include "MeshInferenceUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHCONVERTREDUCEOPSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

/// The reduction `op` computes: a binary elementwise reduction op, or the
/// reduce of a concat-reduce pair.
std::optional<ReductionType> getAnyReductionKind(Operation *op) {
  if (std::optional<ReductionType> kind = getReductionKind(op))
    return kind;
  if (std::optional<ConcatReduction> match = matchConcatReduction(op))
    return match->kind;
  return std::nullopt;
}

/// The values `op` (a reduction candidate) reduces.
SmallVector<Value> getReducedValues(Operation *op) {
  if (std::optional<ConcatReduction> match = matchConcatReduction(op))
    return llvm::to_vector(match->operands());
  return llvm::to_vector(op->getOperands());
}

/// A meshless op with one operand and one result (a cast, negate, convert,
/// reshape...): what may sit between a reduction and its user
/// `mpmd.reduce<none>`.
bool isUnaryOp(Operation *op) {
  return isMeshlessOp(op) && op->getNumOperands() == 1 &&
         op->getNumResults() == 1 && op->getNumRegions() == 0;
}

class Converter {
public:
  Converter(Program &program, bool inferCrossMeshReductions)
      : program(program), inferCrossMeshReductions(inferCrossMeshReductions) {}

  void run() {
    // Reductions feeding a user `mpmd.reduce<none>` are converted in both
    // modes; the annotated ones only with cross-mesh reductions.
    SmallVector<Operation *> annotated;
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block) {
        if (auto reduce = dyn_cast<ReduceOp>(&op);
            reduce && reduce.getReduction() == ReductionType::kNone)
          markFromNoneReduce(reduce);
        if (op.hasAttr(kReduceAttr))
          annotated.push_back(&op);
      }
    });
    for (Operation *op : annotated) {
      // The annotation may come with the input: only an op that does
      // compute a reduction is converted (never into an invalid reduce).
      std::optional<ReductionType> kind = getAnyReductionKind(op);
      if (inferCrossMeshReductions && kind) {
        marked.try_emplace(op, *kind);
        continue;
      }
      if (marked.contains(op))
        continue;
      // Not converted: its src_set is the plain intersection again, for
      // validation to report the conflict.
      op->removeAttr(kReduceAttr);
      SrcSet meet;
      for (Value input : getInputs(op))
        meet = intersectSrc(meet, getValueSrcSet(input, program));
      setOpSrcSet(op, meet, program.meshes);
    }
    // Program order: the inner links of a chain are converted before the
    // outer ones, which then flatten them.
    SmallVector<Operation *> order;
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block)
        if (marked.contains(&op))
          order.push_back(&op);
    });
    for (Operation *op : order)
      convert(op, marked.lookup(op));
  }

private:
  /// Walks back from the operand of `none` through unary ops to the first
  /// reduction, and marks it and, transitively, the producers of its reduced
  /// values that compute the same reduction.
  void markFromNoneReduce(ReduceOp none) {
    Operation *def = none.getTensors().front().getDefiningOp();
    while (def && def->getBlock() == none->getBlock() && isUnaryOp(def) &&
           !getAnyReductionKind(def))
      def = def->getOperand(0).getDefiningOp();
    if (!def || def->getBlock() != none->getBlock())
      return;
    std::optional<ReductionType> kind = getAnyReductionKind(def);
    if (!kind)
      return;
    SmallVector<Operation *> worklist{def};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!marked.try_emplace(op, *kind).second)
        continue;
      for (Value value : getReducedValues(op)) {
        Operation *producer = value.getDefiningOp();
        if (producer && producer->getBlock() == op->getBlock() &&
            getAnyReductionKind(producer) == kind)
          worklist.push_back(producer);
      }
    }
  }

  /// Replaces `op` by `mpmd.reduce<kind>` of the values it reduces. A
  /// concat-reduce pair reduces its concatenated values, each reshaped to the
  /// result type; an operand produced by an `mpmd.reduce<kind>` is replaced
  /// by that reduce's operands.
  void convert(Operation *op, ReductionType kind) {
    MLIRContext *ctx = op->getContext();
    OpBuilder builder(op);
    Type resultType = op->getResult(0).getType();
    SmallVector<Value> reduced;
    Operation *concat = nullptr;
    Operation *init = nullptr;
    if (std::optional<ConcatReduction> match = matchConcatReduction(op)) {
      concat = match->concat;
      init = op->getOperand(1).getDefiningOp();
      // The reshapes have the reduce's result type, so they keep the
      // reduce's discardable attributes (shardings, frontend attributes);
      // the analysis attributes are their own.
      SmallVector<NamedAttribute> kept;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getName() != kReduceAttr && attr.getName() != kSrcSetAttr)
          kept.push_back(attr);
      for (Value value : match->operands()) {
        auto reshape = stablehlo::ReshapeOp::create(builder, op->getLoc(),
                                                    resultType, value);
        for (NamedAttribute attr : kept)
          reshape->setAttr(attr.getName(), attr.getValue());
        setOpSrcSet(reshape, getValueSrcSet(value, program), program.meshes);
        reduced.push_back(reshape);
      }
    } else {
      llvm::append_range(reduced, op->getOperands());
    }
    SmallVector<Value> operands;
    llvm::SetVector<Operation *> flattened;
    for (Value value : reduced) {
      auto inner = value.getDefiningOp<ReduceOp>();
      if (inner && inner.getReduction() == kind) {
        llvm::append_range(operands, inner.getTensors());
        flattened.insert(inner);
        continue;
      }
      operands.push_back(value);
    }
    auto reduce = ReduceOp::create(builder, op->getLoc(), resultType, operands,
                                   ReductionTypeAttr::get(ctx, kind));
    // Like any mpmd.reduce, it can live wherever one of its operands lives.
    std::optional<MeshSet> src;
    for (Value operand : operands)
      if (SrcSet set = getValueSrcSet(operand, program)) {
        if (!src)
          src.emplace();
        src->unionWith(*set);
      }
    setOpSrcSet(reduce, src, program.meshes);
    if (Attribute use = op->getAttr(kUseSetAttr))
      reduce->setAttr(kUseSetAttr, use);
    op->getResult(0).replaceAllUsesWith(reduce.getResult());
    op->erase();
    if (concat)
      concat->erase();
    // The identity constant, unless something else uses it.
    if (init && init->use_empty())
      init->erase();
    for (Operation *inner : flattened)
      if (inner->use_empty())
        inner->erase();
  }

  Program &program;
  bool inferCrossMeshReductions;
  DenseMap<Operation *, ReductionType> marked;
};

class InferMeshConvertReduceOpsPass
    : public impl::InferMeshConvertReduceOpsPassBase<
          InferMeshConvertReduceOpsPass> {
  using Base::Base;

  void runOnOperation() override {
        std::vector<Program> units =
        Program::buildUnits(getOperation());
    for (Program &unit : units)
      Converter(unit, inferCrossMeshReductions).run();
  }
};

} // namespace
} // namespace mlir::mpmd
