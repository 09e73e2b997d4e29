//===- InterpreterCollectives.cpp - The interpreter's parallel ops --------===//
//
// Every member of a collective's group deposits its operands in the
// rendezvous and computes its own result from what all members deposited
// (the spec's formulas, evaluated per receiver): simple and exact, at
// O(group size x bytes) per member. A buffer that crosses threads is never
// written: members deposit copies and results are fresh tensors, so the
// in-place reuse of dying values (Tensor::ownsBufferAlone) stays
// thread-local.
//
//===----------------------------------------------------------------------===//

#include "InterpreterCollectives.h"

#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Runtime/CollectiveBackend.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Runtime/InProcessRendezvous.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/ShardLayout.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <mutex>
#include <thread>

namespace mlir::mpmd::runtime {

namespace {

int64_t getChannelId(std::optional<stablehlo::ChannelHandleAttr> handle) {
  return handle ? handle->getHandle() : 0;
}

/// The rows of a [G, S] id matrix, without the -1 entries that pad uneven
/// groups (a row of only -1 is no group).
std::vector<std::vector<int64_t>> readIdGroups(DenseIntElementsAttr ids) {
  auto type = cast<ShapedType>(ids.getType());
  int64_t width = type.getRank() == 2 ? type.getDimSize(1) : 1;
  std::vector<std::vector<int64_t>> groups(
      width == 0 ? 0 : type.getNumElements() / width);
  for (auto [index, id] : llvm::enumerate(ids.getValues<int64_t>()))
    if (id != -1)
      groups[index / width].push_back(id);
  llvm::erase_if(groups, [](const auto &group) { return group.empty(); });
  return groups;
}

/// The group a process belongs to and its position there.
struct Membership {
  std::vector<ProcessId> group;
  int64_t position;
};

std::optional<Membership>
findMembership(const std::vector<std::vector<ProcessId>> &groups,
               ProcessId self) {
  for (const std::vector<ProcessId> &group : groups)
    if (auto found = llvm::find(group, self); found != group.end())
      return Membership{group, found - group.begin()};
  return std::nullopt;
}

std::string describe(const Tensor &tensor) {
  return toString(TensorSpec{tensor.dtype(), tensor.shape()});
}

/// Where a process waits, for the rendezvous' deadlock report: the op's
/// name and location.
std::string describeSite(Operation &op) {
  std::string site;
  llvm::raw_string_ostream os(site);
  os << "'" << op.getName() << "' at " << op.getLoc();
  return site;
}

/// One collective run by one process.
class CollectiveRun {
public:
  CollectiveRun(Operation &op, const ProcessContext &process)
      : op(op), process(process) {}

  /// The group of this process under `mode`, or nullopt when it is in
  /// none (only possible without `mustCover`).
  FailureOr<std::optional<Membership>>
  getMembership(ProcessGroupMode mode,
                const std::vector<std::vector<int64_t>> &idGroups,
                bool mustCover) {
    llvm::Expected<std::vector<std::vector<ProcessId>>> groups =
        formProcessGroups(mode, idGroups, process.grid, mustCover);
    if (!groups)
      return op.emitOpError() << llvm::toString(groups.takeError());
    std::optional<Membership> membership =
        findMembership(*groups, process.self);
    if (!membership && mustCover)
      return op.emitOpError()
             << "process " << toString(process.self) << " is in no group";
    return membership;
  }

  /// Deposits `contribution` (copied: see the file comment) and returns
  /// every member's, in group order.
  FailureOr<std::vector<std::vector<Tensor>>>
  exchange(const std::vector<ProcessId> &group, int64_t channel,
           const std::vector<Tensor> &contribution) {
    if (group.size() == 1)
      return std::vector<std::vector<Tensor>>{contribution};
    if (!process.rendezvous)
      return op.emitOpError() << "needs the other processes of its group, "
                                 "but runs outside interpreter.run_parallel";
    std::vector<int64_t> participants = flatten(group);
    std::vector<Tensor> copies;
    for (const Tensor &tensor : contribution)
      copies.push_back(tensor.clone());
    llvm::Expected<std::vector<std::vector<Tensor>>> result =
        process.rendezvous->exchange(
            process.grid.flatten(process.self), participants, channel,
            op.getName().getStringRef(), std::move(copies), describeSite(op));
    if (!result)
      return op.emitOpError()
             << "could not complete: " << llvm::toString(result.takeError());
    return std::move(*result);
  }

  /// Fails unless every member deposited tensors of the types this
  /// process deposited.
  LogicalResult checkAlike(const std::vector<ProcessId> &group,
                           const std::vector<std::vector<Tensor>> &deposits,
                           const std::vector<Tensor> &own) {
    for (auto [member, tensors] : llvm::zip(group, deposits)) {
      if (tensors.size() != own.size())
        return op.emitOpError()
               << "process " << toString(member) << " contributed "
               << tensors.size() << " tensors where process "
               << toString(process.self) << " contributed " << own.size();
      for (auto [theirs, mine] : llvm::zip(tensors, own))
        if (theirs.dtype() != mine.dtype() || theirs.shape() != mine.shape())
          return op.emitOpError()
                 << "process " << toString(member) << " contributed "
                 << describe(theirs) << " where process "
                 << toString(process.self) << " contributed " << describe(mine);
    }
    return success();
  }

  /// `exchange`, then `checkAlike`.
  FailureOr<std::vector<std::vector<Tensor>>>
  exchangeAlike(const std::vector<ProcessId> &group, int64_t channel,
                const std::vector<Tensor> &contribution) {
    FailureOr<std::vector<std::vector<Tensor>>> deposits =
        exchange(group, channel, contribution);
    if (failed(deposits) || failed(checkAlike(group, *deposits, contribution)))
      return failure();
    return deposits;
  }

  /// The grid indices of `group`'s processes (the participants of the
  /// rendezvous or the collective backend).
  std::vector<int64_t> flatten(const std::vector<ProcessId> &group) const {
    std::vector<int64_t> participants;
    for (ProcessId member : group)
      participants.push_back(process.grid.flatten(member));
    return participants;
  }

  /// Runs `collective` on the collective backend for each operand in
  /// order (every member calls them in the same order).
  FailureOr<std::vector<Tensor>> onBackend(
      const std::vector<Tensor> &operands,
      llvm::function_ref<llvm::Expected<Tensor>(const Tensor &)> collective) {
    std::vector<Tensor> results;
    for (const Tensor &operand : operands) {
      llvm::Expected<Tensor> result = collective(operand);
      if (!result)
        return op.emitOpError()
               << "could not complete: " << llvm::toString(result.takeError());
      results.push_back(std::move(*result));
    }
    return results;
  }

  /// The reduction the collective backend applies for `computation`.
  FailureOr<ReduceKind> getBackendReduction(Region &computation) {
    if (std::optional<ReduceKind> kind = matchReduceCombiner(computation))
      return *kind;
    return op.emitOpError()
           << "has a reduction body the executor's collectives cannot run: "
              "it must be one stablehlo add, multiply, maximum, minimum, and "
              "or or of its two arguments";
  }

  /// Fails unless `results` have the op's result types.
  LogicalResult checkResults(const std::vector<Tensor> &results) {
    for (auto [index, pair] :
         llvm::enumerate(llvm::zip(results, op.getResultTypes()))) {
      auto [tensor, type] = pair;
      auto expected = cast<RankedTensorType>(type).getShape();
      if (!llvm::equal(tensor.shape(), expected))
        return op.emitOpError()
               << "result #" << index << " is " << describe(tensor)
               << " on a group of this size, but the op's result type is "
               << type;
    }
    return success();
  }

  Operation &op;
  const ProcessContext &process;
};

/// all_gather, all_reduce and reduce_scatter: replica groups read as
/// replicas, replicas with all their partitions, or flattened ids.
FailureOr<ProcessGroupMode> getReplicaGroupMode(Operation &op, int64_t channel,
                                                bool useGlobalDeviceIds) {
  if (useGlobalDeviceIds) {
    if (channel <= 0)
      return op.emitOpError() << "use_global_device_ids needs a positive "
                                 "channel id, got "
                              << channel;
    return ProcessGroupMode::FlattenedIds;
  }
  return channel > 0 ? ProcessGroupMode::CrossReplicaAndPartition
                     : ProcessGroupMode::CrossReplica;
}

/// The group of the running process among `replicaGroups` read in the mode
/// the channel and `useGlobalDeviceIds` select (all_gather, all_reduce,
/// reduce_scatter); every process must be in one.
FailureOr<Membership> joinReplicaGroups(CollectiveRun &run, Operation &op,
                                        int64_t channel,
                                        bool useGlobalDeviceIds,
                                        DenseIntElementsAttr replicaGroups) {
  FailureOr<ProcessGroupMode> mode =
      getReplicaGroupMode(op, channel, useGlobalDeviceIds);
  if (failed(mode))
    return failure();
  FailureOr<std::optional<Membership>> membership =
      run.getMembership(*mode, readIdGroups(replicaGroups), /*mustCover=*/true);
  if (failed(membership))
    return failure();
  return **membership;
}

/// all_to_all, collective_permute and collective_broadcast: replicas
/// without a channel, partitions with one.
ProcessGroupMode getPartitionGroupMode(int64_t channel) {
  return channel > 0 ? ProcessGroupMode::CrossPartition
                     : ProcessGroupMode::CrossReplica;
}

/// A dimension of `tensor` cut into `count` equal parts: part `index`.
Tensor slicePart(const Tensor &tensor, int64_t dimension, int64_t count,
                 int64_t index) {
  std::vector<int64_t> start(tensor.rank(), 0);
  std::vector<int64_t> limit(tensor.shape().begin(), tensor.shape().end());
  std::vector<int64_t> strides(tensor.rank(), 1);
  int64_t length = tensor.shape()[dimension] / count;
  start[dimension] = index * length;
  limit[dimension] = (index + 1) * length;
  return slice(tensor, start, limit, strides);
}

/// The fold of the members' operand `index` in group order.
FailureOr<Tensor> foldMembers(Region &computation,
                              const std::vector<std::vector<Tensor>> &deposits,
                              size_t index, Combiner combine) {
  Tensor accumulator = deposits[0][index];
  for (size_t member = 1; member < deposits.size(); ++member) {
    FailureOr<Tensor> next =
        combine(computation, accumulator, deposits[member][index]);
    if (failed(next))
      return failure();
    accumulator = std::move(*next);
  }
  return accumulator;
}

/// Zeros of `op`'s only result type (the interpreter checked its dtype
/// before running the op).
Tensor zerosOfResult(Operation &op) {
  auto tensorType = cast<RankedTensorType>(op.getResult(0).getType());
  return Tensor::zeros(
      *getDType(tensorType.getElementType(), op.getLoc()),
      Shape(tensorType.getShape().begin(), tensorType.getShape().end()));
}

Tensor processIdTensor(int64_t id) {
  Tensor tensor = Tensor::empty(DType::UI32, {});
  *tensor.data<uint32_t>() = static_cast<uint32_t>(id);
  return tensor;
}

} // namespace

bool isProcessOp(Operation &op) {
  return isa<stablehlo::AllGatherOp, stablehlo::AllReduceOp,
             stablehlo::ReduceScatterOp, stablehlo::AllToAllOp,
             stablehlo::CollectivePermuteOp, stablehlo::CollectiveBroadcastOp,
             stablehlo::ReplicaIdOp, stablehlo::PartitionIdOp>(op);
}

FailureOr<std::vector<std::vector<int64_t>>>
getCollectiveGroups(Operation &op, const ProcessGrid &grid) {
  std::optional<ProcessGroupMode> mode;
  std::vector<std::vector<int64_t>> idGroups;
  bool mustCover = true;
  auto readReplicaGroups = [&](auto collective) -> LogicalResult {
    int64_t channel = getChannelId(collective.getChannelHandle());
    FailureOr<ProcessGroupMode> read =
        getReplicaGroupMode(op, channel, collective.getUseGlobalDeviceIds());
    if (failed(read))
      return failure();
    mode = *read;
    idGroups = readIdGroups(collective.getReplicaGroups());
    return success();
  };
  LogicalResult read =
      llvm::TypeSwitch<Operation *, LogicalResult>(&op)
          .Case<stablehlo::AllGatherOp, stablehlo::AllReduceOp,
                stablehlo::ReduceScatterOp>(readReplicaGroups)
          .Case([&](stablehlo::AllToAllOp allToAll) {
            mode = getPartitionGroupMode(
                getChannelId(allToAll.getChannelHandle()));
            idGroups = readIdGroups(allToAll.getReplicaGroups());
            return success();
          })
          .Case([&](stablehlo::CollectiveBroadcastOp broadcast) {
            mode = getPartitionGroupMode(
                getChannelId(broadcast.getChannelHandle()));
            idGroups = readIdGroups(broadcast.getReplicaGroups());
            mustCover = false;
            return success();
          })
          .Case([&](stablehlo::CollectivePermuteOp permute) {
            // One meeting of the ids the pairs name, repeated over the
            // other grid dimension (as runProcessOp forms it).
            mode =
                getPartitionGroupMode(getChannelId(permute.getChannelHandle()));
            std::vector<int64_t> ids;
            for (const std::vector<int64_t> &pair :
                 readIdGroups(permute.getSourceTargetPairs()))
              if (pair.size() == 2)
                ids.insert(ids.end(), pair.begin(), pair.end());
            llvm::sort(ids);
            ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
            if (!ids.empty())
              idGroups.push_back(std::move(ids));
            mustCover = false;
            return success();
          })
          .Default([](Operation *) { return success(); });
  if (failed(read))
    return failure();
  std::vector<std::vector<int64_t>> groups;
  if (!mode)
    return groups;
  llvm::Expected<std::vector<std::vector<ProcessId>>> formed =
      formProcessGroups(*mode, idGroups, grid, mustCover);
  if (!formed)
    return op.emitOpError() << llvm::toString(formed.takeError());
  for (const std::vector<ProcessId> &group : *formed) {
    if (group.size() < 2)
      continue;
    std::vector<int64_t> &flat = groups.emplace_back();
    for (ProcessId member : group)
      flat.push_back(grid.flatten(member));
  }
  return groups;
}

FailureOr<std::vector<Tensor>> runProcessOp(Operation &op,
                                            const std::vector<Tensor> &operands,
                                            const ProcessContext &process,
                                            Combiner combine) {
  CollectiveRun run(op, process);
  using Results = FailureOr<std::vector<Tensor>>;
  Results results =
      llvm::TypeSwitch<Operation *, Results>(&op)
          .Case([&](stablehlo::ReplicaIdOp) -> Results {
            return std::vector<Tensor>{processIdTensor(process.self.replica)};
          })
          .Case([&](stablehlo::PartitionIdOp) -> Results {
            return std::vector<Tensor>{processIdTensor(process.self.partition)};
          })
          .Case([&](stablehlo::AllGatherOp gather) -> Results {
            int64_t channel = getChannelId(gather.getChannelHandle());
            FailureOr<Membership> member = joinReplicaGroups(
                run, op, channel, gather.getUseGlobalDeviceIds(),
                gather.getReplicaGroups());
            if (failed(member))
              return failure();
            const std::vector<ProcessId> &group = member->group;
            if (process.collectives)
              return run.onBackend(operands, [&](const Tensor &operand) {
                return process.collectives->allGather(
                    run.flatten(group), process.grid.flatten(process.self),
                    operand, gather.getAllGatherDim());
              });
            auto deposits = run.exchangeAlike(group, channel, operands);
            if (failed(deposits))
              return failure();
            std::vector<Tensor> gathered;
            for (size_t index = 0; index < operands.size(); ++index) {
              std::vector<Tensor> parts;
              for (const std::vector<Tensor> &deposit : *deposits)
                parts.push_back(deposit[index]);
              gathered.push_back(
                  group.size() == 1
                      ? parts[0]
                      : concatenate(parts, gather.getAllGatherDim()));
            }
            return gathered;
          })
          .Case([&](stablehlo::AllReduceOp reduce) -> Results {
            int64_t channel = getChannelId(reduce.getChannelHandle());
            FailureOr<Membership> member = joinReplicaGroups(
                run, op, channel, reduce.getUseGlobalDeviceIds(),
                reduce.getReplicaGroups());
            if (failed(member))
              return failure();
            if (process.collectives) {
              FailureOr<ReduceKind> kind =
                  run.getBackendReduction(reduce.getComputation());
              if (failed(kind))
                return failure();
              return run.onBackend(operands, [&](const Tensor &operand) {
                return process.collectives->allReduce(
                    run.flatten(member->group),
                    process.grid.flatten(process.self), operand, *kind);
              });
            }
            auto deposits = run.exchangeAlike(member->group, channel, operands);
            if (failed(deposits))
              return failure();
            std::vector<Tensor> reduced;
            for (size_t index = 0; index < operands.size(); ++index) {
              FailureOr<Tensor> folded = foldMembers(reduce.getComputation(),
                                                     *deposits, index, combine);
              if (failed(folded))
                return failure();
              reduced.push_back(std::move(*folded));
            }
            return reduced;
          })
          .Case([&](stablehlo::ReduceScatterOp scatter) -> Results {
            int64_t channel = getChannelId(scatter.getChannelHandle());
            FailureOr<Membership> joined = joinReplicaGroups(
                run, op, channel, scatter.getUseGlobalDeviceIds(),
                scatter.getReplicaGroups());
            if (failed(joined))
              return failure();
            const Membership &member = *joined;
            int64_t dimension = scatter.getScatterDimension();
            int64_t size = member.group.size();
            if (operands[0].shape()[dimension] % size != 0)
              return op.emitOpError()
                     << "scatter dimension " << dimension << " of size "
                     << operands[0].shape()[dimension]
                     << " does not split into the " << size
                     << " processes of the group";
            if (process.collectives) {
              FailureOr<ReduceKind> kind =
                  run.getBackendReduction(scatter.getComputation());
              if (failed(kind))
                return failure();
              return run.onBackend(operands, [&](const Tensor &operand) {
                return process.collectives->reduceScatter(
                    run.flatten(member.group),
                    process.grid.flatten(process.self), operand, dimension,
                    *kind);
              });
            }
            auto deposits = run.exchangeAlike(member.group, channel, operands);
            if (failed(deposits))
              return failure();
            FailureOr<Tensor> folded =
                foldMembers(scatter.getComputation(), *deposits, 0, combine);
            if (failed(folded))
              return failure();
            return std::vector<Tensor>{
                slicePart(*folded, dimension, size, member.position)};
          })
          .Case([&](stablehlo::AllToAllOp allToAll) -> Results {
            int64_t channel = getChannelId(allToAll.getChannelHandle());
            FailureOr<std::optional<Membership>> membership =
                run.getMembership(getPartitionGroupMode(channel),
                                  readIdGroups(allToAll.getReplicaGroups()),
                                  /*mustCover=*/true);
            if (failed(membership))
              return failure();
            const Membership &member = **membership;
            int64_t count = allToAll.getSplitCount();
            if (static_cast<int64_t>(member.group.size()) != count)
              return op.emitOpError()
                     << "split_count is " << count
                     << " but the group of process " << toString(process.self)
                     << " has " << member.group.size() << " processes";
            if (process.collectives)
              return run.onBackend(operands, [&](const Tensor &operand) {
                return process.collectives->allToAll(
                    run.flatten(member.group),
                    process.grid.flatten(process.self), operand,
                    allToAll.getSplitDimension(),
                    allToAll.getConcatDimension());
              });
            auto deposits = run.exchangeAlike(member.group, channel, operands);
            if (failed(deposits))
              return failure();
            std::vector<Tensor> exchanged;
            for (size_t index = 0; index < operands.size(); ++index) {
              std::vector<Tensor> parts;
              for (const std::vector<Tensor> &deposit : *deposits)
                parts.push_back(slicePart(deposit[index],
                                          allToAll.getSplitDimension(), count,
                                          member.position));
              exchanged.push_back(
                  concatenate(parts, allToAll.getConcatDimension()));
            }
            return exchanged;
          })
          .Case([&](stablehlo::CollectivePermuteOp permute) -> Results {
            int64_t channel = getChannelId(permute.getChannelHandle());
            ProcessGroupMode mode = getPartitionGroupMode(channel);
            // Ids name replicas of this process' partition, or partitions
            // of its replica.
            int64_t idCount = mode == ProcessGroupMode::CrossReplica
                                  ? process.grid.numReplicas
                                  : process.grid.numPartitions;
            auto toProcess = [&](int64_t id) {
              return mode == ProcessGroupMode::CrossReplica
                         ? ProcessId{id, process.self.partition}
                         : ProcessId{process.self.replica, id};
            };
            std::vector<std::vector<int64_t>> pairs =
                readIdGroups(permute.getSourceTargetPairs());
            std::vector<int64_t> ids;
            std::optional<int64_t> source;
            bool isSource = false;
            for (const std::vector<int64_t> &pair : pairs) {
              for (int64_t id : pair)
                if (id < 0 || id >= idCount)
                  return op.emitOpError()
                         << toString(mode) << " id " << id
                         << " of source_target_pairs is outside [0, " << idCount
                         << ")";
              if (pair.size() != 2)
                continue;
              if (toProcess(pair[1]) == process.self)
                source = pair[0];
              if (toProcess(pair[0]) == process.self)
                isSource = true;
              ids.insert(ids.end(), pair.begin(), pair.end());
            }
            llvm::sort(ids);
            ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
            // One meeting of every process a pair names, so that a process
            // that both sends and receives meets once.
            std::vector<ProcessId> group;
            for (int64_t id : ids)
              group.push_back(toProcess(id));
            if (!llvm::is_contained(group, process.self))
              return std::vector<Tensor>{zerosOfResult(op)};
            if (process.collectives) {
              std::vector<std::pair<int64_t, int64_t>> participantPairs;
              for (const std::vector<int64_t> &pair : pairs)
                if (pair.size() == 2)
                  participantPairs.emplace_back(
                      process.grid.flatten(toProcess(pair[0])),
                      process.grid.flatten(toProcess(pair[1])));
              return run.onBackend(operands, [&](const Tensor &operand) {
                return process.collectives->collectivePermute(
                    run.flatten(group), process.grid.flatten(process.self),
                    operand, participantPairs);
              });
            }
            std::vector<Tensor> deposit;
            if (isSource)
              deposit.push_back(operands[0]);
            auto deposits = run.exchange(group, channel, deposit);
            if (failed(deposits))
              return failure();
            if (!source)
              return std::vector<Tensor>{zerosOfResult(op)};
            if (toProcess(*source) == process.self)
              return std::vector<Tensor>{operands[0]};
            const std::vector<Tensor> &received =
                (*deposits)[llvm::find(group, toProcess(*source)) -
                            group.begin()];
            if (failed(
                    run.checkAlike({toProcess(*source)}, {received}, operands)))
              return failure();
            return std::vector<Tensor>{received[0].clone()};
          })
          .Case([&](stablehlo::CollectiveBroadcastOp broadcast) -> Results {
            int64_t channel = getChannelId(broadcast.getChannelHandle());
            FailureOr<std::optional<Membership>> membership =
                run.getMembership(getPartitionGroupMode(channel),
                                  readIdGroups(broadcast.getReplicaGroups()),
                                  /*mustCover=*/false);
            if (failed(membership))
              return failure();
            if (!*membership)
              return std::vector<Tensor>{zerosOfResult(op)};
            const Membership &member = **membership;
            if (process.collectives) {
              // The backend has no broadcast: every member gathers a
              // leading unit dimension and keeps the root's (first) part.
              Shape shape(operands[0].shape().begin(),
                          operands[0].shape().end());
              Shape unit = shape;
              unit.insert(unit.begin(), 1);
              FailureOr<std::vector<Tensor>> gathered = run.onBackend(
                  {operands[0].reshaped(unit)}, [&](const Tensor &operand) {
                    return process.collectives->allGather(
                        run.flatten(member.group),
                        process.grid.flatten(process.self), operand, 0);
                  });
              if (failed(gathered))
                return failure();
              return std::vector<Tensor>{
                  slicePart((*gathered)[0], 0, member.group.size(), 0)
                      .reshaped(shape)};
            }
            bool isRoot = member.position == 0;
            std::vector<Tensor> deposit;
            if (isRoot)
              deposit.push_back(operands[0]);
            auto deposits = run.exchange(member.group, channel, deposit);
            if (failed(deposits))
              return failure();
            if (isRoot)
              return std::vector<Tensor>{operands[0]};
            if (failed(run.checkAlike({member.group[0]}, {(*deposits)[0]},
                                      operands)))
              return failure();
            return std::vector<Tensor>{(*deposits)[0][0].clone()};
          })
          .Default([&](Operation *) -> Results {
            return op.emitOpError() << "is not a collective";
          });
  if (failed(results) || failed(run.checkResults(*results)))
    return failure();
  return results;
}

FailureOr<std::vector<Tensor>>
runTransferOp(Operation &op, const std::vector<Tensor> &operands,
              InProcessRendezvous &channels, int64_t self) {
  auto send = dyn_cast<stablehlo::SendOp>(op);
  auto recv = dyn_cast<stablehlo::RecvOp>(op);
  if (!send && !recv)
    return op.emitOpError() << "is not a send or recv";
  if (send ? send.getIsHostTransfer() : recv.getIsHostTransfer())
    return op.emitOpError()
           << "has is_host_transfer = true, but the interpreter has no host to "
           << (send ? "send to" : "receive from");
  int64_t channel = send ? send.getChannelHandle().getHandle()
                         : recv.getChannelHandle().getHandle();
  if (send) {
    // The payload is every operand but the token, which comes last.
    std::vector<Tensor> payload;
    for (const Tensor &input : llvm::ArrayRef(operands).drop_back())
      payload.push_back(input.clone());
    if (llvm::Error error = channels.send(channel, std::move(payload)))
      return op.emitOpError()
             << "could not complete: " << llvm::toString(std::move(error));
    return std::vector<Tensor>{Tensor()};
  }
  llvm::Expected<std::vector<Tensor>> payload =
      channels.receive(self, channel, describeSite(op));
  if (!payload)
    return op.emitOpError()
           << "could not complete: " << llvm::toString(payload.takeError());
  TypeRange payloadTypes = TypeRange(op.getResultTypes()).drop_back();
  if (payload->size() != payloadTypes.size())
    return op.emitOpError() << "received " << payload->size()
                            << " values on channel " << channel
                            << " but has " << payloadTypes.size()
                            << " payload results";
  for (auto [index, pair] : llvm::enumerate(llvm::zip(*payload, payloadTypes))) {
    auto [value, type] = pair;
    FailureOr<TensorSpec> spec = getTensorSpec(type, op.getLoc());
    if (failed(spec))
      return failure();
    if (value.dtype() != spec->dtype || value.shape() != spec->shape)
      return op.emitOpError() << "received " << describe(value)
                              << " on channel " << channel << " for result #"
                              << index << " of type " << type;
  }
  std::vector<Tensor> results = std::move(*payload);
  results.emplace_back(); // the token
  return results;
}

//===----------------------------------------------------------------------===//
// interpreter.run_parallel
//===----------------------------------------------------------------------===//

namespace {

/// The diagnostics one process emitted, kept until the run knows whether
/// this process failed first.
struct CapturedDiagnostic {
  Location location;
  DiagnosticSeverity severity;
  std::string message;
  std::vector<std::pair<Location, std::string>> notes;
};
thread_local std::vector<CapturedDiagnostic> *processDiagnostics = nullptr;

} // namespace

namespace {

/// Runs `body` as every process of `grid`, each on its own thread with its
/// own Interpreter over `module`, and returns their results in process
/// order (replica-major). The first process that fails stops the others;
/// its diagnostics are reported, with a note at `op` (those of the
/// processes it stopped are not). The first failed check of the processes
/// (in process order) goes to `firstCheckFailure` unless it already holds
/// one. The processes share `infeed` (null: none).
FailureOr<std::vector<std::vector<Tensor>>> runProcesses(
    Operation *op, const ProcessGrid &grid, ModuleOp module,
    const InterpreterOptions &options, InfeedQueue *infeed,
    llvm::function_ref<FailureOr<std::vector<Tensor>>(Interpreter &, int64_t)>
        body,
    std::optional<std::string> &firstCheckFailure) {
  // A thread that cannot be created would fail in the middle of the run:
  // the executor's device limit (within the process' thread limit) holds.
  if (int64_t maxProcesses = getMaxVirtualDevices();
      grid.numReplicas > maxProcesses / grid.numPartitions)
    return op->emitOpError()
           << "runs " << grid.numReplicas << " x " << grid.numPartitions
           << " processes; the interpreter runs at most " << maxProcesses
           << " (one thread each)";
  int64_t numProcesses = grid.getNumProcesses();
  auto processOf = [&](int64_t index) {
    return ProcessId{index / grid.numPartitions, index % grid.numPartitions};
  };
  InProcessRendezvous rendezvous(numProcesses, [&](int64_t participant) {
    return "process " + toString(processOf(participant));
  });
  std::vector<FailureOr<std::vector<Tensor>>> results(numProcesses, failure());
  std::vector<std::optional<std::string>> checkFailures(numProcesses);
  std::vector<std::vector<CapturedDiagnostic>> diagnostics(numProcesses);
  std::mutex firstFailureMutex;
  std::optional<int64_t> firstFailure;

  // The processes' diagnostics are held back: only the first failure's are
  // worth reading, the others say that they were stopped.
  ScopedDiagnosticHandler capture(op->getContext(), [](Diagnostic &diagnostic) {
    if (!processDiagnostics)
      return failure(); // not a process thread: the next handler reports it
    CapturedDiagnostic &captured = processDiagnostics->emplace_back(
        CapturedDiagnostic{diagnostic.getLocation(),
                           diagnostic.getSeverity(),
                           diagnostic.str(),
                           {}});
    for (Diagnostic &note : diagnostic.getNotes())
      captured.notes.emplace_back(note.getLocation(), note.str());
    return success();
  });

  auto runProcess = [&](int64_t index) {
    processDiagnostics = &diagnostics[index];
    Interpreter interpreter(module, options);
    interpreter.setProcess(
        {grid, processOf(index), &rendezvous, nullptr, infeed});
    results[index] = body(interpreter, index);
    checkFailures[index] = interpreter.getFirstCheckFailure();
    if (failed(results[index])) {
      {
        std::lock_guard<std::mutex> lock(firstFailureMutex);
        if (!firstFailure)
          firstFailure = index;
      }
      rendezvous.abort("process " + toString(processOf(index)) + " failed");
    }
    rendezvous.leave(index);
    processDiagnostics = nullptr;
  };
  std::vector<std::thread> threads;
  threads.reserve(numProcesses);
  for (int64_t index = 0; index < numProcesses; ++index)
    threads.emplace_back(runProcess, index);
  for (std::thread &thread : threads)
    thread.join();

  if (firstFailure) {
    for (const CapturedDiagnostic &captured : diagnostics[*firstFailure]) {
      InFlightDiagnostic reported = op->getContext()->getDiagEngine().emit(
          captured.location, captured.severity);
      reported << captured.message;
      for (const auto &[location, message] : captured.notes)
        reported.attachNote(location) << message;
      if (captured.severity == DiagnosticSeverity::Error)
        reported.attachNote(op->getLoc())
            << "in process " << toString(processOf(*firstFailure))
            << " of this parallel run, which stopped the other processes";
    }
    return failure();
  }
  for (std::optional<std::string> &failure : checkFailures)
    if (failure && !firstCheckFailure)
      firstCheckFailure = "process " +
                          toString(processOf(&failure - checkFailures.data())) +
                          ": " + *failure;
  std::vector<std::vector<Tensor>> processResults;
  processResults.reserve(numProcesses);
  for (FailureOr<std::vector<Tensor>> &result : results)
    processResults.push_back(std::move(*result));
  return processResults;
}

} // namespace

FailureOr<std::vector<Tensor>>
runParallel(interpreter::RunParallelOp op, std::vector<Tensor> inputs,
            ModuleOp module, const InterpreterOptions &options,
            const ProcessContext &caller,
            std::optional<std::string> &firstCheckFailure) {
  if (caller.rendezvous)
    return op.emitOpError() << "cannot run inside another parallel run "
                               "(process "
                            << toString(caller.self) << ")";
  ArrayAttr programs = op.getPrograms();
  ProcessGrid grid{static_cast<int64_t>(programs.size()),
                   static_cast<int64_t>(cast<ArrayAttr>(programs[0]).size())};

  // Each process' function and its share of the inputs.
  std::vector<func::FuncOp> functions;
  std::vector<std::vector<Tensor>> arguments;
  size_t nextInput = 0;
  for (Attribute row : programs)
    for (Attribute program : cast<ArrayAttr>(row)) {
      auto function = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          op, cast<FlatSymbolRefAttr>(program));
      if (!function)
        return op.emitOpError()
               << "program " << program << " is not a function of this module";
      std::vector<Tensor> &own = arguments.emplace_back();
      for (unsigned i = 0; i < function.getNumArguments(); ++i)
        own.push_back(std::move(inputs[nextInput++]));
      functions.push_back(function);
    }

  // The infeed's values, computed before any process runs.
  std::vector<Tensor> infeedValues;
  if (std::optional<ArrayAttr> infeed = op.getInfeed())
    for (Attribute symbol : *infeed) {
      auto function = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          op, cast<FlatSymbolRefAttr>(symbol));
      FailureOr<std::vector<Tensor>> value =
          Interpreter(module, options).run(function, {});
      if (failed(value))
        return failure();
      infeedValues.push_back(std::move(value->front()));
    }
  InfeedQueue infeedQueue(std::move(infeedValues));

  FailureOr<std::vector<std::vector<Tensor>>> results = runProcesses(
      op, grid, module, options, &infeedQueue,
      [&](Interpreter &interpreter, int64_t index) {
        return interpreter.run(functions[index], std::move(arguments[index]));
      },
      firstCheckFailure);
  if (failed(results))
    return failure();
  std::vector<Tensor> flattened;
  for (std::vector<Tensor> &processResults : *results)
    for (Tensor &tensor : processResults)
      flattened.push_back(std::move(tensor));
  return flattened;
}

llvm::Expected<ShardLayout>
createShardLayout(sdy::TensorShardingAttr sharding, sdy::MeshAttr mesh,
                  const Shape &shape,
                  llvm::function_ref<bool(StringRef)> splitsBy) {
  std::vector<int64_t> axisSizes;
  for (sdy::MeshAxisAttr axis : mesh.getAxes())
    axisSizes.push_back(axis.getSize());
  std::vector<std::vector<MeshAxisPart>> parts;
  for (sdy::DimensionShardingAttr dimension : sharding.getDimShardings()) {
    std::vector<MeshAxisPart> &list = parts.emplace_back();
    for (sdy::AxisRefAttr axis : dimension.getAxes()) {
      if (splitsBy && !splitsBy(axis.getName()))
        continue;
      std::optional<unsigned> index = mesh.getAxisIndex(axis.getName());
      if (!index)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "axis \"" + axis.getName() +
                                           "\" is not an axis of the mesh");
      MeshAxisPart part{*index, 1, axisSizes[*index]};
      if (sdy::SubAxisInfoAttr subAxis = axis.getSubAxisInfo()) {
        part.preSize = subAxis.getPreSize();
        part.size = subAxis.getSize();
      }
      list.push_back(part);
    }
  }
  return ShardLayout::create(shape, axisSizes, parts, mesh.getDeviceIds());
}

//===----------------------------------------------------------------------===//
// sdy.manual_computation on global values
//===----------------------------------------------------------------------===//

namespace {

/// Which part of a global value each device of `mesh` holds when only the
/// manual axes of `sharding` split it (the free axes leave the body
/// global), indexed by device id. Fails after an error at `op` naming
/// `what`.
FailureOr<ShardLayout> getManualLayout(sdy::ManualComputationOp op,
                                       sdy::TensorShardingAttr sharding,
                                       sdy::MeshAttr mesh, const Shape &shape,
                                       const Twine &what) {
  auto isManual = [&](StringRef name) {
    return llvm::any_of(op.getManualAxes().getValue(), [&](StringAttr axis) {
      return axis.getValue() == name;
    });
  };
  llvm::Expected<ShardLayout> layout =
      createShardLayout(sharding, mesh, shape, isManual);
  if (!layout)
    return op.emitOpError() << what << " with sharding " << sharding
                            << " cannot be split over the manual axes: "
                            << llvm::toString(layout.takeError());
  return std::move(*layout);
}

} // namespace

FailureOr<std::vector<Tensor>>
runManualComputation(sdy::ManualComputationOp op, std::vector<Tensor> operands,
                     ModuleOp module, const InterpreterOptions &options,
                     const ProcessContext &caller,
                     std::optional<std::string> &firstCheckFailure) {
  // One of several processes holds per-device values; the only process of
  // its grid (a program on its own, a fragment on a 1-device mesh) holds
  // global ones.
  if (caller.grid.getNumProcesses() > 1)
    return op.emitOpError()
           << "on global values cannot run in process " << toString(caller.self)
           << " of a grid of " << caller.grid.getNumProcesses()
           << " (a parallel run or a mesh of several devices), whose values "
              "are per device: a partitioned program has it inlined";
  auto shardings = llvm::concat<const sdy::TensorShardingAttr>(
      op.getInShardings().getShardings(), op.getOutShardings().getShardings());
  if (shardings.begin() == shardings.end())
    return op.emitOpError() << "has no operands or results, so no mesh to "
                               "run its body on";
  sdy::MeshAttr mesh = (*shardings.begin()).getMesh(op);
  if (!mesh)
    return op.emitOpError() << "names a mesh no sdy.mesh of the module "
                               "defines";
  // Process d is the device with id d (partition_id and the collectives'
  // groups name ids), and the layouts are indexed by id.
  int64_t numDevices = mesh.getTotalSize();

  std::vector<std::vector<Tensor>> arguments(numDevices);
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(operands, op.getInShardings().getShardings()))) {
    auto &[operand, sharding] = pair;
    FailureOr<ShardLayout> layout = getManualLayout(
        op, sharding, mesh, operand.shape(), "operand #" + Twine(index));
    if (failed(layout))
      return failure();
    for (int64_t id = 0; id < numDevices; ++id)
      arguments[id].push_back(extractBox(operand, layout->getBox(id)));
  }

  FailureOr<std::vector<std::vector<Tensor>>> results = runProcesses(
      op, ProcessGrid{1, numDevices}, module, options, caller.infeed,
      [&](Interpreter &interpreter, int64_t id) {
        return interpreter.runRegion(op.getBody(), std::move(arguments[id]));
      },
      firstCheckFailure);
  if (failed(results))
    return failure();

  // Each shard of a result from the first device holding it.
  std::vector<Tensor> globals;
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(op.getResults(), op.getOutShardings().getShardings()))) {
    auto &[result, sharding] = pair;
    FailureOr<TensorSpec> spec = getTensorSpec(result.getType(), op.getLoc());
    if (failed(spec))
      return failure();
    FailureOr<ShardLayout> layout = getManualLayout(
        op, sharding, mesh, spec->shape, "result #" + Twine(index));
    if (failed(layout))
      return failure();
    Tensor global = Tensor::zeros(spec->dtype, spec->shape);
    for (int64_t shard = 0; shard < layout->getNumShards(); ++shard) {
      int64_t id = layout->getHolders(shard).front();
      const Tensor &local = (*results)[id][index];
      copyBox(local, std::vector<int64_t>(local.shape().size(), 0), global,
              layout->getBegin(id).vec(), layout->getLocalShape());
    }
    globals.push_back(std::move(global));
  }
  return globals;
}

} // namespace mlir::mpmd::runtime
