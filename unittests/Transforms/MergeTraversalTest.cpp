//===- MergeTraversalTest.cpp - The merge traversal: semantics and cost ---===//
//
// The merge traversal decides on groups of not yet built fragments, with
// heaps of users whose keys may be stale. Two guards:
// * on random blocks, it gives exactly the program of its definition, merging
//   pair by pair on the IR (every consumer selection, several policies);
// * on the benchmark's program shape, its work grows linearly (up to a log
//   factor) with the program: 4x the layers may cost at most ~5x the steps.
//
//===----------------------------------------------------------------------===//

#include "SyntheticProgram.h"

#include "mpmd/InitAllDialects.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/MergeFragments.h"
#include "mpmd/Transforms/Import/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace mlir::mpmd;

namespace {

using Policy = bool (*)(const FragmentSummary &, const FragmentSummary &);

bool always(const FragmentSummary &, const FragmentSummary &) { return true; }

bool notBothUserFragments(const FragmentSummary &producer,
                          const FragmentSummary &consumer) {
  return !(producer.isUserFragment() && consumer.isUserFragment());
}

bool sameSchedulingUnit(const FragmentSummary &producer,
                        const FragmentSummary &consumer) {
  Attribute producerCounter = producer.getAttr("call_counter");
  Attribute consumerCounter = consumer.getAttr("call_counter");
  return producer.isUserFragment() && consumer.isUserFragment() &&
         producer.getSingleTransposeCount() &&
         producer.getSingleTransposeCount() ==
             consumer.getSingleTransposeCount() &&
         (!producerCounter || !consumerCounter ||
          producerCounter == consumerCounter);
}

/// A policy under which a merge can allow the next one: an inferred
/// producer only merges into an inferred consumer, a user fragment into any.
/// A merge of a user and an inferred fragment then goes on into a user
/// fragment that the inferred one could not merge into, so that merged
/// fragments are trivial producers too.
bool userProducerOrInferredConsumer(const FragmentSummary &producer,
                                    const FragmentSummary &consumer) {
  return producer.isUserFragment() || !consumer.isUserFragment();
}

constexpr ConsumerSelection kSelections[] = {
    ConsumerSelection::kClosestConsumer,
    ConsumerSelection::kClosestMergeableConsumer,
    ConsumerSelection::kNextOnSameMesh,
    ConsumerSelection::kNextOnSameMeshIfConsumer,
};
constexpr Policy kPolicies[] = {always, notBothUserFragments,
                                sameSchedulingUnit,
                                userProducerOrInferredConsumer};

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *ctx;
}

/// A random @main of fragments on two meshes with transfers between them:
/// operands drawn from earlier values of the fragment's mesh (sometimes the
/// same value twice, sometimes the last one a control operand), user and
/// inferred fragments of transpose count 0 or 1 with and without call
/// counters, and some results left unused. A third of the fragments have one
/// operand and one result, so that merges of trivial producers (which keep
/// the consumer's operand order) are frequent, of single fragments and of
/// merged ones.
std::string randomBlock(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  std::vector<std::string> onMesh[2] = {{"%arg0"}, {"%arg1"}};
  std::string body;
  int counter = 0;
  int numOps = 8 + static_cast<int>(pick(20));
  for (int i = 0; i < numOps; ++i) {
    if (pick(5) == 0) {
      size_t from = pick(2);
      std::string value = onMesh[from][pick(onMesh[from].size())];
      std::string name = llvm::formatv("%t{0}", counter++).str();
      body += llvm::formatv("  {0} = mpmd.transfer {1} : (!m{2}) -> !m{3}\n",
                            name, value, from + 1, 2 - from)
                  .str();
      onMesh[1 - from].push_back(name);
      continue;
    }
    size_t mesh = pick(2);
    bool oneToOne = pick(3) == 0;
    std::vector<std::string> operands;
    for (size_t n = oneToOne ? 1 : 1 + pick(3); n > 0; --n) {
      std::string value = onMesh[mesh][pick(onMesh[mesh].size())];
      if (pick(6) == 0 ||
          std::find(operands.begin(), operands.end(), value) == operands.end())
        operands.push_back(value);
    }
    std::string origin;
    if (pick(3) != 0)
      origin = llvm::formatv("\"{0}\"{1}", char('a' + pick(3)),
                             pick(2) ? "(1)" : "")
                   .str();
    SmallVector<std::string> attrList;
    if (pick(2))
      attrList.push_back(
          llvm::formatv("call_counter = {0} : ui32", pick(2)).str());
    if (operands.size() > 1 && pick(6) == 0)
      attrList.push_back(
          llvm::formatv("mpmd.control_operand_start_idx = {0} : i64",
                        operands.size() - 1)
              .str());
    std::string attrs;
    if (!attrList.empty())
      attrs = " {" + llvm::join(attrList, ", ") + "}";
    unsigned results = oneToOne ? 1 : 1 + pick(2);
    std::string name = llvm::formatv("%f{0}", counter++).str();
    std::string args, operandTypes, returned, resultTypes;
    for (size_t k = 0; k < operands.size(); ++k) {
      args += llvm::formatv("{0}%a{1}: !t", k ? ", " : "", k).str();
      operandTypes += llvm::formatv("{0}!m{1}", k ? ", " : "", mesh + 1).str();
    }
    for (unsigned r = 0; r < results; ++r) {
      returned += llvm::formatv("{0}%s", r ? ", " : "").str();
      resultTypes += llvm::formatv("{0}!m{1}", r ? ", " : "", mesh + 1).str();
    }
    body += llvm::formatv(
                "  {0}:{1} = mpmd.fragment<mesh=\"m{2}\", origin=[{3}]> ({4}){5}"
                " ({6}) {{\n    %s = stablehlo.add %a0, %a0 : !t\n"
                "    mpmd.return {7} : {8}\n  } : ({9}) -> ({10})\n",
                name, results, mesh + 1, origin, llvm::join(operands, ", "),
                attrs, args, returned,
                llvm::join(std::vector<std::string>(results, "!t"), ", "),
                operandTypes, resultTypes)
                .str();
    for (unsigned r = 0; r < results; ++r)
      onMesh[mesh].push_back(llvm::formatv("{0}#{1}", name, r).str());
  }
  // Return a few values of each mesh; the rest is left unused.
  std::string returned, types;
  for (size_t mesh = 0; mesh < 2; ++mesh)
    for (size_t n = 1 + pick(2); n > 0; --n) {
      returned += (returned.empty() ? "" : ", ") +
                  onMesh[mesh][pick(onMesh[mesh].size())];
      types += llvm::formatv("{0}!m{1}", types.empty() ? "" : ", ", mesh + 1)
                   .str();
    }
  return "!t = tensor<4xf32>\n"
         "!m1 = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n"
         "!m2 = !mpmd.mesh_tensor<\"m2\", tensor<4xf32>>\n"
         "#topology = #mpmd.topology<<\"m1\": <[\"x\"=1]>>, "
         "<\"m2\": <[\"x\"=1]>>>\n"
         "func.func @main(%arg0: !m1, %arg1: !m2) -> (" +
         types + ") attributes {topology = #topology} {\n" + body +
         "  return " + returned + " : " + types + "\n}\n";
}

/// The merges of trivial producers seen while merging pair by pair: all of
/// them, those whose producer, and those whose consumer, was a merge already.
struct TrivialMergeCounts {
  int all = 0, ofMergedProducer = 0, intoMergedConsumer = 0;
};

/// The traversal as defined: fragments visited in reverse order, each merged
/// with its selected consumer on the IR while one is found and placeable.
void mergePairwise(Block &block, ConsumerSelection selection, Policy allowed,
                   TrivialMergeCounts &counts) {
  IRRewriter rewriter(&context());
  SmallVector<FragmentOp> fragments(block.getOps<FragmentOp>());
  auto allow = [&](FragmentOp producer, FragmentOp consumer) {
    return allowed(FragmentSummary(producer), FragmentSummary(consumer));
  };
  auto consumersByPosition = [&](FragmentOp producer) {
    SmallVector<FragmentOp> consumers;
    for (Operation *user : producer->getUsers())
      if (auto fragment = dyn_cast<FragmentOp>(user);
          fragment && !llvm::is_contained(consumers, fragment))
        consumers.push_back(fragment);
    llvm::sort(consumers, [](FragmentOp lhs, FragmentOp rhs) {
      return lhs->isBeforeInBlock(rhs);
    });
    return consumers;
  };
  auto select = [&](FragmentOp producer) -> FragmentOp {
    switch (selection) {
    case ConsumerSelection::kClosestConsumer: {
      SmallVector<FragmentOp> consumers = consumersByPosition(producer);
      return !consumers.empty() && allow(producer, consumers.front())
                 ? consumers.front()
                 : FragmentOp();
    }
    case ConsumerSelection::kClosestMergeableConsumer:
      for (FragmentOp consumer : consumersByPosition(producer))
        if (allow(producer, consumer))
          return consumer;
      return {};
    case ConsumerSelection::kNextOnSameMesh:
    case ConsumerSelection::kNextOnSameMeshIfConsumer:
      for (Operation *op = producer->getNextNode(); op; op = op->getNextNode()) {
        auto next = dyn_cast<FragmentOp>(op);
        if (!next || next.getMeshName() != producer.getMeshName())
          continue;
        if (!allow(producer, next) ||
            (selection == ConsumerSelection::kNextOnSameMeshIfConsumer &&
             !llvm::is_contained(consumersByPosition(producer), next)))
          return {};
        return next;
      }
      return {};
    }
    return {};
  };
  // The fragments made by merges (only merges create ops here, so an address
  // reused after an erasure is a merge's too).
  llvm::SmallPtrSet<Operation *, 16> merged;
  for (FragmentOp fragment : llvm::reverse(fragments)) {
    if (isOpTriviallyDead(fragment)) {
      rewriter.eraseOp(fragment);
      continue;
    }
    FragmentOp current = fragment;
    while (FragmentOp consumer = select(current)) {
      std::optional<MergePlacement> placement =
          findMergePlacement(current, consumer);
      if (!placement)
        break;
      MergeFragmentsOptions options;
      options.placement = *placement;
      if (!getTrivialProducerMerge(current, consumer).empty()) {
        ++counts.all;
        counts.ofMergedProducer += merged.contains(current);
        counts.intoMergedConsumer += merged.contains(consumer);
      }
      current = mergeFragments(current, consumer, rewriter, options);
      merged.insert(current);
    }
  }
}

std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return text;
}

// The printed programs must be equal: the same merges, and each merged
// fragment with the operands (and their order) of the pairwise merges.
TEST(MergeTraversalTest, DecidesLikePairwiseMergingOnRandomBlocks) {
  int merged = 0;
  TrivialMergeCounts trivial;
  for (unsigned seed = 0; seed < 300; ++seed) {
    std::string text = randomBlock(seed);
    for (ConsumerSelection selection : kSelections) {
      for (Policy policy : kPolicies) {
        OwningOpRef<ModuleOp> expected =
            parseSourceString<ModuleOp>(text, &context());
        OwningOpRef<ModuleOp> actual =
            parseSourceString<ModuleOp>(text, &context());
        ASSERT_TRUE(expected && actual) << text;
        Block &expectedBlock =
            expected->lookupSymbol<func::FuncOp>("main").getBody().front();
        Block &actualBlock =
            actual->lookupSymbol<func::FuncOp>("main").getBody().front();
        size_t before = llvm::range_size(actualBlock.getOps<FragmentOp>());
        mergePairwise(expectedBlock, selection, policy, trivial);
        FragmentMergeTraversalOptions options;
        options.selection = selection;
        options.allowMerging = policy;
        IRRewriter rewriter(&context());
        mergeFragmentsInBlock(actualBlock, options, rewriter);
        ASSERT_TRUE(succeeded(verify(*actual))) << text;
        ASSERT_EQ(print(*expected), print(*actual))
            << "seed " << seed << ", selection "
            << static_cast<int>(selection) << "\n"
            << text;
        merged += before > llvm::range_size(actualBlock.getOps<FragmentOp>());
      }
    }
  }
  // The random blocks exercise merging, not only erasure, and the operand
  // order of trivial producers, merged or not, into merged consumers.
  EXPECT_GT(merged, 1000);
  EXPECT_GT(trivial.all, 2000);
  EXPECT_GT(trivial.ofMergedProducer, 20);
  EXPECT_GT(trivial.intoMergedConsumer, 1000);
}

/// Records a copy of @main right after the pass with `argument` (a module
/// pass).
class CopyMainAfter : public PassInstrumentation {
public:
  CopyMainAfter(StringRef argument, OwningOpRef<func::FuncOp> &copy)
      : argument(argument), copy(copy) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    if (pass->getArgument() != argument)
      return;
    auto main = cast<ModuleOp>(op).lookupSymbol<func::FuncOp>("main");
    copy = cast<func::FuncOp>(main->clone());
  }

private:
  StringRef argument;
  OwningOpRef<func::FuncOp> &copy;
};

/// The traversal's steps on @main of the benchmark program imported up to
/// the inlining of the microbatch calls (inferred and user fragments of all
/// microbatches), and the number of fragments and uses.
struct Cost {
  uint64_t steps;
  uint64_t size;
};

Cost traversalCost(int64_t layers, ConsumerSelection selection,
                   Policy policy) {
  bench::SyntheticProgramShape shape;
  shape.layers = layers;
  shape.microbatches = 8;
  shape.meshes = 4;
  bench::SyntheticProgram program = bench::generateSyntheticProgram(shape);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(program.text, &context());
  EXPECT_TRUE(module);
  ImportOptions options;
  options.nameToMeshAssignment =
      cantFail(parseUserAssignmentMap(program.assignment));
  options.inferMeshOptions.inferTransfers = true;
  OwningOpRef<func::FuncOp> main;
  PassManager pm(&context());
  pm.addInstrumentation(
      std::make_unique<CopyMainAfter>("mpmd-call-inline", main));
  addImportPipeline(pm, options);
  EXPECT_TRUE(succeeded(pm.run(*module)));
  EXPECT_TRUE(main);
  Cost cost{0, 0};
  for (FragmentOp fragment : main->getBody().front().getOps<FragmentOp>())
    cost.size += 1 + llvm::range_size(fragment->getUses());
  MergeTraversalStats stats;
  FragmentMergeTraversalOptions traversal;
  traversal.selection = selection;
  traversal.allowMerging = policy;
  traversal.stats = &stats;
  IRRewriter rewriter(&context());
  mergeFragmentsInFunction(*main, traversal, rewriter);
  EXPECT_GT(stats.merges, 0u);
  cost.steps = stats.steps;
  return cost;
}

TEST(MergeTraversalTest, WorkGrowsLinearlyOnTheBenchmarkShape) {
  for (ConsumerSelection selection : kSelections) {
    for (Policy policy : kPolicies) {
      Cost small = traversalCost(48, selection, policy);
      Cost large = traversalCost(192, selection, policy);
      double sizeRatio = double(large.size) / double(small.size);
      double stepRatio = double(large.steps) / double(small.steps);
      // Heaps merged smaller into larger add a log factor: at 4x the size,
      // 5x the steps is plenty; rescanning groups would cost 16x.
      EXPECT_LT(stepRatio, 1.25 * sizeRatio)
          << "selection " << static_cast<int>(selection) << ": "
          << small.steps << " steps for " << small.size << " fragments+uses, "
          << large.steps << " for " << large.size;
    }
  }
}

} // namespace
