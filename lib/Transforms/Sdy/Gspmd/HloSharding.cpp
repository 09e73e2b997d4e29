//===- HloSharding.cpp - GSPMD's `mhlo.sharding` strings ------------------===//

#include "mpmd/Transforms/Sdy/Gspmd/HloSharding.h"

#include "mpmd/Support/CheckedArithmetic.h"

#include "llvm/ADT/Sequence.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace mlir::sdy::gspmd {

using mpmd::checkedAdd;
using mpmd::checkedMul;
using mpmd::checkedProduct;

int64_t HloSharding::getDeviceCount() const {
  // The parser checked that the product fits (at most kMaxDevices).
  return checkedProduct(tileDims).value_or(0);
}

bool HloSharding::isPartiallyManual() const {
  return llvm::is_contained(subgroups, SubgroupKind::kManual);
}

namespace {

/// Tuples deeper than this are rejected rather than recursed into.
constexpr int kMaxTupleDepth = 64;

class Parser {
public:
  explicit Parser(llvm::StringRef text) : text(text) {}

  llvm::Expected<HloSharding> parseTop() {
    HloSharding sharding;
    if (llvm::Error error = parseSharding(sharding, /*depth=*/0))
      return std::move(error);
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the sharding");
    return sharding;
  }

private:
  llvm::StringRef text;
  size_t pos = 0;

  llvm::Error fail(const llvm::Twine &message) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "offset " + llvm::Twine(pos) + ": " +
                                       message);
  }

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  llvm::Error expect(char c) {
    if (consume(c))
      return llvm::Error::success();
    return fail(llvm::Twine("expected '") + llvm::Twine(c) + "'");
  }
  bool consumeText(llvm::StringRef word) {
    skipSpace();
    if (!text.substr(pos).starts_with(word))
      return false;
    pos += word.size();
    return true;
  }
  /// A keyword: lower-case letters and underscores.
  llvm::StringRef parseKeyword() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && (llvm::isLower(text[pos]) || text[pos] == '_'))
      ++pos;
    return text.slice(start, pos);
  }
  llvm::Expected<int64_t> parseInteger() {
    skipSpace();
    size_t start = pos;
    int64_t value = 0;
    while (pos < text.size() && llvm::isDigit(text[pos])) {
      std::optional<int64_t> next = checkedMul(value, 10);
      if (next)
        next = checkedAdd(*next, text[pos] - '0');
      if (!next) {
        pos = start;
        return fail("integer out of range");
      }
      value = *next;
      ++pos;
    }
    if (pos == start)
      return fail("expected a non-negative integer");
    return value;
  }
  /// `[a, b, ...]` (at least one element when `nonEmpty`).
  llvm::Error parseIntegerList(char open, char close,
                               llvm::SmallVectorImpl<int64_t> &values) {
    if (llvm::Error error = expect(open))
      return error;
    if (consume(close))
      return fail("expected at least one integer");
    do {
      llvm::Expected<int64_t> value = parseInteger();
      if (!value)
        return value.takeError();
      values.push_back(*value);
      if (values.size() > size_t(kMaxDevices))
        return fail("too many integers");
    } while (consume(','));
    return expect(close);
  }
  /// Skips `{...}` (metadata), honouring quoted strings with escapes.
  llvm::Error skipBraced() {
    if (llvm::Error error = expect('{'))
      return error;
    int depth = 1;
    while (pos < text.size()) {
      char c = text[pos++];
      if (c == '"') {
        while (pos < text.size() && text[pos] != '"')
          pos += text[pos] == '\\' ? 2 : 1;
        if (pos >= text.size())
          return fail("unterminated string");
        ++pos;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        return llvm::Error::success();
      }
    }
    return fail("unterminated '{'");
  }

  llvm::Error parseSharding(HloSharding &sharding, int depth) {
    if (depth > kMaxTupleDepth)
      return fail("tuple shardings nested too deeply");
    if (llvm::Error error = expect('{'))
      return error;
    skipSpace();
    if (pos < text.size() && (text[pos] == '{' || text[pos] == '}')) {
      sharding.kind = HloSharding::Kind::kTuple;
      if (consume('}'))
        return llvm::Error::success();
      do {
        HloSharding element;
        if (llvm::Error error = parseSharding(element, depth + 1))
          return error;
        sharding.elements.push_back(std::move(element));
      } while (consume(','));
      return expect('}');
    }
    size_t kindPos = pos;
    llvm::StringRef kind = parseKeyword();
    if (kind == "replicated") {
      sharding.kind = HloSharding::Kind::kReplicated;
    } else if (kind == "manual") {
      sharding.kind = HloSharding::Kind::kManual;
    } else if (kind == "unknown") {
      sharding.kind = HloSharding::Kind::kUnknown;
    } else if (kind == "maximal") {
      sharding.kind = HloSharding::Kind::kMaximal;
      if (parseKeyword() != "device" || !consume('='))
        return fail("expected 'device=' after 'maximal'");
      llvm::Expected<int64_t> device = parseInteger();
      if (!device)
        return device.takeError();
      sharding.device = *device;
    } else if (kind == "devices") {
      sharding.kind = HloSharding::Kind::kTiled;
      if (llvm::Error error = parseTileAssignment(sharding))
        return error;
    } else {
      pos = kindPos;
      return fail("expected 'replicated', 'manual', 'unknown', 'maximal' or "
                  "'devices='");
    }
    // Trailing attributes, in any order.
    while (!consume('}')) {
      if (pos >= text.size())
        return fail("expected '}'");
      size_t attrPos = pos;
      llvm::StringRef attr = parseKeyword();
      if (attr == "last_tile_dim_replicate" || attr == "last_tile_dims") {
        if (sharding.kind != HloSharding::Kind::kTiled) {
          pos = attrPos;
          return fail("'" + attr + "' needs a 'devices=' sharding");
        }
        if (!sharding.subgroups.empty()) {
          pos = attrPos;
          return fail("the subgroup dimensions are given twice");
        }
        if (attr == "last_tile_dim_replicate") {
          sharding.subgroups.push_back(SubgroupKind::kReplicated);
        } else if (llvm::Error error = parseSubgroups(sharding)) {
          return error;
        }
        if (sharding.subgroups.size() > sharding.tileDims.size()) {
          pos = attrPos;
          return fail("more subgroup dimensions than tile dimensions");
        }
      } else if (attr == "metadata") {
        if (!consume('='))
          return fail("expected '=' after 'metadata'");
        if (llvm::Error error = skipBraced())
          return error;
      } else if (attr == "shard_as" || attr == "shard_like") {
        if (sharding.shardGroup) {
          pos = attrPos;
          return fail("a second shard_as/shard_like");
        }
        llvm::Expected<int64_t> group = parseInteger();
        if (!group)
          return group.takeError();
        sharding.shardGroup = *group;
        sharding.shardGroupIsShardAs = attr == "shard_as";
      } else {
        pos = attrPos;
        return fail("expected 'last_tile_dim_replicate', 'last_tile_dims=', "
                    "'metadata=', 'shard_as', 'shard_like' or '}'");
      }
    }
    return llvm::Error::success();
  }

  llvm::Error parseSubgroups(HloSharding &sharding) {
    if (!consume('='))
      return fail("expected '=' after 'last_tile_dims'");
    if (llvm::Error error = expect('{'))
      return error;
    do {
      size_t kindPos = pos;
      llvm::StringRef kind = parseKeyword();
      SubgroupKind subgroup;
      if (kind == "manual") {
        subgroup = SubgroupKind::kManual;
      } else if (kind == "replicated") {
        subgroup = SubgroupKind::kReplicated;
      } else {
        pos = kindPos;
        return fail("expected 'manual' or 'replicated'");
      }
      if (llvm::is_contained(sharding.subgroups, subgroup)) {
        pos = kindPos;
        return fail("subgroup kind '" + kind + "' given twice");
      }
      sharding.subgroups.push_back(subgroup);
    } while (consume(','));
    return expect('}');
  }

  llvm::Error parseTileAssignment(HloSharding &sharding) {
    if (!consume('='))
      return fail("expected '=' after 'devices'");
    size_t dimsPos = pos;
    if (llvm::Error error = parseIntegerList('[', ']', sharding.tileDims))
      return error;
    std::optional<int64_t> count = checkedProduct(sharding.tileDims);
    if (llvm::is_contained(sharding.tileDims, 0) || !count ||
        *count > kMaxDevices) {
      pos = dimsPos;
      return fail("tile dimensions must be positive with at most " +
                  llvm::Twine(kMaxDevices) + " devices in all");
    }
    size_t devicesPos = pos;
    if (consumeText("<=")) {
      sharding.isIota = true;
      if (llvm::Error error =
              parseIntegerList('[', ']', sharding.iotaReshapeDims))
        return error;
      if (llvm::is_contained(sharding.iotaReshapeDims, 0) ||
          checkedProduct(sharding.iotaReshapeDims) != count) {
        pos = devicesPos;
        return fail("the iota dimensions must be positive and hold the " +
                    llvm::Twine(*count) + " devices of the tile dimensions");
      }
      skipSpace();
      if (pos < text.size() && text[pos] == 'T') {
        ++pos;
        size_t permPos = pos;
        if (llvm::Error error =
                parseIntegerList('(', ')', sharding.iotaTranspose))
          return error;
        llvm::SmallVector<bool> seen(sharding.iotaReshapeDims.size(), false);
        for (int64_t dim : sharding.iotaTranspose) {
          if (sharding.iotaTranspose.size() != seen.size() ||
              dim >= int64_t(seen.size()) || seen[dim]) {
            pos = permPos;
            return fail("the transpose must be a permutation of the " +
                        llvm::Twine(seen.size()) + " iota dimensions");
          }
          seen[dim] = true;
        }
      }
      return llvm::Error::success();
    }
    skipSpace();
    if (pos >= text.size() || !llvm::isDigit(text[pos]))
      return fail("expected '<=[...]' or a list of device ids");
    do {
      llvm::Expected<int64_t> device = parseInteger();
      if (!device)
        return device.takeError();
      sharding.deviceList.push_back(*device);
      if (int64_t(sharding.deviceList.size()) > *count)
        break;
    } while (consume(','));
    if (int64_t(sharding.deviceList.size()) != *count) {
      pos = devicesPos;
      return fail("expected " + llvm::Twine(*count) +
                  " device ids for the tile dimensions");
    }
    llvm::SmallVector<bool> seen(*count, false);
    for (int64_t device : sharding.deviceList) {
      if (device >= *count || seen[device]) {
        pos = devicesPos;
        return fail("the device ids must be a permutation of 0.." +
                    llvm::Twine(*count - 1));
      }
      seen[device] = true;
    }
    return llvm::Error::success();
  }
};

/// A digit of a device order: `size` positions, `stride` apart in device
/// ids.
using Digit = DevicePiece;

/// Splits position digits (major first) into pieces per tile dimension,
/// each taking the major part of what is left of a digit; none when a tile
/// dimension does not fall on digit boundaries that way.
std::optional<std::vector<llvm::SmallVector<DevicePiece>>>
splitDigits(llvm::SmallVector<Digit> digits, llvm::ArrayRef<int64_t> dims) {
  std::vector<llvm::SmallVector<DevicePiece>> pieces(dims.size());
  size_t next = 0;
  for (auto [dim, size] : llvm::enumerate(dims)) {
    int64_t left = size;
    while (left > 1) {
      while (next < digits.size() && digits[next].size == 1)
        ++next;
      if (next == digits.size())
        return std::nullopt;
      Digit &digit = digits[next];
      int64_t taken = std::gcd(left, digit.size);
      if (taken == 1)
        return std::nullopt;
      DevicePiece piece{digit.stride * (digit.size / taken), taken};
      digit.size /= taken;
      left /= taken;
      // Consecutive digits that continue each other make one piece.
      if (!pieces[dim].empty() &&
          pieces[dim].back().stride == piece.stride * piece.size)
        pieces[dim].back() = {piece.stride,
                              pieces[dim].back().size * piece.size};
      else
        pieces[dim].push_back(piece);
    }
  }
  return pieces;
}

/// Position digits (major first) of an explicit device list, when it is an
/// iota order transposed; none otherwise. Finds each digit, minor first, as
/// the longest run of positions whose ids step evenly, then checks every
/// position.
std::optional<llvm::SmallVector<Digit>>
findTransposedIota(llvm::ArrayRef<int64_t> devices) {
  int64_t count = devices.size();
  if (count == 0 || devices[0] != 0)
    return std::nullopt;
  llvm::SmallVector<Digit> minorFirst;
  int64_t covered = 1;
  while (covered < count) {
    int64_t stride = devices[covered];
    // Positions 0, covered, 2 covered, ... whose ids step by `stride`.
    int64_t run = 1;
    while (run * covered < count && devices[run * covered] == run * stride)
      ++run;
    if (run < 2 || count % (covered * run) != 0)
      return std::nullopt;
    minorFirst.push_back({stride, run});
    covered *= run;
  }
  // The strides must be those of one mixed radix over all ids.
  llvm::SmallVector<Digit> byStride(minorFirst);
  llvm::sort(byStride, [](const Digit &a, const Digit &b) {
    return a.stride < b.stride;
  });
  int64_t expected = 1;
  for (const Digit &digit : byStride) {
    if (digit.stride != expected)
      return std::nullopt;
    expected *= digit.size;
  }
  for (int64_t position = 0; position < count; ++position) {
    int64_t rest = position, id = 0;
    for (const Digit &digit : minorFirst) {
      id += (rest % digit.size) * digit.stride;
      rest /= digit.size;
    }
    if (devices[position] != id)
      return std::nullopt;
  }
  return llvm::SmallVector<Digit>(llvm::reverse(minorFirst));
}

/// The device ids of an iota tile assignment in tile order.
llvm::SmallVector<int64_t> materializeIota(const HloSharding &sharding,
                                           llvm::ArrayRef<int64_t> perm) {
  llvm::ArrayRef<int64_t> reshape = sharding.iotaReshapeDims;
  int64_t count = sharding.getDeviceCount();
  llvm::SmallVector<int64_t> strides(reshape.size(), 1);
  for (int64_t i = int64_t(reshape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * reshape[i + 1];
  llvm::SmallVector<int64_t> devices;
  devices.reserve(count);
  for (int64_t position = 0; position < count; ++position) {
    int64_t rest = position, id = 0;
    for (int64_t j = int64_t(perm.size()) - 1; j >= 0; --j) {
      int64_t size = reshape[perm[j]];
      id += (rest % size) * strides[perm[j]];
      rest /= size;
    }
    devices.push_back(id);
  }
  return devices;
}

} // namespace

llvm::Expected<HloSharding> parseHloSharding(llvm::StringRef text) {
  return Parser(text).parseTop();
}

DeviceLayout computeDeviceLayout(const HloSharding &sharding) {
  DeviceLayout layout;
  layout.deviceCount = sharding.getDeviceCount();
  llvm::ArrayRef<int64_t> dims = sharding.tileDims;
  llvm::SmallVector<int64_t> devices;
  if (sharding.isIota) {
    llvm::ArrayRef<int64_t> reshape = sharding.iotaReshapeDims;
    llvm::SmallVector<int64_t> perm(sharding.iotaTranspose);
    if (perm.empty())
      perm = llvm::to_vector(llvm::seq<int64_t>(0, reshape.size()));
    llvm::SmallVector<int64_t> strides(reshape.size(), 1);
    for (int64_t i = int64_t(reshape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * reshape[i + 1];
    llvm::SmallVector<Digit> digits;
    for (int64_t dim : perm)
      digits.push_back({strides[dim], reshape[dim]});
    if (auto pieces = splitDigits(digits, dims)) {
      layout.dimPieces = std::move(*pieces);
      return layout;
    }
    devices = materializeIota(sharding, perm);
  } else {
    devices.assign(sharding.deviceList.begin(), sharding.deviceList.end());
    if (auto digits = findTransposedIota(devices))
      if (auto pieces = splitDigits(*digits, dims)) {
        layout.dimPieces = std::move(*pieces);
        return layout;
      }
  }
  // The device list is the mesh's order; each tile dimension one piece.
  layout.deviceOrder = std::move(devices);
  layout.dimPieces.resize(dims.size());
  int64_t stride = 1;
  for (int64_t dim = int64_t(dims.size()) - 1; dim >= 0; --dim) {
    if (dims[dim] > 1)
      layout.dimPieces[dim].push_back({stride, dims[dim]});
    stride *= dims[dim];
  }
  return layout;
}

llvm::SmallVector<int64_t> getBoundaries(const DeviceLayout &layout) {
  llvm::SmallVector<int64_t> boundaries = {1, layout.deviceCount};
  for (const auto &pieces : layout.dimPieces)
    for (const DevicePiece &piece : pieces) {
      boundaries.push_back(piece.stride);
      boundaries.push_back(piece.stride * piece.size);
    }
  llvm::sort(boundaries);
  boundaries.erase(llvm::unique(boundaries), boundaries.end());
  return boundaries;
}

std::optional<llvm::SmallVector<int64_t>>
getCommonAxisSizes(llvm::ArrayRef<int64_t> boundaries) {
  llvm::SmallVector<int64_t> sorted(boundaries);
  llvm::sort(sorted);
  sorted.erase(llvm::unique(sorted), sorted.end());
  llvm::SmallVector<int64_t> sizes;
  for (size_t i = sorted.size(); i-- > 1;) {
    if (sorted[i - 1] <= 0 || sorted[i] % sorted[i - 1] != 0)
      return std::nullopt;
    sizes.push_back(sorted[i] / sorted[i - 1]);
  }
  return sizes;
}

} // namespace mlir::sdy::gspmd
