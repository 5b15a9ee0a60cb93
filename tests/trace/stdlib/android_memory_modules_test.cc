// android.memory.* modules (dmabuf) over hand-built traces.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// A dma_heap_stat change of `size` bytes to buffer `inode` by `utid`, as the importer stores it:
// a value on the thread's "mem.dma_heap_change" counter with the inode as the value's arg.
struct DmabufTrace {
  TraceBuilder b;
  uint32_t next_set = 1;

  void Change(uint32_t utid, int64_t ts, int64_t inode, int64_t size) {
    uint32_t track = UINT32_MAX;
    for (uint32_t i = 0; i < b.s.track.row_count(); ++i) {
      if (b.s.track.utid[i] == utid && b.s.Str(b.s.track.name[i]) == "mem.dma_heap_change") {
        track = i;
      }
    }
    if (track == UINT32_MAX) {
      track = b.CounterTrack("mem.dma_heap_change", "android_dma_heap_change");
      b.s.track.utid.Set(track, utid);
    }
    const uint32_t row = b.Counter(track, ts, static_cast<double>(size));
    const StringId key = b.s.Intern("inode");
    b.s.args.Insert({.arg_set_id = next_set, .flat_key = key, .key = key, .int_value = inode,
                     .value_type = b.s.Intern("uint")});
    b.s.counter.arg_set_id.Set(row, next_set++);
  }
};

TEST(AndroidDmabuf, AllocationsAndFreesAreChargedToTheAllocator) {
  DmabufTrace t;
  const uint32_t app = t.b.Process(100, "com.example.app");
  const uint32_t ui = t.b.Thread(100, "example", app);
  const uint32_t other = t.b.Thread(300, "");  // no process known
  t.Change(ui, 10, 7, 4096);
  t.Change(other, 20, 8, 1000);
  // Buffer 7 is freed by another thread: still charged to the app's thread.
  t.Change(other, 30, 7, -4096);
  t.Change(other, 40, 8, -1000);
  // A free of a buffer never seen allocated is charged to no one and left out.
  t.Change(other, 50, 9, -64);
  auto db = t.b.Open();
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.memory.dmabuf;"
                      "SELECT ts, buf_size, inode, tid, thread_name, pid, process_name "
                      "FROM android_dmabuf_allocs"),
            (Table{{"10", "4096", "7", "100", "example", "100", "com.example.app"},
                   {"20", "1000", "8", "300", "NULL", "NULL", "NULL"},
                   {"30", "-4096", "7", "100", "example", "100", "com.example.app"},
                   {"40", "-1000", "8", "300", "NULL", "NULL", "NULL"}}));
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.memory.dmabuf;"
                      "SELECT upid, utid, ts, value FROM android_memory_cumulative_dmabuf "
                      "ORDER BY utid, ts"),
            (Table{{std::to_string(app), std::to_string(ui), "10", "4096"},
                   {std::to_string(app), std::to_string(ui), "30", "0"},
                   {"NULL", std::to_string(other), "20", "1000"},
                   {"NULL", std::to_string(other), "40", "0"}}));
}

TEST(AndroidDmabuf, GrallocAllocationsAreChargedToTheBinderClient) {
  DmabufTrace t;
  const uint32_t app = t.b.Process(100, "com.example.app");
  const uint32_t app_thread = t.b.Thread(101, "RenderThread", app);
  const uint32_t gralloc =
      t.b.Process(500, "/vendor/bin/hw/android.hardware.graphics.allocator-service");
  const uint32_t gralloc_thread = t.b.Thread(501, "binder:500_1", gralloc);
  const uint32_t call = t.b.Slice(t.b.ThreadTrack(app_thread), 100, 100, "binder transaction");
  const uint32_t reply = t.b.Slice(t.b.ThreadTrack(gralloc_thread), 120, 50, "binder reply");
  t.b.s.flow.Insert({.slice_out = call, .slice_in = reply});
  t.Change(gralloc_thread, 150, 42, 8192);  // inside the reply: the app's
  t.Change(gralloc_thread, 300, 43, 512);   // outside any reply: gralloc's own
  t.Change(gralloc_thread, 400, 42, -8192);
  auto db = t.b.Open(0, 1000);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.memory.dmabuf;"
                      "SELECT ts, buf_size, inode, tid, pid FROM android_dmabuf_allocs"),
            (Table{{"150", "8192", "42", "101", "100"},
                   {"300", "512", "43", "501", "500"},
                   {"400", "-8192", "42", "101", "100"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
