// heapprofd's native heap profiles (ProfilePacket): the frames and callstacks a profile defines,
// one heap_profile row per (process, dump, heap), cumulative totals turned into per-dump
// allocation and free rows, dump-at-max profiles, continued packets, the ART heap, interned
// callstacks, and the stats of broken or lost packets; and the intervals module over them.

#include <gtest/gtest.h>

#include "libs/trace/trace_loader.h"
#include "tests/trace/importers/heap_profile_writer.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using heap_testing::Callstack;
using heap_testing::Dump;
using heap_testing::Frame;
using heap_testing::HeapProfileWriter;
using heap_testing::Mapping;
using heap_testing::Profile;
using heap_testing::Sample;
using stdlib_testing::Rows;
using stdlib_testing::Scalar;
using stdlib_testing::Table;

std::unique_ptr<LoadedTrace> Load(HeapProfileWriter& w) {
  auto t = LoadTraceBytes(w.Take());
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : nullptr;
}

// libc's malloc called from main → work → alloc, and main → other (another binary).
Profile Definitions() {
  Profile p;
  p.mappings = {{.iid = 1, .path = {"system", "lib64", "libc.so"}, .build_id = "\x0a\xbc"},
                {.iid = 2, .path = {"system", "bin", "app"}}};
  p.frames = {{.iid = 1, .function = "main", .mapping_iid = 2, .rel_pc = 0x100},
              {.iid = 2, .function = "work", .mapping_iid = 2, .rel_pc = 0x200},
              {.iid = 3, .function = "malloc", .mapping_iid = 1, .rel_pc = 0x30},
              {.iid = 4, .function = "other", .mapping_iid = 2, .rel_pc = 0x400}};
  p.callstacks = {{.iid = 1, .frames = {1, 2, 3}}, {.iid = 2, .frames = {1, 4}}};
  return p;
}

TEST(HeapProfile, DefinitionsBecomeStackProfileRows) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  w.Add(1, 10, Definitions(), /*clear=*/true);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT id, name, build_id FROM stack_profile_mapping ORDER BY id"),
            (Table{{"0", "/system/bin/app", ""}, {"1", "/system/lib64/libc.so", "0abc"}}));
  EXPECT_EQ(Rows(db, "SELECT id, name, mapping, rel_pc FROM stack_profile_frame ORDER BY id"),
            (Table{{"0", "main", "0", "256"},
                   {"1", "work", "0", "512"},
                   {"2", "malloc", "1", "48"},
                   {"3", "other", "0", "1024"}}));
  // The two callstacks share their root.
  EXPECT_EQ(Rows(db, "SELECT id, depth, parent_id, frame_id FROM stack_profile_callsite "
                     "ORDER BY id"),
            (Table{{"0", "0", "NULL", "0"},
                   {"1", "1", "0", "1"},
                   {"2", "2", "1", "2"},
                   {"3", "1", "0", "3"}}));
}

TEST(HeapProfile, CumulativeTotalsBecomeAllocationsAndFreesPerDump) {
  HeapProfileWriter w;
  // Coarse monotonic time runs 1000 ns behind the trace clock.
  w.ClockSnapshot(5000, 4000);
  w.Process(42, "com.example.app");
  Profile first = Definitions();
  first.dumps = {{.pid = 42, .timestamp = 4100, .heap_name = "libc.malloc",
                  .samples = {{.callstack = 1, .allocated = 300, .freed = 100,
                               .alloc_count = 3, .free_count = 1},
                              {.callstack = 2, .allocated = 64, .alloc_count = 1}}}};
  w.Add(7, 5100, first, /*clear=*/true);
  Profile second = Definitions();
  second.index = 1;
  second.dumps = {{.pid = 42, .timestamp = 4300, .heap_name = "libc.malloc",
                   .samples = {{.callstack = 1, .allocated = 500, .freed = 400,
                                .alloc_count = 5, .free_count = 4},
                               // Unchanged: nothing to write.
                               {.callstack = 2, .allocated = 64, .alloc_count = 1}}}};
  w.Add(7, 5300, second);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT a.ts, p.pid, a.heap_name, f.name, a.count, a.size "
                     "FROM heap_profile_allocation a JOIN process p USING (upid) "
                     "JOIN stack_profile_callsite c ON c.id = a.callsite_id "
                     "JOIN stack_profile_frame f ON f.id = c.frame_id ORDER BY a.id"),
            (Table{{"5100", "42", "libc.malloc", "malloc", "3", "300"},
                   {"5100", "42", "libc.malloc", "malloc", "-1", "-100"},
                   {"5100", "42", "libc.malloc", "other", "1", "64"},
                   {"5300", "42", "libc.malloc", "malloc", "2", "200"},
                   {"5300", "42", "libc.malloc", "malloc", "-3", "-300"}}));
  // Without a start timestamp a dump's window is the instant it was taken.
  EXPECT_EQ(Rows(db, "SELECT ts, ts_end, dur, heap_name FROM heap_profile ORDER BY id"),
            (Table{{"5100", "5100", "0", "libc.malloc"}, {"5300", "5300", "0", "libc.malloc"}}));
  EXPECT_EQ(Scalar(db, "SELECT value FROM stats WHERE name = 'heapprofd_last_profile_timestamp' "
                       "AND idx = 42"),
            "5300");
  EXPECT_EQ(Scalar(db, "SELECT count(*) FROM stats WHERE name = 'heapprofd_missing_packet' "
                       "AND value > 0"),
            "0");
}

TEST(HeapProfile, WindowStartAndUnnamedHeaps) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  Profile p = Definitions();
  p.dumps = {{.pid = 3, .timestamp = 900, .start_timestamp = 250,
              .samples = {{.callstack = 2, .allocated = 10, .alloc_count = 1}}}};
  w.Add(1, 900, p, /*clear=*/true);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT ts, ts_end, dur, heap_name FROM heap_profile"),
            (Table{{"250", "900", "650", "NULL"}}));
  // An older producer named no heap: its allocations are on "unknown".
  EXPECT_EQ(Rows(db, "SELECT ts, heap_name, count, size FROM heap_profile_allocation"),
            (Table{{"900", "unknown", "1", "10"}}));
}

TEST(HeapProfile, DumpAtMaxReportsThePeakWithoutFrees) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  Profile fixed = Definitions();
  fixed.dumps = {{.pid = 5, .timestamp = 100, .orig_sampling_interval_bytes = 4096,
                  .sampling_interval_bytes = 8192,
                  .samples = {{.callstack = 1, .self_max = 2048, .self_max_count = 7}}}};
  w.Add(1, 100, fixed, /*clear=*/true);
  // A producer from before orig_sampling_interval_bytes: its max counts are not trusted.
  Profile legacy = Definitions();
  legacy.dumps = {{.pid = 6, .timestamp = 100,
                   .samples = {{.callstack = 1, .self_max = 512, .self_max_count = 7}}}};
  w.Add(2, 100, legacy, /*clear=*/true);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT p.pid, a.count, a.size FROM heap_profile_allocation a "
                     "JOIN process p USING (upid) ORDER BY a.id"),
            (Table{{"5", "7", "2048"}, {"6", "0", "512"}}));
  EXPECT_EQ(Scalar(db, "SELECT value FROM stats WHERE name = "
                       "'heapprofd_sampling_interval_adjusted' AND idx = 5"),
            "4096");
}

TEST(HeapProfile, ContinuedPacketsCommitTogether) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  // The definitions come first; the samples in the packet that ends the profile.
  Profile head = Definitions();
  head.continued = true;
  head.dumps = {{.pid = 9, .timestamp = 50, .heap_name = "libc.malloc",
                 .samples = {{.callstack = 1, .allocated = 40, .alloc_count = 2}}}};
  w.Add(1, 50, head, /*clear=*/true);
  Profile tail;
  tail.index = 1;
  tail.dumps = {{.pid = 9, .timestamp = 50, .heap_name = "libc.malloc",
                 .samples = {{.callstack = 2, .allocated = 8, .alloc_count = 1}}}};
  w.Add(1, 50, tail);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT callsite_id, count, size FROM heap_profile_allocation ORDER BY id"),
            (Table{{"2", "2", "40"}, {"3", "1", "8"}}));
  // The repeated dump header is one profile.
  EXPECT_EQ(Scalar(db, "SELECT count(*) FROM heap_profile"), "1");
}

TEST(HeapProfile, HeapsOfOneCallsiteAndTheArtHeap) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  Profile p = Definitions();
  p.dumps = {{.pid = 4, .timestamp = 10, .heap_name = "libc.malloc",
              .samples = {{.callstack = 1, .allocated = 100, .freed = 60, .alloc_count = 2,
                           .free_count = 1}}},
             // Same callsite, another heap: its totals start from the first heap's.
             {.pid = 4, .timestamp = 10, .heap_name = "custom",
              .samples = {{.callstack = 1, .allocated = 30, .freed = 10, .alloc_count = 3,
                           .free_count = 1}}},
             // ART reports allocations only: no free rows.
             {.pid = 4, .timestamp = 10, .heap_name = "com.android.art",
              .samples = {{.callstack = 2, .allocated = 70, .freed = 20, .alloc_count = 7,
                           .free_count = 2}}}};
  w.Add(1, 10, p, /*clear=*/true);
  auto t = Load(w);
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(t->db(), "SELECT heap_name, callsite_id, count, size "
                          "FROM heap_profile_allocation ORDER BY id"),
            (Table{{"libc.malloc", "2", "2", "100"},
                   {"libc.malloc", "2", "-1", "-60"},
                   {"custom", "2", "3", "30"},
                   {"custom", "2", "-1", "-10"},
                   {"com.android.art", "3", "7", "70"}}));
  EXPECT_EQ(Scalar(t->db(), "SELECT count(*) FROM heap_profile"), "3");
}

TEST(HeapProfile, ShrinkingTotalsAndLostPacketsAreCounted) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  Profile first = Definitions();
  first.dumps = {{.pid = 4, .timestamp = 10,
                  .samples = {{.callstack = 1, .allocated = 100, .alloc_count = 2}}}};
  w.Add(1, 10, first, /*clear=*/true);
  Profile shrunk = Definitions();
  shrunk.index = 2;  // index 1 never arrived
  shrunk.dumps = {{.pid = 4, .timestamp = 20,
                   .samples = {{.callstack = 1, .allocated = 50, .alloc_count = 1}}}};
  w.Add(1, 20, shrunk);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT ts, count, size FROM heap_profile_allocation"),
            (Table{{"10", "2", "100"}}));
  EXPECT_EQ(Scalar(db, "SELECT value FROM stats WHERE name = 'heapprofd_missing_packet'"), "1");
  EXPECT_EQ(Scalar(db, "SELECT sum(value) FROM stats WHERE name = 'heapprofd_malformed_packet'"),
            "1");
}

TEST(HeapProfile, UnknownIdsAreCountedNotFatal) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  Profile p = Definitions();
  p.frames.push_back({.iid = 9, .function = "lost", .mapping_iid = 77});  // no such mapping
  p.callstacks.push_back({.iid = 3, .frames = {1, 9}});                     // frame 9 failed
  p.callstacks.push_back({.iid = 4, .frames = {}});                         // empty
  p.dumps = {{.pid = 4, .timestamp = 10,
              .samples = {{.callstack = 3, .allocated = 1, .alloc_count = 1},
                          {.callstack = 1, .allocated = 5, .alloc_count = 1}}}};
  w.Add(1, 10, p, /*clear=*/true);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  EXPECT_EQ(Rows(db, "SELECT callsite_id, size FROM heap_profile_allocation"),
            (Table{{"2", "5"}}));
  EXPECT_EQ(Rows(db, "SELECT name, value FROM stats WHERE name LIKE 'stackprofile_%' "
                     "AND value > 0 ORDER BY name"),
            (Table{{"stackprofile_empty_callstack", "1"},
                   {"stackprofile_invalid_callstack_id", "1"},
                   {"stackprofile_invalid_frame_id", "1"},
                   {"stackprofile_invalid_mapping_id", "1"}}));
}

TEST(HeapProfileIntervals, DumpsBecomeIntervalsWithTheirByteTotals) {
  HeapProfileWriter w;
  w.ClockSnapshot(0, 0);
  Profile first = Definitions();
  first.dumps = {{.pid = 4, .timestamp = 100, .heap_name = "libc.malloc",
                  .samples = {{.callstack = 1, .allocated = 400, .alloc_count = 4},
                              {.callstack = 2, .allocated = 50, .freed = 50, .alloc_count = 1,
                               .free_count = 1}}}};
  w.Add(1, 100, first, /*clear=*/true);
  Profile second = Definitions();
  second.index = 1;
  // Callstack 1 frees 300 of its older bytes and allocates 100 more.
  second.dumps = {{.pid = 4, .timestamp = 160, .heap_name = "libc.malloc",
                   .samples = {{.callstack = 1, .allocated = 500, .freed = 300,
                                .alloc_count = 5, .free_count = 3},
                               {.callstack = 2, .allocated = 50, .freed = 50, .alloc_count = 1,
                                .free_count = 1}}}};
  w.Add(1, 160, second);
  Profile windowed = Definitions();
  windowed.index = 2;
  windowed.dumps = {{.pid = 4, .timestamp = 300, .start_timestamp = 200,
                     .heap_name = "libc.malloc",
                     .samples = {{.callstack = 1, .allocated = 520, .freed = 300,
                                  .alloc_count = 6, .free_count = 3}}}};
  w.Add(1, 300, windowed);
  auto t = Load(w);
  ASSERT_TRUE(t);
  TraceDatabase& db = t->db();
  ASSERT_TRUE(db.Execute("INCLUDE PERFETTO MODULE android.memory.heap_profile.intervals").ok());
  // The first dump starts at the trace's start (its first dump); the second just after the
  // first; the third where its producer said.
  EXPECT_EQ(Rows(db, "SELECT heap_name, ts, dur, retained, allocated, delta "
                     "FROM _android_heap_profile_intervals ORDER BY ts"),
            (Table{{"libc.malloc", "100", "0", "400", "450", "400"},
                   {"libc.malloc", "101", "59", "0", "100", "-200"},
                   {"libc.malloc", "200", "100", "20", "20", "20"}}));
}

}  // namespace
}  // namespace tw
