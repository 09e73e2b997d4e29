//===- LowerToFragmentCalls.cpp - -mpmd-lower-to-fragment-calls -----------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Export/Passes.h"

#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_LOWERTOFRAGMENTCALLSPASS
#include "mpmd/Transforms/Export/Passes.h.inc"

namespace {

/// The longest name of an outlined function before its `.<module>` suffix.
constexpr size_t kMaxFunctionNameLength = 200;

/// A hash of everything that decides whether two fragments can share a
/// function: mesh name, per-value attributes, signature types and the body
/// structure. Values are hashed by their position of first use in the walk
/// (entry block arguments first), so equivalent bodies hash alike. O(body).
llvm::hash_code hashFragment(FragmentOp fragment) {
  Region &region = fragment.getRegion();
  llvm::DenseMap<Value, unsigned> numbering;
  auto hashByPosition = [&](Value value) {
    return llvm::hash_value(
        numbering.try_emplace(value, numbering.size()).first->second);
  };
  llvm::hash_code hash = llvm::hash_combine(
      fragment.getMeshName(), fragment->getAttr(kArgAttrsAttrName),
      fragment->getAttr(kResAttrsAttrName));
  for (Type type : fragment->getOperandTypes())
    hash = llvm::hash_combine(hash, type);
  for (Type type : fragment->getResultTypes())
    hash = llvm::hash_combine(hash, type);
  for (BlockArgument arg : region.front().getArguments())
    hashByPosition(arg);
  region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, op->getNumRegions(),
        OperationEquivalence::computeHash(
            op, hashByPosition, OperationEquivalence::ignoreHashValue,
            OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

/// True if `lhs` and `rhs` can be calls of the same function.
bool areEquivalent(FragmentOp lhs, FragmentOp rhs) {
  return lhs.getMeshName() == rhs.getMeshName() &&
         lhs->getAttr(kArgAttrsAttrName) == rhs->getAttr(kArgAttrsAttrName) &&
         lhs->getAttr(kResAttrsAttrName) == rhs->getAttr(kResAttrsAttrName) &&
         lhs->getOperandTypes() == rhs->getOperandTypes() &&
         lhs->getResultTypes() == rhs->getResultTypes() &&
         OperationEquivalence::isRegionEquivalentTo(
             &lhs.getRegion(), &rhs.getRegion(),
             OperationEquivalence::IgnoreLocations);
}

SmallVector<UserOriginAttr> getOrigins(FragmentOp fragment) {
  return llvm::map_to_vector(fragment.getOrigin(), [](Attribute origin) {
    return cast<UserOriginAttr>(origin);
  });
}

/// `stage<id>`, `inferred` or the origin summary of one fragment.
std::string getFragmentBaseName(FragmentOp fragment) {
  if (std::optional<int64_t> stage = fragment.getStageId())
    return "stage" + std::to_string(*stage);
  if (!fragment.isUserFragment())
    return "inferred";
  return getOriginSummary(getOrigins(fragment));
}

/// The most frequent base name of `fragments`; on ties, the one that reached
/// that count first.
std::string getGroupBaseName(ArrayRef<FragmentOp> fragments) {
  llvm::StringMap<unsigned> counts;
  std::string best;
  unsigned bestCount = 0;
  for (FragmentOp fragment : fragments) {
    std::string name = getFragmentBaseName(fragment);
    if (unsigned count = ++counts[name]; count > bestCount) {
      best = std::move(name);
      bestCount = count;
    }
  }
  return best;
}

std::string getFunctionName(unsigned groupId, ArrayRef<FragmentOp> fragments,
                            bool forwardOnly, StringRef moduleName) {
  std::string name = "p" + std::to_string(groupId) + "_" +
                     getGroupBaseName(fragments);
  if (!forwardOnly) {
    SmallVector<int64_t> transposeCounts;
    for (FragmentOp fragment : fragments)
      for (UserOriginAttr origin : getOrigins(fragment))
        transposeCounts.push_back(origin.getTransposeCount());
    name += getPhaseSuffix(transposeCounts);
  }
  name += getCallSiteSuffix(llvm::map_to_vector(
      fragments, [](FragmentOp fragment) { return getCallCounter(fragment); }));
  if (name.size() > kMaxFunctionNameLength)
    name.resize(kMaxFunctionNameLength);
  return name + "." + moduleName.str();
}

/// Per-value attribute dictionaries of a function signature: the fragment's
/// `arg_attrs`/`res_attrs` entries plus `sdy.sharding` of sharded mesh
/// tensors.
SmallVector<DictionaryAttr> getSignatureAttrs(ArrayAttr fragmentAttrs,
                                              TypeRange types,
                                              MLIRContext *ctx) {
  SmallVector<DictionaryAttr> dictionaries;
  for (auto [index, type] : llvm::enumerate(types)) {
    NamedAttrList attrs;
    if (fragmentAttrs && index < fragmentAttrs.size())
      if (auto dictionary = dyn_cast<DictionaryAttr>(fragmentAttrs[index]))
        attrs.append(dictionary.getValue());
    if (auto meshTensor = dyn_cast<MeshTensorType>(type))
      if (sdy::TensorShardingAttr sharding = meshTensor.getSharding())
        attrs.set(sdy::SdyDialect::kShardingAttrName, sharding);
    dictionaries.push_back(attrs.getDictionary(ctx));
  }
  return dictionaries;
}

/// Moves the body of `representative` into a new function named `name` at
/// the end of the module.
func::FuncOp outlineGroup(ArrayRef<FragmentOp> fragments, StringRef name,
                          sdy::MeshAttr meshShape, SymbolTable &symbolTable) {
  FragmentOp representative = fragments.front();
  MLIRContext *ctx = representative.getContext();
  Block &body = representative.getRegion().front();
  auto returnOp = cast<ReturnOp>(body.getTerminator());
  auto type = FunctionType::get(ctx, body.getArgumentTypes(),
                                returnOp.getOperandTypes());
  OpBuilder builder(ctx);
  auto function =
      func::FuncOp::create(builder, representative.getLoc(), name, type);
  symbolTable.insert(function);
  function->setAttr(MpmdDialect::kMeshShapeAttrName, meshShape);

  std::optional<int64_t> reservedBytes;
  for (FragmentOp fragment : fragments)
    if (auto bytes =
            fragment->getAttrOfType<IntegerAttr>(kReservedHbmBytesAttrName))
      reservedBytes = std::max(reservedBytes.value_or(bytes.getInt()),
                               bytes.getInt());
  if (reservedBytes)
    function->setAttr(kReservedHbmBytesAttrName,
                      builder.getI64IntegerAttr(*reservedBytes));

  function.setAllArgAttrs(getSignatureAttrs(
      representative->getAttrOfType<ArrayAttr>(kArgAttrsAttrName),
      representative->getOperandTypes(), ctx));
  function.setAllResultAttrs(getSignatureAttrs(
      representative->getAttrOfType<ArrayAttr>(kResAttrsAttrName),
      representative->getResultTypes(), ctx));

  function.getBody().takeBody(representative.getRegion());
  builder.setInsertionPoint(returnOp);
  func::ReturnOp::create(builder, returnOp.getLoc(), returnOp.getOperands());
  returnOp.erase();
  return function;
}

/// `shardings` with every mesh symbol other than `meshRef` replaced by it
/// (inlined meshes stay). Sets `referencesMesh` when any sharding names
/// `meshRef` afterwards.
sdy::TensorShardingPerValueAttr
pointShardingsAtMesh(sdy::TensorShardingPerValueAttr shardings,
                     FlatSymbolRefAttr meshRef, bool &referencesMesh) {
  SmallVector<sdy::TensorShardingAttr> pointed;
  for (sdy::TensorShardingAttr sharding : shardings.getShardings()) {
    if (!sharding.getMeshName().empty()) {
      referencesMesh = true;
      if (sharding.getMeshName() != meshRef.getValue())
        sharding = sdy::TensorShardingAttr::get(
            sharding.getContext(), meshRef, sharding.getDimShardings(),
            sharding.getReplicatedAxes(), sharding.getUnreducedAxes(),
            sharding.getUnreducedKind());
    }
    pointed.push_back(sharding);
  }
  return sdy::TensorShardingPerValueAttr::get(shardings.getContext(), pointed);
}

/// The manual computations of an outlined fragment body run on the
/// fragment's mesh: their shardings name it (`@<mesh name>`, an `sdy.mesh`
/// created at the top of the module when missing, with the topology's
/// shape). The function's own signature shardings are left as they are.
/// O(ops of the body).
LogicalResult pointManualComputationsAtMesh(func::FuncOp function,
                                            StringRef meshName,
                                            sdy::MeshAttr meshShape,
                                            SymbolTable &symbolTable) {
  MLIRContext *ctx = function.getContext();
  auto meshRef = FlatSymbolRefAttr::get(ctx, meshName);
  bool referencesMesh = false;
  function.walk([&](sdy::ManualComputationOp manual) {
    manual.setInShardingsAttr(pointShardingsAtMesh(manual.getInShardingsAttr(),
                                                   meshRef, referencesMesh));
    manual.setOutShardingsAttr(pointShardingsAtMesh(
        manual.getOutShardingsAttr(), meshRef, referencesMesh));
  });
  if (!referencesMesh)
    return success();
  Operation *existing = symbolTable.lookup(meshName);
  if (isa_and_nonnull<sdy::MeshOp>(existing))
    return success();
  if (existing)
    return function.emitError()
           << "the manual computations of this outlined fragment run on mesh \""
           << meshName << "\", but the module's symbol @" << meshName
           << " is not an sdy.mesh";
  ModuleOp module = function->getParentOfType<ModuleOp>();
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  symbolTable.insert(
      sdy::MeshOp::create(builder, function.getLoc(), meshName, meshShape),
      module.getBody()->begin());
  return success();
}

void replaceWithCall(FragmentOp fragment, func::FuncOp callee) {
  OpBuilder builder(fragment);
  auto call = FragmentCallOp::create(
      builder, fragment.getLoc(), fragment->getResultTypes(),
      fragment->getOperands(), fragment.getOriginAttr(),
      fragment.getMeshNameAttr(), FlatSymbolRefAttr::get(callee),
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
  // What `mpmd schedule` reads: the microbatch, the stage and the kind of
  // backward half; the flags keep their names.
  for (StringRef flag : {kRematAttrName, kSplitKeepTransferredAttrName,
                         kSplitDropTransferredAttrName})
    if (fragment->hasAttr(flag))
      call->setAttr(flag, builder.getUnitAttr());
  if (std::optional<uint32_t> counter = getCallCounter(fragment))
    setCallCounter(call, *counter);
  if (std::optional<int64_t> stage = fragment.getStageId())
    call->setAttr(kStageIdAttrName, builder.getI64IntegerAttr(*stage));
  fragment->replaceAllUsesWith(call);
  fragment.erase();
}

class LowerToFragmentCallsPass
    : public impl::LowerToFragmentCallsPassBase<LowerToFragmentCallsPass> {
  using LowerToFragmentCallsPassBase::LowerToFragmentCallsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FragmentOp> fragments;
    if (failed(collectFragments(module, fragments)))
      return signalPassFailure();

    bool forwardOnly = llvm::all_of(fragments, [](FragmentOp fragment) {
      return llvm::all_of(getOrigins(fragment), [](UserOriginAttr origin) {
        return origin.getTransposeCount() == 0;
      });
    });

    // Groups in order of first appearance; a hash bucket lists the groups
    // whose first fragment has that hash.
    SmallVector<SmallVector<FragmentOp>> groups;
    llvm::DenseMap<llvm::hash_code, SmallVector<unsigned, 1>> buckets;
    for (FragmentOp fragment : fragments) {
      SmallVector<unsigned, 1> &bucket = buckets[hashFragment(fragment)];
      auto *group = llvm::find_if(bucket, [&](unsigned id) {
        return areEquivalent(groups[id].front(), fragment);
      });
      if (group != bucket.end()) {
        groups[*group].push_back(fragment);
        continue;
      }
      bucket.push_back(groups.size());
      groups.push_back({fragment});
    }

    StringRef moduleName = module.getSymName().value_or("main");
    moduleName.consume_front("jit_");
    SymbolTable symbolTable(module);
    for (auto [groupId, group] : llvm::enumerate(groups)) {
      FragmentOp first = group.front();
      sdy::MeshAttr meshShape = getTopology(first).getMesh(first.getMeshName());
      func::FuncOp callee = outlineGroup(
          group, getFunctionName(groupId, group, forwardOnly, moduleName),
          meshShape, symbolTable);
      if (failed(pointManualComputationsAtMesh(callee, first.getMeshName(),
                                               meshShape, symbolTable)))
        return signalPassFailure();
      // A log line, not a diagnostic: upstream logs here, and its tests
      // check the diagnostics of the pass (the log is not one of them).
      if (verboseLogging)
        llvm::errs() << "mpmd-lower-to-fragment-calls: outlined "
                     << group.size() << " fragment(s) on mesh \""
                     << first.getMeshName() << "\" into @"
                     << callee.getSymName() << "\n";
      for (FragmentOp fragment : group)
        replaceWithCall(fragment, callee);
    }
  }

  /// The fragments of the module's functions in program order. A fragment
  /// that cannot become a call (in an mpmd.for, or without a topology mesh)
  /// is an error.
  /// The shardings of the fragment's mesh tensors become `sdy.sharding`s of
  /// the callee's signature, which must name an `sdy.mesh` of the module.
  static LogicalResult verifyShardingMeshes(FragmentOp fragment) {
    for (auto [kind, types] :
         {std::pair{"operand", TypeRange(fragment->getOperandTypes())},
          std::pair{"result", TypeRange(fragment->getResultTypes())}})
      for (auto [index, type] : llvm::enumerate(types)) {
        auto meshTensor = dyn_cast<MeshTensorType>(type);
        sdy::TensorShardingAttr sharding =
            meshTensor ? meshTensor.getSharding() : nullptr;
        // An inlined mesh (empty name) needs no symbol.
        if (!sharding || sharding.getMeshName().empty() ||
            SymbolTable::lookupNearestSymbolFrom<sdy::MeshOp>(
                fragment, StringAttr::get(fragment.getContext(),
                                          sharding.getMeshName())))
          continue;
        return fragment.emitError()
               << "cannot be lowered to a fragment call: the sharding of "
               << kind << " " << index << " names mesh @"
               << sharding.getMeshName()
               << ", which no sdy.mesh of the module defines";
      }
    return success();
  }

  LogicalResult collectFragments(ModuleOp module,
                                 SmallVectorImpl<FragmentOp> &fragments) {
    bool valid = true;
    for (auto function : module.getOps<func::FuncOp>()) {
      function.walk<WalkOrder::PreOrder>([&](FragmentOp fragment) {
        if (!isa<func::FuncOp>(fragment->getParentOp())) {
          fragment.emitError()
              << "cannot be lowered to a fragment call inside "
              << fragment->getParentOp()->getName()
              << "; unroll the loop first";
          valid = false;
        } else if (TopologyAttr topology = getTopology(fragment);
                   !topology || !topology.getMesh(fragment.getMeshName())) {
          fragment.emitError() << "cannot be lowered to a fragment call: mesh \""
                               << fragment.getMeshName()
                               << "\" is not in the function's topology";
          valid = false;
        } else if (failed(verifyShardingMeshes(fragment))) {
          valid = false;
        } else {
          fragments.push_back(fragment);
        }
        return WalkResult::skip();
      });
    }
    return success(valid);
  }
};

} // namespace
} // namespace mlir::mpmd
