//===- CallsToNamedComputations.cpp - -mpmd-calls-to-named-computations ---===//
//
// A model whose layers are `jax.jit` functions lowers, under a plain
// `jax.jit(train_step)`, to private functions called with `func.call`: the
// forward of `layer1` is `call @layer1(...)`, its backward a call of a
// function JAX names after it. Turning the calls whose names are assigned to
// meshes into named computations is all the import needs to pipeline such a
// program: the model itself carries no mpmd code.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Import/Passes.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::mpmd {
#define GEN_PASS_DEF_CALLSTONAMEDCOMPUTATIONSPASS
#include "mpmd/Transforms/Import/Passes.h.inc"

namespace {

/// The function name upstream's `mpmd.named_computation` lowers to under a
/// plain `jax.jit` is this prefix followed by the computation's name.
constexpr StringLiteral kUpstreamCallPrefix = "partir_named_computation_call_";

/// The named computation a callee stands for.
struct ComputationRef {
  StringRef name;
  int64_t transposeCount = 0;
  /// Whether the callee name said the transpose count (a `transpose(`
  /// wrapper); otherwise the call's location may.
  bool countFromName = false;
};

/// `name` without a trailing `_<digits>` (MLIR's symbol uniquing suffix), or
/// nullopt when it has none.
std::optional<StringRef> dropUniquingSuffix(StringRef name) {
  size_t underscore = name.rfind('_');
  if (underscore == StringRef::npos || underscore + 1 == name.size())
    return std::nullopt;
  StringRef digits = name.drop_front(underscore + 1);
  if (!llvm::all_of(digits, [](char c) { return llvm::isDigit(c); }))
    return std::nullopt;
  return name.take_front(underscore);
}

/// Peels JAX's `transpose(...)` and `jvp(...)` wrappers off `name`, counting
/// the transposes. Unbalanced or other wrappers are left in place.
std::pair<StringRef, int64_t> peelTransformWrappers(StringRef name) {
  int64_t transposes = 0;
  while (name.ends_with(")")) {
    size_t open = name.find('(');
    if (open == StringRef::npos)
      break;
    StringRef wrapper = name.take_front(open);
    if (wrapper != "transpose" && wrapper != "jvp")
      break;
    name = name.slice(open + 1, name.size() - 1);
    transposes += wrapper == "transpose";
  }
  return {name, transposes};
}

/// The assigned computation `symbol` stands for (see the pass description
/// for the rules), or nullopt.
std::optional<ComputationRef>
matchCalleeName(StringRef symbol, const UserAssignmentMap &assignment) {
  auto lookup = [&](StringRef name) -> std::optional<StringRef> {
    auto it = assignment.entries.find(name.str());
    if (it != assignment.entries.end())
      return StringRef(it->first);
    if (name.consume_front(kUpstreamCallPrefix))
      if (auto it = assignment.entries.find(name.str());
          it != assignment.entries.end())
        return StringRef(it->first);
    return std::nullopt;
  };
  SmallVector<StringRef, 2> spellings = {symbol};
  if (std::optional<StringRef> stripped = dropUniquingSuffix(symbol))
    spellings.push_back(*stripped);
  for (StringRef spelling : spellings) {
    auto [inner, transposes] = peelTransformWrappers(spelling);
    if (std::optional<StringRef> name = lookup(inner))
      return ComputationRef{*name, transposes, transposes != 0};
  }
  return std::nullopt;
}

/// Number of `transpose(` in the first name of `loc`: JAX's name stack marks
/// what autodiff transposed, e.g. `jit(step)/transpose(jvp(loss))/layer1`.
int64_t countTransposesInLocation(Location loc) {
  int64_t transposes = 0;
  loc->walk([&](Location nested) {
    auto name = dyn_cast<NameLoc>(nested);
    if (!name)
      return WalkResult::advance();
    transposes = name.getName().getValue().count("transpose(");
    return WalkResult::interrupt();
  });
  return transposes;
}

/// Functions that can call themselves, through any chain of calls.
llvm::SmallPtrSet<Operation *, 4> findRecursiveFunctions(ModuleOp module) {
  llvm::SmallPtrSet<Operation *, 4> recursive;
  CallGraph callGraph(module);
  for (auto scc = llvm::scc_begin<const CallGraph *>(&callGraph); !scc.isAtEnd();
       ++scc) {
    if (!scc.hasCycle())
      continue;
    for (CallGraphNode *node : *scc)
      if (!node->isExternal())
        recursive.insert(node->getCallableRegion()->getParentOp());
  }
  return recursive;
}

class CallsToNamedComputationsPass
    : public impl::CallsToNamedComputationsPassBase<
          CallsToNamedComputationsPass> {
  using CallsToNamedComputationsPassBase::CallsToNamedComputationsPassBase;

  void runOnOperation() override {
    if (assignment.empty())
      return;
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTables;
    llvm::SmallPtrSet<Operation *, 4> recursive;
    bool recursionComputed = false;

    // The bodies of matched callees are converted in their copies, not in
    // the callees, which go away once no longer called.
    SmallVector<func::CallOp> worklist;
    for (auto function : module.getOps<func::FuncOp>())
      if (!matchCalleeName(function.getSymName(), assignment))
        function.walk([&](func::CallOp call) { worklist.push_back(call); });
    llvm::SetVector<func::FuncOp> convertedCallees;
    // The first callee of each (name, transpose count): JAX's backward of a
    // layer, in a dump without locations, is named like its forward.
    std::map<std::pair<std::string, int64_t>, func::FuncOp> firstCallees;
    bool failedAny = false;
    // In program order, so that diagnostics are too; converting a call
    // appends the calls of its copied body.
    for (size_t index = 0; index < worklist.size(); ++index) {
      func::CallOp call = worklist[index];
      std::optional<ComputationRef> ref =
          matchCalleeName(call.getCallee(), assignment);
      if (!ref)
        continue;
      auto callee = symbolTables.lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee)
        continue; // The verifier reports unknown callees.
      if (!recursionComputed) {
        recursive = findRecursiveFunctions(module);
        recursionComputed = true;
      }
      FailureOr<NamedComputationOp> computation =
          convert(call, callee, *ref, recursive);
      if (failed(computation)) {
        failedAny = true;
        continue;
      }
      convertedCallees.insert(callee);
      UserOriginAttr origin = computation->getOrigin();
      auto [first, inserted] = firstCallees.try_emplace(
          {origin.getUserName().str(), origin.getTransposeCount()}, callee);
      if (!inserted && first->second != callee)
        computation->emitWarning("calls of @")
            << first->second.getSymName() << " and @" << callee.getSymName()
            << " both become named computation '" << origin.getUserName()
            << "' with transpose count " << origin.getTransposeCount()
            << ": if one is the backward of the other, lower with debug info "
               "(JAX's `as_text(debug_info=True)`) so that the call's "
               "location tells it";
      computation->getRegion().walk(
          [&](func::CallOp nested) { worklist.push_back(nested); });
    }
    if (failedAny)
      return signalPassFailure();
    for (func::FuncOp callee : convertedCallees)
      if (SymbolTable::symbolKnownUseEmpty(callee, module))
        callee.erase();
  }

  FailureOr<NamedComputationOp>
  convert(func::CallOp call, func::FuncOp callee, const ComputationRef &ref,
          const llvm::SmallPtrSet<Operation *, 4> &recursive) {
    auto fail = [&]() {
      return call.emitError("call of @")
             << callee.getSymName() << " cannot become named computation '"
             << ref.name << "': ";
    };
    if (callee.isPublic())
      return fail() << "the callee is public (JAX's jitted functions are "
                       "private; a public one may be called from outside)";
    if (callee.isExternal())
      return fail() << "the callee has no body";
    if (!callee.getBody().hasOneBlock())
      return fail() << "the callee has "
                    << llvm::range_size(callee.getBody()) << " blocks";
    if (recursive.contains(callee))
      return fail() << "the callee can call itself";
    auto isInvalid = [](Type type) {
      return !isa<RankedTensorType>(type) && !isTokenType(type);
    };
    auto invalid = llvm::find_if(call.getOperandTypes(), isInvalid);
    if (invalid != call.getOperandTypes().end())
      return fail() << "operand type " << *invalid
                    << " is neither a ranked tensor nor a token";
    auto invalidResult = llvm::find_if(call.getResultTypes(), isInvalid);
    if (invalidResult != call.getResultTypes().end())
      return fail() << "result type " << *invalidResult
                    << " is neither a ranked tensor nor a token";

    int64_t transposeCount = ref.countFromName
                                 ? ref.transposeCount
                                 : countTransposesInLocation(call.getLoc());
    OpBuilder builder(call);
    auto computation = NamedComputationOp::create(
        builder, call.getLoc(), call.getResultTypes(), call.getOperands(),
        UserOriginAttr::get(call.getContext(), ref.name, transposeCount));
    IRMapping mapping;
    callee.getBody().cloneInto(&computation.getRegion(), mapping);
    Operation *terminator = computation.getRegion().front().getTerminator();
    builder.setInsertionPoint(terminator);
    ReturnOp::create(builder, terminator->getLoc(), terminator->getOperands());
    terminator->erase();
    call.replaceAllUsesWith(computation.getResults());
    call.erase();
    return computation;
  }
};

} // namespace
} // namespace mlir::mpmd
