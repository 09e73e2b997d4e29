//===- Fusion.cpp - Elementwise chains computed in one pass ---------------===//

#include "Fusion.h"

#include "ElementwiseOps.h"

#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Runtime/Interpreter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <queue>

namespace mlir::mpmd::runtime {

namespace {

/// The kernel `op` runs when it can be part of a chain of `type`: a unary
/// or binary kernel whose operands and result all have `type` and that
/// supports its dtype.
std::optional<FusedOperation> getFusableKernel(Operation &op,
                                               RankedTensorType type) {
  if (op.getNumResults() != 1 || op.getResult(0).getType() != type ||
      llvm::any_of(op.getOperandTypes(),
                   [&](Type operand) { return operand != type; }))
    return std::nullopt;
  FailureOr<DType> dtype = getDType(type.getElementType(), op.getLoc());
  if (failed(dtype))
    return std::nullopt;
  if (std::optional<UnaryKind> unary = getUnaryKind(op))
    if (op.getNumOperands() == 1 && supportsUnary(*unary, *dtype))
      return FusedOperation{true, *unary, BinaryKind::Add, 0, 0};
  if (std::optional<BinaryKind> binary = getBinaryKind(op))
    if (op.getNumOperands() == 2 && supportsBinary(*binary, *dtype))
      return FusedOperation{false, UnaryKind::Abs, *binary, 0, 0};
  return std::nullopt;
}

/// A statically shaped tensor type of a dtype the kernels compute in
/// (f16/bf16 round to their format after every op, which a chain would
/// skip); null otherwise.
RankedTensorType getChainType(Operation &op) {
  if (op.getNumResults() != 1)
    return nullptr;
  auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return nullptr;
  // Quietly: an unsupported type is reported when the op runs.
  ScopedDiagnosticHandler silence(op.getContext(),
                                  [](Diagnostic &) { return success(); });
  FailureOr<TensorSpec> spec = getTensorSpec(type, op.getLoc());
  // Quantized ops compute on dequantized values (Interpreter.cpp).
  if (failed(spec) || roundsAfterEachOp(spec->dtype) ||
      isComplex(spec->dtype) || stablehlo::isQuantized(type))
    return nullptr;
  return type;
}

/// The strides a broadcast_in_dim's operand is read with, per result
/// dimension.
std::vector<int64_t> getBroadcastStrides(stablehlo::BroadcastInDimOp op) {
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> resultShape = op.getType().getShape();
  std::vector<int64_t> operandStrides =
      rowMajorStrides(Shape(operandType.getShape()));
  std::vector<int64_t> strides(resultShape.size(), 0);
  for (auto [d, resultDim] : llvm::enumerate(op.getBroadcastDimensions()))
    if (operandType.getDimSize(d) == resultShape[resultDim])
      strides[resultDim] = operandStrides[d];
  return strides;
}

bool isSplatConstant(Value value) {
  auto constant = value.getDefiningOp<stablehlo::ConstantOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat();
}

/// A broadcast_in_dim that can be read in place by a chain of `type`.
bool isFusableBroadcast(Operation &op, RankedTensorType type) {
  auto broadcast = dyn_cast<stablehlo::BroadcastInDimOp>(op);
  return broadcast && broadcast.getType() == type &&
         cast<RankedTensorType>(broadcast.getOperand().getType())
                 .getElementType() == type.getElementType();
}

std::vector<int64_t> toVector(ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

/// `dims` (of one dot operand) mapped through the transpose `permutation`
/// that produced the operand, or nullopt when the operand's free
/// dimensions would change order (and with them the result's layout).
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
foldTranspose(ArrayRef<int64_t> permutation, const std::vector<int64_t> &batch,
              const std::vector<int64_t> &contracting) {
  std::vector<bool> free(permutation.size(), true);
  for (int64_t d : batch)
    free[d] = false;
  for (int64_t d : contracting)
    free[d] = false;
  int64_t previous = -1;
  for (size_t d = 0; d < permutation.size(); ++d) {
    if (!free[d])
      continue;
    if (permutation[d] < previous)
      return std::nullopt;
    previous = permutation[d];
  }
  auto map = [&](const std::vector<int64_t> &dims) {
    std::vector<int64_t> mapped;
    for (int64_t d : dims)
      mapped.push_back(permutation[d]);
    return mapped;
  };
  return std::make_pair(map(batch), map(contracting));
}

/// The dot_general that computes an operand of `add` for it alone, in the
/// add's f32 or f64 type from operands of that element type (no widening,
/// no quantization), with the add's other operand; nullopt when there is
/// none.
std::optional<AccumulatingDot> findAccumulatingDot(stablehlo::AddOp add) {
  auto type = dyn_cast<RankedTensorType>(add.getType());
  if (!type || !type.hasStaticShape() ||
      !(type.getElementType().isF32() || type.getElementType().isF64()))
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    Value product = add->getOperand(i), addend = add->getOperand(1 - i);
    auto dot = product.getDefiningOp<stablehlo::DotGeneralOp>();
    if (!dot || dot->getBlock() != add->getBlock() || !product.hasOneUse() ||
        dot.getType() != type ||
        llvm::any_of(dot->getOperandTypes(), [&](Type operand) {
          return getElementTypeOrSelf(operand) != type.getElementType();
        }))
      continue;
    return AccumulatingDot{dot, addend};
  }
  return std::nullopt;
}

} // namespace

FusionPlan FusionPlan::build(Block &block) {
  FusionPlan plan;
  llvm::DenseMap<Operation *, int64_t> position;
  for (auto [index, op] : llvm::enumerate(block))
    position[&op] = index;
  llvm::DenseSet<Operation *> taken;

  // Before chains: an accumulating add leaves a chain it would have joined
  // (the product then goes into the addend instead of a zero-filled buffer
  // that a pass of the chain reads back).
  for (Operation &op : block)
    if (auto add = dyn_cast<stablehlo::AddOp>(op))
      if (std::optional<AccumulatingDot> accumulating =
              findAccumulatingDot(add)) {
        plan.rootOf[accumulating->dot] = &op;
        taken.insert(&op);
        taken.insert(accumulating->dot);
        plan.accumulatingDots[&op] = *accumulating;
      }

  for (Operation &root : llvm::reverse(block)) {
    if (taken.contains(&root) || (!getUnaryKind(root) && !getBinaryKind(root)))
      continue;
    RankedTensorType type = getChainType(root);
    if (!type || !getFusableKernel(root, type))
      continue;
    // Producers, latest first: an op can join once all of its users have
    // joined, and its users all come after it, so when it is popped every
    // user that will ever join already has.
    llvm::DenseSet<Operation *> members = {&root}, seen = {&root};
    auto later = [&](Operation *a, Operation *b) {
      return position[a] < position[b];
    };
    std::priority_queue<Operation *, std::vector<Operation *>, decltype(later)>
        candidates(later);
    auto addProducers = [&](Operation &op) {
      for (Value operand : op.getOperands())
        if (Operation *producer = operand.getDefiningOp())
          if (producer->getBlock() == &block && seen.insert(producer).second)
            candidates.push(producer);
    };
    addProducers(root);
    while (!candidates.empty()) {
      Operation *producer = candidates.top();
      candidates.pop();
      if (taken.contains(producer) ||
          !llvm::all_of(producer->getUsers(), [&](Operation *user) {
            return members.contains(user);
          }))
        continue;
      if (getFusableKernel(*producer, type)) {
        members.insert(producer);
        addProducers(*producer);
      } else if (isFusableBroadcast(*producer, type)) {
        members.insert(producer);
      }
    }

    // The program: kernels in block order; inputs deduplicated.
    auto chain = std::make_unique<FusedChain>();
    chain->root = &root;
    llvm::SmallVector<Operation *> ordered(members.begin(), members.end());
    llvm::sort(ordered, later);
    llvm::SmallVector<Operation *> kernels;
    for (Operation *op : ordered)
      if (!isa<stablehlo::BroadcastInDimOp>(op))
        kernels.push_back(op);
    llvm::DenseMap<Value, int32_t> kernelSlot;
    bool readsInPlace = false;
    auto inputSlot = [&](Value value, std::vector<int64_t> strides) {
      for (auto [index, input] : llvm::enumerate(chain->inputs))
        if (input == value && chain->inputStrides[index] == strides)
          return static_cast<int32_t>(index);
      chain->inputs.push_back(value);
      chain->inputStrides.push_back(std::move(strides));
      return static_cast<int32_t>(chain->inputs.size() - 1);
    };
    // Slots of kernel results are numbered after the inputs, which are only
    // known at the end: record them as -(kernel index + 1) first.
    for (auto [index, op] : llvm::enumerate(kernels)) {
      FusedOperation operation = *getFusableKernel(*op, type);
      int32_t slots[2] = {0, 0};
      for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
        Operation *producer = operand.getDefiningOp();
        if (auto found = kernelSlot.find(operand); found != kernelSlot.end()) {
          slots[i] = found->second;
        } else if (producer && members.contains(producer)) {
          auto broadcast = cast<stablehlo::BroadcastInDimOp>(producer);
          slots[i] = inputSlot(broadcast.getOperand(),
                               getBroadcastStrides(broadcast));
          readsInPlace = true;
        } else if (isSplatConstant(operand)) {
          slots[i] = inputSlot(operand,
                               std::vector<int64_t>(type.getRank(), 0));
          readsInPlace = true;
        } else {
          slots[i] = inputSlot(operand, rowMajorStrides(Shape(type.getShape())));
        }
      }
      operation.lhs = slots[0];
      operation.rhs = slots[1];
      chain->operations.push_back(operation);
      kernelSlot[op->getResult(0)] = -static_cast<int32_t>(index) - 1;
    }
    if (kernels.size() < 2 && !readsInPlace)
      continue;
    const int32_t numInputs = chain->inputs.size();
    for (FusedOperation &operation : chain->operations)
      for (int32_t *slot : {&operation.lhs, &operation.rhs})
        if (*slot < 0)
          *slot = numInputs - *slot - 1;
    for (Operation *op : ordered) {
      taken.insert(op);
      if (op != &root)
        plan.rootOf[op] = &root;
    }
    plan.chains[&root] = std::move(chain);
  }

  for (Operation &op : block) {
    auto dot = dyn_cast<stablehlo::DotGeneralOp>(op);
    // A quantized dot runs on its dequantized operands (Interpreter.cpp):
    // they must be computed.
    if (!dot || llvm::any_of(op.getOperandTypes(), [](Type type) {
          return stablehlo::isQuantized(type);
        }))
      continue;
    stablehlo::DotDimensionNumbersAttr numbers = dot.getDotDimensionNumbers();
    auto folded = std::make_unique<FoldedDot>();
    folded->lhs = dot.getLhs();
    folded->rhs = dot.getRhs();
    folded->dims = {toVector(numbers.getLhsBatchingDimensions()),
                    toVector(numbers.getRhsBatchingDimensions()),
                    toVector(numbers.getLhsContractingDimensions()),
                    toVector(numbers.getRhsContractingDimensions())};
    bool changed = false;
    auto fold = [&](Value &operand, std::vector<int64_t> &batch,
                    std::vector<int64_t> &contracting) {
      auto transpose = operand.getDefiningOp<stablehlo::TransposeOp>();
      if (!transpose || transpose->getBlock() != &block ||
          !operand.hasOneUse())
        return;
      auto mapped =
          foldTranspose(transpose.getPermutation(), batch, contracting);
      if (!mapped)
        return;
      operand = transpose.getOperand();
      std::tie(batch, contracting) = std::move(*mapped);
      // Read where the dot runs: at its accumulating add, if it has one.
      plan.rootOf[transpose] = plan.getRunningOp(&op);
      changed = true;
    };
    fold(folded->lhs, folded->dims.lhsBatch, folded->dims.lhsContracting);
    fold(folded->rhs, folded->dims.rhsBatch, folded->dims.rhsContracting);
    if (changed)
      plan.foldedDots[&op] = std::move(folded);
  }
  return plan;
}

} // namespace mlir::mpmd::runtime
