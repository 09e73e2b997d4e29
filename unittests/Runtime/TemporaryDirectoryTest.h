//===- TemporaryDirectoryTest.h - Tests that write files --------*- C++ -*-===//
//
// A fixture with a fresh directory per test, removed afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef MPMD_UNITTESTS_RUNTIME_TEMPORARYDIRECTORYTEST_H
#define MPMD_UNITTESTS_RUNTIME_TEMPORARYDIRECTORYTEST_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <string>

class TemporaryDirectoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mpmd-test", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// `name` inside the test's directory.
  std::string path(llvm::StringRef name) {
    llvm::SmallString<128> result(dir);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }

  llvm::SmallString<128> dir;
};

#endif // MPMD_UNITTESTS_RUNTIME_TEMPORARYDIRECTORYTEST_H
