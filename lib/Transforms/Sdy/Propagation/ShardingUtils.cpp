//===- ShardingUtils.cpp - Walking and rewriting shardings ----------------===//

#include "ShardingUtils.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Transforms/Sdy/Propagation/ShardingProjection.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::sdy {
namespace {

using UpdateFn =
    function_ref<TensorShardingAttr(TensorShardingAttr, Operation *holder)>;

/// The updated list, or null when nothing changed.
TensorShardingPerValueAttr updatePerValue(TensorShardingPerValueAttr perValue,
                                          Operation *holder, UpdateFn update) {
  if (!perValue)
    return {};
  SmallVector<TensorShardingAttr> shardings(perValue.getShardings());
  bool changed = false;
  for (TensorShardingAttr &sharding : shardings) {
    TensorShardingAttr updated = update(sharding, holder);
    if (updated && updated != sharding) {
      sharding = updated;
      changed = true;
    }
  }
  if (!changed)
    return {};
  return TensorShardingPerValueAttr::get(holder->getContext(), shardings);
}

/// Updates the `sdy.sharding` in each of `attrs` (of values of `types`);
/// true if one changed.
bool updateDictionaries(MutableArrayRef<DictionaryAttr> attrs,
                        ArrayRef<Type> types, MLIRContext *context,
                        SignatureShardingUpdateFn update) {
  bool changed = false;
  for (auto [dict, type] : llvm::zip(attrs, types)) {
    auto sharding =
        dict ? dict.getAs<TensorShardingAttr>(SdyDialect::kShardingAttrName)
             : TensorShardingAttr();
    if (!sharding)
      continue;
    TensorShardingAttr updated = update(sharding, type);
    if (!updated || updated == sharding)
      continue;
    NamedAttrList list(dict);
    list.set(SdyDialect::kShardingAttrName, updated);
    dict = list.getDictionary(context);
    changed = true;
  }
  return changed;
}

} // namespace

void updateSignatureShardings(func::FuncOp function,
                              SignatureShardingUpdateFn update) {
  SmallVector<DictionaryAttr> argAttrs, resultAttrs;
  function.getAllArgAttrs(argAttrs);
  function.getAllResultAttrs(resultAttrs);
  if (updateDictionaries(argAttrs, function.getArgumentTypes(),
                         function.getContext(), update))
    function.setAllArgAttrs(argAttrs);
  if (updateDictionaries(resultAttrs, function.getResultTypes(),
                         function.getContext(), update))
    function.setAllResultAttrs(resultAttrs);
}

void setArgumentShardings(
    ArrayRef<std::pair<BlockArgument, TensorShardingAttr>> shardings) {
  llvm::MapVector<Operation *, SmallVector<DictionaryAttr>> argAttrsByFunction;
  for (auto [arg, sharding] : shardings) {
    auto function = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    auto [it, inserted] = argAttrsByFunction.try_emplace(function);
    if (inserted)
      function.getAllArgAttrs(it->second);
    NamedAttrList attrs(it->second[arg.getArgNumber()]);
    attrs.set(SdyDialect::kShardingAttrName, sharding);
    it->second[arg.getArgNumber()] = attrs.getDictionary(function.getContext());
  }
  for (auto &[function, attrs] : argAttrsByFunction)
    cast<func::FuncOp>(function).setAllArgAttrs(attrs);
}

void updateShardings(Operation *root, UpdateFn update) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto single = [&](TensorShardingAttr sharding, auto set) {
      if (!sharding)
        return;
      if (TensorShardingAttr updated = update(sharding, op);
          updated && updated != sharding)
        set(updated);
    };
    TypeSwitch<Operation *>(op)
        .Case([&](func::FuncOp function) {
          updateSignatureShardings(function,
                                   [&](TensorShardingAttr sharding, Type) {
                                     return update(sharding, function);
                                   });
        })
        .Case<ShardingConstraintOp, ReshardOp>([&](auto shardingOp) {
          single(shardingOp.getSharding(), [&](TensorShardingAttr updated) {
            shardingOp.setShardingAttr(updated);
          });
        })
        .Case([&](DataFlowEdgeOp edge) {
          single(edge.getShardingAttr(), [&](TensorShardingAttr updated) {
            edge.setShardingAttr(updated);
          });
        })
        .Case([&](CollectiveOpInterface collective) {
          single(collective.getOutSharding(), [&](TensorShardingAttr updated) {
            collective->setAttr("out_sharding", updated);
          });
        })
        .Case([&](ManualComputationOp manual) {
          if (auto in = updatePerValue(manual.getInShardings(), op, update))
            manual.setInShardingsAttr(in);
          if (auto out = updatePerValue(manual.getOutShardings(), op, update))
            manual.setOutShardingsAttr(out);
        })
        .Case([&](NamedComputationOp named) {
          if (auto in = updatePerValue(named.getInShardingsAttr(), op, update))
            named.setInShardingsAttr(in);
          if (auto out =
                  updatePerValue(named.getOutShardingsAttr(), op, update))
            named.setOutShardingsAttr(out);
        });
    if (auto perValue = op->getAttrOfType<TensorShardingPerValueAttr>(
            SdyDialect::kShardingAttrName))
      if (auto updated = updatePerValue(perValue, op, update))
        op->setAttr(SdyDialect::kShardingAttrName, updated);
  });
}

SmallVector<AxisRefAttr> sortAndMergeAxes(ArrayRef<AxisRefAttr> axes,
                                          MeshAttr mesh) {
  SmallVector<AxisRefAttr> sorted(axes);
  llvm::sort(sorted, [&](AxisRefAttr lhs, AxisRefAttr rhs) {
    unsigned lhsIndex = mesh.getAxisIndex(lhs.getName()).value_or(~0u);
    unsigned rhsIndex = mesh.getAxisIndex(rhs.getName()).value_or(~0u);
    if (lhsIndex != rhsIndex)
      return lhsIndex < rhsIndex;
    return getPreSize(lhs) < getPreSize(rhs);
  });
  return mergeNeighbours(sorted, mesh);
}

namespace {
bool isManualAxis(AxisRefAttr axis, ManualAxesAttr manualAxes) {
  return llvm::any_of(manualAxes.getValue(), [&](StringAttr name) {
    return name.getValue() == axis.getName();
  });
}
} // namespace

TensorShardingAttr stripManualAxes(TensorShardingAttr sharding,
                                   ManualAxesAttr manualAxes) {
  if (!sharding)
    return sharding;
  auto freeAxes = [&](ArrayRef<AxisRefAttr> axes) {
    SmallVector<AxisRefAttr> free;
    llvm::copy_if(axes, std::back_inserter(free), [&](AxisRefAttr axis) {
      return !isManualAxis(axis, manualAxes);
    });
    return free;
  };
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    dims.push_back(DimensionShardingAttr::get(
        sharding.getContext(), freeAxes(dim.getAxes()), dim.getIsClosed(),
        dim.getPriority()));
  return TensorShardingAttr::get(sharding.getContext(), sharding.getMeshOrRef(),
                                 dims, freeAxes(sharding.getReplicatedAxes()),
                                 freeAxes(sharding.getUnreducedAxes()),
                                 sharding.getUnreducedKind());
}

TensorShardingAttr addManualAxes(TensorShardingAttr local,
                                 TensorShardingAttr reference,
                                 ManualAxesAttr manualAxes, MeshAttr mesh) {
  if (!local || !reference)
    return local;
  auto manualOf = [&](ArrayRef<AxisRefAttr> axes) {
    SmallVector<AxisRefAttr> manual;
    llvm::copy_if(axes, std::back_inserter(manual), [&](AxisRefAttr axis) {
      return isManualAxis(axis, manualAxes);
    });
    return manual;
  };
  ArrayRef<DimensionShardingAttr> referenceDims = reference.getDimShardings();
  SmallVector<DimensionShardingAttr> dims;
  for (auto [index, dim] : llvm::enumerate(local.getDimShardings())) {
    SmallVector<AxisRefAttr> axes;
    if (index < referenceDims.size())
      axes = manualOf(referenceDims[index].getAxes());
    llvm::append_range(axes, dim.getAxes());
    dims.push_back(DimensionShardingAttr::get(
        local.getContext(), axes, dim.getIsClosed(), dim.getPriority()));
  }
  auto merged = [&](ArrayRef<AxisRefAttr> localAxes,
                    ArrayRef<AxisRefAttr> referenceAxes) {
    SmallVector<AxisRefAttr> axes(localAxes);
    llvm::append_range(axes, manualOf(referenceAxes));
    return mesh ? sortAndMergeAxes(axes, mesh) : axes;
  };
  return TensorShardingAttr::get(
      local.getContext(), local.getMeshOrRef(), dims,
      merged(local.getReplicatedAxes(), reference.getReplicatedAxes()),
      merged(local.getUnreducedAxes(), reference.getUnreducedAxes()),
      local.getUnreducedKind());
}

TensorShardingAttr withDimShardings(TensorShardingAttr sharding,
                                    ArrayRef<DimensionShardingAttr> dims) {
  return TensorShardingAttr::get(sharding.getContext(), sharding.getMeshOrRef(),
                                 dims, sharding.getReplicatedAxes(),
                                 sharding.getUnreducedAxes(),
                                 sharding.getUnreducedKind());
}

TensorShardingPerValueAttr
fillWithFullyOpen(ArrayRef<TensorShardingAttr> shardings, TypeRange types,
                  MLIRContext *context) {
  auto first = llvm::find_if(shardings, [](TensorShardingAttr s) { return s; });
  if (first == shardings.end())
    return {};
  Attribute meshOrRef = first->getMeshOrRef();
  SmallVector<TensorShardingAttr> filled;
  for (auto [sharding, type] : llvm::zip(shardings, types)) {
    if (sharding) {
      filled.push_back(sharding);
      continue;
    }
    auto shaped = dyn_cast<ShapedType>(type);
    filled.push_back(TensorShardingAttr::getFullyOpen(
        context, meshOrRef, shaped && shaped.hasRank() ? shaped.getRank() : 0));
  }
  return TensorShardingPerValueAttr::get(context, filled);
}

SmallVector<func::FuncOp> getUncalledFunctions(ModuleOp module) {
  llvm::DenseSet<StringAttr> called;
  module.walk([&](func::CallOp call) {
    called.insert(call.getCalleeAttr().getAttr());
  });
  SmallVector<func::FuncOp> roots;
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal() && !called.contains(function.getSymNameAttr()))
      roots.push_back(function);
  return roots;
}

func::FuncOp getMainFunction(ModuleOp module) {
  auto functions = module.getOps<func::FuncOp>();
  if (!functions.empty() && std::next(functions.begin()) == functions.end())
    return *functions.begin();
  return module.lookupSymbol<func::FuncOp>("main");
}

StringRef getOriginalFuncName(func::FuncOp function) {
  if (auto original =
          function->getAttrOfType<StringAttr>(kOriginalFuncNameAttr))
    return original.getValue();
  return function.getSymName();
}

std::optional<ReductionKind> getBodyReductionKind(Region &body) {
  if (!body.hasOneBlock())
    return std::nullopt;
  Block &block = body.front();
  if (block.getNumArguments() != 2 ||
      !llvm::hasSingleElement(block.without_terminator()))
    return std::nullopt;
  Operation &combiner = block.front();
  Operation *terminator = block.getTerminator();
  if (combiner.getNumOperands() != 2 || combiner.getNumResults() != 1 ||
      terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != combiner.getResult(0))
    return std::nullopt;
  Value lhs = combiner.getOperand(0), rhs = combiner.getOperand(1);
  if (!((lhs == block.getArgument(0) && rhs == block.getArgument(1)) ||
        (lhs == block.getArgument(1) && rhs == block.getArgument(0))))
    return std::nullopt;
  bool isBool = getElementTypeOrSelf(lhs.getType()).isInteger(1);
  if (isa<stablehlo::AddOp>(combiner))
    return ReductionKind::Sum;
  if (isa<stablehlo::MaxOp>(combiner) ||
      (isBool && isa<stablehlo::OrOp>(combiner)))
    return ReductionKind::Max;
  if (isa<stablehlo::MinOp>(combiner) ||
      (isBool && isa<stablehlo::AndOp>(combiner)))
    return ReductionKind::Min;
  return std::nullopt;
}

std::optional<ReductionKind> getReductionKindOfOp(Operation *op) {
  if (op->getNumRegions() == 1)
    return getBodyReductionKind(op->getRegion(0));
  return ReductionKind::Sum;
}

} // namespace mlir::sdy
