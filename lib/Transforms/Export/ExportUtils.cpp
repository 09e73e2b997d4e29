//===- ExportUtils.cpp - Naming of outlined fragment functions ------------===//

#include "mpmd/Transforms/Export/ExportUtils.h"
#include "mpmd/Transforms/Common/FragmentUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace mlir::mpmd {

namespace {

/// An origin name split as `<stem>_<number>`; no number if the name does not
/// end in `_` followed by digits.
struct SplitOriginName {
  StringRef stem;
  std::optional<uint64_t> number;
};

SplitOriginName splitOriginName(StringRef name) {
  size_t underscore = name.rfind('_');
  uint64_t number = 0;
  if (underscore == StringRef::npos || underscore == 0 ||
      underscore + 1 == name.size() ||
      !llvm::all_of(name.drop_front(underscore + 1),
                     [](char c) { return llvm::isDigit(c); }) ||
      name.drop_front(underscore + 1).getAsInteger(10, number))
    return {name, std::nullopt};
  return {name.take_front(underscore), number};
}

/// The dictionaries of `arrayName` on `op`, one per value (empty ones where
/// the array is missing or malformed).
SmallVector<NamedAttrList> getPerValueAttrs(Operation *op, StringRef arrayName,
                                            unsigned count) {
  SmallVector<NamedAttrList> lists(count);
  auto array = op->getAttrOfType<ArrayAttr>(arrayName);
  if (!array || array.size() != count)
    return lists;
  for (auto [list, entry] : llvm::zip(lists, array))
    if (auto dictionary = dyn_cast<DictionaryAttr>(entry))
      list.append(dictionary.getValue());
  return lists;
}

Attribute getPerValueAttr(Operation *op, StringRef arrayName, unsigned index,
                          unsigned count, StringRef name) {
  auto array = op->getAttrOfType<ArrayAttr>(arrayName);
  if (!array || array.size() != count)
    return nullptr;
  auto dictionary = dyn_cast<DictionaryAttr>(array[index]);
  return dictionary ? dictionary.get(name) : nullptr;
}

void setPerValueAttrs(Operation *op, StringRef arrayName, unsigned count,
                      StringRef name, function_ref<Attribute(unsigned)> valueOf,
                      EmptyAttrArrays empty) {
  SmallVector<NamedAttrList> lists = getPerValueAttrs(op, arrayName, count);
  bool allEmpty = true;
  for (auto [index, list] : llvm::enumerate(lists)) {
    if (Attribute value = valueOf(index))
      list.set(name, value);
    else
      list.erase(name);
    allEmpty &= list.empty();
  }
  if (allEmpty && empty == EmptyAttrArrays::kDrop) {
    op->removeAttr(arrayName);
    return;
  }
  MLIRContext *ctx = op->getContext();
  op->setAttr(arrayName,
              ArrayAttr::get(ctx, llvm::map_to_vector(lists, [&](auto &list) {
                               return Attribute(list.getDictionary(ctx));
                             })));
}

} // namespace

Attribute getFragmentArgAttr(FragmentOp fragment, unsigned index,
                             StringRef name) {
  return getPerValueAttr(fragment, kArgAttrsAttrName, index,
                         fragment->getNumOperands(), name);
}

Attribute getFragmentResAttr(FragmentOp fragment, unsigned index,
                             StringRef name) {
  return getPerValueAttr(fragment, kResAttrsAttrName, index,
                         fragment->getNumResults(), name);
}

void setFragmentArgAttrs(FragmentOp fragment, StringRef name,
                         function_ref<Attribute(unsigned)> valueOf,
                         EmptyAttrArrays empty) {
  setPerValueAttrs(fragment, kArgAttrsAttrName, fragment->getNumOperands(),
                   name, valueOf, empty);
}

void setFragmentResAttrs(FragmentOp fragment, StringRef name,
                         function_ref<Attribute(unsigned)> valueOf,
                         EmptyAttrArrays empty) {
  setPerValueAttrs(fragment, kResAttrsAttrName, fragment->getNumResults(),
                   name, valueOf, empty);
}

bool isOnHost(Type type) {
  auto meshTensor = dyn_cast<MeshTensorType>(type);
  return meshTensor && meshTensor.isOnHost();
}

bool isHostMemoryKind(Attribute memoryKind) {
  auto kind = dyn_cast_or_null<StringAttr>(memoryKind);
  return kind && kind.getValue() == MeshTensorType::kMemoryKindPinnedHost;
}

llvm::DenseMap<Value, OpOperand *> getLastUses(Block &block) {
  llvm::DenseMap<Value, OpOperand *> lastUses;
  for (Operation &op : block) {
    for (OpOperand &operand : op.getOpOperands())
      lastUses[operand.get()] = &operand;
    // Values captured by nested regions (e.g. in mpmd.for bodies); fragment
    // bodies are isolated and cannot capture.
    if (op.getNumRegions() == 0 || op.hasTrait<OpTrait::IsIsolatedFromAbove>())
      continue;
    op.walk([&](Operation *nested) {
      if (nested == &op)
        return;
      for (OpOperand &operand : nested->getOpOperands())
        if (operand.get().getParentBlock() == &block)
          lastUses[operand.get()] = &operand;
    });
  }
  return lastUses;
}

bool isDonatedArgument(func::FuncOp function, unsigned index) {
  auto donor = function.getArgAttrOfType<BoolAttr>(index, kBufferDonorAttrName);
  return (donor && donor.getValue()) ||
         function.getArgAttr(index, kAliasingOutputAttrName);
}

void moveBeforeFirstUser(Operation *op) {
  Block *block = op->getBlock();
  Operation *firstUser = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && (!firstUser || ancestor->isBeforeInBlock(firstUser)))
      firstUser = ancestor;
  }
  if (firstUser && firstUser != op->getNextNode())
    op->moveBefore(firstUser);
}

std::string getOriginSummary(ArrayRef<UserOriginAttr> origins) {
  std::string summary;
  llvm::raw_string_ostream os(summary);
  // With a single transpose count the phase suffix already says it.
  bool printTransposeCounts = llvm::any_of(origins, [&](UserOriginAttr origin) {
    return origin.getTransposeCount() != origins.front().getTransposeCount();
  });
  size_t i = 0;
  while (i < origins.size()) {
    SplitOriginName first = splitOriginName(origins[i].getUserName());
    int64_t transposeCount = origins[i].getTransposeCount();
    // Extend the run while the next origin continues the numbering.
    size_t last = i;
    while (first.number && last + 1 < origins.size()) {
      SplitOriginName next = splitOriginName(origins[last + 1].getUserName());
      if (next.stem != first.stem ||
          origins[last + 1].getTransposeCount() != transposeCount ||
          next.number != *first.number + (last + 1 - i))
        break;
      ++last;
    }
    if (i != 0)
      os << ".";
    os << first.stem;
    if (printTransposeCounts && transposeCount != 0)
      os << "(" << transposeCount << ")";
    if (first.number) {
      os << "_" << *first.number;
      if (last != i)
        os << ":" << *first.number + (last - i);
    }
    i = last + 1;
  }
  return summary;
}

std::string
getCallSiteSuffix(ArrayRef<std::optional<uint32_t>> callCounters) {
  if (callCounters.empty() ||
      llvm::any_of(callCounters, [](auto c) { return !c.has_value(); }))
    return "";
  uint32_t first = *callCounters.front(), last = *callCounters.back();
  if (callCounters.size() == 1)
    return "_call" + std::to_string(first);
  auto isRun = [&](int64_t step) {
    for (size_t i = 1; i < callCounters.size(); ++i)
      if (static_cast<int64_t>(*callCounters[i]) -
              static_cast<int64_t>(*callCounters[i - 1]) !=
          step)
        return false;
    return true;
  };
  if (isRun(1))
    return "_calls" + std::to_string(first) + "to" + std::to_string(last);
  if (isRun(-1))
    return "_calls" + std::to_string(first) + "from" + std::to_string(last);
  return "";
}

std::string getPhaseSuffix(ArrayRef<int64_t> transposeCounts) {
  SmallVector<int64_t> sorted(transposeCounts);
  llvm::sort(sorted);
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::string suffix;
  for (int64_t count : sorted) {
    if (count == 0)
      suffix += "_fwd";
    else if (count == 1)
      suffix += "_bwd";
    else
      suffix += "_transpose" + std::to_string(count);
  }
  return suffix;
}

} // namespace mlir::mpmd
