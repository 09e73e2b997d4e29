//===- ProcessGroups.h - StableHLO process groups of a collective -*- C++ -*-===//
//
// StableHLO runs programs on a grid of num_replicas x num_partitions
// processes; a collective splits the grid into groups from its
// `replica_groups` (or `source_target_pairs`) in one of four ways, chosen
// by its channel id and `use_global_device_ids` (the spec's "Collective
// ops" section). This is that split, shared by the interpreter and the
// executor. No MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_RUNTIME_PROCESSGROUPS_H
#define MPMD_RUNTIME_PROCESSGROUPS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::mpmd::runtime {

/// A process of the grid.
struct ProcessId {
  int64_t replica = 0;
  int64_t partition = 0;
  bool operator==(const ProcessId &other) const {
    return replica == other.replica && partition == other.partition;
  }
};

/// The grid the processes of a parallel run form.
struct ProcessGrid {
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  int64_t getNumProcesses() const { return numReplicas * numPartitions; }
  /// Replica-major: (r, p) is r * numPartitions + p.
  int64_t flatten(ProcessId process) const {
    return process.replica * numPartitions + process.partition;
  }
};

/// "(r, p)".
std::string toString(ProcessId process);

/// How the ids of `replica_groups` name processes (the spec's strategies).
enum class ProcessGroupMode {
  /// Ids are replicas; each group is repeated for every partition.
  CrossReplica,
  /// Ids are partitions; each group is repeated for every replica.
  CrossPartition,
  /// Ids are replicas; each group takes every partition of its replicas.
  CrossReplicaAndPartition,
  /// Ids are replica * num_partitions + partition.
  FlattenedIds,
};
const char *toString(ProcessGroupMode mode);

/// The groups `idGroups` (rows of ids, -1 entries already dropped) form in
/// `grid` under `mode`, each listing its processes in the spec's order. An
/// empty `idGroups` is one group of every id (XLA's convention for
/// "replica_groups = {}"). Fails when an id is outside the mode's id range,
/// is repeated, or, with `mustCover`, when an id of the range is in no
/// group. O(processes).
llvm::Expected<std::vector<std::vector<ProcessId>>>
formProcessGroups(ProcessGroupMode mode,
                  const std::vector<std::vector<int64_t>> &idGroups,
                  const ProcessGrid &grid, bool mustCover);

} // namespace mlir::mpmd::runtime

#endif // MPMD_RUNTIME_PROCESSGROUPS_H
