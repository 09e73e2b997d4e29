//===- IntroduceTransfers.cpp - -mpmd-introduce-transfers -----------------===//

#include "ImportUtils.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Sequence.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INTRODUCETRANSFERSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

constexpr StringLiteral kInferredByIntroduceTransfers = "introduce_transfers";

//===----------------------------------------------------------------------===//
// 1. Cross-mesh assigns of callee arguments become transfers.
//===----------------------------------------------------------------------===//

/// A callee argument that every call site passes as an unassign of one mesh
/// tensor type T stays unassigned (mesh inference types it later); each
/// assign of it to another mesh becomes an assign to T followed by a
/// transfer, so the transfer happens inside the callee, from the mesh the
/// callers provide. O(arguments × call sites + assigns).
void transferCalleeArgumentsFromCallerMesh(ModuleOp module) {
  for (auto &[callee, calls] : getFunctionsCalledOnlyByMpmdCalls(module)) {
    if (calls.empty() || callee.isExternal())
      continue;
    Block &entry = callee.getBody().front();
    for (BlockArgument arg : entry.getArguments()) {
      unsigned index = arg.getArgNumber();
      auto first = calls.front().getOperand(index).getDefiningOp<UnassignOp>();
      if (!first)
        continue;
      auto callerType = cast<MeshTensorType>(first.getTensor().getType());
      if (!llvm::all_of(calls, [&](CallOp call) {
            auto unassign = call.getOperand(index).getDefiningOp<UnassignOp>();
            return unassign && unassign.getTensor().getType() == callerType;
          }))
        continue;
      for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
        auto assign = dyn_cast<AssignOp>(user);
        if (!assign || cast<MeshTensorType>(assign.getType()).getMeshName() ==
                           callerType.getMeshName())
          continue;
        OpBuilder builder(assign);
        auto onCallerMesh = AssignOp::create(builder, assign.getLoc(),
                                             callerType, arg,
                                             assign.getOriginAttr());
        auto transfer = TransferOp::create(builder, assign.getLoc(),
                                           assign.getType(), onCallerMesh);
        assign.replaceAllUsesWith(transfer.getResult());
        assign.erase();
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// 2. Add trees of unassigns feeding an assign are pushed onto its mesh, one
//    fragment per add.
//===----------------------------------------------------------------------===//

/// Collects, children first (program order), the single-use adds of the tree
/// rooted at `root`. Fails if a leaf is not an unassign.
LogicalResult collectAddTree(stablehlo::AddOp root, Block *block,
                             SmallVectorImpl<Operation *> &adds) {
  for (Value operand : root->getOperands()) {
    if (operand.getDefiningOp<UnassignOp>())
      continue;
    auto add = operand.getDefiningOp<stablehlo::AddOp>();
    if (!add || !add->hasOneUse() || add->getBlock() != block ||
        failed(collectAddTree(add, block, adds)))
      return failure();
  }
  adds.push_back(root);
  return success();
}

/// As upstream pushes each add of the tree onto the assign's mesh on its own,
/// every add becomes an inferred fragment at the add's position, with its
/// operands in the add's order: an unassign leaf through a new assign to the
/// mesh (a transfer once step 3 runs), an inner add through its fragment's
/// result. The root's fragment takes the assign's type. O(adds).
void pushAddTreeOntoMesh(AssignOp assign) {
  auto root = assign.getTensor().getDefiningOp<stablehlo::AddOp>();
  Block *block = assign->getBlock();
  if (!root || !root->hasOneUse() || root->getBlock() != block ||
      !isa<func::FuncOp>(assign->getParentOp()))
    return;
  SmallVector<Operation *> adds;
  if (failed(collectAddTree(root, block, adds)))
    return;

  auto target = cast<MeshTensorType>(assign.getType());
  MLIRContext *context = assign.getContext();
  auto onTargetMesh = [&](Type localType) {
    return MeshTensorType::get(context, target.getMeshName(),
                               cast<RankedTensorType>(localType),
                               sdy::TensorShardingAttr(),
                               target.getMemoryKind());
  };
  llvm::DenseMap<Value, Value> pushed;
  for (Operation *add : adds) {
    OpBuilder builder(add);
    SmallVector<Value> operands;
    for (Value operand : add->getOperands()) {
      if (Value fragmentResult = pushed.lookup(operand)) {
        operands.push_back(fragmentResult);
        continue;
      }
      auto unassign = operand.getDefiningOp<UnassignOp>();
      operands.push_back(AssignOp::create(builder, unassign.getLoc(),
                                          onTargetMesh(unassign.getType()),
                                          unassign.getResult(),
                                          unassign.getOriginAttr()));
    }
    Type resultType =
        add == root.getOperation() ? Type(target)
                                   : onTargetMesh(add->getResult(0).getType());
    FragmentOp fragment = createFragment(
        builder, add->getLoc(), target.getMeshName(), builder.getArrayAttr({}),
        operands, {resultType},
        [&](OpBuilder &bodyBuilder, ValueRange args) -> SmallVector<Value> {
          IRMapping mapping;
          mapping.map(add->getOperands(), args);
          return {bodyBuilder.clone(*add, mapping)->getResult(0)};
        });
    addInferredBy(fragment, kInferredByIntroduceTransfers);
    pushed[add->getResult(0)] = fragment.getResult(0);
  }
  assign.replaceAllUsesWith(pushed.lookup(root.getResult()));
  assign.erase();
  for (Operation *add : llvm::reverse(adds))
    add->erase();
}

//===----------------------------------------------------------------------===//
// 3. assign(unassign(x)) becomes x, a reused transfer or a chain of
//    transfers.
//===----------------------------------------------------------------------===//

void introduceTransfers(UnassignOp unassign) {
  Value source = unassign.getTensor();
  auto sourceType = cast<MeshTensorType>(source.getType());
  Block *sourceBlock = source.getParentBlock();
  // Transfers live at the top level of functions.
  if (!isa<func::FuncOp>(sourceBlock->getParentOp()))
    return;

  // Cross-type assigns in program order (of their ancestors in the source's
  // block), grouped by type; the transfers go before the first one.
  SmallVector<std::pair<Operation *, AssignOp>> anchored;
  for (Operation *user : llvm::make_early_inc_range(unassign->getUsers())) {
    auto assign = dyn_cast<AssignOp>(user);
    if (!assign)
      continue;
    if (assign.getType() == sourceType) {
      assign.replaceAllUsesWith(source);
      assign.erase();
      continue;
    }
    if (Operation *anchor = sourceBlock->findAncestorOpInBlock(*assign))
      anchored.push_back({anchor, assign});
  }
  if (anchored.empty())
    return;
  // Sorted by anchor, ties (assigns nested in one op) in use order.
  SmallVector<unsigned> byPosition =
      llvm::to_vector(llvm::seq<unsigned>(0, anchored.size()));
  llvm::sort(byPosition, [&](unsigned lhs, unsigned rhs) {
    Operation *lhsAnchor = anchored[lhs].first;
    Operation *rhsAnchor = anchored[rhs].first;
    if (lhsAnchor != rhsAnchor)
      return lhsAnchor->isBeforeInBlock(rhsAnchor);
    return lhs < rhs;
  });
  Operation *insertionPoint = anchored[byPosition.front()].first;
  llvm::MapVector<Type, SmallVector<AssignOp>> assignsByType;
  for (unsigned index : byPosition)
    assignsByType[anchored[index].second.getType()].push_back(
        anchored[index].second);

  // Existing transfers of the source to a target type are reused.
  llvm::DenseMap<Type, TransferOp> existing;
  for (Operation *user : source.getUsers())
    if (auto transfer = dyn_cast<TransferOp>(user);
        transfer && transfer->getBlock() == sourceBlock &&
        assignsByType.contains(transfer.getType()) &&
        !existing.contains(transfer.getType()))
      existing[transfer.getType()] = transfer;

  llvm::DenseMap<Type, Value> valueOfType;
  SmallVector<MeshTensorType> chained;
  OpBuilder builder(insertionPoint);
  for (auto &[type, assigns] : assignsByType) {
    if (TransferOp transfer = existing.lookup(type)) {
      if (!transfer->isBeforeInBlock(insertionPoint))
        transfer->moveBefore(insertionPoint);
      valueOfType[type] = transfer.getResult();
      continue;
    }
    auto targetType = cast<MeshTensorType>(type);
    if (targetType.getMemoryKind() == sourceType.getMemoryKind()) {
      chained.push_back(targetType);
      continue;
    }
    valueOfType[type] =
        TransferOp::create(builder, unassign.getLoc(), type, source);
  }
  // Stable: equal mesh names keep their order.
  SmallVector<unsigned> order =
      llvm::to_vector(llvm::seq<unsigned>(0, chained.size()));
  llvm::sort(order, [&](unsigned lhs, unsigned rhs) {
    StringRef lhsMesh = chained[lhs].getMeshName();
    StringRef rhsMesh = chained[rhs].getMeshName();
    if (isMeshNameBefore(lhsMesh, rhsMesh))
      return true;
    if (isMeshNameBefore(rhsMesh, lhsMesh))
      return false;
    return lhs < rhs;
  });
  Value previous = source;
  for (unsigned index : order) {
    MeshTensorType type = chained[index];
    previous = TransferOp::create(builder, unassign.getLoc(), type, previous);
    valueOfType[type] = previous;
  }

  for (auto &[type, assigns] : assignsByType)
    for (AssignOp assign : assigns) {
      assign.replaceAllUsesWith(valueOfType[type]);
      assign.erase();
    }
}

class IntroduceTransfersPass
    : public impl::IntroduceTransfersPassBase<IntroduceTransfersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    transferCalleeArgumentsFromCallerMesh(module);

    SmallVector<AssignOp> assigns;
    module.walk([&](AssignOp assign) { assigns.push_back(assign); });
    for (AssignOp assign : assigns)
      pushAddTreeOntoMesh(assign);

    SmallVector<UnassignOp> unassigns;
    module.walk([&](UnassignOp unassign) { unassigns.push_back(unassign); });
    for (UnassignOp unassign : unassigns) {
      bool wasUsed = !unassign->use_empty();
      introduceTransfers(unassign);
      if (wasUsed && unassign->use_empty())
        unassign->erase();
    }
  }
};

} // namespace
} // namespace mlir::mpmd
