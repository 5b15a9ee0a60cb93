// `tracewise schema` as a user runs it: the documented SQL surface without a trace.

#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace {

struct Output {
  std::string out;
  int code = -1;
};

Output RunSchema(const std::string& args) {
  Output r;
  FILE* pipe = popen((std::string(TW_TRACEWISE_BIN) + " schema " + args + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(CliSchema, ListsPreludeAndModuleTables) {
  const Output r = RunSchema("");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("Always available:"), std::string::npos);
  EXPECT_NE(r.out.find("thread_state"), std::string::npos);
  EXPECT_NE(r.out.find("INCLUDE PERFETTO MODULE android.frames.timeline;"), std::string::npos);
  EXPECT_NE(r.out.find("android_frames "), std::string::npos);
  EXPECT_EQ(r.out.find("time_from_ms"), std::string::npos) << "functions only with --all";
  EXPECT_NE(RunSchema("--all").out.find("time_from_ms()"), std::string::npos);
}

TEST(CliSchema, DescribesATableColumnByColumn) {
  const Output r = RunSchema("thread_state");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("thread_state (view, always available)"), std::string::npos) << r.out;
  // Column meanings come from the table's declaration (storage/tables/sched_tables.h).
  EXPECT_NE(r.out.find("blocked_function"), std::string::npos);
  EXPECT_NE(r.out.find("the kernel function the thread blocked in"), std::string::npos) << r.out;
}

TEST(CliSchema, DescribesModulesAndFunctions) {
  const Output module = RunSchema("android.memory.lmk");
  ASSERT_EQ(module.code, 0) << module.out;
  EXPECT_NE(module.out.find("android_lmk_events"), std::string::npos) << module.out;
  const Output fn = RunSchema("time_to_ms");
  ASSERT_EQ(fn.code, 0) << fn.out;
  EXPECT_NE(fn.out.find("arguments:"), std::string::npos) << fn.out;
  EXPECT_NE(fn.out.find("INCLUDE PERFETTO MODULE time.conversion"), std::string::npos) << fn.out;
}

TEST(CliSchema, UnknownNamesFailWithSuggestions) {
  const Output r = RunSchema("android_frame");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("no table, view, function or module named 'android_frame'"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("did you mean: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("android_frames"), std::string::npos) << r.out;
}

}  // namespace
