//===- Tensor.cpp - Dense tensors of the runtime --------------------------===//

#include "mpmd/Runtime/Tensor.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include <sys/mman.h>

namespace mlir::mpmd::runtime {

size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::C128: return 16;
  case DType::F64: case DType::I64: case DType::UI64: case DType::C64: return 8;
  case DType::F32: case DType::I32: case DType::UI32: case DType::TF32: return 4;
  case DType::F16: case DType::BF16: case DType::I16: case DType::UI16: return 2;
  default: return 1; // i1, 8 bits and narrower
  }
}

int64_t dtypeBitWidth(DType dtype) {
  switch (dtype) {
  case DType::I1: return 1;
  case DType::I2: case DType::UI2: return 2;
  case DType::I4: case DType::UI4: case DType::F4E2M1FN: return 4;
  case DType::F6E2M3FN: case DType::F6E3M2FN: return 6;
  case DType::TF32: return 19;
  default: return static_cast<int64_t>(dtypeSize(dtype)) * 8;
  }
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F64: return "f64";
  case DType::F32: return "f32";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::I1: return "i1";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::UI8: return "ui8";
  case DType::UI16: return "ui16";
  case DType::UI32: return "ui32";
  case DType::UI64: return "ui64";
  case DType::I2: return "i2";
  case DType::I4: return "i4";
  case DType::UI2: return "ui2";
  case DType::UI4: return "ui4";
  case DType::TF32: return "tf32";
  case DType::F8E4M3FN: return "f8E4M3FN";
  case DType::F8E5M2: return "f8E5M2";
  case DType::F8E4M3FNUZ: return "f8E4M3FNUZ";
  case DType::F8E5M2FNUZ: return "f8E5M2FNUZ";
  case DType::F8E4M3B11FNUZ: return "f8E4M3B11FNUZ";
  case DType::F8E3M4: return "f8E3M4";
  case DType::F8E4M3: return "f8E4M3";
  case DType::F8E8M0FNU: return "f8E8M0FNU";
  case DType::F4E2M1FN: return "f4E2M1FN";
  case DType::F6E2M3FN: return "f6E2M3FN";
  case DType::F6E3M2FN: return "f6E3M2FN";
  case DType::C64: return "complex<f32>";
  case DType::C128: return "complex<f64>";
  }
  return "?";
}

bool isFloat(DType dtype) {
  return dtype == DType::F64 || dtype == DType::F32 || isNarrowFloat(dtype);
}
bool isComplex(DType dtype) {
  return dtype == DType::C64 || dtype == DType::C128;
}
bool isNarrowFloat(DType dtype) {
  switch (dtype) {
  case DType::F16: case DType::BF16: case DType::TF32: case DType::F8E4M3FN:
  case DType::F8E5M2: case DType::F8E4M3FNUZ: case DType::F8E5M2FNUZ:
  case DType::F8E4M3B11FNUZ: case DType::F8E3M4: case DType::F8E4M3:
  case DType::F8E8M0FNU: case DType::F4E2M1FN: case DType::F6E2M3FN:
  case DType::F6E3M2FN:
    return true;
  default:
    return false;
  }
}
bool isSubByteInt(DType dtype) {
  return dtype == DType::I2 || dtype == DType::I4 || dtype == DType::UI2 ||
         dtype == DType::UI4;
}
bool isSignedInt(DType dtype) {
  return dtype == DType::I8 || dtype == DType::I16 || dtype == DType::I32 ||
         dtype == DType::I64 || dtype == DType::I2 || dtype == DType::I4;
}
bool isUnsignedInt(DType dtype) {
  return dtype == DType::I1 || dtype == DType::UI8 || dtype == DType::UI16 ||
         dtype == DType::UI32 || dtype == DType::UI64 || dtype == DType::UI2 ||
         dtype == DType::UI4;
}
DType complexPartType(DType dtype) {
  return dtype == DType::C128 ? DType::F64 : DType::F32;
}

float halfToFloat(uint16_t bits) {
  uint32_t sign = (bits & 0x8000u) << 16, exponent = (bits >> 10) & 0x1f,
           mantissa = bits & 0x3ffu, result;
  if (exponent == 0x1f) {
    result = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    result = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    result = sign;
  } else { // subnormal: value = mantissa * 2^-24
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  float value;
  std::memcpy(&value, &result, 4);
  return value;
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = (bits >> 16) & 0x8000u;
  uint32_t absBits = bits & 0x7fffffffu;
  if (absBits >= 0x7f800000u) // inf or nan (keep nan quiet)
    return sign | 0x7c00u | (absBits > 0x7f800000u ? 0x200u : 0);
  if (absBits >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return sign | 0x7c00u;
  if (absBits < 0x38800000u) { // below the smallest normal: subnormal or 0
    float magnitude;
    std::memcpy(&magnitude, &absBits, 4);
    // Scale so the subnormal step 2^-24 is 1, then round to nearest even.
    return sign | static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0f));
  }
  uint32_t rounded = absBits + 0xfffu + ((absBits >> 13) & 1u);
  return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t widened = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &widened, 4);
  return value;
}

uint16_t floatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // nan stays a quiet nan
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

int64_t numElementsOf(const Shape &shape) {
  // Tensors are made of shapes whose size was checked; a zero dimension
  // makes any shape empty, even when the product of the others overflows.
  return checkedProduct(shape).value();
}

std::vector<int64_t> rowMajorStrides(const Shape &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::string shapeToString(const Shape &shape) {
  std::string text;
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text;
}

std::string toString(const TensorSpec &spec) {
  return "tensor<" + shapeToString(spec.shape) + dtypeName(spec.dtype) + ">";
}

namespace {

constexpr size_t kAlignment = 64;

// AddressSanitizer and MemorySanitizer check malloc's buffers, not mapped
// regions: their builds keep every tensor on malloc so that out-of-bounds
// and uninitialized reads are still caught. (ThreadSanitizer sees every
// access either way and runs the regions.)
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define MPMD_TENSORS_ON_MALLOC 1
#endif
#endif
#ifdef MPMD_TENSORS_ON_MALLOC
constexpr bool kTensorsOnMalloc = true;
#else
constexpr bool kTensorsOnMalloc = false;
#endif

/// Memory for the pooled buffers, carved from 2 MiB-aligned regions that
/// the kernel is asked to back with transparent huge pages. Hardly any
/// tensor is 2 MiB or more, so buffers of their own never get huge pages;
/// many in one region do. One 2 MiB page instead of 512 pages of 4 KiB
/// spares the TLB misses of strided reads (BLAS packing a weight's
/// columns): the 8 x 512 MLP step's matrix products ran 1.7-2.3% faster
/// (bench/peer's products, alternating steps). Regions are bump-allocated;
/// a buffer's memory is reused through the pool's free lists, and a region
/// goes back to the OS once every buffer carved from it has been released
/// past the pool's cache. Not thread-safe: the pool calls it under its
/// mutex.
class HugePageArenas {
public:
  /// A buffer of `bytes` (a multiple of kAlignment), or null when no memory
  /// can be mapped (the caller falls back to malloc).
  std::byte *allocate(size_t bytes) {
    if (kTensorsOnMalloc)
      return nullptr;
    if (bytes > kRegionBytes / 2) {
      // A region of its own, returned when the buffer is.
      if (bytes > std::numeric_limits<size_t>::max() - kHugePageBytes)
        return nullptr;
      Region *region = map(roundToHugePages(bytes));
      if (!region)
        return nullptr;
      region->used = bytes;
      region->live = 1;
      return region->base;
    }
    if (!current || current->size - current->used < bytes) {
      current = map(kRegionBytes);
      if (!current)
        return nullptr;
    }
    std::byte *buffer = current->base + current->used;
    current->used += bytes;
    ++current->live;
    return buffer;
  }

  /// Releases a buffer of a region: false when `buffer` is not one of
  /// them (it came from malloc).
  bool release(std::byte *buffer) {
    auto it = regions.upper_bound(reinterpret_cast<uintptr_t>(buffer));
    if (it == regions.begin())
      return false;
    --it;
    Region &region = it->second;
    if (buffer >= region.base + region.size)
      return false;
    if (--region.live > 0)
      return true;
    if (&region == current) {
      region.used = 0; // empty: carve from its start again
      return true;
    }
    munmap(region.base, region.size);
    regions.erase(it);
    return true;
  }

private:
  struct Region {
    std::byte *base = nullptr;
    size_t size = 0, used = 0;
    int64_t live = 0;
  };
  static constexpr size_t kHugePageBytes = size_t(2) << 20;
  static constexpr size_t kRegionBytes = size_t(32) << 20;

  static size_t roundToHugePages(size_t bytes) {
    return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  }

  /// A fresh region of `size` bytes (a multiple of 2 MiB) at a 2 MiB
  /// boundary: mapped with a huge page of slack, the slack unmapped.
  Region *map(size_t size) {
    void *mapped = mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
      return nullptr;
    auto start = reinterpret_cast<uintptr_t>(mapped);
    uintptr_t aligned = (start + kHugePageBytes - 1) / kHugePageBytes *
                        kHugePageBytes;
    if (aligned > start)
      munmap(mapped, aligned - start);
    if (size_t tail = start + kHugePageBytes - aligned)
      munmap(reinterpret_cast<void *>(aligned + size), tail);
    auto *base = reinterpret_cast<std::byte *>(aligned);
    // Advice only: without transparent huge pages the region works as is.
    madvise(base, size, MADV_HUGEPAGE);
    Region &region = regions[aligned];
    region.base = base;
    region.size = size;
    return &region;
  }

  /// By base address, for finding a buffer's region.
  std::map<uintptr_t, Region> regions;
  Region *current = nullptr;
};

/// Freed buffers, by size, for the next tensor of the same size: a fresh
/// allocation past malloc's mmap threshold (128 KiB to 32 MiB, adapting)
/// is mapped by the OS and faulted in page by page on first write, which
/// costs several times the kernel that fills it (measured: a 16M f32 add,
/// 10.8 ms into a reused buffer vs 82 ms into a new one), and malloc gives
/// freed heap memory back to the OS too. A training step allocates the same
/// sizes every step, so from kMinPooledBytes up every buffer is kept for
/// the next one (the transformer step faulted in 30 MB per step before, 7%
/// of its time); smaller ones go to malloc, whose bins reuse them. At most
/// kMaxCachedBytes stay cached; lookups are O(1) under a mutex (tensors
/// may be freed on any thread).
class BufferPool {
public:
  static BufferPool &get() {
    // Never destroyed: tensors in static storage may outlive any pool.
    static BufferPool *pool = new BufferPool();
    return *pool;
  }

  std::byte *allocate(size_t bytes) {
    if (bytes >= kMinPooledBytes) {
      std::lock_guard<std::mutex> lock(mutex);
      auto found = freeBuffers.find(bytes);
      if (found != freeBuffers.end() && !found->second.empty()) {
        std::byte *buffer = found->second.back();
        found->second.pop_back();
        cachedBytes -= bytes;
        return buffer;
      }
      if (std::byte *buffer = arenas.allocate(bytes))
        return buffer;
    }
    auto *buffer = static_cast<std::byte *>(std::aligned_alloc(kAlignment, bytes));
    if (!buffer) {
      // No caller can go on without the buffer, and the runtime has no
      // exceptions: say what failed and exit instead of crashing later.
      std::fprintf(stderr,
                   "mpmd runtime: error: out of memory: cannot allocate %zu "
                   "bytes for a tensor\n",
                   bytes);
      std::exit(1);
    }
    return buffer;
  }

  void release(std::byte *buffer, size_t bytes) {
    if (bytes >= kMinPooledBytes) {
      std::lock_guard<std::mutex> lock(mutex);
      if (cachedBytes + bytes <= kMaxCachedBytes) {
        freeBuffers[bytes].push_back(buffer);
        cachedBytes += bytes;
        return;
      }
      if (arenas.release(buffer))
        return;
    }
    std::free(buffer);
  }

private:
  static constexpr size_t kMinPooledBytes = size_t(16) << 10;
  static constexpr size_t kMaxCachedBytes = size_t(512) << 20;
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<std::byte *>> freeBuffers;
  size_t cachedBytes = 0;
  HugePageArenas arenas;
};

} // namespace

Tensor Tensor::empty(DType dtype, Shape shape) {
  Tensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  // aligned_alloc needs a multiple of the alignment (and at least one).
  size_t bytes = (tensor.byteSize() + kAlignment) / kAlignment * kAlignment;
  tensor.buffer_ = std::shared_ptr<std::byte[]>(
      BufferPool::get().allocate(bytes),
      [bytes](std::byte *pointer) { BufferPool::get().release(pointer, bytes); });
  return tensor;
}

Tensor Tensor::zeros(DType dtype, Shape shape) {
  Tensor tensor = empty(dtype, std::move(shape));
  std::memset(tensor.bytes(), 0, tensor.byteSize());
  return tensor;
}

Tensor Tensor::reshaped(Shape shape) const {
  Tensor view = *this;
  view.shape_ = std::move(shape);
  return view;
}

Tensor Tensor::bitcast(DType dtype, Shape shape) const {
  Tensor view = *this;
  view.dtype_ = dtype;
  view.shape_ = std::move(shape);
  return view;
}

Tensor Tensor::clone() const {
  Tensor copy = empty(dtype_, shape_);
  std::memcpy(copy.bytes(), bytes(), byteSize());
  return copy;
}

template <typename T> static T load(const std::byte *bytes, int64_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

double Tensor::elementAsDouble(int64_t index) const {
  const std::byte *raw = bytes();
  switch (dtype_) {
  case DType::F64: return load<double>(raw, index);
  case DType::F32: case DType::TF32: return load<float>(raw, index);
  case DType::F16: case DType::BF16:
    return narrowFloatToFloat(dtype_, load<uint16_t>(raw, index));
  case DType::UI64: return static_cast<double>(load<uint64_t>(raw, index));
  case DType::C64: return load<float>(raw, 2 * index);
  case DType::C128: return load<double>(raw, 2 * index);
  default:
    if (isNarrowFloat(dtype_))
      return narrowFloatToFloat(dtype_, load<uint8_t>(raw, index));
    return static_cast<double>(elementAsInt(index));
  }
}

double Tensor::elementImagAsDouble(int64_t index) const {
  if (dtype_ == DType::C64)
    return load<float>(bytes(), 2 * index + 1);
  if (dtype_ == DType::C128)
    return load<double>(bytes(), 2 * index + 1);
  return 0;
}

int64_t Tensor::elementAsInt(int64_t index) const {
  const std::byte *raw = bytes();
  switch (dtype_) {
  case DType::I1: case DType::UI8: case DType::UI2: case DType::UI4:
    return load<uint8_t>(raw, index);
  case DType::I8: case DType::I2: case DType::I4: return load<int8_t>(raw, index);
  case DType::I16: return load<int16_t>(raw, index);
  case DType::UI16: return load<uint16_t>(raw, index);
  case DType::I32: return load<int32_t>(raw, index);
  case DType::UI32: return load<uint32_t>(raw, index);
  case DType::I64: return load<int64_t>(raw, index);
  case DType::UI64: return static_cast<int64_t>(load<uint64_t>(raw, index));
  default: return static_cast<int64_t>(elementAsDouble(index));
  }
}

Tensor Tensor::elementAt(int64_t index) const {
  Tensor scalar = empty(dtype_, {});
  std::memcpy(scalar.bytes(), bytes() + index * dtypeSize(dtype_),
              dtypeSize(dtype_));
  return scalar;
}

void Tensor::setElement(int64_t index, const Tensor &scalar) {
  std::memcpy(bytes() + index * dtypeSize(dtype_), scalar.bytes(),
              dtypeSize(dtype_));
}

std::string Tensor::valuesToString(int64_t limit) const {
  std::ostringstream text;
  text << "[";
  int64_t count = numElements();
  for (int64_t i = 0; i < count && i < limit; ++i) {
    if (i)
      text << ", ";
    // The shortest text that reads back as the same value of the dtype
    // (narrow floats print as the f32 of their value).
    auto writeFloat = [&](double value, bool isDouble) {
      char digits[32];
      std::to_chars_result end =
          isDouble ? std::to_chars(digits, digits + sizeof(digits), value)
                   : std::to_chars(digits, digits + sizeof(digits),
                                   static_cast<float>(value));
      text.write(digits, end.ptr - digits);
    };
    if (isComplex(dtype_)) {
      text << "(";
      writeFloat(elementAsDouble(i), dtype_ == DType::C128);
      text << ", ";
      writeFloat(elementImagAsDouble(i), dtype_ == DType::C128);
      text << ")";
    }
    else if (isFloat(dtype_))
      writeFloat(elementAsDouble(i), dtype_ == DType::F64);
    else if (dtype_ == DType::I1)
      text << (elementAsInt(i) ? "true" : "false");
    else if (dtype_ == DType::UI64)
      text << static_cast<uint64_t>(elementAsInt(i));
    else
      text << elementAsInt(i);
  }
  if (count > limit)
    text << ", ... (" << count << " elements)";
  text << "]";
  return text.str();
}

TensorDifference compareTensors(const Tensor &actual, const Tensor &expected) {
  TensorDifference difference;
  for (int64_t i = 0, e = expected.numElements(); i < e; ++i) {
    double a = actual.elementAsDouble(i), b = expected.elementAsDouble(i);
    if (std::isnan(a) || std::isnan(b)) {
      difference.nanMismatch |= std::isnan(a) != std::isnan(b);
      continue;
    }
    double absolute = a == b ? 0 : std::fabs(a - b);
    double relative = absolute == 0 ? 0
                      : b == 0      ? std::numeric_limits<double>::infinity()
                                    : absolute / std::fabs(b);
    difference.maxAbsolute = std::max(difference.maxAbsolute, absolute);
    difference.maxRelative = std::max(difference.maxRelative, relative);
    difference.maxExpectedMagnitude =
        std::max(difference.maxExpectedMagnitude, std::fabs(b));
  }
  return difference;
}

} // namespace mlir::mpmd::runtime
