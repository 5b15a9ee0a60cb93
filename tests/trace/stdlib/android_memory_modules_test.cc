// android.memory.* modules (dmabuf, memory_breakdown) over hand-built traces.

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

// A zygote, an app it forked (alive from 100 to 700) and a native daemon, each with RSS.
struct BreakdownTrace {
  TraceBuilder b;
  uint32_t zygote = b.Process(1, "zygote64");
  uint32_t app = b.Process(100, "com.example.app", zygote);
  uint32_t daemon = b.Process(200, "/system/bin/daemon");

  BreakdownTrace() {
    b.s.process.start_ts.Set(app, 100);
    b.s.process.end_ts.Set(app, 700);
    const uint32_t z_anon = b.ProcessCounterTrack(zygote, "mem.rss.anon");
    b.Counter(z_anon, 0, 1000);
    b.Counter(z_anon, 500, 3000);  // the zygote's average anon RSS: 2000
    const uint32_t z_file = b.ProcessCounterTrack(zygote, "mem.rss.file");
    b.Counter(z_file, 0, 400);
    const uint32_t anon = b.ProcessCounterTrack(app, "mem.rss.anon");
    b.Counter(anon, 50, 5000);   // before the app started: clipped to 100
    b.Counter(anon, 400, 1500);  // below the zygote's average: adjusted to 0
    const uint32_t shmem = b.ProcessCounterTrack(app, "mem.rss.shmem");
    b.Counter(shmem, 200, 800);  // not shared with the zygote: kept
    const uint32_t heap = b.ProcessCounterTrack(app, "Heap size (KB)");
    b.Counter(heap, 300, 10);  // KB
    const uint32_t d_anon = b.ProcessCounterTrack(daemon, "mem.rss.anon");
    b.Counter(d_anon, 0, 7000);  // not forked by a zygote: kept
    b.ProcessCounterTrack(app, "mem.unrelated");
  }
};

TEST(AndroidMemoryBreakdown, IntervalsClippedToTheProcessAndAdjustedForItsZygote) {
  BreakdownTrace t;
  auto db = t.b.Open(0, 1000);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.memory.memory_breakdown;"
                      "SELECT process_name, memory_track_name, ts, dur, value, "
                      "zygote_adjusted_value FROM android_process_memory_intervals "
                      "ORDER BY process_name, memory_track_name, ts"),
            (Table{{"/system/bin/daemon", "mem.rss.anon", "0", "1000", "7000", "7000"},
                   {"com.example.app", "mem.heap", "300", "400", "10240", "10240"},
                   {"com.example.app", "mem.rss.anon", "100", "300", "5000", "3000"},
                   {"com.example.app", "mem.rss.anon", "400", "300", "1500", "0"},
                   {"com.example.app", "mem.rss.shmem", "200", "500", "800", "800"},
                   {"zygote64", "mem.rss.anon", "0", "500", "1000", "1000"},
                   {"zygote64", "mem.rss.anon", "500", "500", "3000", "3000"},
                   {"zygote64", "mem.rss.file", "0", "1000", "400", "400"}}));
}

TEST(AndroidMemoryBreakdown, SplitByOomBucket) {
  BreakdownTrace t;
  const uint32_t oom = t.b.ProcessCounterTrack(t.daemon, "oom_score_adj");
  t.b.Counter(oom, 0, 0);
  t.b.Counter(oom, 600, 950);
  auto db = t.b.Open(0, 1000);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.memory.memory_breakdown;"
                      "SELECT process_name, memory_track_name, ts, dur, bucket, value "
                      "FROM android_process_memory_intervals_by_oom_bucket "
                      "WHERE memory_track_name = 'mem.rss.anon' ORDER BY process_name, ts"),
            (Table{{"/system/bin/daemon", "mem.rss.anon", "0", "600", "foreground", "7000"},
                   {"/system/bin/daemon", "mem.rss.anon", "600", "400", "cached", "7000"},
                   {"com.example.app", "mem.rss.anon", "100", "300", "unknown", "5000"},
                   {"com.example.app", "mem.rss.anon", "400", "300", "unknown", "1500"},
                   {"zygote64", "mem.rss.anon", "0", "500", "unknown", "1000"},
                   {"zygote64", "mem.rss.anon", "500", "500", "unknown", "3000"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
