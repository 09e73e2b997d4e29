//===- InterpreterCompoundOps.cpp - compound ops, custom calls ------------===//

#include "InterpreterCompoundOps.h"

#include "mpmd/Dialect/Chlo/IR/ChloOps.h"
#include "mpmd/Runtime/CompoundKernels.h"
#include "mpmd/Runtime/Interpreter.h"
#include "mpmd/Runtime/Random.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <numbers>

namespace mlir::mpmd::runtime {

namespace {

using Results = FailureOr<std::vector<Tensor>>;

Shape shapeOf(Value value) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(value.getType()).getShape();
  return Shape(shape.begin(), shape.end());
}

DType dtypeOf(Value value) {
  // runOp checked every operand and result type before calling us.
  return *getDType(getElementTypeOrSelf(value.getType()), value.getLoc());
}

std::vector<int64_t> valuesOf(const Tensor &tensor) {
  std::vector<int64_t> values;
  for (int64_t i = 0, e = tensor.numElements(); i < e; ++i)
    values.push_back(tensor.elementAsInt(i));
  return values;
}

/// The float operands the kernels below compute in f64.
LogicalResult requireFloat(Operation &op, const Tensor &tensor) {
  if (isFloat(tensor.dtype()))
    return success();
  return op.emitError() << "'" << op.getName() << "' is not supported on "
                        << dtypeName(tensor.dtype())
                        << " by the interpreter (floats only)";
}

/// A shape operand's values must be the (static) result shape: the
/// interpreter runs static shapes only, and the spec makes a mismatch
/// undefined.
LogicalResult checkShapeOperand(Operation &op, const Tensor &shape,
                                Value result, StringRef what) {
  std::vector<int64_t> sizes = valuesOf(shape);
  Shape expected = shapeOf(result);
  if (sizes != expected)
    return op.emitError() << what << " is " << shape.valuesToString()
                          << " but the result type is " << result.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// stablehlo.rng
//===----------------------------------------------------------------------===//

/// Uniform in [0, 1) with 53 random bits.
double unitUniform(SplitMix64 &generator) {
  return static_cast<double>(generator.next() >> 11) * 0x1.0p-53;
}

/// O(elements) draws from `generator`.
Tensor drawRng(stablehlo::RngDistribution distribution, const Tensor &a,
               const Tensor &b, DType dtype, const Shape &shape,
               SplitMix64 &generator) {
  int64_t count = numElementsOf(shape);
  if (isFloat(dtype)) {
    double low = a.elementAsDouble(0), high = b.elementAsDouble(0);
    Tensor draws = Tensor::empty(DType::F64, shape);
    double *out = draws.data<double>();
    for (int64_t i = 0; i < count; ++i) {
      if (distribution == stablehlo::RngDistribution::UNIFORM) {
        out[i] = low + (high - low) * unitUniform(generator);
        continue;
      }
      // Box-Muller: mean `a`, standard deviation `b`; 1 - u is in (0, 1].
      double radius = std::sqrt(-2.0 * std::log(1.0 - unitUniform(generator)));
      double angle = 2.0 * std::numbers::pi * unitUniform(generator);
      out[i] = low + high * radius * std::cos(angle);
    }
    Tensor result = convert(draws, dtype);
    if (distribution == stablehlo::RngDistribution::UNIFORM && high > low) {
      // A draw just below b may round to b in a narrower dtype: it becomes
      // a, so that every value stays in [a, b) (a bias of about 2^-24 per
      // draw in f32). `a` has the result's dtype (C1).
      for (int64_t i = 0; i < count; ++i)
        if (result.elementAsDouble(i) >= high)
          result.setElement(i, a);
    }
    return result;
  }
  // Integers (and i1) uniform in [a, b); an empty range gives a.
  int64_t low = a.elementAsInt(0), high = b.elementAsInt(0);
  uint64_t range =
      high > low ? static_cast<uint64_t>(high) - static_cast<uint64_t>(low) : 0;
  Tensor draws = Tensor::empty(DType::I64, shape);
  int64_t *out = draws.data<int64_t>();
  for (int64_t i = 0; i < count; ++i) {
    uint64_t offset = range ? generator.next() % range : 0;
    out[i] = static_cast<int64_t>(static_cast<uint64_t>(low) + offset);
  }
  return convert(draws, dtype);
}

//===----------------------------------------------------------------------===//
// stablehlo.dynamic_conv
//===----------------------------------------------------------------------===//

/// Runs dynamic_conv with the padding `padding` [N - 2, 2], after checking
/// that it gives the result type's spatial sizes (the verifier could not
/// when the padding is not a constant).
Results runDynamicConv(stablehlo::DynamicConvOp op, const Tensor &lhs,
                       const Tensor &rhs, const Tensor &padding) {
  ConvolutionDimensions dims = getConvolutionDimensions(op);
  std::vector<int64_t> pads = valuesOf(padding);
  Shape resultShape = shapeOf(op.getResult());
  for (size_t s = 0; s < dims.inputSpatial.size(); ++s) {
    dims.paddingLow[s] = pads[2 * s];
    dims.paddingHigh[s] = pads[2 * s + 1];
    // (C25): the windows of the dilated, padded input.
    auto dilated = [](int64_t size, int64_t dilation) {
      return size == 0 ? 0 : (size - 1) * dilation + 1;
    };
    int64_t padded = dims.paddingLow[s] +
                     dilated(lhs.shape()[dims.inputSpatial[s]],
                             dims.lhsDilation[s]) +
                     dims.paddingHigh[s];
    int64_t window =
        dilated(rhs.shape()[dims.kernelSpatial[s]], dims.rhsDilation[s]);
    int64_t windows = padded <= 0 || window > padded
                          ? 0
                          : (padded - window) / dims.strides[s] + 1;
    if (windows != resultShape[dims.outputSpatial[s]])
      return op.emitError()
             << "padding " << padding.valuesToString() << " gives " << windows
             << " windows in spatial dimension " << s << " but the result type "
             << op.getType() << " has " << resultShape[dims.outputSpatial[s]];
  }
  return std::vector<Tensor>{convolution(lhs, rhs, dims, resultShape)};
}

//===----------------------------------------------------------------------===//
// Custom calls
//===----------------------------------------------------------------------===//

/// Targets that only annotate (shardings, shard/full shape changes of SPMD
/// partitioning, host offloading's memory moves): on one device they return
/// their operand.
bool isIdentityTarget(StringRef target) {
  return target == "Sharding" || target == "SPMDFullToShardShape" ||
         target == "SPMDShardToFullShape" || target == "MoveToHost" ||
         target == "MoveToDevice";
}

/// `mhlo.<name>` targets: chlo ops written as custom calls.
const llvm::StringMap<UnaryKind> &mathTargets() {
  static const llvm::StringMap<UnaryKind> targets = {
      {"mhlo.erf", UnaryKind::Erf},       {"mhlo.erfc", UnaryKind::Erfc},
      {"mhlo.lgamma", UnaryKind::Lgamma}, {"mhlo.sinh", UnaryKind::Sinh},
      {"mhlo.cosh", UnaryKind::Cosh},     {"mhlo.asin", UnaryKind::Asin},
      {"mhlo.acos", UnaryKind::Acos},     {"mhlo.atan", UnaryKind::Atan},
      {"mhlo.asinh", UnaryKind::Asinh},   {"mhlo.acosh", UnaryKind::Acosh},
      {"mhlo.atanh", UnaryKind::Atanh},   {"mhlo.tan", UnaryKind::Tan},
  };
  return targets;
}

Results runCustomCall(stablehlo::CustomCallOp call,
                      const std::vector<Tensor> &operands) {
  StringRef target = call.getCallTargetName();
  Operation &op = *call;
  if (isIdentityTarget(target)) {
    if (operands.size() != 1 || call.getNumResults() != 1)
      return op.emitError() << "custom call @" << target
                            << " must have one operand and one result";
    if (operands[0].dtype() != dtypeOf(call.getResult(0)) ||
        operands[0].shape() != shapeOf(call.getResult(0)))
      return op.emitError()
             << "custom call @" << target << " changes "
             << call.getOperand(0).getType() << " into "
             << call.getResult(0).getType()
             << ": the interpreter runs it on one device, where it is the "
                "identity";
    return std::vector<Tensor>{operands[0]};
  }
  auto math = mathTargets().find(target);
  if (math != mathTargets().end()) {
    if (operands.size() != 1 || call.getNumResults() != 1)
      return op.emitError() << "custom call @" << target
                            << " must have one operand and one result";
    if (!supportsUnary(math->second, operands[0].dtype()))
      return op.emitError()
             << "custom call @" << target << " is not supported on "
             << dtypeName(operands[0].dtype());
    return std::vector<Tensor>{unary(math->second, operands[0])};
  }
  if (target == "TopK" || target == "mhlo.topk") {
    // k is the size of the results' last dimension; XLA's TopK returns the
    // largest elements (mhlo.topk may ask for the smallest).
    auto attributes = call->getAttrOfType<DictionaryAttr>("mhlo.attributes");
    auto largest = attributes ? attributes.getAs<BoolAttr>("largest") : nullptr;
    if (largest && !largest.getValue())
      return op.emitError() << "custom call @" << target
                            << " with largest = false is not supported by "
                               "the interpreter";
    if (operands.size() != 1 || call.getNumResults() != 2 ||
        operands[0].rank() == 0 || dtypeOf(call.getResult(1)) != DType::I32)
      return op.emitError() << "custom call @" << target
                            << " must take one tensor and return its top "
                               "values and their i32 indices";
    Shape valuesShape = shapeOf(call.getResult(0));
    Shape expected = operands[0].shape();
    int64_t k = valuesShape.empty() ? -1 : valuesShape.back();
    expected.back() = k;
    if (valuesShape != expected || shapeOf(call.getResult(1)) != expected ||
        k > operands[0].shape().back() ||
        dtypeOf(call.getResult(0)) != operands[0].dtype())
      return op.emitError() << "custom call @" << target
                            << " result types do not match top k of "
                            << call.getOperand(0).getType();
    return topK(operands[0], k);
  }
  return op.emitError() << "'stablehlo.custom_call' target @" << target
                        << " is not supported by the interpreter";
}

} // namespace

std::optional<CustomCallCheck> getCustomCallCheck(stablehlo::CustomCallOp op) {
  StringRef target = op.getCallTargetName();
  if (target == "check.expect_eq")
    return CustomCallCheck{CustomCallCheck::Equal};
  if (target == "check.expect_almost_eq")
    return CustomCallCheck{CustomCallCheck::AlmostEqual};
  if (target == "check.expect_close")
    return CustomCallCheck{CustomCallCheck::Close};
  return std::nullopt;
}

bool isCompoundOp(Operation &op) {
  if (auto call = dyn_cast<stablehlo::CustomCallOp>(op))
    return !getCustomCallCheck(call);
  return isa<stablehlo::BatchNormTrainingOp, stablehlo::BatchNormInferenceOp,
             stablehlo::BatchNormGradOp, stablehlo::CholeskyOp,
             stablehlo::TriangularSolveOp, stablehlo::MapOp,
             stablehlo::CompositeOp, stablehlo::RngOp,
             stablehlo::GetDimensionSizeOp, stablehlo::DynamicIotaOp,
             stablehlo::DynamicReshapeOp, stablehlo::DynamicBroadcastInDimOp,
             stablehlo::DynamicPadOp, stablehlo::DynamicGatherOp,
             stablehlo::DynamicConvOp, chlo::TopKOp,
             stablehlo::CreateTokenOp, stablehlo::AfterAllOp>(op);
}

Results runCompoundOp(Operation &op, const std::vector<Tensor> &operands,
                      const CompoundOpContext &context) {
  using Vector = std::vector<Tensor>;
  return llvm::TypeSwitch<Operation *, Results>(&op)
      .Case([&](stablehlo::BatchNormTrainingOp norm) -> Results {
        if (failed(requireFloat(op, operands[0])))
          return failure();
        return batchNormTraining(operands[0], operands[1], operands[2],
                                 norm.getEpsilonAttr().getValueAsDouble(),
                                 norm.getFeatureIndex());
      })
      .Case([&](stablehlo::BatchNormInferenceOp norm) -> Results {
        if (failed(requireFloat(op, operands[0])))
          return failure();
        return Vector{batchNormInference(
            operands[0], operands[1], operands[2], operands[3], operands[4],
            norm.getEpsilonAttr().getValueAsDouble(), norm.getFeatureIndex())};
      })
      .Case([&](stablehlo::BatchNormGradOp norm) -> Results {
        if (failed(requireFloat(op, operands[0])))
          return failure();
        return batchNormGrad(
            operands[0], operands[1], operands[2], operands[3], operands[4],
            norm.getEpsilonAttr().getValueAsDouble(), norm.getFeatureIndex());
      })
      .Case([&](stablehlo::CholeskyOp cholesky) -> Results {
        if (!isComplex(operands[0].dtype()) &&
            failed(requireFloat(op, operands[0])))
          return failure();
        return Vector{runtime::cholesky(operands[0], cholesky.getLower())};
      })
      .Case([&](stablehlo::TriangularSolveOp solve) -> Results {
        TransposeKind transpose = TransposeKind::None;
        switch (solve.getTransposeA()) {
        case stablehlo::Transpose::TRANSPOSE_INVALID: // the verifier rejects it
        case stablehlo::Transpose::NO_TRANSPOSE: break;
        case stablehlo::Transpose::TRANSPOSE:
          transpose = TransposeKind::Transpose;
          break;
        case stablehlo::Transpose::ADJOINT:
          transpose = TransposeKind::Adjoint;
          break;
        }
        return Vector{triangularSolve(operands[0], operands[1],
                                      solve.getLeftSide(), solve.getLower(),
                                      solve.getUnitDiagonal(), transpose)};
      })
      .Case([&](stablehlo::RngOp rng) -> Results {
        if (failed(
                checkShapeOperand(op, operands[2], rng.getResult(), "shape")))
          return failure();
        // A fixed seed per run of an rng op: runs are reproducible, and two
        // runs draw different numbers.
        SplitMix64 generator(0x5eed0f5eedULL +
                             0x9e3779b97f4a7c15ULL * context.rngRuns++);
        return Vector{drawRng(rng.getRngDistribution(), operands[0],
                              operands[1], dtypeOf(rng.getResult()),
                              shapeOf(rng.getResult()), generator)};
      })
      .Case([&](stablehlo::DynamicConvOp conv) -> Results {
        return runDynamicConv(conv, operands[0], operands[1], operands[2]);
      })
      .Case([&](stablehlo::MapOp map) -> Results {
        // One region run per element: correct, not fast.
        Tensor result =
            Tensor::empty(dtypeOf(map.getResult()), shapeOf(map.getResult()));
        for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
          std::vector<Tensor> arguments;
          for (const Tensor &input : operands)
            arguments.push_back(input.elementAt(i));
          Results mapped =
              context.runRegion(map.getComputation(), std::move(arguments));
          if (failed(mapped))
            return failure();
          result.setElement(i, mapped->front());
        }
        return Vector{result};
      })
      .Case([&](stablehlo::CompositeOp composite) -> Results {
        auto decomposition = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            composite, composite.getDecompositionAttr());
        if (!decomposition)
          return op.emitError()
                 << "no function named " << composite.getDecompositionAttr();
        return context.runFunction(decomposition, operands);
      })
      .Case([&](stablehlo::GetDimensionSizeOp size) -> Results {
        Tensor result = Tensor::empty(DType::I32, {});
        result.data<int32_t>()[0] =
            static_cast<int32_t>(operands[0].shape()[size.getDimension()]);
        return Vector{result};
      })
      .Case([&](stablehlo::DynamicIotaOp iotaOp) -> Results {
        if (failed(checkShapeOperand(op, operands[0], iotaOp.getResult(),
                                     "output_shape")))
          return failure();
        return Vector{iota(dtypeOf(iotaOp.getResult()),
                           shapeOf(iotaOp.getResult()),
                           iotaOp.getIotaDimension())};
      })
      .Case([&](stablehlo::DynamicReshapeOp reshape) -> Results {
        if (failed(checkShapeOperand(op, operands[1], reshape.getResult(),
                                     "output_shape")))
          return failure();
        if (numElementsOf(shapeOf(reshape.getResult())) !=
            operands[0].numElements())
          return op.emitError()
                 << "cannot reshape " << operands[0].numElements()
                 << " elements into " << reshape.getType();
        return Vector{operands[0].reshaped(shapeOf(reshape.getResult()))};
      })
      .Case([&](stablehlo::DynamicBroadcastInDimOp broadcast) -> Results {
        if (failed(checkShapeOperand(op, operands[1], broadcast.getResult(),
                                     "output_dimensions")))
          return failure();
        ArrayRef<int64_t> dims = broadcast.getBroadcastDimensions();
        Shape resultShape = shapeOf(broadcast.getResult());
        for (auto [i, dim] : llvm::enumerate(dims))
          if (operands[0].shape()[i] != 1 &&
              operands[0].shape()[i] != resultShape[dim])
            return op.emitError()
                   << "operand dimension " << i << " of size "
                   << operands[0].shape()[i] << " cannot broadcast to size "
                   << resultShape[dim];
        return Vector{
            broadcastInDim(operands[0], resultShape,
                           std::vector<int64_t>(dims.begin(), dims.end()))};
      })
      .Case([&](stablehlo::DynamicPadOp padOp) -> Results {
        std::vector<int64_t> low = valuesOf(operands[2]),
                             high = valuesOf(operands[3]),
                             interior = valuesOf(operands[4]);
        Shape resultShape = shapeOf(padOp.getResult());
        for (int64_t d = 0; d < operands[0].rank(); ++d) {
          int64_t size = operands[0].shape()[d];
          if (interior[d] < 0)
            return op.emitError() << "interior_padding " << interior[d]
                                  << " of dimension " << d << " is negative";
          int64_t padded = low[d] + size + high[d] +
                           std::max<int64_t>(size - 1, 0) * interior[d];
          if (padded != resultShape[d])
            return op.emitError()
                   << "the paddings give dimension " << d << " size " << padded
                   << " but the result type is " << padOp.getType();
        }
        return Vector{pad(operands[0], operands[1], low, high, interior)};
      })
      // Tokens only order side effects, which the interpreter runs in
      // program order anyway: an empty tensor stands for one.
      .Case<stablehlo::CreateTokenOp, stablehlo::AfterAllOp>(
          [&](auto) -> Results { return Vector{Tensor()}; })
      .Case([&](stablehlo::DynamicGatherOp gatherOp) -> Results {
        stablehlo::GatherDimensionNumbersAttr numbers =
            gatherOp.getDimensionNumbers();
        auto toVector = [](ArrayRef<int64_t> values) {
          return std::vector<int64_t>(values.begin(), values.end());
        };
        GatherDimensions dims{toVector(numbers.getOffsetDims()),
                              toVector(numbers.getCollapsedSliceDims()),
                              toVector(numbers.getOperandBatchingDims()),
                              toVector(numbers.getStartIndicesBatchingDims()),
                              toVector(numbers.getStartIndexMap()),
                              numbers.getIndexVectorDim()};
        // The slice sizes must fit the operand and be the result's offset
        // dimensions (the verifier checks the rest from the types).
        std::vector<int64_t> sizes = valuesOf(operands[2]);
        Shape resultShape = shapeOf(gatherOp.getResult());
        const Shape &operandShape = operands[0].shape();
        size_t offset = 0;
        bool fits = static_cast<int64_t>(sizes.size()) == operands[0].rank();
        for (int64_t d = 0; fits && d < operands[0].rank(); ++d) {
          fits = sizes[d] >= 0 && sizes[d] <= operandShape[d];
          if (!fits || llvm::is_contained(dims.collapsedSliceDims, d) ||
              llvm::is_contained(dims.operandBatchingDims, d))
            continue;
          fits = offset < dims.offsetDims.size() &&
                 resultShape[dims.offsetDims[offset++]] == sizes[d];
        }
        if (!fits || offset != dims.offsetDims.size())
          return op.emitError()
                 << "slice_sizes " << operands[2].valuesToString()
                 << " do not fit operand " << gatherOp.getOperand().getType()
                 << " and result " << gatherOp.getType();
        return Vector{
            gather(operands[0], operands[1], dims, sizes, resultShape)};
      })
      .Case([&](chlo::TopKOp topKOp) -> Results {
        return topK(operands[0], topKOp.getK());
      })
      .Case([&](stablehlo::CustomCallOp call) {
        return runCustomCall(call, operands);
      })
      .Default([&](Operation *) -> Results {
        return op.emitError() << "'" << op.getName()
                              << "' is not supported by the interpreter";
      });
}

FailureOr<std::vector<Tensor>>
runScatterRegion(stablehlo::ScatterOp op, const std::vector<Tensor> &inputs,
                 const Tensor &indices, const std::vector<Tensor> &updates,
                 const CompoundOpContext &context) {
  stablehlo::ScatterDimensionNumbersAttr numbers =
      op.getScatterDimensionNumbers();
  auto toVector = [](ArrayRef<int64_t> values) {
    return std::vector<int64_t>(values.begin(), values.end());
  };
  ScatterDimensions dims{toVector(numbers.getUpdateWindowDims()),
                         toVector(numbers.getInsertedWindowDims()),
                         toVector(numbers.getInputBatchingDims()),
                         toVector(numbers.getScatterIndicesBatchingDims()),
                         toVector(numbers.getScatterDimsToOperandDims()),
                         numbers.getIndexVectorDim()};
  std::vector<Tensor> results;
  for (const Tensor &input : inputs)
    results.push_back(input.clone());
  // One region run per update element: correct, not fast.
  LogicalResult status = success();
  forEachScatterTarget(
      inputs[0].shape(), indices, updates[0].shape(), dims,
      [&](int64_t updateOffset, int64_t inputOffset) {
        if (failed(status))
          return;
        std::vector<Tensor> arguments;
        for (const Tensor &result : results)
          arguments.push_back(result.elementAt(inputOffset));
        for (const Tensor &update : updates)
          arguments.push_back(update.elementAt(updateOffset));
        FailureOr<std::vector<Tensor>> combined =
            context.runRegion(op.getUpdateComputation(), std::move(arguments));
        if (failed(combined)) {
          status = failure();
          return;
        }
        for (auto [result, value] : llvm::zip(results, *combined))
          result.setElement(inputOffset, value);
      });
  if (failed(status))
    return failure();
  return results;
}

} // namespace mlir::mpmd::runtime
