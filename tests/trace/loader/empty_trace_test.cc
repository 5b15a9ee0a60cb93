// A trace of no bytes is a valid Perfetto trace with no packets, as trace_processor reads it:
// every table exists and is empty, and SQL, PerfettoSQL and the stdlib all run on it.

#include <gtest/gtest.h>

#include <string>

#include "libs/trace/trace_loader.h"

namespace tw {
namespace {

int64_t Count(LoadedTrace& t, const std::string& sql) {
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
  return r.ok() && !r->rows.empty() ? r->rows[0][0].int_value : -1;
}

TEST(EmptyTraceTest, NoBytesLoadsAsAnEmptyPerfettoTrace) {
  auto t = LoadTraceBytes("");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->info().format, "perfetto_proto");
  EXPECT_EQ((*t)->info().packets, 0);
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 0);
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM slice"), 0);
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM counter"), 0);
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM thread_state"), 0);
}

TEST(EmptyTraceTest, PerfettoSqlAndTheStdlibRunOnIt) {
  auto t = LoadTraceBytes("");
  ASSERT_TRUE(t.ok()) << t.status();
  auto r = (*t)->Query(
      "CREATE PERFETTO FUNCTION twice(x INT) RETURNS INT AS SELECT $x * 2;"
      "CREATE PERFETTO TABLE numbers AS SELECT 21 AS n;"
      "SELECT twice(n) AS answer FROM numbers");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_EQ(r->rows[0][0].int_value, 42);

  r = (*t)->Query("INCLUDE PERFETTO MODULE sched.time_in_state; SELECT 1");
  EXPECT_TRUE(r.ok()) << r.status();
}

TEST(EmptyTraceTest, AnEmptyGzipIsAnEmptyTraceToo) {
  // The gzip encoding of zero bytes (header, empty deflate block, crc 0, size 0).
  const std::string gz_of_nothing("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x03\x00\x00\x00\x00\x00"
                                  "\x00\x00\x00\x00",
                                  20);
  auto t = LoadTraceBytes(gz_of_nothing);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE((*t)->info().gzip);
  EXPECT_EQ(Count(**t, "SELECT COUNT(*) FROM sched"), 0);
}

}  // namespace
}  // namespace tw
