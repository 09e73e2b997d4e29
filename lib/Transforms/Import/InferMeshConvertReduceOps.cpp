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
    SmallVector<Operation *> order;
    program.forEachBlock([&](Block &block) {
      for (Operation &op : block)
        if (marked.contains(&op))
          order.push_back(&op);
    });
    // Converting in program order and flattening each operand made by a
    // reduce of the same kind gives: a marked op whose users are all marked
    // ops of its kind is flattened into each of them and then erased. Such
    // ops are therefore never built; the others (roots) collect their
    // operands through them, so that a chain costs O(length), not
    // O(length^2) in copied operands.
    SmallVector<std::pair<Operation *, ReduceOp>> built;
    for (Operation *op : order)
      if (!isFlattenedAway(op))
        built.push_back({op, build(op)});
    for (auto [op, reduce] : built)
      op->getResult(0).replaceAllUsesWith(reduce.getResult());
    // Users before producers.
    for (Operation *op : llvm::reverse(order))
      erase(op);
    for (Operation *inner : flattenedUserReduces)
      if (inner->use_empty())
        inner->erase();
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

  /// Every user of `op` is a marked op of the same kind.
  bool isFlattenedAway(Operation *op) {
    ReductionType kind = marked.lookup(op);
    return !op->use_empty() &&
           llvm::all_of(op->getUsers(), [&](Operation *user) {
             auto it = marked.find(user);
             return it != marked.end() && it->second == kind;
           });
  }

  /// The values the marked `op` reduces: the operands, or for a
  /// concat-reduce pair the concatenated values, each reshaped (once) to the
  /// result type, carrying the reduce's discardable attributes.
  ArrayRef<Value> reducedValues(Operation *op) {
    auto [it, inserted] = reduced.try_emplace(op);
    if (!inserted)
      return it->second;
    std::optional<ConcatReduction> match = matchConcatReduction(op);
    if (!match) {
      llvm::append_range(it->second, op->getOperands());
      return it->second;
    }
    SmallVector<NamedAttribute> kept;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName() != kReduceAttr && attr.getName() != kSrcSetAttr)
        kept.push_back(attr);
    OpBuilder builder(op);
    SmallVector<Value> reshapes;
    for (Value value : match->operands()) {
      auto reshape = stablehlo::ReshapeOp::create(
          builder, op->getLoc(), op->getResult(0).getType(), value);
      for (NamedAttribute attr : kept)
        reshape->setAttr(attr.getName(), attr.getValue());
      setOpSrcSet(reshape, getValueSrcSet(value, program), program.meshes);
      reshapes.push_back(reshape);
    }
    // `it` may have moved: the map is only read after this insertion.
    return reduced[op] = std::move(reshapes);
  }

  /// `mpmd.reduce<kind>` of what `op` reduces, built before `op`, with the
  /// values of marked producers of the same kind (and of user reduces of
  /// that kind) expanded in place.
  ReduceOp build(Operation *op) {
    ReductionType kind = marked.lookup(op);
    SmallVector<Value> operands;
    // Depth-first, left to right, with an explicit stack (chains are long).
    SmallVector<Value> stack(llvm::reverse(reducedValues(op)));
    while (!stack.empty()) {
      Value value = stack.pop_back_val();
      Operation *producer = value.getDefiningOp();
      if (producer) {
        auto it = marked.find(producer);
        if (it != marked.end() && it->second == kind) {
          llvm::append_range(stack, llvm::reverse(reducedValues(producer)));
          continue;
        }
      }
      auto inner = dyn_cast_or_null<ReduceOp>(producer);
      if (inner && inner.getReduction() == kind) {
        llvm::append_range(operands, inner.getTensors());
        flattenedUserReduces.insert(inner);
        continue;
      }
      operands.push_back(value);
    }
    OpBuilder builder(op);
    auto reduce =
        ReduceOp::create(builder, op->getLoc(), op->getResult(0).getType(),
                         operands, ReductionTypeAttr::get(op->getContext(), kind));
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
    return reduce;
  }

  /// Erases the converted `op` (now unused), and for a concat-reduce pair
  /// the concatenate and the identity constant unless something else uses
  /// it.
  void erase(Operation *op) {
    Operation *concat = nullptr;
    Operation *init = nullptr;
    if (std::optional<ConcatReduction> match = matchConcatReduction(op)) {
      concat = match->concat;
      init = op->getOperand(1).getDefiningOp();
    }
    op->erase();
    if (concat)
      concat->erase();
    if (init && init->use_empty())
      init->erase();
  }

  Program &program;
  bool inferCrossMeshReductions;
  DenseMap<Operation *, ReductionType> marked;
  DenseMap<Operation *, SmallVector<Value>> reduced;
  llvm::SetVector<Operation *> flattenedUserReduces;
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
