//===- ShardingGroupImport.cpp - -sdy-sharding-group-import ---------------===//

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Sdy/Propagation/Passes.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SHARDINGGROUPIMPORTPASS
#include "mpmd/Transforms/Sdy/Propagation/Passes.h.inc"

namespace {

class ShardingGroupImportPass
    : public impl::ShardingGroupImportPassBase<ShardingGroupImportPass> {
  using ShardingGroupImportPassBase::ShardingGroupImportPassBase;

  void runOnOperation() override;
};

void ShardingGroupImportPass::runOnOperation() {
  SmallVector<ShardingGroupOp> groupOps;
  getOperation().walk([&](ShardingGroupOp op) { groupOps.push_back(op); });
  if (groupOps.empty())
    return;

  // Groups sharing a value are one: union-find over the group ids.
  llvm::EquivalenceClasses<int64_t> classes;
  DenseMap<Value, int64_t> firstGroupOf;
  for (ShardingGroupOp op : groupOps) {
    classes.insert(static_cast<int64_t>(op.getGroupId()));
    auto [it, inserted] = firstGroupOf.try_emplace(op.getInput(), static_cast<int64_t>(op.getGroupId()));
    if (!inserted)
      classes.unionSets(it->second, static_cast<int64_t>(op.getGroupId()));
  }

  // Members of one group must be alike: same type, same manual computation.
  DenseMap<int64_t, ShardingGroupOp> representative;
  for (ShardingGroupOp op : groupOps) {
    int64_t leader = classes.getLeaderValue(static_cast<int64_t>(op.getGroupId()));
    auto [it, inserted] = representative.try_emplace(leader, op);
    if (inserted)
      continue;
    ShardingGroupOp first = it->second;
    if (first.getInput().getType() != op.getInput().getType()) {
      op.emitOpError() << "puts a value of type " << op.getInput().getType()
                       << " in a sharding group whose values have type "
                       << first.getInput().getType();
      return signalPassFailure();
    }
    if (first->getParentOfType<ManualComputationOp>() !=
        op->getParentOfType<ManualComputationOp>()) {
      op.emitOpError() << "puts a value in a sharding group whose other "
                          "values are in a different manual computation";
      return signalPassFailure();
    }
  }

  // Dense ids in the order of each class's smallest original id; a value
  // is in its group once.
  std::map<int64_t, int64_t> smallestIdOfLeader;
  for (ShardingGroupOp op : groupOps) {
    int64_t leader = classes.getLeaderValue(static_cast<int64_t>(op.getGroupId()));
    auto [it, inserted] = smallestIdOfLeader.try_emplace(leader, static_cast<int64_t>(op.getGroupId()));
    if (!inserted)
      it->second = std::min(it->second, static_cast<int64_t>(op.getGroupId()));
  }
  std::map<int64_t, int64_t> leaderBySmallestId;
  for (auto [leader, smallest] : smallestIdOfLeader)
    leaderBySmallestId[smallest] = leader;
  DenseMap<int64_t, int64_t> newIdOfLeader;
  int64_t nextId = 0;
  for (auto [smallest, leader] : leaderBySmallestId)
    newIdOfLeader[leader] = nextId++;

  DenseSet<std::pair<Value, int64_t>> seen;
  for (ShardingGroupOp op : groupOps) {
    int64_t id = newIdOfLeader[classes.getLeaderValue(static_cast<int64_t>(op.getGroupId()))];
    if (!seen.insert({op.getInput(), id}).second) {
      op.erase();
      continue;
    }
    op.setGroupId(id);
  }
}

} // namespace
} // namespace mlir::sdy
