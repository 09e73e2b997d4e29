//===- ProcessGroups.cpp - StableHLO process groups of a collective -------===//

#include "mpmd/Runtime/ProcessGroups.h"

#include <numeric>

namespace mlir::mpmd::runtime {

std::string toString(ProcessId process) {
  return "(" + std::to_string(process.replica) + ", " +
         std::to_string(process.partition) + ")";
}

const char *toString(ProcessGroupMode mode) {
  switch (mode) {
  case ProcessGroupMode::CrossReplica: return "cross_replica";
  case ProcessGroupMode::CrossPartition: return "cross_partition";
  case ProcessGroupMode::CrossReplicaAndPartition:
    return "cross_replica_and_partition";
  case ProcessGroupMode::FlattenedIds: return "flattened_ids";
  }
  return "unknown";
}

llvm::Expected<std::vector<std::vector<ProcessId>>>
formProcessGroups(ProcessGroupMode mode,
                  const std::vector<std::vector<int64_t>> &idGroups,
                  const ProcessGrid &grid, bool mustCover) {
  int64_t idCount;
  const char *idName;
  switch (mode) {
  case ProcessGroupMode::CrossReplica:
  case ProcessGroupMode::CrossReplicaAndPartition:
    idCount = grid.numReplicas;
    idName = "replica";
    break;
  case ProcessGroupMode::CrossPartition:
    idCount = grid.numPartitions;
    idName = "partition";
    break;
  case ProcessGroupMode::FlattenedIds:
    idCount = grid.getNumProcesses();
    idName = "flattened process";
    break;
  }
  auto error = [&](const std::string &message) {
    return llvm::createStringError(
        std::string(toString(mode)) + " groups on a grid of " +
        std::to_string(grid.numReplicas) + " replica(s) x " +
        std::to_string(grid.numPartitions) + " partition(s): " + message);
  };

  std::vector<std::vector<int64_t>> groups = idGroups;
  if (groups.empty()) {
    groups.emplace_back(idCount);
    std::iota(groups.back().begin(), groups.back().end(), 0);
  }
  std::vector<bool> seen(idCount, false);
  for (const std::vector<int64_t> &group : groups)
    for (int64_t id : group) {
      if (id < 0 || id >= idCount)
        return error(std::string(idName) + " id " + std::to_string(id) +
                     " is outside [0, " + std::to_string(idCount) + ")");
      if (seen[id])
        return error(std::string(idName) + " id " + std::to_string(id) +
                     " is in two groups");
      seen[id] = true;
    }
  if (mustCover)
    for (int64_t id = 0; id < idCount; ++id)
      if (!seen[id])
        return error(std::string(idName) + " id " + std::to_string(id) +
                     " is in no group");

  std::vector<std::vector<ProcessId>> result;
  switch (mode) {
  case ProcessGroupMode::CrossReplica:
    for (const std::vector<int64_t> &group : groups)
      for (int64_t partition = 0; partition < grid.numPartitions; ++partition) {
        std::vector<ProcessId> &processes = result.emplace_back();
        for (int64_t replica : group)
          processes.push_back({replica, partition});
      }
    break;
  case ProcessGroupMode::CrossPartition:
    for (const std::vector<int64_t> &group : groups)
      for (int64_t replica = 0; replica < grid.numReplicas; ++replica) {
        std::vector<ProcessId> &processes = result.emplace_back();
        for (int64_t partition : group)
          processes.push_back({replica, partition});
      }
    break;
  case ProcessGroupMode::CrossReplicaAndPartition:
    for (const std::vector<int64_t> &group : groups) {
      std::vector<ProcessId> &processes = result.emplace_back();
      for (int64_t partition = 0; partition < grid.numPartitions; ++partition)
        for (int64_t replica : group)
          processes.push_back({replica, partition});
    }
    break;
  case ProcessGroupMode::FlattenedIds:
    for (const std::vector<int64_t> &group : groups) {
      std::vector<ProcessId> &processes = result.emplace_back();
      for (int64_t id : group)
        processes.push_back(
            {id / grid.numPartitions, id % grid.numPartitions});
    }
    break;
  }
  return result;
}

} // namespace mlir::mpmd::runtime
