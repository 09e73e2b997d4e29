//===- Npy.cpp - NumPy .npy files as runtime tensors ----------------------===//
//
// The format (NumPy's NEP 1): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (2 bytes little-endian in 1.0, 4 bytes in
// 2.0 and 3.0), then the header, a Python dict literal
// "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" padded with
// spaces and ended by '\n', then the raw elements. The header is parsed by a
// small literal parser (not an evaluator): anything but those three keys is
// refused, so a pickled object array never gets near the data.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Runtime/Npy.h"

#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Support/CheckedArithmetic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <bit>
#include <optional>

// Elements are copied as they lie in memory.
static_assert(std::endian::native == std::endian::little,
              ".npy I/O assumes a little-endian host");

namespace mlir::mpmd::runtime {

char NpyError::ID = 0;

void NpyError::log(llvm::raw_ostream &os) const {
  os << path << ": " << problem;
}

std::error_code NpyError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

namespace {

constexpr llvm::StringLiteral kMagic("\x93NUMPY");

struct NpyDType {
  llvm::StringLiteral descr; // as NumPy writes it
  DType dtype;
};

// bf16 is missing on purpose: NumPy has no such dtype.
constexpr NpyDType kNpyDTypes[] = {
    {"<f8", DType::F64},  {"<f4", DType::F32},  {"<f2", DType::F16},
    {"|b1", DType::I1},   {"|i1", DType::I8},   {"<i2", DType::I16},
    {"<i4", DType::I32},  {"<i8", DType::I64},  {"|u1", DType::UI8},
    {"<u2", DType::UI16}, {"<u4", DType::UI32}, {"<u8", DType::UI64},
    {"<c8", DType::C64},  {"<c16", DType::C128},
};



llvm::Error makeNpyError(llvm::StringRef path, const llvm::Twine &problem) {
  return llvm::make_error<NpyError>(path.str(), problem.str());
}

/// The header's three entries.
struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<Shape> shape;
};

/// Parses the header dict; on failure returns why (without the path).
class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : rest(text) {}

  std::optional<std::string> parse(Header &header) {
    skipSpaces();
    if (!rest.consume_front("{"))
      return "a dict ('{...}')";
    while (true) {
      skipSpaces();
      if (rest.consume_front("}"))
        break;
      std::optional<std::string> key = parseString();
      if (!key)
        return "a quoted key";
      skipSpaces();
      if (!rest.consume_front(":"))
        return "':' after '" + *key + "'";
      skipSpaces();
      if (*key == "descr") {
        if (rest.starts_with("["))
          return std::string("structured dtypes (a list of fields) are not "
                             "supported");
        if (header.descr || !(header.descr = parseString()))
          return "one quoted string for 'descr'";
      } else if (*key == "fortran_order") {
        if (header.fortranOrder)
          return "one 'fortran_order'";
        if (rest.consume_front("True"))
          header.fortranOrder = true;
        else if (rest.consume_front("False"))
          header.fortranOrder = false;
        else
          return "True or False for 'fortran_order'";
      } else if (*key == "shape") {
        if (header.shape || !(header.shape = parseShape()))
          return "one tuple of non-negative integers for 'shape'";
      } else {
        return "only 'descr', 'fortran_order' and 'shape' keys, not '" + *key +
               "'";
      }
      skipSpaces();
      if (!rest.consume_front(",") && !rest.starts_with("}"))
        return "',' or '}' after the value of '" + *key + "'";
    }
    skipSpaces();
    if (!rest.empty())
      return "nothing after the dict";
    for (auto [present, name] :
         {std::pair{header.descr.has_value(), "descr"},
          std::pair{header.fortranOrder.has_value(), "fortran_order"},
          std::pair{header.shape.has_value(), "shape"}})
      if (!present)
        return std::string("a '") + name + "' key";
    return std::nullopt;
  }

private:
  void skipSpaces() { rest = rest.ltrim(" \t\r\n"); }

  std::optional<std::string> parseString() {
    if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
      return std::nullopt;
    char quote = rest.front();
    size_t end = rest.find(quote, 1);
    if (end == llvm::StringRef::npos)
      return std::nullopt;
    std::string value = rest.slice(1, end).str();
    rest = rest.drop_front(end + 1);
    return value;
  }

  std::optional<Shape> parseShape() {
    if (!rest.consume_front("("))
      return std::nullopt;
    Shape shape;
    while (true) {
      skipSpaces();
      if (rest.consume_front(")"))
        return shape;
      uint64_t dim;
      if (rest.consumeInteger(10, dim) ||
          dim > static_cast<uint64_t>(INT64_MAX))
        return std::nullopt;
      rest.consume_front("L"); // Python 2's long literals
      shape.push_back(static_cast<int64_t>(dim));
      skipSpaces();
      if (!rest.consume_front(",") && !rest.starts_with(")"))
        return std::nullopt;
    }
  }

  llvm::StringRef rest;
};

std::string shapeTuple(const Shape &shape) {
  std::string text = "(";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(dim);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// The dtype of a supported descriptor, or an error saying why not.
llvm::Expected<DType> dtypeOfDescr(llvm::StringRef path,
                                   llvm::StringRef descr) {
  llvm::StringRef code = descr.drop_front();
  char byteOrder = descr.empty() ? 0 : descr.front();
  if (code == "O")
    return makeNpyError(path, "object arrays ('" + descr +
                                  "') are not supported: save numbers, not "
                                  "Python objects");
  const NpyDType *known = llvm::find_if(kNpyDTypes, [&](const NpyDType &entry) {
    return entry.descr.drop_front() == code;
  });
  bool byteSized =
      known != std::end(kNpyDTypes) && dtypeSize(known->dtype) == 1;
  if (known != std::end(kNpyDTypes) &&
      (byteOrder == '<' ||
       (byteSized && llvm::StringRef("|=>").contains(byteOrder))))
    return known->dtype;
  if (known != std::end(kNpyDTypes) && byteOrder == '>')
    return makeNpyError(path, "big-endian data ('" + descr +
                                  "') is not supported; save "
                                  "a.astype(a.dtype.newbyteorder('<'))");
  return makeNpyError(
      path, "unsupported dtype '" + descr +
                "'; supported: '<f8', '<f4', '<f2', '|b1', '|i1', '<i2', "
                "'<i4', '<i8', '|u1', '<u2', '<u4', '<u8', '<c8', '<c16'");
}

} // namespace

DType npyStorageType(DType dtype) {
  if (isNarrowFloat(dtype) && dtype != DType::F16)
    return DType::F32;
  if (isSubByteInt(dtype))
    return isSignedInt(dtype) ? DType::I8 : DType::UI8;
  return dtype;
}

const char *npyDescr(DType dtype) {
  DType stored = npyStorageType(dtype);
  return llvm::find_if(
             kNpyDTypes,
             [&](const NpyDType &entry) { return entry.dtype == stored; })
      ->descr.data();
}

llvm::Expected<Tensor> readNpy(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return makeNpyError(path, "cannot read: " + file.getError().message());
  return parseNpy((*file)->getBuffer(), path);
}

llvm::Expected<Tensor> parseNpy(llvm::StringRef bytes, llvm::StringRef path) {
  if (!bytes.starts_with(kMagic))
    return makeNpyError(path, "not a .npy file (it does not start with "
                              "\"\\x93NUMPY\")");
  if (bytes.size() < kMagic.size() + 2)
    return makeNpyError(path, "truncated header: the file ends after the "
                              "magic string");
  unsigned major = static_cast<uint8_t>(bytes[6]),
           minor = static_cast<uint8_t>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    return makeNpyError(
        path, "unsupported .npy format version " + llvm::Twine(major) + "." +
                  llvm::Twine(minor) + " (1.0, 2.0 and 3.0 are supported)");
  size_t lengthBytes = major == 1 ? 2 : 4, preamble = 8 + lengthBytes;
  if (bytes.size() < preamble)
    return makeNpyError(path, "truncated header: the file ends in the header "
                              "length");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[8 + i]))
                    << (8 * i);
  if (bytes.size() - preamble < headerLength)
    return makeNpyError(path, "truncated header: it has " +
                                  llvm::Twine(headerLength) +
                                  " bytes, the file holds " +
                                  llvm::Twine(bytes.size() - preamble));
  llvm::StringRef headerText = bytes.substr(preamble, headerLength);

  Header header;
  if (std::optional<std::string> expected =
          HeaderParser(headerText).parse(header))
    return makeNpyError(path, "malformed header (expected " + *expected +
                                  "): " + headerText.rtrim(" \n"));
  llvm::Expected<DType> dtype = dtypeOfDescr(path, *header.descr);
  if (!dtype)
    return dtype.takeError();
  const Shape &shape = *header.shape;
  if (*header.fortranOrder &&
      llvm::count_if(shape, [](int64_t dim) { return dim > 1; }) > 1)
    return makeNpyError(path, "Fortran-order arrays are not supported; save "
                              "np.ascontiguousarray(a)");

  // Tensors are sized in int64 (like the types the interpreter accepts).
  std::optional<int64_t> dataBytes = checkedProduct(shape, dtypeSize(*dtype));
  if (!dataBytes)
    return makeNpyError(path, "shape " + shapeTuple(shape) + " is too large");
  size_t expectedBytes = *dataBytes;
  llvm::StringRef data = bytes.drop_front(preamble + headerLength);
  std::string sizes = "shape " + shapeTuple(shape) + " of '" + *header.descr +
                      "' needs " + std::to_string(expectedBytes) +
                      " bytes of data, the file holds " +
                      std::to_string(data.size());
  if (data.size() < expectedBytes)
    return makeNpyError(path, "truncated data: " + sizes);
  if (data.size() > expectedBytes)
    return makeNpyError(path, "size mismatch: " + sizes);

  Tensor tensor = Tensor::empty(*dtype, shape);
  std::memcpy(tensor.bytes(), data.data(), data.size());
  if (*dtype == DType::I1)
    for (uint8_t &value :
         llvm::MutableArrayRef(tensor.data<uint8_t>(), tensor.numElements()))
      value = value != 0;
  return tensor;
}

llvm::Error writeNpy(llvm::StringRef path, const Tensor &tensor) {
  DType stored = npyStorageType(tensor.dtype());
  Tensor widened =
      stored != tensor.dtype() ? convert(tensor, stored) : tensor;
  std::string header =
      std::string("{'descr': '") + npyDescr(tensor.dtype()) +
      "', 'fortran_order': False, 'shape': " + shapeTuple(tensor.shape()) +
      ", }";
  // Version 1.0 while the length fits its 2 bytes; the whole preamble and
  // header is padded to a multiple of 64 bytes, as NumPy does.
  bool version2 = header.size() + 1 + 64 > 0xffff;
  size_t preamble = version2 ? 12 : 10;
  header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
  header += '\n';

  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return makeNpyError(path, "cannot write: " + error.message());
  os << kMagic << static_cast<char>(version2 ? 2 : 1) << '\0';
  uint32_t length = header.size();
  os.write(reinterpret_cast<const char *>(&length), version2 ? 4 : 2);
  os << header;
  os.write(reinterpret_cast<const char *>(widened.bytes()), widened.byteSize());
  os.close();
  if (os.has_error()) {
    error = os.error();
    os.clear_error();
    return makeNpyError(path, "cannot write: " + error.message());
  }
  return llvm::Error::success();
}

} // namespace mlir::mpmd::runtime
