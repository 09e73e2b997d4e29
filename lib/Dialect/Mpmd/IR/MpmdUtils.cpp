//===- MpmdUtils.cpp - Queries and builders over MPMD programs ------------===//

#include "mpmd/Dialect/Mpmd/IR/MpmdUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::mpmd;

// A `topology` or `mesh_shape` of another attribute kind is a user's own
// attribute, not an MPMD program: passes that read it would find no mesh.
bool mlir::mpmd::isMpmdFunction(func::FuncOp function) {
  return isa_and_present<TopologyAttr>(
      function->getAttr(MpmdDialect::kTopologyAttrName));
}

bool mlir::mpmd::isSpmdFunction(func::FuncOp function) {
  return isa_and_present<sdy::MeshAttr>(
      function->getAttr(MpmdDialect::kMeshShapeAttrName));
}

bool mlir::mpmd::isDistributedFunction(func::FuncOp function) {
  return isMpmdFunction(function) || isSpmdFunction(function);
}

bool mlir::mpmd::isEntryPointFunction(func::FuncOp function) {
  return function.isPublic() && isDistributedFunction(function);
}

func::FuncOp mlir::mpmd::getMainFunction(ModuleOp module) {
  return module.lookupSymbol<func::FuncOp>("main");
}

bool mlir::mpmd::isCpuMesh(StringRef meshName) {
  return meshName.ends_with("/cpu");
}

namespace {

/// Splits `m12` into (`m`, 12); nullopt if the name does not end in digits.
std::optional<std::pair<StringRef, uint64_t>> splitNumericSuffix(StringRef name) {
  size_t digitsStart = name.size();
  while (digitsStart > 0 && std::isdigit(name[digitsStart - 1]))
    --digitsStart;
  uint64_t number = 0;
  if (digitsStart == name.size() ||
      name.drop_front(digitsStart).getAsInteger(10, number))
    return std::nullopt;
  return std::make_pair(name.take_front(digitsStart), number);
}

} // namespace

bool mlir::mpmd::isMeshNameBefore(StringRef lhs, StringRef rhs) {
  auto lhsParts = splitNumericSuffix(lhs);
  auto rhsParts = splitNumericSuffix(rhs);
  if (lhsParts && rhsParts && lhsParts->first == rhsParts->first)
    return lhsParts->second < rhsParts->second;
  return lhs < rhs;
}

std::optional<uint32_t> mlir::mpmd::getCallCounter(Operation *op) {
  if (auto counter =
          op->getAttrOfType<IntegerAttr>(MpmdDialect::kCallCounterAttrName))
    return static_cast<uint32_t>(counter.getValue().getZExtValue());
  return std::nullopt;
}

void mlir::mpmd::setCallCounter(Operation *op, uint32_t counter) {
  Builder builder(op->getContext());
  op->setAttr(MpmdDialect::kCallCounterAttrName,
              builder.getIntegerAttr(builder.getIntegerType(32, false),
                                     counter));
}

namespace {

SmallVector<DictionaryAttr>
updateDictionaries(MLIRContext *ctx, unsigned count, StringRef name,
                   function_ref<DictionaryAttr(unsigned)> current,
                   function_ref<Attribute(unsigned)> valueOf) {
  SmallVector<DictionaryAttr> dictionaries;
  dictionaries.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    NamedAttrList attrs(current(i));
    if (Attribute value = valueOf(i))
      attrs.set(name, value);
    else
      attrs.erase(name);
    dictionaries.push_back(attrs.getDictionary(ctx));
  }
  return dictionaries;
}

} // namespace

void mlir::mpmd::setArgAttrs(func::FuncOp function, StringRef name,
                             function_ref<Attribute(unsigned)> valueOf) {
  function.setAllArgAttrs(updateDictionaries(
      function.getContext(), function.getNumArguments(), name,
      [&](unsigned i) { return function.getArgAttrDict(i); }, valueOf));
}

void mlir::mpmd::setResultAttrs(func::FuncOp function, StringRef name,
                                function_ref<Attribute(unsigned)> valueOf) {
  function.setAllResultAttrs(updateDictionaries(
      function.getContext(), function.getNumResults(), name,
      [&](unsigned i) { return function.getResultAttrDict(i); }, valueOf));
}

void mlir::mpmd::setArgAttrs(ForOp loop, StringRef name,
                             function_ref<Attribute(unsigned)> valueOf) {
  ArrayAttr current = loop.getArgAttrsAttr();
  SmallVector<DictionaryAttr> dictionaries = updateDictionaries(
      loop.getContext(), loop->getNumOperands(), name,
      [&](unsigned i) {
        return current ? cast<DictionaryAttr>(current[i]) : DictionaryAttr();
      },
      valueOf);
  if (llvm::all_of(dictionaries,
                   [](DictionaryAttr dict) { return dict.empty(); })) {
    loop.removeArgAttrsAttr();
    return;
  }
  loop.setArgAttrsAttr(ArrayAttr::get(
      loop.getContext(), SmallVector<Attribute>(dictionaries.begin(),
                                                dictionaries.end())));
}

Attribute mlir::mpmd::getArgAttr(ForOp loop, unsigned i, StringRef name) {
  ArrayAttr attrs = loop.getArgAttrsAttr();
  if (!attrs || i >= attrs.size())
    return {};
  return cast<DictionaryAttr>(attrs[i]).get(name);
}

FragmentOp mlir::mpmd::createFragment(
    OpBuilder &builder, Location loc, StringRef meshName, ArrayAttr origin,
    ValueRange operands, TypeRange resultTypes,
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange)> buildBody) {
  auto fragment = FragmentOp::create(
      builder, loc, resultTypes, operands, origin,
      builder.getStringAttr(meshName), /*stage_id=*/IntegerAttr(),
      /*in_shardings=*/sdy::TensorShardingPerValueAttr(),
      /*out_shardings=*/sdy::TensorShardingPerValueAttr());
  Block &body = fragment.getRegion().emplaceBlock();
  for (Value operand : operands) {
    Type type = operand.getType();
    if (auto meshTensor = dyn_cast<MeshTensorType>(type))
      type = meshTensor.getRankedTensorType();
    body.addArgument(type, operand.getLoc());
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&body);
  SmallVector<Value> returned = buildBody(builder, body.getArguments());
  ReturnOp::create(builder, loc, returned);
  return fragment;
}
