//===- InferMeshConvertReduceOps.cpp - -mpmd-infer-mesh-convert-reduce-ops ===//

#include "MeshInferenceUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHCONVERTREDUCEOPSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

/// The single user of `op`'s result when it is a `mpmd.reduce<none>`.
ReduceOp getNoneReduceUser(Operation *op) {
  if (!op->getResult(0).hasOneUse())
    return {};
  auto reduce = dyn_cast<ReduceOp>(*op->getResult(0).getUsers().begin());
  if (reduce && reduce.getReduction() == ReductionType::kNone)
    return reduce;
  return {};
}

class InferMeshConvertReduceOpsPass
    : public impl::InferMeshConvertReduceOpsPassBase<
          InferMeshConvertReduceOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<Program> program = Program::build(getOperation());
    if (failed(program))
      return signalPassFailure();
    SmallVector<Operation *> annotated;
    program->forEachBlock([&](Block &block) {
      for (Operation &op : block)
        if (op.hasAttr(kReduceAttr))
          annotated.push_back(&op);
    });
    // Program order: inner links of a chain are converted before the outer
    // ones, which then flatten them.
    for (Operation *op : annotated) {
      auto kindAttr = op->getAttrOfType<ReductionTypeAttr>(kReduceAttr);
      ReduceOp noneUser = getNoneReduceUser(op);
      if (!kindAttr || (!inferCrossMeshReductions && !noneUser)) {
        // Not a reduction after all: its src_set is the plain intersection.
        op->removeAttr(kReduceAttr);
        SrcSet meet;
        for (Value input : getInputs(op))
          meet = intersectSrc(meet, getValueSrcSet(input, *program));
        setOpSrcSet(op, meet, program->meshes);
        continue;
      }
      ReductionType kind = kindAttr.getValue();
      OpBuilder builder(op);
      // A reduce of a concatenation reduces the concatenated values, each
      // reshaped to the result type (dropping the size-1 dimension).
      SmallVector<Value> reduced(op->getOperands());
      Operation *concat = nullptr;
      Operation *init = nullptr;
      if (std::optional<ConcatReduction> match = matchConcatReduction(op)) {
        concat = match->concat;
        init = op->getOperand(1).getDefiningOp();
        reduced.clear();
        for (Value value : match->operands()) {
          auto reshape = stablehlo::ReshapeOp::create(
              builder, op->getLoc(), op->getResult(0).getType(), value);
          setOpSrcSet(reshape, getValueSrcSet(value, *program),
                      program->meshes);
          reduced.push_back(reshape);
        }
      }
      SmallVector<Value> operands;
      SmallVector<Operation *> flattened;
      for (Value operand : reduced) {
        auto inner = operand.getDefiningOp<ReduceOp>();
        if (inner && inner.getReduction() == kind && operand.hasOneUse()) {
          llvm::append_range(operands, inner.getTensors());
          flattened.push_back(inner);
          continue;
        }
        operands.push_back(operand);
      }
      auto reduce = ReduceOp::create(builder, op->getLoc(),
                                     op->getResult(0).getType(), operands,
                                     ReductionTypeAttr::get(op->getContext(), kind));
      for (StringRef name : {kUseSetAttr.data(), kSrcSetAttr.data()})
        if (Attribute attr = op->getAttr(name))
          reduce->setAttr(name, attr);
      op->getResult(0).replaceAllUsesWith(reduce.getResult());
      op->erase();
      if (concat)
        concat->erase();
      // The identity constant, unless something else uses it.
      if (init && init->use_empty())
        init->erase();
      for (Operation *inner : flattened)
        inner->erase();
      if (noneUser) {
        noneUser.getResult().replaceAllUsesWith(reduce.getResult());
        noneUser->erase();
      }
    }
  }
};

} // namespace
} // namespace mlir::mpmd
