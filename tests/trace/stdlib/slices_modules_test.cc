// slices.with_context, slices.hierarchy, slices.self_dur and slices.stack over hand-built slices.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// The trace of trace_processor's stdlib/slices diff tests: slice 0 "AsyncSlice" on a global
// track, 1 "ProcessSlice" on a track of process pid 3 "Process", 2 "ThreadSlice" and its child
// 3 "NestedThreadSlice" on a track of thread tid 5 "Thread" of that process.
std::unique_ptr<TraceDatabase> OpenContextTrace(TraceBuilder& b) {
  const uint32_t swapper = b.Process(0, "");
  (void)swapper;
  const uint32_t upid = b.Process(3, "Process");
  const uint32_t utid = b.Thread(5, "Thread", upid);
  const uint32_t async = b.GlobalTrack("Async");
  const uint32_t ptrack = b.ProcessTrack(upid, "ProcTrack");
  const uint32_t ttrack = b.ThreadTrack(utid, "ThreadTrack");
  b.Slice(async, 1, 2, "AsyncSlice");
  b.Slice(ptrack, 3, 4, "ProcessSlice");
  const uint32_t thread_slice = b.Slice(ttrack, 5, 8, "ThreadSlice");
  b.Slice(ttrack, 6, 1, "NestedThreadSlice", thread_slice);
  return b.Open(0, 20);
}

TEST(SlicesWithContext, ProcessSlice) {
  TraceBuilder b;
  auto db = OpenContextTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.with_context;
                         SELECT name, ts, dur, depth, process_name, pid, track_name
                         FROM process_slice)"),
            (Table{{"ProcessSlice", "3", "4", "0", "Process", "3", "ProcTrack"}}));
}

TEST(SlicesWithContext, ThreadSlice) {
  TraceBuilder b;
  auto db = OpenContextTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.with_context;
                         SELECT id, name, depth, parent_id, track_name, thread_name, tid,
                                process_name, pid
                         FROM thread_slice ORDER BY id)"),
            (Table{{"2", "ThreadSlice", "0", "NULL", "ThreadTrack", "Thread", "5", "Process", "3"},
                   {"3", "NestedThreadSlice", "1", "2", "ThreadTrack", "Thread", "5", "Process",
                    "3"}}));
}

TEST(SlicesWithContext, ThreadSliceOfThreadWithoutProcess) {
  TraceBuilder b;
  const uint32_t utid = b.Thread(7, "orphan");
  b.Slice(b.ThreadTrack(utid), 10, 5, "work");
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.with_context;
                         SELECT name, thread_name, tid, upid, process_name FROM thread_slice)"),
            (Table{{"work", "orphan", "7", "NULL", "NULL"}}));
}

TEST(SlicesWithContext, ThreadOrProcessSlice) {
  TraceBuilder b;
  auto db = OpenContextTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.with_context;
                         SELECT id, name, thread_name, tid, process_name, pid
                         FROM thread_or_process_slice ORDER BY id)"),
            (Table{{"1", "ProcessSlice", "NULL", "NULL", "Process", "3"},
                   {"2", "ThreadSlice", "Thread", "5", "Process", "3"},
                   {"3", "NestedThreadSlice", "Thread", "5", "Process", "3"}}));
}

TEST(SlicesHierarchy, AncestorAndSelf) {
  TraceBuilder b;
  auto db = OpenContextTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.hierarchy;
                         SELECT name, ts, dur, depth
                         FROM _slice_ancestor_and_self(
                           (SELECT id FROM slice WHERE name = 'NestedThreadSlice')))"),
            (Table{{"NestedThreadSlice", "6", "1", "1"}, {"ThreadSlice", "5", "8", "0"}}));
}

TEST(SlicesHierarchy, DescendantAndSelf) {
  TraceBuilder b;
  auto db = OpenContextTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.hierarchy;
                         SELECT name, depth FROM _slice_descendant_and_self(2))"),
            (Table{{"ThreadSlice", "0"}, {"NestedThreadSlice", "1"}}));
  EXPECT_EQ(Rows(*db, R"(SELECT name FROM _slice_descendant_and_self(3))"),
            (Table{{"NestedThreadSlice"}}));
}

TEST(SlicesHierarchy, RemoveNullsAndReparentAsInTheDiffTest) {
  TraceBuilder b;
  auto db = OpenContextTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.hierarchy;
                         SELECT id, parent_id, name, depth
                         FROM _slice_remove_nulls_and_reparent!(
                           (SELECT id, parent_id, depth,
                                   IIF(name = 'ProcessSlice', NULL, name) AS name
                            FROM slice),
                           name
                         ) LIMIT 10)"),
            (Table{{"0", "NULL", "AsyncSlice", "0"},
                   {"2", "NULL", "ThreadSlice", "0"},
                   {"3", "2", "NestedThreadSlice", "0"}}));
}

// a(0) > b(1) > c(2) > d(3): removing b and c hangs d under a; removing a leaves b parentless.
TEST(SlicesHierarchy, RemoveNullsSkipsSeveralLevels) {
  TraceBuilder b;
  const uint32_t t = b.GlobalTrack();
  const uint32_t a = b.Slice(t, 0, 100, "a");
  const uint32_t bb = b.Slice(t, 10, 80, "b", a);
  const uint32_t c = b.Slice(t, 20, 60, "c", bb);
  b.Slice(t, 30, 10, "d", c);
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.hierarchy;
                         SELECT id, parent_id, depth, name
                         FROM _slice_remove_nulls_and_reparent!(
                           (SELECT id, parent_id, depth,
                                   IIF(name IN ('b', 'c'), NULL, name) AS name FROM slice),
                           name))"),
            (Table{{"0", "NULL", "0", "a"}, {"3", "0", "0", "d"}}));
  EXPECT_EQ(Rows(*db, R"(SELECT id, parent_id, depth, name
                         FROM _slice_remove_nulls_and_reparent!(
                           (SELECT id, parent_id, depth, IIF(name = 'a', NULL, name) AS name
                            FROM slice),
                           name))"),
            (Table{{"1", "NULL", "0", "b"}, {"2", "1", "1", "c"}, {"3", "2", "2", "d"}}));
}

TEST(SlicesSelfDur, SubtractsDirectChildren) {
  TraceBuilder b;
  const uint32_t t = b.GlobalTrack();
  const uint32_t parent = b.Slice(t, 0, 1000, "ParentSlice");
  const uint32_t child = b.Slice(t, 100, 300, "ChildSlice", parent);
  b.Slice(t, 150, 50, "GrandChild", child);
  b.Slice(t, 2000, 500, "OtherSlice");
  auto db = b.Open(0, 3000);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.self_dur;
                         SELECT s.name, sd.self_dur
                         FROM slice_self_dur AS sd JOIN slice AS s ON s.id = sd.id
                         ORDER BY s.name)"),
            (Table{{"ChildSlice", "250"},
                   {"GrandChild", "50"},
                   {"OtherSlice", "500"},
                   {"ParentSlice", "700"}}));
}

// A > B > C on one track, A > B on another, and a root A with category "cat1".
std::unique_ptr<TraceDatabase> OpenStackTrace(TraceBuilder& b) {
  const uint32_t t1 = b.GlobalTrack("t1");
  const uint32_t t2 = b.GlobalTrack("t2");
  const uint32_t a = b.Slice(t1, 1000, 300, "A");
  const uint32_t bb = b.Slice(t1, 1100, 100, "B", a);
  b.Slice(t1, 1120, 10, "C", bb);
  const uint32_t a2 = b.Slice(t2, 2000, 300, "A");
  b.Slice(t2, 2100, 100, "B", a2);
  b.Slice(t2, 3000, 10, "A", std::nullopt, "cat1");
  return b.Open(0, 4000);
}

TEST(SlicesStack, StackIdsMatchTraceProcessor) {
  TraceBuilder b;
  auto db = OpenStackTrace(b);
  // The values of trace_processor's diff test slice_stack_id_computed (A > B, no category).
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.stack;
                         SELECT name, depth, stack_id, parent_stack_id
                         FROM slice_with_stack_id WHERE track_id = 0 AND depth < 2
                         ORDER BY depth)"),
            (Table{{"A", "0", "1905114530773834795", "0"},
                   {"B", "1", "6901956697539716495", "1905114530773834795"}}));
}

TEST(SlicesStack, StackIdIsTheHashOfSelfThenRootDown) {
  TraceBuilder b;
  auto db = OpenStackTrace(b);
  // trace_processor's definition, evaluated slice by slice through _slice_ancestor_and_self.
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.stack;
                         SELECT COUNT(*), SUM(s.stack_id = (
                           SELECT hash(GROUP_CONCAT(
                             hash(coalesce(category, '') || '|' || name), '|'))
                           FROM _slice_ancestor_and_self(s.id)))
                         FROM slice_with_stack_id AS s)"),
            (Table{{"6", "6"}}));
  EXPECT_EQ(Scalar(*db, R"(SELECT stack_id = hash(
                             cast(hash('|C') AS TEXT) || '|' || cast(hash('|A') AS TEXT) || '|' ||
                             cast(hash('|B') AS TEXT))
                           FROM slice_with_stack_id WHERE name = 'C')"),
            "1");
}

TEST(SlicesStack, SameChainSameIdCategoryMatters) {
  TraceBuilder b;
  auto db = OpenStackTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.stack;
                         SELECT name, COUNT(DISTINCT stack_id)
                         FROM slice_with_stack_id GROUP BY name ORDER BY name)"),
            (Table{{"A", "2"}, {"B", "1"}, {"C", "1"}}));
}

TEST(SlicesStack, AncestorSliceByStack) {
  TraceBuilder b;
  auto db = OpenStackTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.stack;
                         SELECT id, name, depth FROM ancestor_slice_by_stack(
                           (SELECT stack_id FROM slice_with_stack_id WHERE id = 1)))"),
            (Table{{"0", "A", "0"}, {"1", "B", "1"}, {"3", "A", "0"}, {"4", "B", "1"}}));
}

TEST(SlicesStack, DescendantSliceByStack) {
  TraceBuilder b;
  auto db = OpenStackTrace(b);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.stack;
                         SELECT id, name FROM descendant_slice_by_stack(
                           (SELECT stack_id FROM slice_with_stack_id WHERE id = 0)))"),
            (Table{{"0", "A"}, {"1", "B"}, {"2", "C"}, {"3", "A"}, {"4", "B"}}));
  EXPECT_TRUE(Rows(*db, "SELECT * FROM descendant_slice_by_stack(42)").empty());
}

// _slice_stack_hash is computed in C++ (query/slice_stack_table.h); on a random forest of
// slices over several tracks (NULL categories and names, names holding the separator, deep
// chains, siblings that share names, a child stored before its parent, a parent that does not
// exist), it must give exactly the rows of the recursive SQL walk from the roots down that it
// replaced.
TEST(SlicesStack, StackIdsMatchTheRecursiveWalk) {
  TraceBuilder b;
  const uint32_t utid = b.Thread(7, "t");
  std::vector<uint32_t> tracks = {b.ThreadTrack(utid), b.GlobalTrack("g"), b.GlobalTrack("h")};
  const char* const kNames[] = {"", "A", "B", "binder transaction", "A|B", "Choreographer#doFrame"};
  const char* const kCategories[] = {"", "", "cat", "x,y"};
  uint64_t x = 4242;
  auto next = [&](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  std::vector<uint32_t> slices;
  for (int i = 0; i < 3000; ++i) {
    std::optional<uint32_t> parent;
    if (!slices.empty() && next(4) != 0) {
      parent = slices[slices.size() - 1 - next(std::min<uint64_t>(slices.size(), 40))];
    }
    const uint32_t track = parent ? b.s.slice.track_id[*parent] : tracks[next(tracks.size())];
    slices.push_back(b.Slice(track, i, 5, kNames[next(6)], parent, kCategories[next(4)]));
  }
  // A child stored before its parent, and a slice whose parent does not exist (the walk from
  // the roots never reaches it).
  const uint32_t early = b.Slice(tracks[0], 5000, 1, "early");
  const uint32_t late = b.Slice(tracks[0], 4990, 20, "late");
  b.s.slice.parent_id.Set(early, late);
  const uint32_t lost = b.Slice(tracks[1], 5000, 1, "lost");
  b.s.slice.parent_id.Set(lost, 100'000);
  auto db = b.Open(0, 10'000);
  const Table walk = Rows(*db, R"(
      WITH RECURSIVE walk(id, frame, ancestors, stack_id, parent_stack_id) AS (
        SELECT
          id,
          CAST(HASH(IFNULL(category, '') || '|' || IFNULL(name, '')) AS TEXT),
          NULL,
          HASH(CAST(HASH(IFNULL(category, '') || '|' || IFNULL(name, '')) AS TEXT)),
          0
        FROM slice WHERE parent_id IS NULL
        UNION ALL
        SELECT
          c.id,
          CAST(HASH(IFNULL(c.category, '') || '|' || IFNULL(c.name, '')) AS TEXT),
          IFNULL(w.ancestors || '|', '') || w.frame,
          HASH(CAST(HASH(IFNULL(c.category, '') || '|' || IFNULL(c.name, '')) AS TEXT)
               || '|' || IFNULL(w.ancestors || '|', '') || w.frame),
          w.stack_id
        FROM walk AS w JOIN slice AS c ON c.parent_id = w.id)
      SELECT id, stack_id, parent_stack_id FROM walk ORDER BY id)");
  ASSERT_EQ(walk.size(), 3002u);
  EXPECT_EQ(Rows(*db, R"(INCLUDE PERFETTO MODULE slices.stack;
                         SELECT id, stack_id, parent_stack_id FROM _slice_stack_hash)"),
            walk);
  EXPECT_GT(std::stoi(Scalar(*db, "SELECT MAX(depth) FROM slice")), 5);
}

}  // namespace
}  // namespace tw::stdlib_testing
