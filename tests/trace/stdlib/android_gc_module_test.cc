// android.garbage_collection over hand-built GC threads, slices and heap counters.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// One app: its HeapTaskDaemon runs a young GC [100, 200) followed by its CompactionPhase
// [200, 250) (outside the GC's nesting), then a full GC [500, 600); heap samples at 0, 150,
// 260 and 700 KB 4000, 5000, 3000, 3500.
std::unique_ptr<TraceDatabase> OpenGcTrace(TraceBuilder& b) {
  const uint32_t upid = b.Process(42, "com.app");
  const uint32_t gc_thread = b.Thread(43, "HeapTaskDaemon", upid);
  const uint32_t track = b.ThreadTrack(gc_thread);
  b.Slice(track, 100, 100, "young concurrent copying GC");
  b.Slice(track, 200, 50, "CompactionPhase");
  b.Slice(track, 500, 100, "concurrent copying GC");
  const uint32_t heap = b.ProcessCounterTrack(upid, "Heap size (KB)");
  b.Counter(heap, 0, 4000);
  b.Counter(heap, 150, 5000);
  b.Counter(heap, 260, 3000);
  b.Counter(heap, 700, 3500);
  b.State(gc_thread, 100, 120, "Running");
  b.State(gc_thread, 220, 30, "R");
  return b.Open(0, 1000);
}

TEST(AndroidGarbageCollection, CompactionPhaseExtendsTheGcAndHeapIsMeasuredAround) {
  TraceBuilder b;
  auto db = OpenGcTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE android.garbage_collection;
                         SELECT gc_ts, gc_dur, gc_type, min_heap_mb, max_heap_mb, reclaimed_mb,
                                gc_running_dur, gc_runnable_dur
                         FROM android_garbage_collection_events)"),
            (Table{{"100", "150", "young", "3", "5", "2", "120", "30"},
                   {"500", "100", "full", "3", "3.5", "0.5", "0", "0"}}));
}

// _gc_slice windows only the tracks that hold a GC, and _gc_slice_with_final_heap reads a
// materialised, indexed heap counter; on random GC threads, names, unfinished slices and heap
// samples both must give exactly the rows of the definitions they replaced (a window over every
// top-level thread slice, a correlated lookup into a view).
TEST(AndroidGarbageCollection, MatchesTheUnoptimisedDefinitions) {
  TraceBuilder b;
  uint64_t x = 99;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  const char* const kNames[] = {"young concurrent copying GC", "CompactionPhase",
                                "Background concurrent copying GC", "concurrent mark compact GC",
                                "NativeAlloc concurrent copying GC", "doFrame", "binder reply"};
  std::vector<uint32_t> tracks;
  std::vector<uint32_t> heaps;
  for (int p = 0; p < 4; ++p) {
    const uint32_t upid = b.Process(100 + p, "app");
    for (int t = 0; t < 3; ++t) {
      tracks.push_back(b.ThreadTrack(b.Thread(1000 + 10 * p + t, "HeapTaskDaemon", upid)));
    }
    heaps.push_back(b.ProcessCounterTrack(upid, p == 3 ? "Other" : "Heap size (KB)"));
  }
  for (int i = 0; i < 2000; ++i) {
    const int64_t ts = i * 10;
    const uint32_t track = tracks[next(tracks.size())];
    const uint32_t root =
        b.Slice(track, ts, next(30) == 0 ? -1 : static_cast<int64_t>(next(9) + 1), kNames[next(7)]);
    if (next(4) == 0) b.Slice(track, ts + 1, 1, kNames[next(7)], root);
    if (next(3) == 0) b.Counter(heaps[next(heaps.size())], ts + 5, static_cast<double>(next(9000)));
  }
  auto db = b.Open(0, 25'000);
  const std::string old_gc_slice = R"(
      WITH top_level AS (
        SELECT
          id, name, ts, IIF(dur = -1, trace_end() - ts, dur) AS dur,
          LEAD(name) OVER (PARTITION BY track_id ORDER BY ts) AS next_name,
          LEAD(dur) OVER (PARTITION BY track_id ORDER BY ts) AS next_dur,
          utid, tid, upid, pid, thread_name, process_name
        FROM thread_slice WHERE depth = 0)
      SELECT
        id AS gc_id, name AS gc_name, ts AS gc_ts, ts,
        dur + IIF(next_name IN ('CompactionPhase', 'Background concurrent copying GC'),
                  next_dur, 0) AS gc_dur,
        dur + IIF(next_name IN ('CompactionPhase', 'Background concurrent copying GC'),
                  next_dur, 0) AS dur,
        utid, tid, upid, pid, thread_name, process_name
      FROM top_level WHERE name GLOB '*concurrent*GC')";
  const std::string old_heap_counter = R"(
      SELECT
        c.ts,
        COALESCE(LEAD(c.ts) OVER (PARTITION BY c.track_id ORDER BY c.ts), trace_end()) - c.ts
          AS dur,
        t.upid, cast_int!(c.value) AS value
      FROM counter AS c JOIN process_counter_track AS t ON c.track_id = t.id
      WHERE t.name = 'Heap size (KB)')";
  const Table gc_slices = Rows(*db, R"(INCLUDE PERFETTO MODULE slices.with_context;
                                       SELECT * FROM ()" + old_gc_slice + ") ORDER BY gc_id");
  const Table final_heap = Rows(*db, "WITH g AS (" + old_gc_slice + "), h AS (" +
                                         old_heap_counter + R"()
      SELECT g.*, (SELECT h.value FROM h WHERE h.upid = g.upid AND h.ts >= g.gc_ts + g.gc_dur
                   ORDER BY h.ts LIMIT 1) AS last_value
      FROM g ORDER BY gc_id)");
  ASSERT_GT(gc_slices.size(), 500u);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE android.garbage_collection;
                         SELECT * FROM _gc_slice ORDER BY gc_id)"),
            gc_slices);
  EXPECT_EQ(Rows(*db, "SELECT * FROM _gc_slice_with_final_heap ORDER BY gc_id"), final_heap);
  EXPECT_EQ(Rows(*db, "SELECT * FROM _gc_heap_counter ORDER BY upid, ts"),
            Rows(*db, "SELECT * FROM (" + old_heap_counter + ") ORDER BY upid, ts"));
  EXPECT_GT(std::stoi(Scalar(*db, "SELECT COUNT(*) FROM android_garbage_collection_events")), 100);
}

}  // namespace
}  // namespace tw::stdlib_testing
