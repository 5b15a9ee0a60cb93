// android.process_metadata and android.user_list.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

struct Proc {
  int64_t pid;
  const char* name;
  std::optional<uint32_t> parent;
  std::optional<int64_t> appid;
  std::optional<int64_t> user;
  const char* cmdline = nullptr;
};

std::unique_ptr<TraceDatabase> OpenAndroidTrace(TraceBuilder& b) {
  const Proc procs[] = {
      {0, "", {}, {}, {}},                                          // 0 swapper
      {1, "init", 0u, 0, 0},                                        // 1
      {2, "system_server", 1u, 1000, 0},                            // 2
      {3, "com.google.android.gms", 1u, 10100, 0},                  // 3
      {4, "com.google.android.gms.persistent", 1u, 10100, 0},       // 4
      {5, "com.google.android.gms", 1u, 10100, 10},                 // 5 second user
      {20, "kthreadd", 0u, {}, {}},                                 // 6
      {21, "kworker/0:1", 6u, {}, {}},                              // 7
      {30, "com.google.android.gms_sdk", 1u, 20100, 0},             // 8 SDK sandbox
      {31, "com.google.android.gsf:isolated", 1u, 90005, 0},        // 9 isolated
      {32, "droid.apps.maps", 1u, 10200, 0, "com.google.android.apps.maps"},  // 10 cut name
  };
  for (const Proc& p : procs) {
    const uint32_t upid = b.Process(p.pid, p.name, p.parent);
    if (p.appid) b.s.process.android_appid.Set(upid, *p.appid);
    if (p.appid) b.s.process.uid.Set(upid, *p.appid + 100000 * p.user.value_or(0));
    if (p.user) b.s.process.android_user_id.Set(upid, *p.user);
    if (p.cmdline) b.s.process.cmdline.Set(upid, b.s.Intern(p.cmdline));
  }
  b.s.package_list.Insert({.package_name = b.s.Intern("com.google.android.gms"),
                           .uid = 10100,
                           .debuggable = false,
                           .profileable_from_shell = false,
                           .version_code = 1234});
  b.s.package_list.Insert({.package_name = b.s.Intern("com.google.android.gsf"),
                           .uid = 10100,
                           .debuggable = false,
                           .profileable_from_shell = false,
                           .version_code = 1});
  b.s.package_list.Insert({.package_name = b.s.Intern("com.google.android.apps.maps"),
                           .uid = 10200,
                           .debuggable = true,
                           .profileable_from_shell = true,
                           .version_code = 77});
  return b.Open();
}

TEST(AndroidProcessMetadata, PackagesUidsAndKernelTasks) {
  TraceBuilder b;
  auto db = OpenAndroidTrace(b);
  EXPECT_EQ(
      Rows(*db, R"(INCLUDE PERFETTO MODULE android.process_metadata;
                   SELECT upid, pid, process_name, uid, shared_uid, user_id, user_type,
                          package_name, version_code, debuggable, is_kernel_task
                   FROM android_process_metadata)"),
      (Table{
          {"0", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "1"},
          {"1", "1", "init", "0", "NULL", "0", "NULL", "NULL", "NULL", "NULL", "1"},
          {"2", "2", "system_server", "1000", "NULL", "0", "NULL", "NULL", "NULL", "NULL", "0"},
          {"3", "3", "com.google.android.gms", "10100", "1", "0", "NULL",
           "com.google.android.gms", "1234", "0", "0"},
          {"4", "4", "com.google.android.gms.persistent", "10100", "1", "0", "NULL",
           "com.google.android.gms", "1234", "0", "0"},
          {"5", "5", "com.google.android.gms", "10100", "1", "10", "NULL",
           "com.google.android.gms", "1234", "0", "0"},
          {"6", "20", "kthreadd", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "1"},
          {"7", "21", "kworker/0:1", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "1"},
          {"8", "30", "com.google.android.gms_sdk", "20100", "1", "0", "NULL",
           "com.google.android.gms", "1234", "0", "0"},
          {"9", "31", "com.google.android.gsf:isolated", "90005", "NULL", "0", "NULL",
           "com.google.android.gsf", "1", "0", "0"},
          {"10", "32", "com.google.android.apps.maps", "10200", "NULL", "0", "NULL",
           "com.google.android.apps.maps", "77", "1", "0"},
      }));
  EXPECT_EQ(Scalar(*db, "SELECT android_is_kernel_task(7)"), "1");
  EXPECT_EQ(Scalar(*db, "SELECT android_is_kernel_task(3)"), "0");
}

TEST(AndroidProcessMetadata, WorksWithoutPackages) {
  TraceBuilder b;
  b.Process(0, "");
  b.Process(100, "com.example.app", 0u);
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE android.process_metadata;
                         SELECT upid, process_name, package_name, is_kernel_task
                         FROM android_process_metadata WHERE upid != 0)"),
            (Table{{"1", "com.example.app", "NULL", "1"}}));
}

TEST(AndroidUserList, HasTraceProcessorsColumns) {
  TraceBuilder b;
  auto db = b.Open();
  auto r = db->Execute(R"(INCLUDE PERFETTO MODULE android.user_list;
                          SELECT android_user_id, type FROM android_user_list)");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->columns, (std::vector<std::string>{"android_user_id", "type"}));
}

}  // namespace
}  // namespace tw::stdlib_testing
