// Wakeup sources (wakeup_source_activate 404 / _deactivate 405) become one "Wakelock(<name>)"
// slice per held period; file reads (android_fs_dataread_start 432 / _end 431) become
// android_fs_data_read slices, the end found by (inode, offset).

#include <gtest/gtest.h>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tests/trace/importers/ftrace_test_trace.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using importer_testing::AddFtraceEvent;
using importer_testing::LoadOrFail;
using stdlib_testing::Rows;
using stdlib_testing::Table;

constexpr uint32_t kActivate = 404, kDeactivate = 405, kReadEnd = 431, kReadStart = 432;

proto::Writer Source(std::string_view name) {
  proto::Writer w;
  w.String(1, name);
  return w;
}

TEST(FtraceWakeupSources, NestedActivationsMakeOneSlice) {
  proto::Writer trace;
  AddFtraceEvent(trace, 0, 100, 1, kActivate, Source("keys"));
  AddFtraceEvent(trace, 0, 110, 1, kActivate, Source("keys"));  // nested: counted only
  AddFtraceEvent(trace, 0, 120, 1, kActivate, Source("alarm"));
  AddFtraceEvent(trace, 0, 150, 1, kDeactivate, Source("keys"));
  AddFtraceEvent(trace, 0, 170, 1, kDeactivate, Source("alarm"));
  AddFtraceEvent(trace, 0, 200, 1, kDeactivate, Source("keys"));  // balances the first
  AddFtraceEvent(trace, 0, 210, 1, kDeactivate, Source("never"));  // not active: ignored
  auto t = LoadOrFail(trace);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.name, t.name, t.type FROM slice s "
                          "JOIN track t ON s.track_id = t.id ORDER BY s.ts"),
            (Table{{"100", "100", "Wakelock(keys)", "Wakelock(keys)", "wakesource_wakelock"},
                   {"120", "50", "Wakelock(alarm)", "Wakelock(alarm)", "wakesource_wakelock"}}));
}

proto::Writer ReadStart(uint64_t ino, int64_t offset, int32_t bytes, std::string_view path) {
  proto::Writer w;
  w.Int(1, bytes);
  w.Varint(4, ino);
  w.Int(5, offset);
  w.String(6, path);
  return w;
}
proto::Writer ReadEnd(uint64_t ino, int64_t offset, int32_t bytes) {
  proto::Writer w;
  w.Int(1, bytes);
  w.Varint(2, ino);
  w.Int(3, offset);
  return w;
}

TEST(FtraceFsReads, EndsFindTheirStartByInodeAndOffset) {
  proto::Writer trace;
  AddFtraceEvent(trace, 0, 100, 10, kReadStart, ReadStart(7, 0, 4096, "/system/bin/sh"));
  AddFtraceEvent(trace, 1, 105, 11, kReadStart, ReadStart(8, 4096, 512, "/data/x"));
  AddFtraceEvent(trace, 2, 130, 99, kReadEnd, ReadEnd(8, 4096, 512));   // another thread ends it
  AddFtraceEvent(trace, 2, 140, 99, kReadEnd, ReadEnd(7, 0, 4096));
  AddFtraceEvent(trace, 2, 150, 99, kReadEnd, ReadEnd(9, 0, 1));  // no start: dropped
  auto t = LoadOrFail(trace);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT s.ts, s.dur, s.name, EXTRACT_ARG(s.arg_set_id, 'file_path'), "
                          "EXTRACT_ARG(s.arg_set_id, 'bytes_read_end') FROM slice s ORDER BY s.ts"),
            (Table{{"100", "40", "android_fs_data_read", "/system/bin/sh", "4096"},
                   {"105", "25", "android_fs_data_read", "/data/x", "512"}}));
  // Concurrent reads by two threads need two tracks of the set.
  EXPECT_EQ(Rows(t->db(), "SELECT COUNT(DISTINCT track_id) FROM slice"), (Table{{"2"}}));
}

}  // namespace
}  // namespace tw
