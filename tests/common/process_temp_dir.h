#pragma once
// A temporary directory of this test process. ctest runs the cases of one binary as separate
// processes in parallel; files named only after the test would be written, read and deleted by
// several of them at once. Paths under this directory are private to the process.

#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace tw::testing {

// Ends with '/'. Created on first use.
inline std::string ProcessTempDir() {
  static const std::string dir = [] {
    std::string d = ::testing::TempDir();
    if (!d.empty() && d.back() != '/') d += '/';
    d += "tw-" + std::to_string(getpid()) + "/";
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

}  // namespace tw::testing
