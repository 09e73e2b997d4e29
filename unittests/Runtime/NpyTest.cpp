//===- NpyTest.cpp - .npy files: round trips and corrupt files ------------===//

#include "TemporaryDirectoryTest.h"

#include "mpmd/Runtime/Npy.h"
#include "mpmd/Runtime/Random.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <cstring>
#include <string>

using namespace mlir::mpmd::runtime;

namespace {

class NpyTest : public TemporaryDirectoryTest {
protected:
  /// Writes `bytes` to a file `name` in the test's directory.
  std::string writeFile(llvm::StringRef name, llvm::StringRef bytes) {
    std::string file = path(name);
    std::error_code error;
    llvm::raw_fd_ostream os(file, error);
    EXPECT_FALSE(error);
    os << bytes;
    return file;
  }

  std::string readFile(llvm::StringRef file) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    EXPECT_TRUE(bool(buffer));
    return buffer ? (*buffer)->getBuffer().str() : "";
  }

  /// The problem of the NpyError that reading `file` must fail with.
  std::string readProblem(const std::string &file) {
    llvm::Expected<Tensor> tensor = readNpy(file);
    if (tensor) {
      ADD_FAILURE() << file << " was read";
      return "";
    }
    std::string problem;
    llvm::handleAllErrors(
        tensor.takeError(),
        [&](const NpyError &error) {
          EXPECT_EQ(error.getPath(), file);
          problem = error.getProblem();
        },
        [&](const llvm::ErrorInfoBase &other) {
          ADD_FAILURE() << "not an NpyError: " << other.message();
        });
    return problem;
  }
};

/// A .npy file of `version` with a header (padded as NumPy does) and data.
std::string npyBytes(int version, std::string header, llvm::StringRef data) {
  size_t preamble = version == 1 ? 10 : 12;
  header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += static_cast<char>(version);
  bytes += '\0';
  uint32_t length = header.size();
  bytes.append(reinterpret_cast<const char *>(&length), version == 1 ? 2 : 4);
  return bytes + header + data.str();
}

std::string f32Bytes(std::initializer_list<float> values) {
  return std::string(reinterpret_cast<const char *>(values.begin()),
                     values.size() * sizeof(float));
}

TEST_F(NpyTest, EveryDTypeRoundTrips) {
  for (DType dtype : {DType::F64, DType::F32, DType::F16, DType::I1, DType::I8,
                      DType::I16, DType::I32, DType::I64, DType::UI8,
                      DType::UI16, DType::UI32, DType::UI64}) {
    for (const Shape &shape :
         {Shape{}, Shape{5}, Shape{2, 3, 4}, Shape{0, 3}}) {
      SCOPED_TRACE(std::string(dtypeName(dtype)) + " " + shapeToString(shape));
      Tensor tensor = randomTensor(dtype, shape, 7);
      std::string file = path("t.npy");
      ASSERT_FALSE(llvm::errorToBool(writeNpy(file, tensor)));
      llvm::Expected<Tensor> read = readNpy(file);
      ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
      EXPECT_EQ(read->dtype(), dtype);
      EXPECT_EQ(read->shape(), shape);
      EXPECT_EQ(std::memcmp(read->bytes(), tensor.bytes(), tensor.byteSize()),
                0);
    }
  }
}

TEST_F(NpyTest, WritesNumPysHeader) {
  Tensor tensor = randomTensor(DType::I64, {2, 3}, 1);
  std::string file = path("t.npy");
  ASSERT_FALSE(llvm::errorToBool(writeNpy(file, tensor)));
  std::string bytes = readFile(file);
  std::string header = "{'descr': '<i8', 'fortran_order': False, "
                       "'shape': (2, 3), }";
  ASSERT_EQ(bytes.size(), 128u + 48u);
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(bytes.substr(10, header.size()), header);
  EXPECT_EQ(bytes[127], '\n');
  EXPECT_EQ(bytes.substr(128),
            std::string(reinterpret_cast<const char *>(tensor.bytes()), 48));

  ASSERT_FALSE(
      llvm::errorToBool(writeNpy(file, Tensor::zeros(DType::I1, {5}))));
  EXPECT_NE(readFile(file).find("'descr': '|b1', 'fortran_order': False, "
                                "'shape': (5,), }"),
            std::string::npos);
}

TEST_F(NpyTest, Bf16IsWrittenAsF32) {
  Tensor tensor = randomTensor(DType::BF16, {3}, 5);
  std::string file = path("t.npy");
  ASSERT_FALSE(llvm::errorToBool(writeNpy(file, tensor)));
  EXPECT_STREQ(npyDescr(DType::BF16), "<f4");
  llvm::Expected<Tensor> read = readNpy(file);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->dtype(), DType::F32);
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(read->data<float>()[i], bf16ToFloat(tensor.data<uint16_t>()[i]));
}

TEST_F(NpyTest, HugeHeadersUseVersion2) {
  Tensor tensor = Tensor::zeros(DType::F32, Shape(30000, 1));
  std::string file = path("t.npy");
  ASSERT_FALSE(llvm::errorToBool(writeNpy(file, tensor)));
  EXPECT_EQ(readFile(file).substr(6, 2), std::string("\x02\x00", 2));
  llvm::Expected<Tensor> read = readNpy(file);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->shape(), tensor.shape());
}

TEST_F(NpyTest, ReadsVersions2And3AndOtherSpellings) {
  for (int version : {2, 3}) {
    std::string file = writeFile(
        "v.npy", npyBytes(version,
                          "{\"shape\": (2L,), \"fortran_order\": False, "
                          "\"descr\": \"<f4\"}",
                          f32Bytes({1.5f, -2})));
    llvm::Expected<Tensor> read = readNpy(file);
    ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
    EXPECT_EQ(read->shape(), Shape{2});
    EXPECT_EQ(read->valuesToString(), "[1.5, -2]");
  }
  // A single row is the same bytes in either order.
  llvm::Expected<Tensor> row = readNpy(
      writeFile("row.npy", npyBytes(1,
                                    "{'descr': '<f4', 'fortran_order': True, "
                                    "'shape': (1, 2), }",
                                    f32Bytes({3, 4}))));
  ASSERT_TRUE(bool(row)) << llvm::toString(row.takeError());
  EXPECT_EQ(row->valuesToString(), "[3, 4]");
}

TEST_F(NpyTest, BooleansBecomeZeroOrOne) {
  llvm::Expected<Tensor> read = readNpy(
      writeFile("b.npy", npyBytes(1,
                                  "{'descr': '|b1', 'fortran_order': False, "
                                  "'shape': (3,), }",
                                  llvm::StringRef("\x00\x02\x01", 3))));
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->valuesToString(), "[false, true, true]");
  EXPECT_EQ(read->data<uint8_t>()[1], 1);
}

TEST_F(NpyTest, AZeroDimensionMakesAnyShapeEmpty) {
  // Found by mpmd-npy-fuzzer: the product of the other dimensions does not
  // fit in int64, which once overflowed while sizing the empty tensor.
  llvm::Expected<Tensor> read = parseNpy(
      npyBytes(1,
               "{'descr': '<i8', 'fortran_order': False, "
               "'shape': (41, 830022222222, 28223282, 0), }",
               ""),
      "empty.npy");
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->numElements(), 0);
  EXPECT_EQ(read->byteSize(), 0u);
}

TEST_F(NpyTest, CorruptFilesNameTheProblem) {
  std::string f32x2 = "{'descr': '<f4', 'fortran_order': False, "
                      "'shape': (2,), }";
  std::string good = npyBytes(1, f32x2, f32Bytes({1, 2}));
  auto header = [](llvm::StringRef descr, llvm::StringRef order,
                   llvm::StringRef shape) {
    return ("{'descr': " + descr + ", 'fortran_order': " + order +
            ", 'shape': " + shape + ", }")
        .str();
  };
  struct Case {
    const char *name;
    std::string bytes;
    const char *problem;
  } cases[] = {
      {"empty", "", "not a .npy file"},
      {"magic", "\x93NUMPZ" + good.substr(6), "not a .npy file"},
      {"after-magic", good.substr(0, 7),
       "truncated header: the file ends after the magic string"},
      {"in-length", good.substr(0, 9),
       "truncated header: the file ends in the header length"},
      {"header", good.substr(0, 40),
       "truncated header: it has 118 bytes, the file holds 30"},
      {"version", "\x93NUMPY\x04" + good.substr(7),
       "unsupported .npy format version 4.0 (1.0, 2.0 and 3.0 are supported)"},
      {"data", good.substr(0, good.size() - 1),
       "truncated data: shape (2,) of '<f4' needs 8 bytes of data, the file "
       "holds 7"},
      {"extra", good + "x",
       "size mismatch: shape (2,) of '<f4' needs 8 bytes of data, the file "
       "holds 9"},
      {"big-endian", npyBytes(1, header("'>f4'", "False", "(2,)"), "12345678"),
       "big-endian data ('>f4') is not supported"},
      {"fortran",
       npyBytes(1, header("'<f4'", "True", "(2, 2)"), "1234567812345678"),
       "Fortran-order arrays are not supported"},
      {"complex256", npyBytes(1, header("'<c32'", "False", "(1,)"), std::string(32, 'x')),
       "unsupported dtype '<c32'; supported: '<f8', '<f4', '<f2', '|b1'"},
      {"bf16-descr", npyBytes(1, header("'|V2'", "False", "(1,)"), "12"),
       "unsupported dtype '|V2'"},
      {"object", npyBytes(1, header("'|O'", "False", "(1,)"), "12345678"),
       "object arrays ('|O') are not supported"},
      {"structured",
       npyBytes(1, header("[('a', '<f4')]", "False", "(1,)"), "1234"),
       "malformed header (expected structured dtypes (a list of fields) are "
       "not supported)"},
      {"missing-key", npyBytes(1, "{'descr': '<f4', 'shape': (1,)}", "1234"),
       "malformed header (expected a 'fortran_order' key): {'descr': '<f4', "
       "'shape': (1,)}"},
      {"extra-key",
       npyBytes(1,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), "
                "'x': 1}",
                "1234"),
       "malformed header (expected only 'descr', 'fortran_order' and 'shape' "
       "keys, not 'x')"},
      {"negative-dim", npyBytes(1, header("'<f4'", "False", "(-1,)"), ""),
       "malformed header (expected one tuple of non-negative integers for "
       "'shape')"},
      {"too-large",
       npyBytes(1, header("'<f8'", "False", "(4294967296, 4294967296)"), ""),
       "shape (4294967296, 4294967296) is too large"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    std::string problem = readProblem(writeFile(c.name, c.bytes));
    EXPECT_EQ(problem.rfind(c.problem, 0), 0u) << problem;
  }
  EXPECT_EQ(readProblem(path("missing.npy")).rfind("cannot read: ", 0), 0u);
}

TEST_F(NpyTest, UnwritablePathIsAnError) {
  std::string file = path("no-such-dir/t.npy");
  llvm::Error error = writeNpy(file, Tensor::zeros(DType::F32, {1}));
  ASSERT_TRUE(error.isA<NpyError>());
  std::string text = llvm::toString(std::move(error));
  EXPECT_EQ(text.rfind(file + ": cannot write: ", 0), 0u) << text;
}

} // namespace
