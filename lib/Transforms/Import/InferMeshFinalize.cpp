//===- InferMeshFinalize.cpp - -mpmd-infer-mesh-finalize ------------------===//

#include "MeshInferenceUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_INFERMESHFINALIZEPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

using namespace infer;

StringRef reductionOpName(ReductionType kind) {
  switch (kind) {
  case ReductionType::kAdd:
    return "stablehlo.add";
  case ReductionType::kMul:
    return "stablehlo.multiply";
  case ReductionType::kMax:
    return "stablehlo.maximum";
  case ReductionType::kMin:
    return "stablehlo.minimum";
  case ReductionType::kOr:
    return "stablehlo.or";
  case ReductionType::kAnd:
    return "stablehlo.and";
  case ReductionType::kNone:
    break;
  }
  return {};
}

bool isEntryArgument(Value value, const Program &program) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return false;
  auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return f && program.isEntry(f);
}

bool isLoopIndex(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  auto loop = arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : nullptr;
  return loop && arg == loop.getIndexArgument();
}

class Finalizer {
public:
  Finalizer(Program &program, bool inferTransfers)
      : program(program), inferTransfers(inferTransfers) {}

  LogicalResult run() {
    for (func::FuncOp f : program.functions) {
      if (program.isEntry(f) && failed(typeEntryArguments(f)))
        return failure();
      SmallVector<Block *> blocks{&f.getBody().front()};
      f.walk([&](ForOp loop) { blocks.push_back(&loop.getRegion().front()); });
      for (Block *block : blocks) {
        foldSameMeshAssigns(*block);
        lowerBroadcastsAndReduces(*block);
        lowerCrossMeshAssigns(*block);
        eraseDeadOps(*block);
        placeArgumentTransfers();
      }
      Block &body = f.getBody().front();
      f.setType(FunctionType::get(f.getContext(), body.getArgumentTypes(),
                                  body.getTerminator()->getOperandTypes()));
    }
    return verify();
  }

private:
  /// Entry arguments take the type of their assign users (the first mesh if
  /// they go to several; the others are reached by transfers). Assigns that
  /// disagree on the memory kind (two kinds, or one with and one without)
  /// are an error on the function, as upstream: the input has one memory
  /// kind, and no transfer is made up between kinds.
  LogicalResult typeEntryArguments(func::FuncOp f) {
    const MeshIndex &meshes = program.meshes;
    Block &body = f.getBody().front();
    bool failed = false;
    for (BlockArgument arg : body.getArguments()) {
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      Type chosen;
      unsigned best = ~0u;
      std::optional<StringAttr> memoryKind;
      for (Operation *user : arg.getUsers())
        if (auto assign = dyn_cast<AssignOp>(user)) {
          StringAttr kind =
              cast<MeshTensorType>(assign.getType()).getMemoryKind();
          if (memoryKind && *memoryKind != kind) {
            f.emitError("input ")
                << arg.getArgNumber()
                << " is assigned to meshes with different memory kinds ("
                << (*memoryKind ? memoryKind->getValue() : "none") << " and "
                << (kind ? kind.getValue() : "none")
                << "); mesh inference does not transfer between memory "
                   "kinds";
            failed = true;
            break;
          }
          memoryKind = kind;
          unsigned index = meshes.lookup(getMeshName(assign.getType()))
                               .value_or(~0u - 1);
          if (!chosen || index < best) {
            chosen = assign.getType();
            best = index;
          }
        }
      if (!chosen)
        continue;
      retypeToMesh(arg, chosen);
    }
    return llvm::failure(failed);
  }

  void foldSameMeshAssigns(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      auto assign = dyn_cast<AssignOp>(&op);
      if (!assign)
        continue;
      auto unassign = assign.getTensor().getDefiningOp<UnassignOp>();
      if (unassign && unassign.getTensor().getType() == assign.getType()) {
        assign.getResult().replaceAllUsesWith(unassign.getTensor());
        assign->erase();
      }
    }
  }

  /// Transfers of `source` to each of `types` (in mesh order), reusing
  /// existing transfers and chaining new ones m1 -> m2 -> m3.
  DenseMap<Type, Value> transferChain(Value source, ArrayRef<Type> types) {
    const MeshIndex &meshes = program.meshes;
    SmallVector<Type> sorted(types.begin(), types.end());
    llvm::sort(sorted, [&](Type a, Type b) {
      return meshes.lookup(getMeshName(a)).value_or(0) <
             meshes.lookup(getMeshName(b)).value_or(0);
    });
    DenseMap<Type, Value> result;
    result[source.getType()] = source;
    for (Operation *user : source.getUsers())
      if (auto transfer = dyn_cast<TransferOp>(user))
        result.try_emplace(transfer.getType(), transfer.getResult());
    Value previous = source;
    for (Type type : sorted) {
      if (Value existing = result.lookup(type)) {
        previous = existing;
        continue;
      }
      OpBuilder builder(source.getContext());
      if (Operation *def = previous.getDefiningOp())
        builder.setInsertionPointAfter(def);
      else
        builder.setInsertionPointToStart(cast<BlockArgument>(previous).getOwner());
      auto transfer =
          TransferOp::create(builder, previous.getLoc(), type, previous);
      if (isa<BlockArgument>(source))
        argumentTransfers.push_back(transfer);
      result[type] = transfer.getResult();
      previous = transfer.getResult();
    }
    return result;
  }

  /// The transfers made from a block argument (directly or down a chain)
  /// go just before their first user, as upstream places them, rather than
  /// at the top of the block. Later links of a chain move first, so each
  /// link then finds its first user in place; transfers sharing a first
  /// user keep the order they were made in. O(uses) per transfer, with the
  /// block's cached op order.
  void placeArgumentTransfers() {
    // The frontmost transfer moved before each user.
    DenseMap<Operation *, Operation *> frontOf;
    for (TransferOp transfer : llvm::reverse(argumentTransfers)) {
      Block *block = transfer->getBlock();
      Operation *first = nullptr;
      for (Operation *user : transfer->getUsers())
        if (Operation *ancestor = block->findAncestorOpInBlock(*user);
            ancestor && (!first || ancestor->isBeforeInBlock(first)))
          first = ancestor;
      if (!first || !transfer->isBeforeInBlock(first))
        continue;
      Operation *&front = frontOf[first];
      transfer->moveBefore(front ? front : first);
      front = transfer;
    }
    argumentTransfers.clear();
  }

  /// Assign users of `value`, grouped by type.
  llvm::MapVector<Type, SmallVector<AssignOp>> assignUsers(Value value) {
    llvm::MapVector<Type, SmallVector<AssignOp>> groups;
    for (Operation *user : value.getUsers())
      if (auto assign = dyn_cast<AssignOp>(user))
        groups[assign.getType()].push_back(assign);
    return groups;
  }

  /// A reused transfer may come after an op that now needs its result (it
  /// was made for a later use, e.g. by a computation on another mesh): moves
  /// it before `user`. Its operand, the transferred value, already comes
  /// before `user`, so the move keeps every use after its definition.
  static void hoistTransferBefore(Value value, Operation *user) {
    auto transfer = value.getDefiningOp<TransferOp>();
    if (transfer && transfer->getBlock() == user->getBlock() &&
        user->isBeforeInBlock(transfer))
      transfer->moveBefore(user);
  }

  void replaceAssigns(llvm::MapVector<Type, SmallVector<AssignOp>> &groups,
                      const DenseMap<Type, Value> &values) {
    for (auto &[type, assigns] : groups) {
      Value value = values.lookup(type);
      if (!value)
        continue;
      for (AssignOp assign : assigns) {
        hoistTransferBefore(value, assign);
        assign.getResult().replaceAllUsesWith(value);
        assign->erase();
      }
    }
  }

  void lowerCrossMeshAssigns(Block &block) {
    llvm::SetVector<UnassignOp> unassigns;
    for (Operation &op : block)
      if (auto assign = dyn_cast<AssignOp>(&op))
        if (auto unassign = assign.getTensor().getDefiningOp<UnassignOp>())
          unassigns.insert(unassign);
    for (UnassignOp unassign : unassigns) {
      Value source = unassign.getTensor();
      auto groups = assignUsers(unassign.getResult());
      bool allowed = inferTransfers || isEntryArgument(source, program);
      DenseMap<Type, Value> existing;
      for (Operation *user : source.getUsers())
        if (auto transfer = dyn_cast<TransferOp>(user))
          existing.try_emplace(transfer.getType(), transfer.getResult());
      if (!allowed) {
        replaceAssigns(groups, existing);
        continue;
      }
      SmallVector<Type> types = llvm::to_vector(llvm::make_first_range(groups));
      replaceAssigns(groups, transferChain(source, types));
    }
  }

  void lowerBroadcastsAndReduces(Block &block) {
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      if (isa<BroadcastOp, ReduceOp>(op))
        ops.push_back(&op);
    for (Operation *op : ops) {
      if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
        auto unassign = broadcast.getTensor().getDefiningOp<UnassignOp>();
        if (!unassign)
          continue;
        auto groups = assignUsers(broadcast.getResult());
        SmallVector<Type> types = llvm::to_vector(llvm::make_first_range(groups));
        replaceAssigns(groups, transferChain(unassign.getTensor(), types));
        if (broadcast->use_empty())
          broadcast->erase();
        continue;
      }
      lowerReduce(cast<ReduceOp>(op));
    }
  }

  Value combine(OpBuilder &builder, Location loc, StringRef mesh,
                ReductionType kind, ArrayRef<Value> values) {
    if (values.size() == 1)
      return values.front();
    Type local = getLocalType(values.front().getType());
    FragmentOp fragment = createFragment(
        builder, loc, mesh, builder.getArrayAttr({}), values,
        {values.front().getType()}, [&](OpBuilder &b, ValueRange args) {
          Value acc = args.front();
          for (Value next : args.drop_front()) {
            OperationState state(loc, reductionOpName(kind));
            state.addOperands({acc, next});
            state.addTypes(local);
            acc = b.create(state)->getResult(0);
          }
          return SmallVector<Value>{acc};
        });
    addInferredBy(fragment, kConvertReduceOps);
    return fragment->getResult(0);
  }

  /// reduce(unassign(x_i)) -> a local reduce per source mesh, transfers to
  /// each destination mesh, and a final reduce there.
  void lowerReduce(ReduceOp reduce) {
    const MeshIndex &meshes = program.meshes;
    std::map<unsigned, SmallVector<Value>> bySource;
    for (Value operand : reduce.getTensors()) {
      auto unassign = operand.getDefiningOp<UnassignOp>();
      if (!unassign)
        return; // Reported by verification.
      Value source = unassign.getTensor();
      bySource[meshes.lookup(getMeshName(source.getType())).value_or(0)]
          .push_back(source);
    }
    if (reduce.getReduction() == ReductionType::kNone && bySource.size() != 1)
      return;
    OpBuilder builder(reduce);
    SmallVector<Value> partials;
    for (auto &[mesh, values] : bySource)
      partials.push_back(combine(builder, reduce.getLoc(), meshes.name(mesh),
                                 reduce.getReduction(), values));
    auto groups = assignUsers(reduce.getResult());
    DenseMap<Type, Value> finals;
    for (auto &[type, assigns] : groups) {
      SmallVector<Value> operands;
      for (Value partial : partials) {
        if (partial.getType() == type) {
          operands.push_back(partial);
          continue;
        }
        Value found;
        for (Operation *user : partial.getUsers())
          if (auto transfer = dyn_cast<TransferOp>(user))
            if (transfer.getType() == type)
              found = transfer.getResult();
        if (found)
          hoistTransferBefore(found, reduce);
        else
          found = TransferOp::create(builder, reduce.getLoc(), type, partial);
        operands.push_back(found);
      }
      finals[type] = combine(builder, reduce.getLoc(), getMeshName(type),
                             reduce.getReduction(), operands);
    }
    replaceAssigns(groups, finals);
    if (reduce->use_empty())
      reduce->erase();
  }

  /// Erases unused assigns and unassigns, and the inferred fragments whose
  /// results are all unused and whose bodies have no side effects: what
  /// mesh inference wrapped for a dead meshless op computes nothing anyone
  /// needs. In reverse order, so that a chain of them goes at once.
  void eraseDeadOps(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
      if (!op.use_empty())
        continue;
      if (isa<UnassignOp, AssignOp>(op)) {
        op.erase();
        continue;
      }
      auto fragment = dyn_cast<FragmentOp>(op);
      if (fragment && !fragment.isUserFragment() &&
          llvm::all_of(fragment.getRegion().front().without_terminator(),
                       [](Operation &inner) {
                         return isMemoryEffectFree(&inner);
                       }))
        op.erase();
    }
  }

  LogicalResult verify() {
    bool failed = false;
    for (func::FuncOp f : program.functions) {
      for (auto [i, type] : llvm::enumerate(f.getArgumentTypes()))
        if (isa<RankedTensorType>(type)) {
          f.emitError("mesh inference left function input ")
              << i << " without a mesh";
          failed = true;
        }
      for (auto [i, type] : llvm::enumerate(f.getResultTypes()))
        if (isa<RankedTensorType>(type)) {
          f.emitError("mesh inference left function output ")
              << i << " without a mesh";
          failed = true;
        }
      SmallVector<Block *> blocks{&f.getBody().front()};
      f.walk([&](ForOp loop) { blocks.push_back(&loop.getRegion().front()); });
      for (Block *block : blocks)
        for (Operation &op : *block) {
          if (auto assign = dyn_cast<AssignOp>(&op)) {
            // The index of an mpmd.for is a local tensor by definition: an
            // assign is how it reaches each mesh using it.
            if (isLoopIndex(assign.getTensor()))
              continue;
            auto unassign = assign.getTensor().getDefiningOp<UnassignOp>();
            if (unassign) {
              op.emitError("Mesh assignment is not possible: the value on "
                           "mesh \"")
                  << getMeshName(unassign.getTensor().getType())
                  << "\" is needed on mesh \"" << getMeshName(assign.getType())
                  << "\" and no transfer exists. Add an explicit transfer "
                     "to fix this, or set `mpmd_infer_transfers=True`.";
            } else {
              op.emitError("mesh inference could not remove this assign");
            }
            failed = true;
          } else if (isa<UnassignOp>(op)) {
            // Reported on its own, besides its assign users: upstream gives
            // one error per leftover assign and per leftover unassign.
            op.emitError("mesh inference could not remove this unassign");
            failed = true;
          } else if (isa<BroadcastOp, ReduceOp>(op) ||
                     isMeshlessOp(&op)) {
            op.emitError("mesh inference could not assign this op to a mesh");
            failed = true;
          }
        }
    }
    // The analysis attributes are temporary. Their names are uniqued once,
    // not once per op.
    MLIRContext *ctx = program.module.getContext();
    StringAttr analysisAttrs[] = {StringAttr::get(ctx, kUseSetAttr),
                                  StringAttr::get(ctx, kSrcSetAttr),
                                  StringAttr::get(ctx, kReduceAttr)};
    for (func::FuncOp f : program.functions) {
      f.walk([&](Operation *op) {
        for (StringAttr name : analysisAttrs)
          op->removeAttr(name);
      });
      auto none = [](unsigned) { return Attribute(); };
      for (StringRef name : {kUseSetAttr, kSrcSetAttr}) {
        setArgAttrs(f, name, none);
        setResultAttrs(f, name, none);
        f.walk([&](ForOp loop) { setArgAttrs(loop, name, none); });
      }
    }
    return llvm::failure(failed);
  }

  Program &program;
  bool inferTransfers;
  /// Transfers made from block arguments in the current block.
  SmallVector<TransferOp> argumentTransfers;
};

class InferMeshFinalizePass
    : public impl::InferMeshFinalizePassBase<InferMeshFinalizePass> {
  using Base::Base;

  void runOnOperation() override {
        std::vector<Program> units =
        Program::buildUnits(getOperation());
    for (Program &unit : units)
      if (failed(Finalizer(unit, inferTransfers).run()))
        signalPassFailure();
  }
};

} // namespace
} // namespace mlir::mpmd
