// The generator is only useful if the engine reads its traces as a real scheduler trace: these
// tests import what it writes and check the tables, not the bytes.

#include "tools/synth/sched_trace_writer.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/trace/trace_loader.h"
#include "tests/common/process_temp_dir.h"

namespace tw::synth {
namespace {

SchedTraceOptions SmallOptions(SchedEncoding encoding) {
  SchedTraceOptions o;
  o.cpus = 4;
  o.duration_ns = 300'000'000;  // 300 ms: a few thousand switches
  o.processes = 8;
  o.threads = 60;
  o.mean_slice_ns = 150'000;
  o.bundle_events = 200;        // several bundles per cpu
  o.print_rate_hz = 500;
  o.encoding = encoding;
  o.seed = 42;
  return o;
}

std::string TempPath(const std::string& name) { return ::tw::testing::ProcessTempDir() + "/" + name; }

struct Generated {
  SchedTraceSummary summary;
  std::unique_ptr<LoadedTrace> trace;
};

Generated GenerateAndLoad(const SchedTraceOptions& o, const std::string& name) {
  Generated g;
  const std::string path = TempPath(name);
  absl::Status s = WriteSyntheticSchedTrace(o, path, &g.summary);
  EXPECT_TRUE(s.ok()) << s;
  auto loaded = LoadTraceFile(path);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (loaded.ok()) g.trace = std::move(*loaded);
  std::remove(path.c_str());
  return g;
}

int64_t QueryInt(LoadedTrace& t, const std::string& sql) {
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
  if (!r.ok() || r->rows.empty() || r->rows[0].empty()) return -999;
  return r->rows[0][0].int_value;
}

std::vector<std::string> QueryRows(LoadedTrace& t, const std::string& sql) {
  std::vector<std::string> out;
  auto r = t.Query(sql);
  EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
  if (!r.ok()) return out;
  for (const auto& row : r->rows) {
    std::string line;
    for (const SqlValue& v : row) {
      if (!line.empty()) line += ",";
      if (v.type == SqlValue::Type::kString) line += v.string_value;
      else if (v.is_null()) line += "NULL";
      else line += std::to_string(v.int_value);
    }
    out.push_back(line);
  }
  return out;
}

int64_t CpusWithSwitches(const SchedTraceSummary& s) {
  int64_t n = 0;
  for (int64_t c : s.switches_per_cpu) n += c > 0;
  return n;
}

class SchedTraceWriterTest : public ::testing::TestWithParam<SchedEncoding> {};

TEST_P(SchedTraceWriterTest, ImportsAsAConsistentSchedTrace) {
  const SchedTraceOptions o = SmallOptions(GetParam());
  Generated g = GenerateAndLoad(o, std::string("small_") + SchedEncodingName(GetParam()) + ".pb");
  ASSERT_NE(g.trace, nullptr);
  LoadedTrace& t = *g.trace;
  const SchedTraceSummary& s = g.summary;
  ASSERT_GT(s.sched_switch, 1000);
  ASSERT_GT(s.sched_waking, 500);
  ASSERT_GT(s.print, 10);
  EXPECT_EQ(CpusWithSwitches(s), o.cpus);

  // Every event written was decoded as what it is.
  const LoadInfo& info = t.info();
  EXPECT_EQ(info.event_kinds.at("sched_switch"), s.sched_switch);
  EXPECT_EQ(info.event_kinds.at("sched_waking"), s.sched_waking);
  EXPECT_EQ(info.event_kinds.at("atrace"), s.print);

  // One sched row per switch; compact_sched has no prev fields, so the first switch of each cpu
  // only tells who runs next and makes no row (as in trace_processor).
  const int64_t expected_sched =
      s.sched_switch - (GetParam() == SchedEncoding::kCompact ? CpusWithSwitches(s) : 0);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM sched"), expected_sched);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(DISTINCT cpu) FROM sched"), o.cpus);

  // No slice ends before it starts. The only open (dur -1) slices are each cpu's last one, the
  // idle task the generator switches to when the trace ends.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM sched WHERE dur < -1"), 0);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM sched s JOIN thread USING (utid) "
                        "WHERE s.dur < 0 AND (tid != 0 OR s.ts != "
                        "(SELECT MAX(ts) FROM sched x WHERE x.cpu = s.cpu))"),
            0);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM sched WHERE dur < 0"), o.cpus);
  // Slices on one cpu tile time: each ends exactly where the next one starts.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM (SELECT ts + dur AS end_ts, "
                        "LEAD(ts) OVER (PARTITION BY cpu ORDER BY ts) AS next_ts FROM sched) "
                        "WHERE next_ts IS NOT NULL AND end_ts != next_ts"),
            0);

  // thread_state: the lifecycle states all appear, wakeups name their waker, and nothing has a
  // negative duration other than the still-open rows.
  std::set<std::string> states;
  for (const std::string& st : QueryRows(t, "SELECT DISTINCT state FROM thread_state")) {
    states.insert(st);
  }
  for (const char* st : {"Running", "R", "R+", "S", "D"}) {
    EXPECT_TRUE(states.count(st)) << "no thread_state row in state " << st;
  }
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM thread_state WHERE dur < -1"), 0);
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM thread_state "
                        "WHERE state = 'R' AND waker_utid IS NOT NULL"),
            s.sched_waking / 2);
  // Each switch-in of a real thread opens exactly one Running row.
  if (GetParam() == SchedEncoding::kPlain) {
    EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM thread_state WHERE state = 'Running'"),
              QueryInt(t, "SELECT COUNT(*) FROM sched JOIN thread USING (utid) WHERE tid != 0"));
  }

  // Names: processes come from the process_tree packet (ftrace has only comms), threads are
  // tied to them by tgid.
  EXPECT_EQ(QueryRows(t, "SELECT name FROM process WHERE pid = 1000"),
            std::vector<std::string>{"system_server"});
  EXPECT_EQ(QueryRows(t, "SELECT name FROM process WHERE pid = 1200"),
            std::vector<std::string>{"com.android.systemui"});
  EXPECT_EQ(QueryRows(t, "SELECT t.name, p.name FROM thread t JOIN process p USING (upid) "
                         "WHERE t.tid = 1200"),
            std::vector<std::string>{"ndroid.systemui,com.android.systemui"});
  EXPECT_GT(QueryInt(t, "SELECT COUNT(*) FROM thread t JOIN process p USING (upid) "
                        "WHERE t.name = 'RenderThread'"),
            0);

  // Atrace markers become balanced slices.
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice"), s.print / 2);
  EXPECT_EQ(QueryInt(t, "SELECT COUNT(*) FROM slice WHERE dur < 0"), 0);
}

INSTANTIATE_TEST_SUITE_P(Encodings, SchedTraceWriterTest,
                         ::testing::Values(SchedEncoding::kPlain, SchedEncoding::kCompact),
                         [](const auto& info) { return SchedEncodingName(info.param); });

TEST(SchedTraceWriter, PlainAndCompactGiveTheSameSchedTable) {
  Generated plain = GenerateAndLoad(SmallOptions(SchedEncoding::kPlain), "same_plain.pb");
  Generated compact = GenerateAndLoad(SmallOptions(SchedEncoding::kCompact), "same_compact.pb");
  ASSERT_NE(plain.trace, nullptr);
  ASSERT_NE(compact.trace, nullptr);
  EXPECT_EQ(plain.summary.sched_switch, compact.summary.sched_switch);
  EXPECT_EQ(plain.summary.sched_waking, compact.summary.sched_waking);
  // Plain has one more row per cpu: the first switch-in, which compact cannot attribute.
  auto rows = [](LoadedTrace& t, int first_row) {
    return QueryRows(t, "SELECT ts, dur, cpu, tid, name, end_state, priority FROM "
                        "(SELECT s.ts, s.dur, s.cpu, t.tid, t.name, s.end_state, s.priority, "
                        "ROW_NUMBER() OVER (PARTITION BY s.cpu ORDER BY s.ts) AS n "
                        "FROM sched s JOIN thread t USING (utid)) WHERE n >= " +
                            std::to_string(first_row) + " ORDER BY ts");
  };
  const std::vector<std::string> p = rows(*plain.trace, 2);
  const std::vector<std::string> c = rows(*compact.trace, 1);
  ASSERT_GT(p.size(), 1000u);
  ASSERT_EQ(p.size(), c.size());
  for (size_t i = 0; i < p.size(); ++i) ASSERT_EQ(p[i], c[i]) << "row " << i;
}

TEST(SchedTraceWriter, SameSeedSameBytesOtherSeedOtherTrace) {
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  SchedTraceOptions o = SmallOptions(SchedEncoding::kCompact);
  o.duration_ns = 50'000'000;
  const std::string a = TempPath("seed_a.pb"), b = TempPath("seed_b.pb"), c = TempPath("seed_c.pb");
  SchedTraceSummary sa;
  ASSERT_TRUE(WriteSyntheticSchedTrace(o, a, &sa).ok());
  ASSERT_TRUE(WriteSyntheticSchedTrace(o, b).ok());
  o.seed = 43;
  ASSERT_TRUE(WriteSyntheticSchedTrace(o, c).ok());
  const std::string ba = read(a);
  EXPECT_EQ(static_cast<int64_t>(ba.size()), sa.bytes);
  EXPECT_EQ(ba, read(b));
  EXPECT_NE(ba, read(c));
  for (const std::string& path : {a, b, c}) std::remove(path.c_str());
}

TEST(SchedTraceWriter, KernelReleaseSetsThePreemptedBit) {
  // The bit marking a preempted task moved in 4.8 and 4.14: with a system_info release the
  // importer reads the same states as with the default (pre-4.8) layout.
  SchedTraceOptions o = SmallOptions(SchedEncoding::kPlain);
  Generated old_layout = GenerateAndLoad(o, "release_default.pb");
  o.kernel_release = "5.10.198-android13-4";
  Generated new_layout = GenerateAndLoad(o, "release_510.pb");
  ASSERT_NE(old_layout.trace, nullptr);
  ASSERT_NE(new_layout.trace, nullptr);
  const std::string states =
      "SELECT state, COUNT(*) FROM thread_state GROUP BY state ORDER BY state";
  const std::vector<std::string> expected = QueryRows(*old_layout.trace, states);
  EXPECT_EQ(QueryRows(*new_layout.trace, states), expected);
  EXPECT_EQ(QueryRows(*new_layout.trace, "SELECT str_value FROM metadata "
                                         "WHERE name = 'system_release'"),
            std::vector<std::string>{"5.10.198-android13-4"});
}

TEST(SchedTraceWriter, RejectsUnusableOptions) {
  SchedTraceOptions o;
  o.cpus = 0;
  EXPECT_EQ(WriteSyntheticSchedTrace(o, TempPath("bad.pb")).code(),
            absl::StatusCode::kInvalidArgument);
  o = SchedTraceOptions();
  o.threads = 3;
  o.processes = 4;
  EXPECT_EQ(WriteSyntheticSchedTrace(o, TempPath("bad.pb")).code(),
            absl::StatusCode::kInvalidArgument);
  o = SchedTraceOptions();
  EXPECT_FALSE(WriteSyntheticSchedTrace(o, "/nonexistent-dir/x.pb").ok());
}

}  // namespace
}  // namespace tw::synth
