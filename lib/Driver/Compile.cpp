//===- Compile.cpp - import → optimize → shardings → export, configured ---===//

#include "mpmd/Driver/Compile.h"

#include "mpmd/Driver/ConfigShardings.h"
#include "mpmd/Driver/GspmdInput.h"

#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Dialect/Mpmd/IR/TensorSizes.h"
#include "mpmd/Runtime/Executor.h"
#include "mpmd/Transforms/Export/Pipelines.h"
#include "mpmd/Transforms/Import/Pipelines.h"
#include "mpmd/Transforms/Optimize/Pipelines.h"
#include "mpmd/Transforms/ShardingPropagation/Pipelines.h"

#include "mpmd/Support/CheckedArithmetic.h"
#include "mpmd/Transforms/Export/ExportUtils.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::mpmd::driver {

namespace {

TopologyAttr buildTopology(MLIRContext *context, const Config &config) {
  SmallVector<NamedMeshAttr> meshes;
  for (const TopologyMesh &mesh : config.topology) {
    SmallVector<sdy::MeshAxisAttr> axes;
    for (const auto &[name, size] : mesh.axes)
      axes.push_back(sdy::MeshAxisAttr::get(context, name, size));
    meshes.push_back(NamedMeshAttr::get(
        context, mesh.name, sdy::MeshAttr::get(context, axes, mesh.deviceIds)));
  }
  return TopologyAttr::get(context, meshes);
}

ImportOptions getImportOptions(const Config &config) {
  const PartitioningOptions &options = config.options;
  ImportOptions import;
  import.nameToMeshAssignment = config.assignment;
  // JAX programs whose layers are jitted functions name their stages by
  // function name: no mpmd code needed in the model.
  import.callsToNamedComputations = true;
  import.inputAssignment = config.inputAssignment;
  import.outputAssignment = config.outputAssignment;
  import.inferMeshOptions.inferTransfers = options.inferTransfers;
  import.inferMeshOptions.inferCrossMeshReductions =
      options.inferCrossMeshReductions;
  import.mergeAfterScheduling = options.mergeInferredAfterScheduling;
  import.absorbInferredFragmentsOnEntryPointFunction =
      options.absorbInferredFragmentsOnEntryPointFunction;
  import.splitBwdFragments = options.splitBwdFragments;
  // Meshes of different shapes (axes or device ids) need one sdy.mesh each.
  import.enableHeterogeneousMeshes = !config.isHomogeneous();
  return import;
}

OptimizeOptions getOptimizeOptions(const Config &config) {
  const PartitioningOptions &options = config.options;
  OptimizeOptions optimize;
  optimize.pipelineSchedule = config.pipelineSchedule;
  optimize.generatedSchedule = config.generatedSchedule;
  optimize.scheduleRules = config.scheduleRules;
  optimize.mergeRules = config.mergeRules;
  optimize.applyFragmentRemat = options.fragmentRemat;
  optimize.mergeRematFragments = options.mergeRematFragments;
  optimize.mergeAfterScheduling = options.mergeInferredAfterScheduling;
  optimize.absorbInferredFragmentsOnEntryPointFunction =
      options.absorbInferredFragmentsOnEntryPointFunction;
  return optimize;
}

ExportOptions getExportOptions(const Config &config) {
  ExportOptions exportOptions;
  exportOptions.copyConstantsFromProducerToConsumer =
      config.options.copyConstantCreationFromProducerToConsumer;
  exportOptions.failOnBackwardDeps = config.options.failOnBackwardDeps;
  exportOptions.applyMergeTransfers = config.options.applyMergeTransfers;
  // The pass leaves single-device meshes and unsharded fragments alone.
  exportOptions.partitionFragmentBodies =
      config.options.partitionFragmentBodies;
  return exportOptions;
}

void addPhasePipeline(OpPassManager &pm, Phase phase, const Config &config) {
  switch (phase) {
  case Phase::kImport:
    return addImportPipeline(pm, getImportOptions(config));
  case Phase::kOptimize:
    return addOptimizePipeline(pm, getOptimizeOptions(config));
  case Phase::kShardingPropagation:
    return addShardingPropagationPipeline(pm);
  case Phase::kExport:
    return addExportPipeline(pm, getExportOptions(config));
  }
}

NamedSharding getNamedSharding(Type type) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  if (!meshTensor)
    return {};
  NamedSharding sharding{meshTensor.getMeshName().str(),
                         meshTensor.getSharding(), std::nullopt};
  if (StringAttr memoryKind = meshTensor.getMemoryKind())
    sharding.memoryKind = memoryKind.str();
  return sharding;
}

/// Every statically shaped tensor type of `module` has a size in bits that
/// fits in int64: the phases compute sizes of values and of the mesh tensor
/// types they make of them, which are not verified again.
LogicalResult verifyTensorSizes(ModuleOp module) {
  auto check = [](Type type, Location loc) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() || getSizeInBits(tensor))
      return success();
    return emitError(loc) << "tensor type " << type
                          << " is too large: its size in bits does not fit "
                             "in 64 bits";
  };
  WalkResult result = module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (failed(check(type, op->getLoc())))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (failed(check(argument.getType(), argument.getLoc())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Bytes of the global tensor a mesh tensor holds.
int64_t getGlobalBytes(Type type) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  if (!meshTensor)
    return 0;
  // Whole bytes per element; the mesh tensor verifier bounds the size in
  // bits, hence this product.
  RankedTensorType tensor = meshTensor.getRankedTensorType();
  return *checkedProduct(
      tensor.getShape(),
      llvm::divideCeil(getElementBitWidth(tensor.getElementType()), 8));
}

struct MeshSummary {
  int64_t fragmentCalls = 0;
  llvm::SetVector<StringRef> functions;
  /// The functions -mpmd-partition-fragment-bodies made per-device programs.
  llvm::SetVector<StringRef> partitioned;
  int64_t transfersIn = 0, transfersOut = 0;
  int64_t bytesIn = 0, bytesOut = 0;
  int64_t reservedBytes = 0;
};

void printNamedSharding(llvm::raw_ostream &os, const NamedSharding &sharding) {
  if (sharding.meshName.empty()) {
    os << "(not on a mesh)";
    return;
  }
  os << sharding.meshName << " ";
  if (sharding.sharding)
    os << sharding.sharding;
  else
    os << "replicated";
  if (sharding.memoryKind)
    os << " memory_kind=" << *sharding.memoryKind;
}

} // namespace

StringRef getPhaseName(Phase phase) {
  switch (phase) {
  case Phase::kImport:
    return "import";
  case Phase::kOptimize:
    return "optimize";
  case Phase::kShardingPropagation:
    return "sharding-propagation";
  case Phase::kExport:
    return "export";
  }
  llvm_unreachable("unknown phase");
}

FunctionNamedShardings Lowered::functionNamedShardings() const {
  FunctionNamedShardings shardings;
  func::FuncOp main = getMainFunction(*module);
  for (Type type : main.getArgumentTypes())
    shardings.inputs.push_back(getNamedSharding(type));
  for (Type type : main.getResultTypes())
    shardings.outputs.push_back(getNamedSharding(type));
  return shardings;
}

LogicalResult verifyAssignmentCoversModule(ModuleOp module,
                                           const Config &config) {
  // One error per name, at its first computation (forward and backward
  // share a name).
  llvm::StringSet<> reported;
  module.walk([&](NamedComputationOp computation) {
    // Nested computations are inlined into the top-level one.
    if (computation->getParentOfType<NamedComputationOp>())
      return;
    StringRef name = computation.getOrigin().getUserName();
    if (config.assignment.entries.count(name.str()) ||
        !reported.insert(name).second)
      return;
    computation.emitError("named computation '")
        << name << "' is missing from config.assignment";
  });
  return success(reported.empty());
}

FailureOr<Lowered> lower(ModuleOp module, const Config &config,
                         const LowerOptions &options) {
  if (failed(verifyAssignmentCoversModule(module, config)) ||
      failed(verifyTensorSizes(module)))
    return failure();
  Lowered lowered;
  lowered.module = module.clone();
  ModuleOp copy = *lowered.module;
  func::FuncOp main = getMainFunction(copy);
  if (!main)
    return copy.emitError("the program has no @main function");
  MLIRContext *context = copy.getContext();
  // A module without mpmd or sdy ops has not loaded their dialects, whose
  // attributes the topology is built of.
  context->loadDialect<MpmdDialect, sdy::SdyDialect>();
  // GSPMD-era shardings become sdy ones on the topology's mesh first.
  if (failed(importGspmdShardings(copy, config)))
    return failure();
  TopologyAttr topology = buildTopology(context, config);
  Attribute existing = main->getAttr(MpmdDialect::kTopologyAttrName);
  if (existing && existing != topology)
    return main.emitError("@main's topology ")
           << existing << " differs from config.topology " << topology;
  main->setAttr(MpmdDialect::kTopologyAttrName, topology);
  llvm::Expected<ResolvedShardings> shardings = resolveShardings(main, config);
  if (!shardings)
    return copy.emitError(llvm::toString(shardings.takeError()));
  if (failed(applyShardings(copy, main, *shardings, config)))
    return failure();

  // Some passes report an error and go on, as upstream's do (e.g. a
  // transfer left resharding); a lowering with any error is a failure, so
  // that no output is written for it. The handler only watches.
  bool reportedError = false;
  ScopedDiagnosticHandler errorWatcher(context, [&](Diagnostic &diagnostic) {
    reportedError |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
    return failure();
  });
  for (Phase phase : kAllPhases) {
    PassManager pm(context, ModuleOp::getOperationName());
    // Passes trust each other's output within a phase; the IR is verified
    // after each phase, so that invalid IR is a diagnostic naming the phase
    // that produced it rather than a crash in a later one.
    pm.enableVerifier(false);
    addPhasePipeline(pm, phase, config);
    if (failed(pm.run(copy)) || reportedError)
      return failure();
    if (failed(verify(copy)))
      return copy.emitError("internal error: the ")
             << getPhaseName(phase) << " phase produced invalid IR";
    if (options.keepPhaseTexts && phase != Phase::kExport) {
      llvm::raw_string_ostream os(
          lowered.phaseTexts[static_cast<size_t>(phase)]);
      copy.print(os);
    }
    if (options.phaseDone)
      options.phaseDone(phase);
  }
  return lowered;
}

std::string Lowered::asText(Phase phase) const {
  if (phase != Phase::kExport)
    return phaseTexts[static_cast<size_t>(phase)];
  std::string text;
  llvm::raw_string_ostream os(text);
  getModule().print(os);
  return text;
}

FailureOr<std::unique_ptr<runtime::Executable>> Lowered::compile() const {
  return runtime::Executable::create(*module);
}

void Lowered::printSummary(llvm::raw_ostream &os) const {
  ModuleOp module = getModule();
  func::FuncOp main = getMainFunction(module);
  auto topology =
      main->getAttrOfType<TopologyAttr>(MpmdDialect::kTopologyAttrName);
  llvm::MapVector<StringRef, MeshSummary> meshes;
  for (NamedMeshAttr mesh : topology.getMeshes())
    meshes[mesh.getName()];
  SymbolTable symbols(module);
  main.walk([&](Operation *op) {
    if (auto call = dyn_cast<FragmentCallOp>(op)) {
      MeshSummary &mesh = meshes[call.getMeshName()];
      ++mesh.fragmentCalls;
      mesh.functions.insert(call.getCallee());
      if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee())) {
        if (auto reserved =
                callee->getAttrOfType<IntegerAttr>(kReservedHbmBytesAttrName))
          mesh.reservedBytes = std::max(mesh.reservedBytes, reserved.getInt());
        if (callee->hasAttr(kSpmdPartitionedAttrName))
          mesh.partitioned.insert(call.getCallee());
      }
    } else if (auto transfer = dyn_cast<TransferOp>(op)) {
      auto source = cast<MeshTensorType>(transfer.getTensor().getType());
      auto target = cast<MeshTensorType>(transfer.getResult().getType());
      if (source.getMeshName() == target.getMeshName())
        return;
      int64_t bytes = getGlobalBytes(source);
      MeshSummary &from = meshes[source.getMeshName()];
      ++from.transfersOut;
      from.bytesOut += bytes;
      MeshSummary &to = meshes[target.getMeshName()];
      ++to.transfersIn;
      to.bytesIn += bytes;
    }
  });
  os << "meshes:\n";
  for (auto &[name, mesh] : meshes)
    os << llvm::formatv("  {0}: {1} fragment calls, {2} functions, "
                        "transfers in {3} ({4} B), out {5} ({6} B), "
                        "reserved {7} B\n",
                        name, mesh.fragmentCalls, mesh.functions.size(),
                        mesh.transfersIn, mesh.bytesIn, mesh.transfersOut,
                        mesh.bytesOut, mesh.reservedBytes);
  // Which fragments run SPMD: one line per mesh of several devices.
  bool anyMultiDevice = llvm::any_of(topology.getMeshes(), [](NamedMeshAttr mesh) {
    return mesh.getMesh().getTotalSize() > 1;
  });
  if (anyMultiDevice) {
    os << "spmd partitioning:\n";
    for (NamedMeshAttr mesh : topology.getMeshes()) {
      int64_t devices = mesh.getMesh().getTotalSize();
      if (devices <= 1)
        continue;
      const MeshSummary &summary = meshes[mesh.getName()];
      os << llvm::formatv("  {0}: {1} of {2} functions partitioned over {3} "
                          "devices",
                          mesh.getName(), summary.partitioned.size(),
                          summary.functions.size(), devices);
      if (!summary.partitioned.empty())
        os << ":";
      llvm::interleave(
          summary.partitioned, [&](StringRef name) { os << " @" << name; },
          [&] { os << ","; });
      os << "\n";
    }
  }
  FunctionNamedShardings shardings = functionNamedShardings();
  for (auto [label, list] : {std::pair{"inputs", &shardings.inputs},
                             std::pair{"outputs", &shardings.outputs}}) {
    os << label << ":\n";
    for (auto [index, sharding] : llvm::enumerate(*list)) {
      os << "  " << index << ": ";
      printNamedSharding(os, sharding);
      os << "\n";
    }
  }
}

} // namespace mlir::mpmd::driver
