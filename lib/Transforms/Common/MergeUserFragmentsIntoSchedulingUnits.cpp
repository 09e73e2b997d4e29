//===- MergeUserFragmentsIntoSchedulingUnits.cpp --------------------------===//
//
// -mpmd-merge-user-fragments-into-scheduling-units
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Common/Passes.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_MERGEUSERFRAGMENTSINTOSCHEDULINGUNITSPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

/// Equal, or missing on at least one side.
bool areCompatible(Attribute lhs, Attribute rhs) {
  return !lhs || !rhs || lhs == rhs;
}

bool allowMergingIntoSchedulingUnit(const FragmentSummary &producer,
                                    const FragmentSummary &consumer) {
  if (!producer.isUserFragment() || !consumer.isUserFragment())
    return false;
  std::optional<int64_t> producerCount =
      producer.getSingleTransposeCount();
  std::optional<int64_t> consumerCount =
      consumer.getSingleTransposeCount();
  return producerCount && producerCount == consumerCount &&
         areCompatible(producer.getAttr(MpmdDialect::kCallCounterAttrName),
                       consumer.getAttr(MpmdDialect::kCallCounterAttrName)) &&
         areCompatible(producer.getStageId(), consumer.getStageId());
}

class MergeUserFragmentsIntoSchedulingUnitsPass
    : public impl::MergeUserFragmentsIntoSchedulingUnitsPassBase<
          MergeUserFragmentsIntoSchedulingUnitsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    FragmentMergeTraversalOptions options;
    options.selection = ConsumerSelection::kClosestConsumer;
    options.allowMerging = allowMergingIntoSchedulingUnit;
    IRRewriter rewriter(&getContext());
    mergeFragmentsInFunction(function, options, rewriter);
  }
};

} // namespace
} // namespace mlir::mpmd
