#pragma once
// A temporary directory of this test process. ctest runs the cases of one binary as separate
// processes in parallel; files named only after the test would be written, read and deleted by
// several of them at once. Paths under this directory are private to the process.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace tw::testing {

// Removes the directory when the process exits normally, so a test run leaves no traces,
// databases or reports behind in TMPDIR (a full run wrote about 1 GB). TW_KEEP_TEST_FILES=1 keeps
// them for a look after a failure.
struct ProcessTempDirRemover {
  std::string dir;
  ~ProcessTempDirRemover() {
    const char* keep = std::getenv("TW_KEEP_TEST_FILES");
    if (keep != nullptr && std::string(keep) == "1") return;
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// Ends with '/'. Created on first use; removed at exit.
inline std::string ProcessTempDir() {
  static const std::string dir = [] {
    std::string d = ::testing::TempDir();
    if (!d.empty() && d.back() != '/') d += '/';
    d += "tw-" + std::to_string(getpid()) + "/";
    std::filesystem::create_directories(d);
    return d;
  }();
  static const ProcessTempDirRemover remover{dir};
  return dir;
}

}  // namespace tw::testing
