//===- ProgramIOTest.cpp - Inputs checked against a program, outputs ------===//

#include "TemporaryDirectoryTest.h"

#include "mpmd/Runtime/ProgramIO.h"

#include "mpmd/Runtime/Npy.h"
#include "mpmd/Runtime/Random.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir::mpmd::runtime;

namespace {

class ProgramIOTest : public TemporaryDirectoryTest {
protected:
  std::string save(llvm::StringRef name, const Tensor &tensor) {
    std::string file = path(name);
    EXPECT_FALSE(llvm::errorToBool(writeNpy(file, tensor)));
    return file;
  }

  /// The text of the InputError that reading must fail with, and its
  /// argument index.
  std::pair<std::string, std::optional<size_t>>
  inputError(llvm::ArrayRef<std::string> paths,
             llvm::ArrayRef<TensorSpec> expected) {
    llvm::Expected<std::vector<Tensor>> inputs = readInputs(paths, expected);
    if (inputs) {
      ADD_FAILURE() << "the inputs were accepted";
      return {};
    }
    std::pair<std::string, std::optional<size_t>> result;
    llvm::handleAllErrors(
        inputs.takeError(),
        [&](const InputError &error) {
          result = {error.message(), error.getArgument()};
        },
        [&](const llvm::ErrorInfoBase &other) {
          ADD_FAILURE() << "not an InputError: " << other.message();
        });
    return result;
  }
};

bool sameBytes(const Tensor &a, const Tensor &b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

TEST_F(ProgramIOTest, ReadsInputsOfTheExpectedTypes) {
  Tensor a = randomTensor(DType::F32, {2, 3}, 1);
  Tensor b = randomTensor(DType::I32, {}, 2);
  llvm::Expected<std::vector<Tensor>> inputs =
      readInputs({save("a.npy", a), save("b.npy", b)},
                 {{DType::F32, {2, 3}}, {DType::I32, {}}});
  ASSERT_TRUE(bool(inputs)) << llvm::toString(inputs.takeError());
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_TRUE(sameBytes((*inputs)[0], a));
  EXPECT_TRUE(sameBytes((*inputs)[1], b));
}

TEST_F(ProgramIOTest, Bf16ArgumentsReadF32Files) {
  Tensor f32 = Tensor::empty(DType::F32, {2});
  f32.data<float>()[0] = 1.0f + 1.0f / 256; // halfway: rounds to even (1)
  f32.data<float>()[1] = -0.375f;
  llvm::Expected<std::vector<Tensor>> inputs =
      readInputs({save("a.npy", f32)}, {{DType::BF16, {2}}});
  ASSERT_TRUE(bool(inputs)) << llvm::toString(inputs.takeError());
  EXPECT_EQ((*inputs)[0].dtype(), DType::BF16);
  EXPECT_EQ((*inputs)[0].valuesToString(), "[1, -0.375]");
}

TEST_F(ProgramIOTest, MismatchesNameTheArgument) {
  std::string a = save("a.npy", Tensor::zeros(DType::F32, {2, 3}));
  std::string b = save("b.npy", Tensor::zeros(DType::I64, {3}));
  std::vector<TensorSpec> two = {{DType::F32, {2, 3}}, {DType::I32, {3}}};

  EXPECT_EQ(inputError({a}, two),
            std::pair(std::string("expected 2 input(s), one per argument, "
                                  "got 1"),
                      std::optional<size_t>()));
  EXPECT_EQ(inputError({a, b}, two),
            std::pair("argument 1: expected tensor<3xi32>, got tensor<3xi64> "
                      "from " +
                          b,
                      std::optional<size_t>(1)));
  EXPECT_EQ(inputError({b, a}, {{DType::I64, {3}}, {DType::F32, {3, 2}}}),
            std::pair("argument 1: expected tensor<3x2xf32>, got "
                      "tensor<2x3xf32> from " +
                          a,
                      std::optional<size_t>(1)));
  EXPECT_EQ(inputError({b}, {{DType::BF16, {3}}}).first,
            "argument 0: expected tensor<3xbf16> (as '<f4'), got "
            "tensor<3xi64> from " +
                b);
}

TEST_F(ProgramIOTest, UnreadableInputsAreNpyErrors) {
  llvm::Expected<std::vector<Tensor>> inputs =
      readInputs({path("missing.npy")}, {{DType::F32, {1}}});
  ASSERT_FALSE(bool(inputs));
  llvm::Error error = inputs.takeError();
  EXPECT_TRUE(error.isA<NpyError>());
  llvm::consumeError(std::move(error));
}

TEST_F(ProgramIOTest, RandomInputsAreSeededPerArgument) {
  std::vector<Tensor> inputs =
      randomInputs(9, {{DType::F32, {4}}, {DType::I8, {2, 2}}});
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_TRUE(sameBytes(inputs[0],
                        randomTensor(DType::F32, {4}, SplitMix64(9).next())));
  EXPECT_TRUE(sameBytes(
      inputs[1], randomTensor(DType::I8, {2, 2}, SplitMix64(10).next())));
}

TEST_F(ProgramIOTest, WritesOneFilePerOutput) {
  std::string out = path("nested/out");
  Tensor a = randomTensor(DType::F64, {3}, 1);
  Tensor b = randomTensor(DType::UI16, {2, 2}, 2);
  ASSERT_FALSE(llvm::errorToBool(writeOutputs(out, {a, b})));
  for (auto [index, expected] : llvm::enumerate(std::vector{a, b})) {
    llvm::Expected<Tensor> read =
        readNpy(out + "/output_" + std::to_string(index) + ".npy");
    ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
    EXPECT_TRUE(sameBytes(*read, expected));
  }

  // A file where a directory should be.
  std::string file = save("file.npy", a);
  llvm::Error error = writeOutputs(file + "/out", {a});
  ASSERT_TRUE(error.isA<NpyError>());
  std::string text = llvm::toString(std::move(error));
  EXPECT_EQ(text.rfind(file + "/out: cannot create the output directory: ", 0),
            0u)
      << text;
  error = writeOutputs(file, {a});
  ASSERT_TRUE(error.isA<NpyError>());
  text = llvm::toString(std::move(error));
  EXPECT_EQ(text.rfind(file + "/output_0.npy: cannot write: ", 0), 0u) << text;
}

TEST_F(ProgramIOTest, SummariesGiveTypeStatisticsAndValues) {
  Tensor tensor = Tensor::empty(DType::F32, {2, 2});
  float values[] = {-1, 0, 0.5, 2.5};
  std::memcpy(tensor.bytes(), values, sizeof(values));
  EXPECT_EQ(summarize(tensor),
            "tensor<2x2xf32> min -1 max 2.5 mean 0.5 [-1, 0, 0.5, 2.5]");
  EXPECT_EQ(summarize(tensor, 2), "tensor<2x2xf32> min -1 max 2.5 mean 0.5 "
                                  "[-1, 0, ... (4 elements)]");
  float withNan[] = {NAN, 1, -2, NAN};
  std::memcpy(tensor.bytes(), withNan, sizeof(withNan));
  EXPECT_EQ(summarize(tensor), "tensor<2x2xf32> min -2 max 1 mean nan "
                               "[nan, 1, -2, nan]");
  EXPECT_EQ(summarize(Tensor::zeros(DType::I1, {3})),
            "tensor<3xi1> min 0 max 0 mean 0 [false, false, false]");
  EXPECT_EQ(summarize(Tensor::zeros(DType::I32, {0, 2})), "tensor<0x2xi32> []");
}

} // namespace
