//===- InferMeshConvertReduceOps.cpp - -mpmd-infer-mesh-convert-reduce-ops ===//

#include "MeshInferenceUtils.h"
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
      SmallVector<Value> operands;
      SmallVector<Operation *> flattened;
      for (Value operand : op->getOperands()) {
        auto inner = operand.getDefiningOp<ReduceOp>();
        if (inner && inner.getReduction() == kind && operand.hasOneUse()) {
          llvm::append_range(operands, inner.getTensors());
          flattened.push_back(inner);
          continue;
        }
        operands.push_back(operand);
      }
      OpBuilder builder(op);
      auto reduce = ReduceOp::create(builder, op->getLoc(),
                                     op->getResult(0).getType(), operands,
                                     ReductionTypeAttr::get(op->getContext(), kind));
      for (StringRef name : {kUseSetAttr.data(), kSrcSetAttr.data()})
        if (Attribute attr = op->getAttr(name))
          reduce->setAttr(name, attr);
      op->getResult(0).replaceAllUsesWith(reduce.getResult());
      op->erase();
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
