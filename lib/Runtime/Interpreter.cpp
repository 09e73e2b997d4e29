//===- Interpreter.cpp - Runs stablehlo functions on the kernels ----------===//

#include "mpmd/Runtime/Interpreter.h"

#include "ElementwiseOps.h"
#include "Fusion.h"
#include "InterpreterCollectives.h"
#include "InterpreterCompoundOps.h"

#include "mpmd/Dialect/Check/IR/CheckOps.h"
#include "mpmd/Dialect/Chlo/IR/ChloOps.h"
#include "mpmd/Dialect/Mpmd/IR/MpmdOps.h"
#include "mpmd/Dialect/Sdy/IR/SdyOps.h"
#include "mpmd/Dialect/StableHLO/IR/StablehloOps.h"
#include "mpmd/Runtime/BitGenerators.h"
#include "mpmd/Runtime/InProcessRendezvous.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Npy.h"
#include "mpmd/Runtime/Quantization.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>
#include <time.h>

namespace mlir::mpmd::runtime {

FailureOr<DType> getDType(Type elementType, Location loc) {
  if (elementType.isF64()) return DType::F64;
  if (elementType.isF32()) return DType::F32;
  if (elementType.isF16()) return DType::F16;
  if (elementType.isBF16()) return DType::BF16;
  std::optional<DType> dtype =
      llvm::TypeSwitch<Type, std::optional<DType>>(elementType)
          .Case([](FloatTF32Type) { return DType::TF32; })
          .Case([](Float8E4M3FNType) { return DType::F8E4M3FN; })
          .Case([](Float8E5M2Type) { return DType::F8E5M2; })
          .Case([](Float8E4M3FNUZType) { return DType::F8E4M3FNUZ; })
          .Case([](Float8E5M2FNUZType) { return DType::F8E5M2FNUZ; })
          .Case([](Float8E4M3B11FNUZType) { return DType::F8E4M3B11FNUZ; })
          .Case([](Float8E3M4Type) { return DType::F8E3M4; })
          .Case([](Float8E4M3Type) { return DType::F8E4M3; })
          .Case([](Float8E8M0FNUType) { return DType::F8E8M0FNU; })
          .Case([](Float4E2M1FNType) { return DType::F4E2M1FN; })
          .Case([](Float6E2M3FNType) { return DType::F6E2M3FN; })
          .Case([](Float6E3M2FNType) { return DType::F6E3M2FN; })
          .Case([](ComplexType complex) -> std::optional<DType> {
            if (complex.getElementType().isF32()) return DType::C64;
            if (complex.getElementType().isF64()) return DType::C128;
            return std::nullopt;
          })
          .Default([](Type) { return std::nullopt; });
  if (dtype)
    return *dtype;
  // A quantized tensor is held as its storage integers.
  Type storage = elementType;
  bool isUnsignedStorage = false;
  if (auto quantized = dyn_cast<quant::QuantizedType>(elementType)) {
    storage = quantized.getStorageType();
    isUnsignedStorage = !quantized.isSigned();
  }
  if (auto integer = dyn_cast<IntegerType>(storage)) {
    bool isUnsigned = integer.isUnsigned() || isUnsignedStorage;
    switch (integer.getWidth()) {
    case 1: return DType::I1;
    case 2: return isUnsigned ? DType::UI2 : DType::I2;
    case 4: return isUnsigned ? DType::UI4 : DType::I4;
    case 8: return isUnsigned ? DType::UI8 : DType::I8;
    case 16: return isUnsigned ? DType::UI16 : DType::I16;
    case 32: return isUnsigned ? DType::UI32 : DType::I32;
    case 64: return isUnsigned ? DType::UI64 : DType::I64;
    default: break;
    }
  }
  return emitError(loc) << "element type " << elementType
                        << " is not supported by the interpreter";
}

/// The runtime's view of quantized tensor (element) type `type`.
static FailureOr<QuantizedElementType> getQuantizedElementType(Type type,
                                                               Location loc) {
  auto quantized = dyn_cast<quant::QuantizedType>(getElementTypeOrSelf(type));
  if (!quantized)
    return emitError(loc) << type << " is not a quantized type";
  QuantizedElementType result;
  FailureOr<DType> storage = getDType(quantized, loc);
  FailureOr<DType> expressed = getDType(quantized.getExpressedType(), loc);
  if (failed(storage) || failed(expressed))
    return failure();
  result.storage = *storage;
  result.expressed = *expressed;
  result.storageMin = quantized.getStorageTypeMin();
  result.storageMax = quantized.getStorageTypeMax();
  if (auto perTensor = dyn_cast<quant::UniformQuantizedType>(quantized)) {
    result.scales = {perTensor.getScale()};
    result.zeroPoints = {perTensor.getZeroPoint()};
    return result;
  }
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(quantized)) {
    result.scales.assign(perAxis.getScales().begin(),
                         perAxis.getScales().end());
    result.zeroPoints.assign(perAxis.getZeroPoints().begin(),
                             perAxis.getZeroPoints().end());
    result.axis = perAxis.getQuantizedDimension();
    return result;
  }
  return emitError(loc) << "quantized type " << type
                        << " is not supported by the interpreter";
}

FailureOr<TensorSpec> getTensorSpec(Type type, Location loc) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return emitError(loc) << "the interpreter supports only statically shaped "
                             "ranked tensors, not "
                          << type;
  FailureOr<DType> dtype = getDType(tensorType.getElementType(), loc);
  if (failed(dtype))
    return failure();
  // Buffers, kernels and random inputs compute sizes from the shape: it must
  // not overflow.
  if (!checkedProduct(tensorType.getShape(), dtypeSize(*dtype)))
    return emitError(loc) << "the interpreter cannot hold a " << type
                          << ": its size in bytes does not fit in 64 bits";
  TensorSpec spec{*dtype, Shape(tensorType.getShape())};
  if (auto quantized =
          dyn_cast<quant::QuantizedType>(tensorType.getElementType())) {
    int64_t min = quantized.getStorageTypeMin();
    int64_t max = quantized.getStorageTypeMax();
    if (min != quantized.getDefaultMinimumForInteger(
                   quantized.isSigned(), quantized.getStorageTypeIntegralWidth()) ||
        max != quantized.getDefaultMaximumForInteger(
                   quantized.isSigned(), quantized.getStorageTypeIntegralWidth()))
      spec.storageRange = IntegerRange{min, max};
  }
  return spec;
}

FailureOr<std::vector<TensorSpec>> getArgumentSpecs(func::FuncOp function) {
  std::vector<TensorSpec> specs;
  for (BlockArgument argument : function.getArguments()) {
    FailureOr<TensorSpec> spec =
        getTensorSpec(argument.getType(), argument.getLoc());
    if (failed(spec))
      return failure();
    specs.push_back(*spec);
  }
  return specs;
}

namespace {

/// The CPU time of the calling thread: unlike wall time, it does not count
/// the time other processes of a shared machine hold the cores.
double getThreadCpuSeconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

} // namespace

FailureOr<Tensor> tensorFromAttr(ElementsAttr attr, Location loc) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  auto type = cast<ShapedType>(attr.getType());
  FailureOr<TensorSpec> spec = getTensorSpec(type, loc);
  if (failed(spec))
    return failure();
  if (!dense)
    return emitError(loc) << "only dense constants are supported by the "
                             "interpreter";
  Tensor tensor = Tensor::empty(spec->dtype, spec->shape);
  size_t size = dtypeSize(spec->dtype);
  std::byte *out = tensor.bytes();
  // Each value's bit pattern, truncated to the element size (little endian):
  // sub-byte signed integers sign-extended, tf32 as the f32 of its value.
  bool isSigned = isSignedInt(spec->dtype);
  auto store = [&](int64_t index, const APInt &bits) {
    uint64_t raw = isSigned ? static_cast<uint64_t>(bits.getSExtValue())
                            : bits.getZExtValue();
    if (spec->dtype == DType::TF32)
      raw <<= 13;
    std::memcpy(out + index * size, &raw, size);
  };
  bool isFloatType = isa<FloatType>(type.getElementType());
  size_t byteSize = tensor.byteSize();
  // Nothing to copy, and an empty attribute has no data to copy from.
  if (byteSize == 0)
    return tensor;
  // Complex elements are stored as (real, imaginary) pairs, as here.
  if (isComplex(spec->dtype)) {
    ArrayRef<char> raw = dense.getRawData();
    if (!dense.isSplat()) {
      std::memcpy(out, raw.data(), byteSize);
      return tensor;
    }
    std::memcpy(out, raw.data(), size);
    for (size_t filled = size; filled < byteSize; filled *= 2)
      std::memcpy(out + filled, out, std::min(filled, byteSize - filled));
    return tensor;
  }
  if (dense.isSplat()) {
    // One element converted, then copied in doubling blocks.
    store(0, isFloatType ? dense.getSplatValue<APFloat>().bitcastToAPInt()
                         : dense.getSplatValue<APInt>());
    for (size_t filled = size; filled < byteSize; filled *= 2)
      std::memcpy(out + filled, out, std::min(filled, byteSize - filled));
    return tensor;
  }
  // Apart from i1 (bit-packed), the attribute stores the elements as the
  // tensor does: little-endian values of the element's width.
  if (type.getElementTypeBitWidth() == size * 8) {
    std::memcpy(out, dense.getRawData().data(), byteSize);
    return tensor;
  }
  int64_t index = 0;
  if (isFloatType) {
    for (const APFloat &value : dense.getValues<APFloat>())
      store(index++, value.bitcastToAPInt());
  } else {
    for (const APInt &value : dense.getValues<APInt>())
      store(index++, value);
  }
  return tensor;
}

namespace {

const llvm::StringMap<ReduceKind> &reduceCombiners() {
  static const llvm::StringMap<ReduceKind> ops = {
      {"stablehlo.add", ReduceKind::Add},
      {"stablehlo.multiply", ReduceKind::Multiply},
      {"stablehlo.maximum", ReduceKind::Maximum},
      {"stablehlo.minimum", ReduceKind::Minimum},
      {"stablehlo.and", ReduceKind::And},
      {"stablehlo.or", ReduceKind::Or},
  };
  return ops;
}

BinaryKind toBinaryKind(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Add: return BinaryKind::Add;
  case ReduceKind::Multiply: return BinaryKind::Multiply;
  case ReduceKind::Maximum: return BinaryKind::Maximum;
  case ReduceKind::Minimum: return BinaryKind::Minimum;
  case ReduceKind::And: return BinaryKind::And;
  case ReduceKind::Or: return BinaryKind::Or;
  }
  return BinaryKind::Add;
}

CompareKind toCompareKind(stablehlo::ComparisonDirection direction) {
  switch (direction) {
  case stablehlo::ComparisonDirection::EQ: return CompareKind::EQ;
  case stablehlo::ComparisonDirection::NE: return CompareKind::NE;
  case stablehlo::ComparisonDirection::LT: return CompareKind::LT;
  case stablehlo::ComparisonDirection::LE: return CompareKind::LE;
  case stablehlo::ComparisonDirection::GT: return CompareKind::GT;
  case stablehlo::ComparisonDirection::GE: return CompareKind::GE;
  }
  return CompareKind::EQ;
}

FftKind toFftKind(stablehlo::FftType type) {
  switch (type) {
  case stablehlo::FftType::FFT: return FftKind::FFT;
  case stablehlo::FftType::IFFT: return FftKind::IFFT;
  case stablehlo::FftType::RFFT: return FftKind::RFFT;
  case stablehlo::FftType::IRFFT: return FftKind::IRFFT;
  }
  return FftKind::FFT;
}

std::vector<int64_t> toVector(ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

Shape shapeOf(Value value) {
  return toVector(cast<RankedTensorType>(value.getType()).getShape());
}

/// A window op's attributes with the defaults for what it leaves out
/// (size and strides 1, no dilation, no padding; padding is [rank, 2] of
/// (low, high)); an error at `op` when the window's positions do not fit in
/// int64 (the kernels count them).
FailureOr<WindowDimensions>
getWindow(Operation *op, int64_t rank, std::optional<ArrayRef<int64_t>> size,
          std::optional<ArrayRef<int64_t>> strides,
          std::optional<ArrayRef<int64_t>> baseDilations,
          std::optional<ArrayRef<int64_t>> windowDilations,
          std::optional<DenseIntElementsAttr> padding) {
  auto orOnes = [&](std::optional<ArrayRef<int64_t>> values) {
    return values ? toVector(*values) : std::vector<int64_t>(rank, 1);
  };
  WindowDimensions window;
  window.size = orOnes(size);
  window.strides = orOnes(strides);
  window.baseDilations = orOnes(baseDilations);
  window.windowDilations = orOnes(windowDilations);
  window.paddingLow.assign(rank, 0);
  window.paddingHigh.assign(rank, 0);
  if (padding)
    for (auto [i, value] : llvm::enumerate(padding->getValues<int64_t>()))
      (i % 2 ? window.paddingHigh : window.paddingLow)[i / 2] = value;
  if (!checkedProduct(window.size))
    return op->emitError() << "the window has more positions than fit in "
                              "64 bits";
  return window;
}


/// `select` bodies that compare their two arguments in order, in IEEE order
/// (the kernel's), and return the result: the comparison's kind.
std::optional<CompareKind> matchSelectComparison(Region &body) {
  Block &block = body.front();
  if (block.getNumArguments() != 2 || !llvm::hasNItems(block, 2))
    return std::nullopt;
  auto compare = dyn_cast<stablehlo::CompareOp>(block.front());
  Operation *terminator = block.getTerminator();
  if (!compare || terminator->getNumOperands() != 1 ||
      compare.getCompareType() == stablehlo::ComparisonType::TOTALORDER ||
      terminator->getOperand(0) != compare.getResult() ||
      compare.getLhs() != block.getArgument(0) ||
      compare.getRhs() != block.getArgument(1))
    return std::nullopt;
  return toCompareKind(compare.getComparisonDirection());
}

/// Elementwise equality of two same-typed tensors (nan equals nan); `within`
/// is the absolute tolerance for floats.
std::optional<int64_t> firstMismatch(const Tensor &actual, const Tensor &expected,
                                     double within) {
  auto close = [&](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b ||
           std::fabs(a - b) <= within;
  };
  for (int64_t i = 0, e = actual.numElements(); i < e; ++i) {
    if (isComplex(actual.dtype())) {
      if (close(actual.elementAsDouble(i), expected.elementAsDouble(i)) &&
          close(actual.elementImagAsDouble(i), expected.elementImagAsDouble(i)))
        continue;
      return i;
    }
    if (isFloat(actual.dtype())) {
      if (close(actual.elementAsDouble(i), expected.elementAsDouble(i)))
        continue;
      return i;
    }
    if (actual.elementAsInt(i) != expected.elementAsInt(i))
      return i;
  }
  return std::nullopt;
}

/// Distance in units in the last place (bit patterns mapped to a monotonic
/// integer line; narrow floats by their own sign bit).
int64_t ulpDistance(const Tensor &a, const Tensor &b, int64_t index) {
  auto ordered = [&](const Tensor &t) -> int64_t {
    DType dtype = t.dtype() == DType::TF32 ? DType::F32 : t.dtype();
    size_t size = dtypeSize(dtype);
    uint64_t bits = 0;
    std::memcpy(&bits, t.bytes() + index * size, size);
    int64_t width = dtypeBitWidth(dtype);
    if (dtype == DType::F8E8M0FNU) // no sign bit
      return static_cast<int64_t>(bits);
    uint64_t signBit = uint64_t(1) << (width - 1);
    int64_t magnitude = static_cast<int64_t>(bits & (signBit - 1));
    return bits & signBit ? -magnitude : magnitude;
  };
  int64_t x = ordered(a), y = ordered(b);
  // In unsigned arithmetic: f64 values of opposite signs may be more than
  // INT64_MAX apart (saturated, still past any tolerance).
  uint64_t distance = x > y ? uint64_t(x) - uint64_t(y) : uint64_t(y) - uint64_t(x);
  return distance > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(distance);
}

} // namespace

namespace {
/// Per op of a block: the values defined in the block whose last use is
/// that op (nested uses count as uses by their ancestor in the block, uses
/// inside a fused chain as uses by its root).
using DeadValues = llvm::DenseMap<Operation *, llvm::SmallVector<Value, 2>>;
} // namespace

struct Interpreter::BlockPlan {
  FusionPlan fusion;
  DeadValues deadAfter;
};

/// One function invocation: the values of its SSA names (including those
/// of nested regions, which may use values defined above them).
class Interpreter::Frame {
public:
  Frame(Interpreter &interpreter) : interpreter(interpreter) {}

  /// Runs the single block of `region` on `arguments` and returns the
  /// operands of its terminator.
  FailureOr<std::vector<Tensor>> runRegion(Region &region,
                                           std::vector<Tensor> arguments) {
    Block &block = region.front();
    bindFlattened(block.getArguments(), std::move(arguments));
    const BlockPlan &plan = interpreter.getBlockPlan(block);
    const DeadValues &deadAfter = plan.deadAfter;
    // Nested regions (named computations) run in this frame too.
    const BlockPlan *outerPlan = std::exchange(currentPlan, &plan);
    auto restorePlan =
        llvm::make_scope_exit([&] { currentPlan = outerPlan; });
    // With an op observer: the ops skipped since the last kernel, which a
    // later chain computes.
    llvm::SmallVector<Operation *> fusedAway;
    for (Operation &op : block.without_terminator()) {
      // Computed in a later op's chain, or a transpose a later dot_general
      // reads in place.
      if (plan.fusion.isFusedAway(&op)) {
        if (interpreter.opObserver)
          fusedAway.push_back(&op);
        continue;
      }
      auto dead = deadAfter.find(&op);
      dyingAtCurrentOp = dead != deadAfter.end() ? &dead->second : nullptr;
      const FusedChain *chain = plan.fusion.getChain(&op);
      const bool observed =
          interpreter.opObserver && namedComputationDepth == 0 &&
          !isa<mpmd::NamedComputationOp, func::CallOp, mpmd::CallOp>(op);
      const double start = observed ? getThreadCpuSeconds() : 0;
      const AccumulatingDot *accumulating =
          chain ? nullptr : plan.fusion.getAccumulatingDot(&op);
      if (failed(chain          ? runChain(*chain)
                 : accumulating ? runAccumulatingDot(op, *accumulating)
                                : runOp(op)))
        return failure();
      if (observed) {
        const double seconds = getThreadCpuSeconds() - start;
        fusedAway.push_back(&op);
        interpreter.opObserver(fusedAway, seconds);
      }
      fusedAway.clear();
      if (dead != deadAfter.end())
        for (Value value : dead->second) {
          values.erase(value);
          tuples.erase(value);
        }
    }
    return lookupFlattened(block.getTerminator()->getOperands());
  }

private:
  const Tensor &lookup(Value value) { return values[value]; }
  std::vector<Tensor> lookupAll(ValueRange range) {
    std::vector<Tensor> tensors;
    for (Value value : range)
      tensors.push_back(lookup(value));
    return tensors;
  }
  void bind(Operation &op, std::vector<Tensor> results) {
    for (auto [result, tensor] : llvm::zip(op.getResults(), results))
      values[result] = std::move(tensor);
  }
  /// Tuples and futures cross region and call boundaries as their leaf
  /// tensors, in order (TupleType::getFlattenedTypes, a future's types):
  /// these expand such values into their leaves, and bind `targets` from
  /// such a list.
  static bool holdsLeaves(Type type) {
    return isa<TupleType, stablehlo::FutureType>(type);
  }
  std::vector<Tensor> lookupFlattened(ValueRange range) {
    std::vector<Tensor> tensors;
    for (Value value : range) {
      if (holdsLeaves(value.getType()))
        llvm::append_range(tensors, tuples[value]);
      else
        tensors.push_back(lookup(value));
    }
    return tensors;
  }
  void bindFlattened(ValueRange targets, std::vector<Tensor> flat) {
    auto next = flat.begin();
    for (Value target : targets) {
      if (!holdsLeaves(target.getType())) {
        if (next != flat.end())
          values[target] = std::move(*next++);
        continue;
      }
      SmallVector<Type> leaves;
      if (auto tuple = dyn_cast<TupleType>(target.getType()))
        tuple.getFlattenedTypes(leaves);
      else
        llvm::append_range(
            leaves, cast<stablehlo::FutureType>(target.getType()).getTypes());
      auto end = next + std::min<ptrdiff_t>(leaves.size(), flat.end() - next);
      tuples[target] = std::vector<Tensor>(next, end);
      next = end;
    }
  }
  std::vector<int64_t> scalarsAsInts(ValueRange range) {
    std::vector<int64_t> ints;
    for (Value value : range)
      ints.push_back(lookup(value).elementAsInt(0));
    return ints;
  }

  /// An operand of `op` whose buffer the elementwise result may take over:
  /// it dies at `op`, nothing else refers to its buffer, it has the result's
  /// type and is neither complex nor rounded after each op (narrow floats
  /// are computed in f32). Null when there is none.
  Tensor *getReusableOperand(Operation &op) {
    if (!dyingAtCurrentOp || op.getNumResults() != 1)
      return nullptr;
    for (Value operand : op.getOperands()) {
      if (operand.getType() != op.getResult(0).getType() ||
          !llvm::is_contained(*dyingAtCurrentOp, operand))
        continue;
      Tensor &tensor = values[operand];
      if (tensor.ownsBufferAlone() && !roundsAfterEachOp(tensor.dtype()) &&
          !isComplex(tensor.dtype()))
        return &tensor;
    }
    return nullptr;
  }

  LogicalResult runOp(Operation &op);
  CompoundOpContext getCompoundOpContext() {
    return CompoundOpContext{
        [this](Region &region, std::vector<Tensor> arguments) {
          return runRegion(region, std::move(arguments));
        },
        [this](func::FuncOp function, std::vector<Tensor> arguments) {
          return interpreter.run(function, std::move(arguments));
        },
        interpreter.rngRuns};
  }
  /// Ops on quantized tensors that the spec computes on their dequantized
  /// values (dequantize_op_quantize, dequantize_compare, ...), including
  /// uniform_quantize and uniform_dequantize; the others (layout, control
  /// flow, reductions whose bodies do it per element) move the storage
  /// integers as they are.
  bool computesDequantized(Operation &op);
  LogicalResult runDequantized(Operation &op);
  LogicalResult runChain(const FusedChain &chain);
  /// `add` as its dot_general's product added into the other operand.
  LogicalResult runAccumulatingDot(Operation &add,
                                   const AccumulatingDot &accumulating);
  Tensor runConvolution(stablehlo::ConvolutionOp op);
  /// What `dot` reads: its operands and dimensions, or the operands of the
  /// transposes folded into it.
  FoldedDot getDotOperands(stablehlo::DotGeneralOp dot);
  /// dot_general of `lhs` and `rhs` in the element type of `op`'s result.
  Tensor dotInResultType(Operation &op, const Tensor &lhs, const Tensor &rhs,
                         const DotDimensions &dims);
  LogicalResult runReduce(stablehlo::ReduceOp op);
  LogicalResult runReduceWindow(stablehlo::ReduceWindowOp op);
  LogicalResult runSelectAndScatter(stablehlo::SelectAndScatterOp op);
  LogicalResult runScatter(stablehlo::ScatterOp op);
  LogicalResult runSort(stablehlo::SortOp op);
  LogicalResult runCheck(Operation &op);
  /// The file of run `run` of probe `id`: `<probe directory>/<id>_<run>.npy`.
  /// Fails, after an error at `op`, without a probe directory.
  FailureOr<std::string> getProbePath(Operation &op, llvm::StringRef id,
                                      int64_t run);
  FailureOr<Tensor> combineElementwise(Region &computation, const Tensor &lhs,
                                       const Tensor &rhs);
  void recordCheckFailure(Operation &op, const Tensor &actual,
                          const Tensor &expected, int64_t index,
                          llvm::StringRef detail = "");

  Interpreter &interpreter;
  llvm::DenseMap<Value, Tensor> values;
  /// The leaf tensors of the tuple values, in order.
  llvm::DenseMap<Value, std::vector<Tensor>> tuples;
  /// The values that die at the op being run (set per op by runRegion).
  const llvm::SmallVector<Value, 2> *dyingAtCurrentOp = nullptr;
  /// The plan of the block being run (set by runRegion).
  const BlockPlan *currentPlan = nullptr;
  /// How many mpmd.named_computation regions this frame is inside: the op
  /// observer sees the ops outside all of them.
  int64_t namedComputationDepth = 0;
};

Interpreter::Interpreter(ModuleOp module, InterpreterOptions options)
    : module(module), options(options) {}

Interpreter::~Interpreter() = default;

const Interpreter::BlockPlan &Interpreter::getBlockPlan(Block &block) {
  std::unique_ptr<BlockPlan> &entry = blockPlans[&block];
  if (entry)
    return *entry;
  entry = std::make_unique<BlockPlan>();
  if (options.fuseElementwise)
    entry->fusion = FusionPlan::build(block);
  // An op inside a chain reads its operands when the chain's root runs.
  llvm::DenseMap<Operation *, int64_t> position;
  for (auto [index, op] : llvm::enumerate(block))
    position[&op] = index;
  llvm::DenseMap<Value, Operation *> lastUser;
  auto use = [&](Value value, Operation *user) {
    Operation *&last = lastUser[value];
    if (!last || position[last] < position[user])
      last = user;
  };
  for (Operation &op : block) {
    Operation *running = entry->fusion.getRunningOp(&op);
    op.walk([&](Operation *user) {
      for (Value operand : user->getOperands())
        if (operand.getParentBlock() == &block)
          use(operand, running);
    });
    for (Value result : op.getResults())
      if (result.use_empty())
        use(result, running);
  }
  // Values the terminator uses are read after the loop over the ops.
  for (auto [value, user] : lastUser)
    if (user != block.getTerminator())
      entry->deadAfter[user].push_back(value);
  return *entry;
}

FailureOr<std::vector<Tensor>>
Interpreter::run(func::FuncOp function, std::vector<Tensor> arguments) {
  if (function.isExternal())
    return function.emitError() << "cannot run a function without a body";
  return runRegion(function.getBody(), std::move(arguments));
}

FailureOr<std::vector<Tensor>>
Interpreter::runRegion(Region &region, std::vector<Tensor> arguments) {
  // Each outermost run starts with empty channels: a payload nobody
  // received does not reach the next run.
  if (runDepth == 0)
    ownChannels.reset();
  ++runDepth;
  Frame frame(*this);
  FailureOr<std::vector<Tensor>> results =
      frame.runRegion(region, std::move(arguments));
  --runDepth;
  return results;
}

InProcessRendezvous &Interpreter::getOwnChannels() {
  if (!ownChannels)
    ownChannels = std::make_unique<InProcessRendezvous>(
        1, [](int64_t) { return std::string("the program"); });
  return *ownChannels;
}

LogicalResult Interpreter::Frame::runOp(Operation &op) {
  llvm::StringRef name = op.getName().getStringRef();
  const ProcessContext &process = interpreter.process;
  // Another process of the parallel run failed: stop here rather than run
  // on to a collective that will fail anyway.
  if (process.rendezvous && process.rendezvous->isAborted())
    return op.emitError() << "stopped: "
                          << process.rendezvous->getAbortReason().value_or("");
  // Every operand and result must have a supported dtype and a size that
  // fits; this also covers what the kernels below assume.
  for (Type type : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
    if (!isa<stablehlo::TokenType, TupleType, stablehlo::FutureType>(type) &&
        failed(getTensorSpec(type, op.getLoc())))
      return failure();

  // Complex tensors run in the elementwise, layout, dot and fft kernels;
  // the others would read them as reals.
  if (llvm::any_of(op.getOperandTypes(), [](Type type) {
        return isa<ComplexType>(getElementTypeOrSelf(type));
      }) &&
      isa<stablehlo::ClampOp, stablehlo::ConvolutionOp, stablehlo::ScatterOp,
          stablehlo::SelectAndScatterOp, stablehlo::IsFiniteOp,
          stablehlo::ReducePrecisionOp>(op))
    return op.emitError() << "'" << name
                          << "' on complex tensors is not supported by the "
                             "interpreter";
  if (computesDequantized(op))
    return runDequantized(op);
  if (std::optional<UnaryKind> unaryKind = getUnaryKind(op)) {
    const Tensor &operand = lookup(op.getOperand(0));
    if (!supportsUnary(*unaryKind, operand.dtype()))
      return op.emitError() << "'" << name << "' is not supported on "
                            << dtypeName(operand.dtype());
    if (Tensor *reusable = getReusableOperand(op)) {
      Tensor result = *reusable;
      unaryInto(*unaryKind, operand, result);
      bind(op, {std::move(result)});
      return success();
    }
    bind(op, {unary(*unaryKind, operand)});
    return success();
  }
  if (std::optional<BinaryKind> binaryKind = getBinaryKind(op)) {
    const Tensor &lhs = lookup(op.getOperand(0));
    if (!supportsBinary(*binaryKind, lhs.dtype()))
      return op.emitError() << "'" << name << "' is not supported on "
                            << dtypeName(lhs.dtype());
    const Tensor &rhs = lookup(op.getOperand(1));
    if (Tensor *reusable = getReusableOperand(op)) {
      Tensor result = *reusable;
      binaryInto(*binaryKind, lhs, rhs, result);
      bind(op, {std::move(result)});
      return success();
    }
    bind(op, {binary(*binaryKind, lhs, rhs)});
    return success();
  }
  if (op.getDialect() && op.getDialect()->getNamespace() == "check")
    return runCheck(op);
  if (auto call = dyn_cast<stablehlo::CustomCallOp>(op);
      call && getCustomCallCheck(call))
    return runCheck(op);
  if (isCompoundOp(op)) {
    FailureOr<std::vector<Tensor>> results = runCompoundOp(
        op, lookupAll(op.getOperands()), getCompoundOpContext());
    if (failed(results))
      return failure();
    bind(op, std::move(*results));
    return success();
  }
  if (isa<stablehlo::SendOp, stablehlo::RecvOp>(op)) {
    // A parallel run's processes share its rendezvous' channels; a program
    // on its own has channels of its own.
    InProcessRendezvous *channels = process.rendezvous;
    if (!channels && process.collectives)
      return op.emitOpError()
             << "cannot run on the executor's collective backend, which "
                "carries no send/recv channels";
    if (!channels)
      channels = &interpreter.getOwnChannels();
    FailureOr<std::vector<Tensor>> results =
        runTransferOp(op, lookupAll(op.getOperands()), *channels,
                      process.rendezvous ? process.grid.flatten(process.self)
                                         : 0);
    if (failed(results))
      return failure();
    bind(op, std::move(*results));
    return success();
  }
  if (isProcessOp(op)) {
    FailureOr<std::vector<Tensor>> results = runProcessOp(
        op, lookupAll(op.getOperands()), process,
        [&](Region &computation, const Tensor &lhs, const Tensor &rhs) {
          return combineElementwise(computation, lhs, rhs);
        });
    if (failed(results))
      return failure();
    bind(op, std::move(*results));
    return success();
  }
  if (auto manual = dyn_cast<sdy::ManualComputationOp>(op)) {
    FailureOr<std::vector<Tensor>> results = runManualComputation(
        manual, lookupAll(manual.getTensors()), interpreter.module,
        interpreter.options, process, interpreter.firstCheckFailure);
    if (failed(results))
      return failure();
    bind(op, std::move(*results));
    return success();
  }
  if (auto parallel = dyn_cast<interpreter::RunParallelOp>(op)) {
    FailureOr<std::vector<Tensor>> results =
        runParallel(parallel, lookupAll(parallel.getInputs()),
                    interpreter.module, interpreter.options, process,
                    interpreter.firstCheckFailure);
    if (failed(results))
      return failure();
    bind(op, std::move(*results));
    return success();
  }

  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](stablehlo::ConstantOp constant) {
        // Built once per interpreter: constants are immutable, and a cached
        // tensor is never the sole owner of its buffer, so no op writes
        // into it in place.
        auto cached = interpreter.constants.find(&op);
        if (cached == interpreter.constants.end()) {
          FailureOr<Tensor> tensor =
              tensorFromAttr(constant.getValue(), op.getLoc());
          if (failed(tensor))
            return failure();
          // A quantized constant's value lists its storage integers, maybe
          // as integers of another signedness: reinterpret them.
          DType storage =
              *getDType(getElementTypeOrSelf(constant.getType()), op.getLoc());
          if (tensor->dtype() != storage) {
            Tensor stored = Tensor::empty(storage, tensor->shape());
            for (int64_t i = 0, e = stored.numElements(); i < e; ++i) {
              int64_t value = tensor->elementAsInt(i);
              if (isSubByteInt(storage))
                value = wrapToSubByteInt(storage, value);
              std::memcpy(stored.bytes() + i * dtypeSize(storage), &value,
                          dtypeSize(storage));
            }
            *tensor = std::move(stored);
          }
          cached = interpreter.constants.try_emplace(&op, *tensor).first;
        }
        bind(op, {cached->second});
        return success();
      })
      .Case([&](interpreter::PrintOp print) {
        // One write per line: processes of a parallel run print at once.
        std::string line;
        llvm::raw_string_ostream os(line);
        os << print.getOperand().getType() << " "
           << lookup(print.getOperand()).valuesToString() << "\n";
        llvm::outs() << line;
        return success();
      })
      .Case([&](interpreter::ProbeOp probe) -> LogicalResult {
        const Tensor &value = lookup(probe.getOperand());
        int64_t &runs = interpreter.probeRuns[probe.getProbeId()];
        FailureOr<std::string> path = getProbePath(op, probe.getProbeId(), runs);
        if (failed(path))
          return failure();
        if (llvm::Error error = writeNpy(*path, value))
          return op.emitError() << "cannot write the probe: "
                                << llvm::toString(std::move(error));
        ++runs;
        bind(op, {value});
        return success();
      })
      // Each tensor result takes the next value of the run's infeed queue;
      // the token result is the empty tensor tokens are.
      .Case([&](stablehlo::InfeedOp infeed) -> LogicalResult {
        std::vector<Tensor> results;
        for (Value result : infeed.getResults()) {
          if (isa<stablehlo::TokenType>(result.getType())) {
            results.emplace_back();
            continue;
          }
          std::optional<Tensor> value =
              process.infeed ? process.infeed->pop() : std::nullopt;
          if (!value)
            return op.emitError()
                   << "the infeed is empty (interpreter.run_parallel's "
                      "`infeed` lists the values it holds)";
          FailureOr<TensorSpec> spec = getTensorSpec(result.getType(), op.getLoc());
          if (failed(spec))
            return failure();
          if (value->dtype() != spec->dtype || value->shape() != spec->shape)
            return op.emitError() << "the infeed's next value is a "
                                  << toString(TensorSpec{value->dtype(), value->shape()})
                                  << " but result #"
                                  << cast<OpResult>(result).getResultNumber()
                                  << " is " << result.getType();
          results.push_back(std::move(*value));
        }
        bind(op, std::move(results));
        return success();
      })
      // There is no host to receive the values: they are dropped, and the
      // op orders nothing the interpreter does not already run in order.
      .Case([&](stablehlo::OutfeedOp) {
        bind(op, {Tensor()});
        return success();
      })
      .Case([&](chlo::SquareOp square) {
        const Tensor &x = lookup(square.getOperand());
        bind(op, {binary(BinaryKind::Multiply, x, x)});
        return success();
      })
      .Case([&](stablehlo::CompareOp compare) {
        std::optional<stablehlo::ComparisonType> type = compare.getCompareType();
        bind(op, {runtime::compare(
                     toCompareKind(compare.getComparisonDirection()),
                     lookup(compare.getLhs()), lookup(compare.getRhs()),
                     type == stablehlo::ComparisonType::TOTALORDER)});
        return success();
      })
      .Case([&](stablehlo::SelectOp select) {
        bind(op, {runtime::select(lookup(select.getPred()), lookup(select.getOnTrue()),
                                  lookup(select.getOnFalse()))});
        return success();
      })
      .Case([&](stablehlo::ClampOp clamp) {
        bind(op, {runtime::clamp(lookup(clamp.getMin()), lookup(clamp.getOperand()),
                                 lookup(clamp.getMax()))});
        return success();
      })
      .Case([&](stablehlo::ReducePrecisionOp reduce) {
        bind(op, {runtime::reducePrecision(lookup(reduce.getOperand()),
                                           reduce.getExponentBits(),
                                           reduce.getMantissaBits())});
        return success();
      })
      .Case([&](stablehlo::IsFiniteOp finite) {
        bind(op, {runtime::isFinite(lookup(finite.getOperand()))});
        return success();
      })
      .Case([&](stablehlo::ConvertOp convert) {
        DType to = *getDType(getElementTypeOrSelf(convert.getType()), op.getLoc());
        bind(op, {runtime::convert(lookup(convert.getOperand()), to)});
        return success();
      })
      .Case([&](stablehlo::BitcastConvertOp bitcast) {
        DType to = *getDType(getElementTypeOrSelf(bitcast.getType()), op.getLoc());
        bind(op, {bitcastConvert(lookup(bitcast.getOperand()), to,
                                 shapeOf(bitcast.getResult()))});
        return success();
      })
      .Case([&](stablehlo::ComplexOp complex) {
        bind(op, {makeComplex(lookup(complex.getLhs()), lookup(complex.getRhs()))});
        return success();
      })
      .Case([&](stablehlo::RealOp real) {
        bind(op, {realPart(lookup(real.getOperand()))});
        return success();
      })
      .Case([&](stablehlo::ImagOp imag) {
        bind(op, {imagPart(lookup(imag.getOperand()))});
        return success();
      })
      .Case([&](stablehlo::FftOp fftOp) {
        DType resultType =
            *getDType(getElementTypeOrSelf(fftOp.getType()), op.getLoc());
        bind(op, {fft(lookup(fftOp.getOperand()), toFftKind(fftOp.getFftType()),
                      toVector(fftOp.getFftLength()),
                      shapeOf(fftOp.getResult()), resultType)});
        return success();
      })
      .Case([&](stablehlo::RngBitGeneratorOp generator) -> LogicalResult {
        DType dtype =
            *getDType(getElementTypeOrSelf(generator.getOutput().getType()),
                      op.getLoc());
        if (!supportsRandomBits(dtype))
          return op.emitError() << "'" << name << "' producing "
                                << dtypeName(dtype)
                                << " is not supported by the interpreter (8-, "
                                   "16-, 32- and 64-bit types are)";
        const Tensor &stateTensor = lookup(generator.getInitialState());
        std::vector<uint64_t> state(stateTensor.numElements());
        std::memcpy(state.data(), stateTensor.bytes(), stateTensor.byteSize());
        // DEFAULT is Philox, XLA's default on CPU and GPU.
        BitGenerator algorithm =
            generator.getRngAlgorithm() == stablehlo::RngAlgorithm::THREE_FRY
                ? BitGenerator::ThreeFry
                : BitGenerator::Philox;
        RandomBits bits = generateRandomBits(algorithm, state, dtype,
                                             shapeOf(generator.getOutput()));
        Tensor nextState = Tensor::empty(DType::UI64, stateTensor.shape());
        std::memcpy(nextState.bytes(), bits.state.data(), nextState.byteSize());
        bind(op, {std::move(nextState), std::move(bits.output)});
        return success();
      })
      .Case([&](stablehlo::IotaOp iota) {
        DType dtype = *getDType(getElementTypeOrSelf(iota.getType()), op.getLoc());
        bind(op, {runtime::iota(dtype, shapeOf(iota.getResult()),
                                iota.getIotaDimension())});
        return success();
      })
      .Case([&](stablehlo::ReshapeOp reshape) {
        bind(op, {lookup(reshape.getOperand()).reshaped(shapeOf(reshape.getResult()))});
        return success();
      })
      .Case([&](stablehlo::BroadcastInDimOp broadcast) {
        bind(op, {broadcastInDim(lookup(broadcast.getOperand()),
                                 shapeOf(broadcast.getResult()),
                                 toVector(broadcast.getBroadcastDimensions()))});
        return success();
      })
      .Case([&](stablehlo::TransposeOp transposeOp) {
        bind(op, {transpose(lookup(transposeOp.getOperand()),
                            toVector(transposeOp.getPermutation()))});
        return success();
      })
      .Case([&](stablehlo::SliceOp sliceOp) {
        bind(op, {slice(lookup(sliceOp.getOperand()), toVector(sliceOp.getStartIndices()),
                        toVector(sliceOp.getLimitIndices()), toVector(sliceOp.getStrides()))});
        return success();
      })
      .Case([&](stablehlo::DynamicSliceOp sliceOp) {
        bind(op, {dynamicSlice(lookup(sliceOp.getOperand()),
                               scalarsAsInts(sliceOp.getStartIndices()),
                               toVector(sliceOp.getSliceSizes()))});
        return success();
      })
      .Case([&](stablehlo::DynamicUpdateSliceOp update) {
        bind(op, {dynamicUpdateSlice(lookup(update.getOperand()), lookup(update.getUpdate()),
                                     scalarsAsInts(update.getStartIndices()))});
        return success();
      })
      .Case([&](stablehlo::ConcatenateOp concat) {
        bind(op, {concatenate(lookupAll(concat.getInputs()), concat.getDimension())});
        return success();
      })
      .Case([&](stablehlo::PadOp padOp) {
        bind(op, {pad(lookup(padOp.getOperand()), lookup(padOp.getPaddingValue()),
                      toVector(padOp.getEdgePaddingLow()), toVector(padOp.getEdgePaddingHigh()),
                      toVector(padOp.getInteriorPadding()))});
        return success();
      })
      .Case([&](stablehlo::ReverseOp reverseOp) {
        bind(op, {reverse(lookup(reverseOp.getOperand()), toVector(reverseOp.getDimensions()))});
        return success();
      })
      .Case([&](stablehlo::DotGeneralOp dot) {
        FoldedDot read = getDotOperands(dot);
        bind(op, {dotInResultType(op, lookup(read.lhs), lookup(read.rhs),
                                  read.dims)});
        return success();
      })
      .Case([&](stablehlo::DotOp dot) {
        // Legacy dot: contracts the last lhs dim with the first rhs dim.
        const Tensor &lhs = lookup(dot.getLhs());
        DotDimensions dims{{}, {}, {lhs.rank() - 1}, {0}};
        bind(op, {dotInResultType(op, lhs, lookup(dot.getRhs()), dims)});
        return success();
      })
      .Case([&](stablehlo::ConvolutionOp conv) {
        bind(op, {runConvolution(conv)});
        return success();
      })
      .Case([&](stablehlo::ReduceOp reduceOp) { return runReduce(reduceOp); })
      .Case([&](stablehlo::ReduceWindowOp reduceWindowOp) {
        return runReduceWindow(reduceWindowOp);
      })
      .Case([&](stablehlo::SelectAndScatterOp selectAndScatterOp) {
        return runSelectAndScatter(selectAndScatterOp);
      })
      .Case([&](stablehlo::GatherOp gatherOp) {
        stablehlo::GatherDimensionNumbersAttr numbers = gatherOp.getDimensionNumbers();
        GatherDimensions dims{toVector(numbers.getOffsetDims()),
                              toVector(numbers.getCollapsedSliceDims()),
                              toVector(numbers.getOperandBatchingDims()),
                              toVector(numbers.getStartIndicesBatchingDims()),
                              toVector(numbers.getStartIndexMap()),
                              numbers.getIndexVectorDim()};
        bind(op, {gather(lookup(gatherOp.getOperand()), lookup(gatherOp.getStartIndices()),
                         dims, toVector(gatherOp.getSliceSizes()),
                         shapeOf(gatherOp.getResult()))});
        return success();
      })
      .Case(
          [&](stablehlo::ScatterOp scatterOp) { return runScatter(scatterOp); })
      .Case([&](stablehlo::SortOp sortOp) { return runSort(sortOp); })
      .Case([&](stablehlo::WhileOp whileOp) {
        std::vector<Tensor> state = lookupAll(whileOp.getOperand());
        while (true) {
          FailureOr<std::vector<Tensor>> condition = runRegion(whileOp.getCond(), state);
          if (failed(condition))
            return failure();
          if (!condition->front().elementAsInt(0))
            break;
          FailureOr<std::vector<Tensor>> next = runRegion(whileOp.getBody(), state);
          if (failed(next))
            return failure();
          state = std::move(*next);
        }
        bind(op, std::move(state));
        return success();
      })
      .Case([&](stablehlo::IfOp ifOp) {
        Region &branch = lookup(ifOp.getPred()).elementAsInt(0) ? ifOp.getTrueBranch()
                                                                 : ifOp.getFalseBranch();
        FailureOr<std::vector<Tensor>> results = runRegion(branch, {});
        if (failed(results))
          return failure();
        bind(op, std::move(*results));
        return success();
      })
      .Case([&](stablehlo::CaseOp caseOp) {
        int64_t index = lookup(caseOp.getIndex()).elementAsInt(0);
        int64_t count = caseOp.getBranches().size();
        if (index < 0 || index >= count)
          index = count - 1;
        FailureOr<std::vector<Tensor>> results =
            runRegion(caseOp.getBranches()[index], {});
        if (failed(results))
          return failure();
        bind(op, std::move(*results));
        return success();
      })
      .Case([&](stablehlo::OptimizationBarrierOp barrier) {
        bind(op, lookupAll(barrier.getOperand()));
        return success();
      })
      // Run synchronously (the spec allows it): the future holds the body's
      // results until async_done.
      .Case([&](stablehlo::AsyncStartOp start) {
        FailureOr<std::vector<Tensor>> results =
            runRegion(start.getBody(), {});
        if (failed(results))
          return failure();
        tuples[start.getResult()] = std::move(*results);
        return success();
      })
      .Case([&](stablehlo::AsyncDoneOp done) {
        bind(op, tuples[done.getOperand()]);
        return success();
      })
      .Case([&](stablehlo::TupleOp tuple) {
        tuples[tuple.getResult()] = lookupFlattened(tuple.getVal());
        return success();
      })
      .Case([&](stablehlo::GetTupleElementOp get) {
        // The leaves of the elements before `index` come first.
        auto tupleType = cast<TupleType>(get.getOperand().getType());
        auto countLeaves = [&](TypeRange types) {
          SmallVector<Type> leaves;
          TupleType::get(op.getContext(), types).getFlattenedTypes(leaves);
          return leaves.size();
        };
        size_t first = countLeaves(tupleType.getTypes().take_front(get.getIndex()));
        const std::vector<Tensor> &leaves = tuples[get.getOperand()];
        Value result = get.getResult();
        if (isa<TupleType>(result.getType()))
          tuples[result] = std::vector<Tensor>(
              leaves.begin() + first,
              leaves.begin() + first + countLeaves(result.getType()));
        else
          values[result] = leaves[first];
        return success();
      })
      .Case([&](sdy::ShardingConstraintOp constraint) {
        bind(op, {lookup(constraint.getInput())});
        return success();
      })
      // A named computation (the unpartitioned program's labels) runs its
      // region on its operands, in this frame: it is isolated from above.
      .Case([&](mpmd::NamedComputationOp named) -> LogicalResult {
        const double start = getThreadCpuSeconds();
        ++namedComputationDepth;
        FailureOr<std::vector<Tensor>> results =
            runRegion(named.getRegion(), lookupAll(named.getTensors()));
        --namedComputationDepth;
        if (failed(results))
          return failure();
        if (interpreter.namedComputationObserver)
          interpreter.namedComputationObserver(named,
                                               getThreadCpuSeconds() - start);
        bind(op, std::move(*results));
        return success();
      })
      // Shardy's named computation (inside a shard_map body, say) likewise:
      // its shardings say nothing about the values.
      .Case([&](sdy::NamedComputationOp named) -> LogicalResult {
        FailureOr<std::vector<Tensor>> results =
            runRegion(named.getBody(), lookupAll(named.getOperands()));
        if (failed(results))
          return failure();
        bind(op, std::move(*results));
        return success();
      })
      // mpmd.call (a microbatch) runs its callee like func.call.
      .Case<func::CallOp, mpmd::CallOp>([&](auto call) -> LogicalResult {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (!callee)
          return call.emitError() << "no function named " << call.getCalleeAttr();
        FailureOr<std::vector<Tensor>> results =
            interpreter.run(callee, lookupFlattened(call.getOperands()));
        if (failed(results))
          return failure();
        bindFlattened(op.getResults(), std::move(*results));
        return success();
      })
      .Default([&](Operation *) {
        return op.emitError() << "'" << name
                              << "' is not supported by the interpreter";
      });
}

bool Interpreter::Frame::computesDequantized(Operation &op) {
  if (isa<stablehlo::UniformQuantizeOp, stablehlo::UniformDequantizeOp>(op))
    return true;
  auto isQuantizedType = [](Type type) { return stablehlo::isQuantized(type); };
  if (llvm::none_of(op.getOperandTypes(), isQuantizedType) &&
      llvm::none_of(op.getResultTypes(), isQuantizedType))
    return false;
  // The elementwise arithmetic ops (the bitwise ones take no quantized
  // types), and those whose spec section says dequantize_op_quantize.
  return op.hasTrait<stablehlo::OpTrait::CompatibleOperandsAndResultType>() ||
         isa<stablehlo::AbsOp, stablehlo::ClampOp, stablehlo::SelectOp,
             stablehlo::CompareOp, stablehlo::IsFiniteOp, stablehlo::IotaOp,
             stablehlo::DotGeneralOp, stablehlo::DotOp,
             stablehlo::ConvolutionOp, stablehlo::BatchNormTrainingOp,
             stablehlo::BatchNormInferenceOp, stablehlo::BatchNormGradOp,
             stablehlo::CholeskyOp, stablehlo::TriangularSolveOp>(op);
}

LogicalResult Interpreter::Frame::runDequantized(Operation &op) {
  Location loc = op.getLoc();
  auto dequantized = [&](Value value) -> FailureOr<Tensor> {
    const Tensor &tensor = lookup(value);
    if (!stablehlo::isQuantized(value.getType()))
      return tensor;
    FailureOr<QuantizedElementType> type =
        getQuantizedElementType(value.getType(), loc);
    if (failed(type))
      return failure();
    return dequantize(tensor, *type);
  };
  auto quantizedAs = [&](Tensor floats, Type type) -> FailureOr<Tensor> {
    if (!stablehlo::isQuantized(type))
      return floats;
    FailureOr<QuantizedElementType> quantized =
        getQuantizedElementType(type, loc);
    if (failed(quantized))
      return failure();
    return quantize(floats, *quantized);
  };
  if (isa<stablehlo::UniformQuantizeOp, stablehlo::UniformDequantizeOp>(op)) {
    FailureOr<Tensor> floats = dequantized(op.getOperand(0));
    if (failed(floats))
      return failure();
    FailureOr<Tensor> result = quantizedAs(*floats, op.getResult(0).getType());
    if (failed(result))
      return failure();
    bind(op, {std::move(*result)});
    return success();
  }
  // is_finite of a quantized tensor: every element is finite.
  if (auto finite = dyn_cast<stablehlo::IsFiniteOp>(op)) {
    Tensor result = Tensor::empty(DType::I1, shapeOf(finite.getY()));
    std::memset(result.bytes(), 1, result.byteSize());
    bind(op, {std::move(result)});
    return success();
  }
  // The op itself, on the expressed types: a clone whose operands are the
  // arguments of a block of its own, run like any op.
  std::unique_ptr<Block> &block = interpreter.dequantizedOps[&op];
  if (!block) {
    block = std::make_unique<Block>();
    IRMapping mapping;
    for (Value operand : op.getOperands())
      mapping.map(operand,
                  block->addArgument(stablehlo::getExpressedTensorType(
                                         operand.getType()),
                                     loc));
    // The block has no parent region to take the context from.
    OpBuilder builder(op.getContext());
    builder.setInsertionPointToEnd(block.get());
    Operation *clone = builder.clone(op, mapping);
    for (OpResult result : clone->getResults())
      result.setType(stablehlo::getExpressedTensorType(result.getType()));
  }
  Operation &floatOp = block->front();
  for (auto [operand, argument] :
       llvm::zip(op.getOperands(), block->getArguments())) {
    FailureOr<Tensor> floats = dequantized(operand);
    if (failed(floats))
      return failure();
    values[argument] = std::move(*floats);
  }
  llvm::scope_exit forget([&] {
    for (Value value : llvm::concat<Value>(block->getArguments(),
                                           floatOp.getResults()))
      values.erase(value);
  });
  // The clone's operands are not the block's values: none dies there.
  const llvm::SmallVector<Value, 2> *dying =
      std::exchange(dyingAtCurrentOp, nullptr);
  LogicalResult ran = runOp(floatOp);
  dyingAtCurrentOp = dying;
  if (failed(ran))
    return failure();
  std::vector<Tensor> results;
  for (auto [result, floatResult] :
       llvm::zip(op.getResults(), floatOp.getResults())) {
    FailureOr<Tensor> tensor = quantizedAs(values[floatResult], result.getType());
    if (failed(tensor))
      return failure();
    results.push_back(std::move(*tensor));
  }
  bind(op, std::move(results));
  return success();
}

LogicalResult Interpreter::Frame::runChain(const FusedChain &chain) {
  Operation &root = *chain.root;
  // The planner checked the chain's type; this also checks sizes.
  FailureOr<TensorSpec> spec =
      getTensorSpec(root.getResult(0).getType(), root.getLoc());
  if (failed(spec))
    return failure();
  // The result may take over the buffer of an input of its shape that dies
  // here, nothing else refers to, and the chain reads only once (a second,
  // broadcast read would see elements already overwritten).
  std::optional<Tensor> result;
  const std::vector<int64_t> plainStrides = rowMajorStrides(spec->shape);
  for (auto [input, strides] : llvm::zip(chain.inputs, chain.inputStrides)) {
    if (result || strides != plainStrides || !dyingAtCurrentOp ||
        !llvm::is_contained(*dyingAtCurrentOp, input) ||
        llvm::count(chain.inputs, input) != 1)
      continue;
    Tensor &tensor = values[input];
    if (tensor.ownsBufferAlone())
      result = tensor;
  }
  std::vector<FusedInput> inputs;
  inputs.reserve(chain.inputs.size());
  for (auto [input, strides] : llvm::zip(chain.inputs, chain.inputStrides))
    inputs.push_back({lookup(input), strides});
  if (!result)
    result = Tensor::empty(spec->dtype, spec->shape);
  fusedElementwise(chain.operations, inputs, *result);
  bind(root, {std::move(*result)});
  return success();
}

FailureOr<Tensor>
Interpreter::Frame::combineElementwise(Region &computation, const Tensor &lhs,
                                       const Tensor &rhs) {
  if (std::optional<ReduceKind> kind = matchReduceCombiner(computation))
    if (supportsBinary(toBinaryKind(*kind), lhs.dtype()))
      return binary(toBinaryKind(*kind), lhs, rhs);
  // Any other body: one region run per element.
  Tensor result = Tensor::empty(lhs.dtype(), lhs.shape());
  for (int64_t i = 0, e = lhs.numElements(); i < e; ++i) {
    FailureOr<std::vector<Tensor>> combined =
        runRegion(computation, {lhs.elementAt(i), rhs.elementAt(i)});
    if (failed(combined))
      return failure();
    result.setElement(i, (*combined)[0]);
  }
  return result;
}

FoldedDot Interpreter::Frame::getDotOperands(stablehlo::DotGeneralOp dot) {
  if (const FoldedDot *folded = currentPlan->fusion.getFoldedDot(dot))
    return *folded;
  stablehlo::DotDimensionNumbersAttr numbers = dot.getDotDimensionNumbers();
  return FoldedDot{dot.getLhs(), dot.getRhs(),
                   DotDimensions{toVector(numbers.getLhsBatchingDimensions()),
                                 toVector(numbers.getRhsBatchingDimensions()),
                                 toVector(numbers.getLhsContractingDimensions()),
                                 toVector(numbers.getRhsContractingDimensions())}};
}

LogicalResult
Interpreter::Frame::runAccumulatingDot(Operation &add,
                                       const AccumulatingDot &accumulating) {
  FoldedDot read = getDotOperands(cast<stablehlo::DotGeneralOp>(accumulating.dot));
  const Tensor &addend = lookup(accumulating.addend);
  // The addend's buffer takes the product when nothing else reads it: it
  // dies here, no other tensor shares it, and the dot does not read it
  // (through a folded transpose).
  const bool reusable =
      dyingAtCurrentOp &&
      llvm::is_contained(*dyingAtCurrentOp, accumulating.addend) &&
      addend.ownsBufferAlone() && read.lhs != accumulating.addend &&
      read.rhs != accumulating.addend;
  Tensor accumulator = reusable ? addend : addend.clone();
  dotGeneralAccumulate(lookup(read.lhs), lookup(read.rhs), read.dims,
                       accumulator);
  bind(add, {std::move(accumulator)});
  return success();
}

Tensor Interpreter::Frame::dotInResultType(Operation &op, const Tensor &lhs,
                                           const Tensor &rhs,
                                           const DotDimensions &dims) {
  // A wider result type (JAX's preferred_element_type, e.g. i8 x i8 -> i32
  // or bf16 x bf16 -> f32): the operands are converted to it first, so
  // products and sums are computed in it, as XLA does.
  DType resultType =
      *getDType(getElementTypeOrSelf(op.getResult(0).getType()), op.getLoc());
  if (lhs.dtype() == resultType && rhs.dtype() == resultType)
    return dotGeneral(lhs, rhs, dims);
  return dotGeneral(convert(lhs, resultType), convert(rhs, resultType), dims);
}

Tensor Interpreter::Frame::runConvolution(stablehlo::ConvolutionOp op) {
  ConvolutionDimensions dims = getConvolutionDimensions(op);
  if (std::optional<DenseIntElementsAttr> padding = op.getPadding())
    for (auto [i, value] : llvm::enumerate(padding->getValues<int64_t>()))
      (i % 2 ? dims.paddingHigh : dims.paddingLow)[i / 2] = value;
  // A wider result type (JAX's preferred_element_type): the operands are
  // converted to it first, so the products and sums are computed in it.
  Tensor lhs = lookup(op.getLhs()), rhs = lookup(op.getRhs());
  DType resultType =
      *getDType(getElementTypeOrSelf(op.getType()), op.getLoc());
  if (lhs.dtype() != resultType) {
    lhs = convert(lhs, resultType);
    rhs = convert(rhs, resultType);
  }
  return convolution(lhs, rhs, dims, shapeOf(op.getResult()));
}

LogicalResult Interpreter::Frame::runReduce(stablehlo::ReduceOp op) {
  std::vector<Tensor> inputs = lookupAll(op.getInputs());
  std::vector<Tensor> inits = lookupAll(op.getInitValues());
  std::vector<int64_t> dimensions = toVector(op.getDimensions());
  std::optional<ReduceKind> kind = matchReduceCombiner(op.getBody());
  if (kind && supportsReduce(*kind, inputs[0].dtype())) {
    bind(*op, {reduce(*kind, inputs[0], inits[0], dimensions)});
    return success();
  }
  // Any other body (or dtype the kernel lacks, such as complex): fold
  // element by element through the region, in the operand's memory order.
  // Slow (one region run per element) but general (variadic reductions
  // such as argmax).
  const Shape &shape = inputs[0].shape();
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t d : dimensions)
    reduced[d] = true;
  std::vector<Tensor> results;
  Shape resultShape = shapeOf(op.getResult(0));
  for (const Tensor &init : inits)
    results.push_back(broadcastInDim(init, resultShape, {}));
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0, e = inputs[0].numElements(); linear < e; ++linear) {
    int64_t outOffset = 0;
    for (int64_t d = 0, rest = linear; d < static_cast<int64_t>(shape.size()); ++d) {
      int64_t inner = numElementsOf(Shape(shape.begin() + d + 1, shape.end()));
      int64_t coordinate = rest / inner;
      rest %= inner;
      if (!reduced[d])
        outOffset = outOffset * shape[d] + coordinate;
    }
    std::vector<Tensor> arguments;
    for (const Tensor &result : results)
      arguments.push_back(result.elementAt(outOffset));
    for (const Tensor &input : inputs)
      arguments.push_back(input.elementAt(linear));
    FailureOr<std::vector<Tensor>> combined = runRegion(op.getBody(), arguments);
    if (failed(combined))
      return failure();
    for (auto [result, value] : llvm::zip(results, *combined))
      result.setElement(outOffset, value);
  }
  bind(*op, std::move(results));
  return success();
}

LogicalResult
Interpreter::Frame::runReduceWindow(stablehlo::ReduceWindowOp op) {
  std::vector<Tensor> inputs = lookupAll(op.getInputs());
  std::vector<Tensor> inits = lookupAll(op.getInitValues());
  FailureOr<WindowDimensions> window = getWindow(
      op, inputs[0].rank(), op.getWindowDimensions(), op.getWindowStrides(),
      op.getBaseDilations(), op.getWindowDilations(), op.getPadding());
  if (failed(window))
    return failure();
  Shape resultShape = shapeOf(op.getResult(0));
  std::optional<ReduceKind> kind = matchReduceCombiner(op.getBody());
  if (inputs.size() == 1 && kind && supportsReduce(*kind, inputs[0].dtype())) {
    bind(*op, {reduceWindow(*kind, inputs[0], inits[0], *window, resultShape)});
    return success();
  }
  // Any other body (or several inputs, or a dtype the kernel lacks): one
  // region run per window element, padding and holes reading the init
  // values.
  std::vector<Tensor> results;
  for (const Tensor &init : inits)
    results.push_back(broadcastInDim(init, resultShape, {}));
  LogicalResult status = success();
  WindowIndexer(inputs[0].shape(), resultShape, *window)
      .forEach([&](int64_t resultIndex, int64_t, int64_t source) {
        if (failed(status))
          return;
        std::vector<Tensor> arguments;
        for (const Tensor &result : results)
          arguments.push_back(result.elementAt(resultIndex));
        for (auto [input, init] : llvm::zip(inputs, inits))
          arguments.push_back(source < 0 ? init : input.elementAt(source));
        FailureOr<std::vector<Tensor>> combined =
            runRegion(op.getBody(), arguments);
        if (failed(combined)) {
          status = failure();
          return;
        }
        for (auto [result, value] : llvm::zip(results, *combined))
          result.setElement(resultIndex, value);
      });
  if (failed(status))
    return failure();
  bind(*op, std::move(results));
  return success();
}

LogicalResult
Interpreter::Frame::runSelectAndScatter(stablehlo::SelectAndScatterOp op) {
  // Copies (of the handles): running the regions adds values to the frame,
  // which may move the map's entries.
  Tensor operand = lookup(op.getOperand());
  Tensor source = lookup(op.getSource());
  Tensor init = lookup(op.getInitValue());
  FailureOr<WindowDimensions> window = getWindow(
      op, operand.rank(), op.getWindowDimensions(), op.getWindowStrides(),
      std::nullopt, std::nullopt, op.getPadding());
  if (failed(window))
    return failure();
  bool padded = llvm::any_of(
      llvm::concat<const int64_t>(window->paddingLow, window->paddingHigh),
      [](int64_t value) { return value != 0; });
  std::optional<CompareKind> select = matchSelectComparison(op.getSelect());
  std::optional<ReduceKind> scatter = matchReduceCombiner(op.getScatter());
  // The kernel has no padding; the general path below never selects it.
  if (select && scatter && !padded) {
    if (!supportsReduce(*scatter, operand.dtype()))
      return op.emitError() << "this scatter combiner is not supported on "
                            << dtypeName(operand.dtype());
    bind(*op,
         {selectAndScatter(*select, *scatter, operand, source, init, *window)});
    return success();
  }
  // Other bodies, or padding: the select region per window element, the
  // scatter region per source element.
  Tensor result = broadcastInDim(init, operand.shape(), {});
  WindowIndexer indexer(operand.shape(), source.shape(), *window);
  int64_t lastPosition = indexer.getWindowSize() - 1;
  int64_t chosen = -1;
  LogicalResult status = success();
  indexer.forEach([&](int64_t sourceIndex, int64_t position, int64_t index) {
    if (failed(status))
      return;
    if (position == 0)
      chosen = -1;
    // Padding and positions outside the operand (index -1) are never
    // selected.
    if (index >= 0 && chosen < 0) {
      chosen = index;
    } else if (index >= 0) {
      FailureOr<std::vector<Tensor>> keep = runRegion(
          op.getSelect(),
          {operand.elementAt(chosen), operand.elementAt(index)});
      if (failed(keep)) {
        status = failure();
        return;
      }
      if ((*keep)[0].elementAsInt(0) == 0)
        chosen = index;
    }
    if (position != lastPosition || chosen < 0)
      return;
    FailureOr<std::vector<Tensor>> combined = runRegion(
        op.getScatter(),
        {result.elementAt(chosen), source.elementAt(sourceIndex)});
    if (failed(combined)) {
      status = failure();
      return;
    }
    result.setElement(chosen, (*combined)[0]);
  });
  if (failed(status))
    return failure();
  bind(*op, {std::move(result)});
  return success();
}

LogicalResult Interpreter::Frame::runScatter(stablehlo::ScatterOp op) {
  // One input whose update computation returns the update (replace) or is
  // one known binary op on the current value and the update: the kernel.
  // Anything else: the region, once per update element.
  std::optional<ReduceKind> combiner;
  Block &body = op.getUpdateComputation().front();
  Operation *terminator = body.getTerminator();
  bool isReplace = llvm::hasSingleElement(body) && terminator->getNumOperands() == 1 &&
                   terminator->getOperand(0) == body.getArgument(1);
  if (!isReplace)
    combiner = matchReduceCombiner(op.getUpdateComputation());
  if (op.getInputs().size() != 1 || (!isReplace && !combiner) ||
      (combiner && !supportsReduce(*combiner, lookup(op.getInputs()[0]).dtype()))) {
    FailureOr<std::vector<Tensor>> results = runScatterRegion(
        op, lookupAll(op.getInputs()), lookup(op.getScatterIndices()),
        lookupAll(op.getUpdates()), getCompoundOpContext());
    if (failed(results))
      return failure();
    bind(*op, std::move(*results));
    return success();
  }
  stablehlo::ScatterDimensionNumbersAttr numbers = op.getScatterDimensionNumbers();
  ScatterDimensions dims{toVector(numbers.getUpdateWindowDims()),
                         toVector(numbers.getInsertedWindowDims()),
                         toVector(numbers.getInputBatchingDims()),
                         toVector(numbers.getScatterIndicesBatchingDims()),
                         toVector(numbers.getScatterDimsToOperandDims()),
                         numbers.getIndexVectorDim()};
  bind(*op, {scatter(lookup(op.getInputs()[0]), lookup(op.getScatterIndices()),
                     lookup(op.getUpdates()[0]), dims, combiner)});
  return success();
}

LogicalResult Interpreter::Frame::runSort(stablehlo::SortOp op) {
  std::vector<Tensor> inputs = lookupAll(op.getInputs());
  const Shape &shape = inputs[0].shape();
  int64_t rank = inputs[0].rank(), count = inputs[0].numElements();
  // The verifier accepts dimension 0 on a 0-d input (as upstream does): one
  // element is already sorted, like an empty input.
  if (count == 0 || rank == 0) {
    bind(*op, std::move(inputs));
    return success();
  }
  int64_t dimension = op.getDimension() < 0 ? op.getDimension() + rank : op.getDimension();
  int64_t length = shape[dimension], stride = rowMajorStrides(shape)[dimension];
  std::vector<Tensor> results;
  for (const Tensor &input : inputs)
    results.push_back(input.clone());
  // Each line along `dimension` is sorted as a permutation of its positions;
  // the comparator region decides every comparison (O(n log n) region runs
  // per line of n elements: correct, not fast).
  std::vector<int64_t> order(length);
  bool comparatorFailed = false;
  auto lessThan = [&](int64_t base, int64_t a, int64_t b) {
    if (comparatorFailed)
      return false;
    std::vector<Tensor> arguments;
    for (const Tensor &input : inputs) {
      arguments.push_back(input.elementAt(base + a * stride));
      arguments.push_back(input.elementAt(base + b * stride));
    }
    FailureOr<std::vector<Tensor>> verdict = runRegion(op.getComparator(), arguments);
    if (failed(verdict)) {
      comparatorFailed = true;
      return false;
    }
    return verdict->front().elementAsInt(0) != 0;
  };
  for (int64_t line = 0, lines = count / length; line < lines; ++line) {
    int64_t base = line / stride * stride * length + line % stride;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return lessThan(base, a, b); });
    if (comparatorFailed)
      return failure();
    for (auto [input, result] : llvm::zip(inputs, results))
      for (int64_t k = 0; k < length; ++k)
        result.setElement(base + k * stride, input.elementAt(base + order[k] * stride));
  }
  bind(*op, std::move(results));
  return success();
}

FailureOr<std::string> Interpreter::Frame::getProbePath(Operation &op,
                                                       llvm::StringRef id,
                                                       int64_t run) {
  const std::string &directory = interpreter.options.probeDirectory;
  if (directory.empty())
    return op.emitError() << "'" << op.getName()
                          << "' needs a probe directory (mpmd interpret "
                             "--probe-output-dir DIR)";
  llvm::SmallString<128> path(directory);
  llvm::sys::path::append(path, id + "_" + llvm::Twine(run) + ".npy");
  return std::string(path);
}

InfeedQueue::InfeedQueue(std::vector<Tensor> values)
    : values(std::move(values)) {}

std::optional<Tensor> InfeedQueue::pop() {
  std::lock_guard<std::mutex> lock(mutex);
  if (next == values.size())
    return std::nullopt;
  return values[next++];
}

void Interpreter::Frame::recordCheckFailure(Operation &op, const Tensor &actual,
                                            const Tensor &expected, int64_t index,
                                            llvm::StringRef detail) {
  if (interpreter.firstCheckFailure)
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op.getName() << " at ";
  if (auto fileLoc = dyn_cast<FileLineColLoc>(op.getLoc()))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    os << op.getLoc();
  os << ": element " << index << " is "
     << actual.elementAt(index).valuesToString() << ", expected "
     << expected.elementAt(index).valuesToString() << detail
     << "; got " << actual.valuesToString() << ", expected "
     << expected.valuesToString();
  interpreter.firstCheckFailure = text;
}

LogicalResult Interpreter::Frame::runCheck(Operation &op) {
  auto expectedOf = [&](Attribute value) -> FailureOr<Tensor> {
    return tensorFromAttr(cast<ElementsAttr>(value), op.getLoc());
  };
  auto checkEqual = [&](const Tensor &actual, const Tensor &expected,
                        double tolerance) {
    if (std::optional<int64_t> index = firstMismatch(actual, expected, tolerance))
      recordCheckFailure(op, actual, expected, *index,
                         tolerance > 0 ? " (tolerance " + std::to_string(tolerance) + ")"
                                       : "");
    return success();
  };
  auto checkUlps = [&](const Tensor &actual, const Tensor &expected,
                       int64_t minUlp, int64_t maxUlp) {
    for (int64_t i = 0, e = actual.numElements(); i < e; ++i) {
      int64_t distance = ulpDistance(actual, expected, i);
      if (distance > maxUlp || distance < minUlp) {
        recordCheckFailure(op, actual, expected, i,
                           " (" + std::to_string(distance) + " ULPs apart)");
        break;
      }
    }
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      // StableHLO's testdata form: `custom_call @check.expect_eq(%actual,
      // %expected)`, with the check ops' default tolerances.
      .Case([&](stablehlo::CustomCallOp call) -> LogicalResult {
        CustomCallCheck check = *getCustomCallCheck(call);
        if (call.getInputs().size() != 2 || call.getNumResults() != 0 ||
            call.getInputs()[0].getType() != call.getInputs()[1].getType())
          return op.emitError() << "custom call @" << call.getCallTargetName()
                                << " takes two operands of one type (actual, "
                                   "expected) and returns nothing";
        const Tensor &actual = lookup(call.getInputs()[0]);
        const Tensor &expected = lookup(call.getInputs()[1]);
        switch (check.kind) {
        case CustomCallCheck::Equal:
          return checkEqual(actual, expected, 0);
        case CustomCallCheck::AlmostEqual:
          return checkEqual(actual, expected, check.tolerance);
        case CustomCallCheck::Close:
          return checkUlps(actual, expected, 0, check.maxUlpDifference);
        }
        return success();
      })
      .Case([&](check::ExpectEqOp eq) {
        return checkEqual(lookup(eq.getLhs()), lookup(eq.getRhs()), 0);
      })
      .Case([&](check::ExpectEqConstOp eq) {
        FailureOr<Tensor> expected = expectedOf(eq.getValue());
        return failed(expected) ? failure() : checkEqual(lookup(eq.getLhs()), *expected, 0);
      })
      .Case([&](check::ExpectAlmostEqOp eq) {
        return checkEqual(lookup(eq.getLhs()), lookup(eq.getRhs()),
                          eq.getTolerance().convertToDouble());
      })
      .Case([&](check::ExpectAlmostEqConstOp eq) {
        FailureOr<Tensor> expected = expectedOf(eq.getValue());
        return failed(expected) ? failure()
                                : checkEqual(lookup(eq.getLhs()), *expected,
                                             eq.getTolerance().convertToDouble());
      })
      .Case([&](check::ExpectSerializedEqOp eq) -> LogicalResult {
        FailureOr<std::string> path =
            getProbePath(op, eq.getProbeId(), static_cast<int64_t>(eq.getIter()));
        if (failed(path))
          return failure();
        llvm::Expected<Tensor> probed = readNpy(*path);
        if (!probed)
          return op.emitError()
                 << "no value of probe \"" << eq.getProbeId() << "\" run "
                 << static_cast<int64_t>(eq.getIter()) << ": "
                 << llvm::toString(probed.takeError());
        const Tensor &expected = lookup(eq.getExpected());
        // .npy has no bf16, f8, ...: those were written widened, exactly.
        Tensor stored = probed->dtype() == expected.dtype()
                            ? *probed
                            : convert(*probed, expected.dtype());
        if (stored.shape() != expected.shape())
          return op.emitError()
                 << "probe \"" << eq.getProbeId() << "\" holds a "
                 << toString(TensorSpec{probed->dtype(), probed->shape()})
                 << ", not a " << eq.getExpected().getType();
        return checkEqual(stored, expected, 0);
      })
      .Case([&](check::ExpectCloseOp close) {
        return checkUlps(lookup(close.getActual()), lookup(close.getExpected()),
                         close.getMinUlpDifference(), close.getMaxUlpDifference());
      })
      .Default([&](Operation *) {
        return op.emitError() << "'" << op.getName()
                              << "' is not supported by the interpreter";
      });
}

std::optional<ReduceKind> matchReduceCombiner(Region &body) {
  Block &block = body.front();
  if (block.getNumArguments() != 2 || !llvm::hasNItems(block, 2))
    return std::nullopt;
  // Quantized arithmetic is not the kernels' arithmetic on the storage
  // integers: such bodies run op by op.
  if (llvm::any_of(block.getArgumentTypes(),
                   [](Type type) { return stablehlo::isQuantized(type); }))
    return std::nullopt;
  Operation &combiner = block.front();
  Operation *terminator = block.getTerminator();
  auto kind = reduceCombiners().find(combiner.getName().getStringRef());
  if (kind == reduceCombiners().end() || combiner.getNumOperands() != 2 ||
      terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != combiner.getResult(0))
    return std::nullopt;
  Value a = block.getArgument(0), b = block.getArgument(1);
  Value x = combiner.getOperand(0), y = combiner.getOperand(1);
  if (!((x == a && y == b) || (x == b && y == a)))
    return std::nullopt;
  return kind->second;
}

} // namespace mlir::mpmd::runtime
