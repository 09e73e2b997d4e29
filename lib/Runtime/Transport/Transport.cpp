//===- Transport.cpp - What every transport shares ------------------------===//

#include "mpmd/Runtime/Transport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace mlir::mpmd::runtime {

Transport::~Transport() = default;

namespace {

llvm::Error collectiveError(const char *name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::Twine(name) + ": " + message);
}

llvm::Error checkDimension(const char *name, const Tensor &operand,
                           int64_t dimension, int64_t parts, bool split) {
  if (dimension < 0 || dimension >= operand.rank())
    return collectiveError(name, "dimension " + llvm::Twine(dimension) +
                                     " is out of range for an operand of "
                                     "rank " +
                                     llvm::Twine(operand.rank()));
  if (split && operand.shape()[dimension] % parts != 0)
    return collectiveError(name, "dimension " + llvm::Twine(dimension) +
                                     " of size " +
                                     llvm::Twine(operand.shape()[dimension]) +
                                     " does not split into " +
                                     llvm::Twine(parts) + " equal chunks");
  return llvm::Error::success();
}

template <typename T, typename Combine>
void foldLoop(T *accumulator, const T *source, int64_t count,
              Combine combine) {
  for (int64_t i = 0; i < count; ++i)
    accumulator[i] = combine(accumulator[i], source[i]);
}

template <typename T>
void reduceTyped(ReduceKind kind, T *accumulator, const T *source,
                 int64_t count) {
  switch (kind) {
  case ReduceKind::Add:
    if constexpr (std::is_same_v<T, bool>)
      foldLoop(accumulator, source, count, [](T a, T b) { return a || b; });
    else
      foldLoop(accumulator, source, count, [](T a, T b) { return T(a + b); });
    return;
  case ReduceKind::Multiply:
    if constexpr (std::is_same_v<T, bool>)
      foldLoop(accumulator, source, count, [](T a, T b) { return a && b; });
    else
      foldLoop(accumulator, source, count, [](T a, T b) { return T(a * b); });
    return;
  case ReduceKind::Maximum:
    // NaN propagates, as StableHLO's maximum does.
    foldLoop(accumulator, source, count, [](T a, T b) {
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) || std::isnan(b))
          return a + b;
      return a > b ? a : b;
    });
    return;
  case ReduceKind::Minimum:
    foldLoop(accumulator, source, count, [](T a, T b) {
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(a) || std::isnan(b))
          return a + b;
      return a < b ? a : b;
    });
    return;
  case ReduceKind::And:
    if constexpr (std::is_integral_v<T>)
      foldLoop(accumulator, source, count, [](T a, T b) { return T(a & b); });
    return;
  case ReduceKind::Or:
    if constexpr (std::is_integral_v<T>)
      foldLoop(accumulator, source, count, [](T a, T b) { return T(a | b); });
    return;
  }
}

template <typename T>
void reduceAs(ReduceKind kind, std::byte *accumulator, const std::byte *source,
              int64_t count) {
  reduceTyped(kind, reinterpret_cast<T *>(accumulator),
              reinterpret_cast<const T *>(source), count);
}

/// f16/bf16: widened to f32 in blocks, folded, rounded back.
void reduceHalf(ReduceKind kind, DType dtype, std::byte *accumulator,
                const std::byte *source, int64_t count) {
  constexpr int64_t kBlock = 1024;
  float wideAccumulator[kBlock], wideSource[kBlock];
  auto *acc = reinterpret_cast<uint16_t *>(accumulator);
  auto *src = reinterpret_cast<const uint16_t *>(source);
  bool brain = dtype == DType::BF16;
  for (int64_t begin = 0; begin < count; begin += kBlock) {
    int64_t n = std::min(kBlock, count - begin);
    for (int64_t i = 0; i < n; ++i) {
      wideAccumulator[i] = brain ? bf16ToFloat(acc[begin + i])
                                 : halfToFloat(acc[begin + i]);
      wideSource[i] = brain ? bf16ToFloat(src[begin + i])
                            : halfToFloat(src[begin + i]);
    }
    reduceTyped(kind, wideAccumulator, wideSource, n);
    for (int64_t i = 0; i < n; ++i)
      acc[begin + i] = brain ? floatToBf16(wideAccumulator[i])
                             : floatToHalf(wideAccumulator[i]);
  }
}

/// The other narrow types (f8/f6/f4, tf32, i2/i4/ui2/ui4) and complex:
/// through the elementwise kernels (computed wide, rounded back). Complex
/// supports the sum and product only, as StableHLO's reductions do.
void reduceThroughWide(ReduceKind kind, DType dtype, std::byte *accumulator,
                       const std::byte *source, int64_t count) {
  BinaryKind binaryKind = kind == ReduceKind::Add        ? BinaryKind::Add
                          : kind == ReduceKind::Multiply ? BinaryKind::Multiply
                          : kind == ReduceKind::Maximum  ? BinaryKind::Maximum
                          : kind == ReduceKind::Minimum  ? BinaryKind::Minimum
                          : kind == ReduceKind::And      ? BinaryKind::And
                                                         : BinaryKind::Or;
  Tensor lhs = Tensor::empty(dtype, {count}), rhs = Tensor::empty(dtype, {count});
  size_t bytes = count * dtypeSize(dtype);
  std::memcpy(lhs.bytes(), accumulator, bytes);
  std::memcpy(rhs.bytes(), source, bytes);
  Tensor result = binary(binaryKind, lhs, rhs);
  std::memcpy(accumulator, result.bytes(), bytes);
}

} // namespace

void reduceInto(ReduceKind kind, DType dtype, std::byte *accumulator,
                const std::byte *source, int64_t count) {
  switch (dtype) {
  case DType::F64: return reduceAs<double>(kind, accumulator, source, count);
  case DType::F32: return reduceAs<float>(kind, accumulator, source, count);
  case DType::F16:
  case DType::BF16:
    return reduceHalf(kind, dtype, accumulator, source, count);
  case DType::I1: return reduceAs<bool>(kind, accumulator, source, count);
  case DType::I8: return reduceAs<int8_t>(kind, accumulator, source, count);
  case DType::I16: return reduceAs<int16_t>(kind, accumulator, source, count);
  case DType::I32: return reduceAs<int32_t>(kind, accumulator, source, count);
  case DType::I64: return reduceAs<int64_t>(kind, accumulator, source, count);
  case DType::UI8: return reduceAs<uint8_t>(kind, accumulator, source, count);
  case DType::UI16: return reduceAs<uint16_t>(kind, accumulator, source, count);
  case DType::UI32: return reduceAs<uint32_t>(kind, accumulator, source, count);
  case DType::UI64: return reduceAs<uint64_t>(kind, accumulator, source, count);
  default:
    return reduceThroughWide(kind, dtype, accumulator, source, count);
  }
}

void Transport::postSendPiece(int64_t from, int64_t to, int64_t tag,
                              Tensor tensor, TensorBox box, SendCallback done) {
  postSend(from, to, tag, extractBox(tensor, box), std::move(done));
}

void Transport::postReceivePiece(int64_t from, int64_t to, int64_t tag,
                                 DType dtype, TensorBox box,
                                 PieceReceiveCallbacks callbacks) {
  // The buffer onStart hands out, kept until the piece is copied into it.
  auto buffer = std::make_shared<std::optional<Tensor>>();
  auto pieceCallbacks =
      std::make_shared<PieceReceiveCallbacks>(std::move(callbacks));
  ReceiveCallbacks whole;
  whole.onStart = [buffer, pieceCallbacks] {
    *buffer = pieceCallbacks->onStart();
    return buffer->has_value();
  };
  whole.onDone = [buffer, pieceCallbacks,
                  begin = box.begin](llvm::Expected<Tensor> piece) {
    if (!piece)
      return pieceCallbacks->onDone(piece.takeError());
    copyBox(*piece, std::vector<int64_t>(begin.size(), 0), **buffer, begin,
            piece->shape());
    pieceCallbacks->onDone(llvm::Error::success());
  };
  postReceive(from, to, tag, {dtype, box.shape}, std::move(whole));
}

llvm::Expected<int64_t> checkCollective(llvm::ArrayRef<int64_t> group,
                                        int64_t device, const Tensor &operand,
                                        const char *name,
                                        std::optional<int64_t> splitDimension,
                                        std::optional<int64_t> concatDimension) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t member : group)
    if (!seen.insert(member).second)
      return collectiveError(name, "device " + llvm::Twine(member) +
                                       " appears twice in the group");
  auto position = llvm::find(group, device);
  if (position == group.end())
    return collectiveError(name, "device " + llvm::Twine(device) +
                                     " is not in the group");
  int64_t parts = static_cast<int64_t>(group.size());
  if (splitDimension)
    if (llvm::Error error =
            checkDimension(name, operand, *splitDimension, parts, true))
      return std::move(error);
  if (concatDimension)
    if (llvm::Error error =
            checkDimension(name, operand, *concatDimension, parts, false))
      return std::move(error);
  return position - group.begin();
}

llvm::Error checkPermutePairs(llvm::ArrayRef<int64_t> group,
                              llvm::ArrayRef<PermutePair> pairs) {
  llvm::SmallSet<int64_t, 8> sources, targets;
  for (auto [source, target] : pairs) {
    for (int64_t device : {source, target})
      if (!llvm::is_contained(group, device))
        return collectiveError("collective_permute",
                               "device " + llvm::Twine(device) +
                                   " of a pair is not in the group");
    if (!sources.insert(source).second)
      return collectiveError("collective_permute",
                             "device " + llvm::Twine(source) +
                                 " is the source of two pairs");
    if (!targets.insert(target).second)
      return collectiveError("collective_permute",
                             "device " + llvm::Twine(target) +
                                 " is the target of two pairs");
  }
  return llvm::Error::success();
}

Tensor chunkAlong(const Tensor &tensor, int64_t dimension, int64_t parts,
                  int64_t index) {
  int64_t size = tensor.shape()[dimension] / parts;
  std::vector<int64_t> start(tensor.rank(), 0), limit = tensor.shape(),
                       strides(tensor.rank(), 1);
  start[dimension] = index * size;
  limit[dimension] = (index + 1) * size;
  return slice(tensor, start, limit, strides);
}

} // namespace mlir::mpmd::runtime
