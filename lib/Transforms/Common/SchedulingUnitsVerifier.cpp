//===- SchedulingUnitsVerifier.cpp - -mpmd-scheduling-units-verifier ------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"
#include "mpmd/Transforms/Common/Passes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace mlir::mpmd {
#define GEN_PASS_DEF_SCHEDULINGUNITSVERIFIERPASS
#include "mpmd/Transforms/Common/Passes.h.inc"

namespace {

/// The scheduling units of one mesh: per direction, the number of units of
/// each call counter.
struct MeshUnits {
  std::map<uint32_t, unsigned> forward, backward;
};

/// Warns on `function` if `byCounter` does not hold exactly one unit per
/// call counter in [first, first + numMicrobatches).
void verifyDirection(func::FuncOp function, StringRef meshName,
                     StringRef direction,
                     const std::map<uint32_t, unsigned> &byCounter,
                     uint32_t first, uint32_t numMicrobatches) {
  SmallVector<uint32_t> missing, repeated;
  for (uint32_t counter = first; counter < first + numMicrobatches; ++counter) {
    auto it = byCounter.find(counter);
    if (it == byCounter.end())
      missing.push_back(counter);
    else if (it->second > 1)
      repeated.push_back(counter);
  }
  if (missing.empty() && repeated.empty())
    return;
  unsigned total = 0;
  for (auto [counter, count] : byCounter)
    total += count;
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "mesh \"" << meshName << "\" has " << total << " " << direction
     << " scheduling unit(s) but the program has " << numMicrobatches
     << " microbatch(es)";
  if (!missing.empty()) {
    os << "; no unit for call_counter ";
    llvm::interleaveComma(missing, os);
  }
  if (!repeated.empty()) {
    os << "; several units for call_counter ";
    llvm::interleaveComma(repeated, os);
  }
  function.emitWarning(message);
}

class SchedulingUnitsVerifierPass
    : public impl::SchedulingUnitsVerifierPassBase<
          SchedulingUnitsVerifierPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (!isMpmdFunction(function))
      return;
    llvm::MapVector<StringRef, MeshUnits> unitsByMesh;
    std::optional<uint32_t> minCounter, maxCounter;
    bool hasBackward = false;
    for (Block *block : getBlocksWithFragments(function)) {
      for (auto fragment : block->getOps<FragmentOp>()) {
        if (!isSchedulingUnit(fragment))
          continue;
        uint32_t counter = *getCallCounter(fragment);
        minCounter = std::min(minCounter.value_or(counter), counter);
        maxCounter = std::max(maxCounter.value_or(counter), counter);
        MeshUnits &units = unitsByMesh[fragment.getMeshName()];
        if (*getSingleTransposeCount(fragment) == 0) {
          ++units.forward[counter];
        } else {
          ++units.backward[counter];
          hasBackward = true;
        }
      }
    }
    if (unitsByMesh.empty())
      return;
    // Microbatches are numbered from 0 or from 1.
    uint32_t first = *minCounter == 0 ? 0 : 1;
    uint32_t numMicrobatches = *maxCounter + 1 - first;
    // Every mesh of the topology, those without any unit included.
    SmallVector<StringRef> meshNames;
    if (TopologyAttr topology = getTopology(function))
      for (NamedMeshAttr mesh : topology.getMeshes())
        meshNames.push_back(mesh.getName());
    for (auto &[meshName, units] : unitsByMesh)
      if (!llvm::is_contained(meshNames, meshName))
        meshNames.push_back(meshName);
    for (StringRef meshName : meshNames) {
      const MeshUnits &units = unitsByMesh.lookup(meshName);
      verifyDirection(function, meshName, "forward", units.forward, first,
                      numMicrobatches);
      if (hasBackward)
        verifyDirection(function, meshName, "backward", units.backward, first,
                        numMicrobatches);
    }
  }
};

} // namespace
} // namespace mlir::mpmd
