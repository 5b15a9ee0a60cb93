// TraceDatabase: the public views over a hand-built trace, limits, deadlines, cancellation, the
// read-only guard and module inclusion.

#include "libs/trace/query/trace_database.h"

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/trace/stdlib/stdlib.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using testing::Columns;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::Rows;
using testing::Scalar;

using Strings = std::vector<std::string>;

class TraceDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

// ------------------------------------------------------------------------------ public views

struct ViewColumns {
  std::string view;
  Strings columns;
};

TEST_F(TraceDatabaseTest, PublicViewsHaveTraceProcessorColumnsInOrder) {
  const std::vector<ViewColumns> kViews = {
      {"trace_bounds", {"start_ts", "end_ts"}},
      {"metadata", {"id", "name", "key_type", "int_value", "str_value", "machine_id", "trace_id"}},
      {"stats",
       {"id", "name", "key", "idx", "severity", "source", "value", "description", "machine_id",
        "trace_id"}},
      {"machine",
       {"id", "raw_id", "name", "sysname", "release", "version", "arch", "num_cpus",
        "android_build_fingerprint", "android_device_manufacturer", "android_sdk_version",
        "system_ram_bytes", "system_ram_gb", "label_index"}},
      {"clock_snapshot",
       {"id", "ts", "clock_id", "clock_name", "clock_value", "snapshot_id", "machine_id"}},
      {"process",
       {"id", "upid", "pid", "name", "start_ts", "end_ts", "parent_upid", "uid", "android_appid",
        "android_user_id", "cmdline", "arg_set_id", "machine_id"}},
      {"thread",
       {"id", "utid", "tid", "name", "start_ts", "end_ts", "upid", "is_main_thread", "is_idle",
        "machine_id", "arg_set_id"}},
      {"args",
       {"id", "arg_set_id", "flat_key", "key", "int_value", "string_value", "real_value",
        "value_type", "display_value"}},
      {"cpu",
       {"id", "ucpu", "cpu", "cluster_id", "processor", "machine_id", "capacity", "arg_set_id"}},
      {"cpu_available_frequencies", {"id", "cpu", "freq", "ucpu"}},
      {"sched", {"id", "ts", "dur", "cpu", "utid", "end_state", "priority", "ucpu", "ts_end"}},
      {"sched_slice", {"id", "ts", "dur", "cpu", "utid", "end_state", "priority", "ucpu"}},
      {"thread_state",
       {"id", "ts", "dur", "cpu", "utid", "state", "io_wait", "blocked_function", "waker_utid",
        "waker_id", "irq_context", "ucpu"}},
      {"track",
       {"id", "name", "type", "dimension_arg_set_id", "parent_id", "source_arg_set_id",
        "machine_id", "track_group_id"}},
      {"thread_track",
       {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "utid"}},
      {"process_track",
       {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "upid"}},
      {"cpu_track", {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "cpu"}},
      {"counter_track",
       {"id", "name", "parent_id", "type", "dimension_arg_set_id", "source_arg_set_id",
        "machine_id", "unit", "description"}},
      {"cpu_counter_track",
       {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "unit", "description",
        "cpu"}},
      {"process_counter_track",
       {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "unit", "description",
        "upid"}},
      {"thread_counter_track",
       {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "unit", "description",
        "utid"}},
      {"gpu_counter_track",
       {"id", "name", "type", "parent_id", "source_arg_set_id", "machine_id", "unit", "description",
        "ugpu", "gpu_id"}},
      {"counter", {"id", "ts", "track_id", "value", "arg_set_id"}},
      {"counters", {"id", "ts", "track_id", "value", "arg_set_id", "name", "unit"}},
      {"state", {"id", "ts", "dur", "track_id", "category", "value", "arg_set_id"}},
      {"slice",
       {"id", "ts", "dur", "track_id", "category", "name", "depth", "parent_id", "arg_set_id",
        "thread_ts", "thread_dur", "thread_instruction_count", "thread_instruction_delta", "cat",
        "slice_id"}},
      {"slices",
       {"id", "ts", "dur", "track_id", "category", "name", "depth", "parent_id", "arg_set_id",
        "thread_ts", "thread_dur", "thread_instruction_count", "thread_instruction_delta", "cat",
        "slice_id"}},
      {"instant", {"ts", "track_id", "name", "arg_set_id"}},
      {"flow", {"id", "slice_out", "slice_in", "trace_id", "arg_set_id"}},
      {"ftrace_event", {"id", "ts", "name", "cpu", "utid", "arg_set_id", "common_flags", "ucpu"}},
      {"raw", {"id", "ts", "name", "cpu", "utid", "arg_set_id", "common_flags", "ucpu"}},
      {"logs", {"id", "ts", "utid", "prio", "log_source", "tag", "msg", "arg_set_id"}},
      {"android_logs", {"id", "ts", "utid", "prio", "tag", "msg"}},
      {"actual_frame_timeline_slice",
       {"id",
        "ts",
        "dur",
        "track_id",
        "category",
        "name",
        "depth",
        "parent_id",
        "arg_set_id",
        "display_frame_token",
        "surface_frame_token",
        "upid",
        "layer_name",
        "present_type",
        "on_time_finish",
        "gpu_composition",
        "jank_type",
        "jank_severity_type",
        "prediction_type",
        "jank_tag",
        "jank_tag_experimental",
        "jank_score",
        "latched_unsignaled_count",
        "addressable_unsignaled_latch_count",
        "latched_fence_state"}},
      {"expected_frame_timeline_slice",
       {"id", "ts", "dur", "track_id", "category", "name", "depth", "parent_id", "arg_set_id",
        "display_frame_token", "surface_frame_token", "upid", "layer_name"}},
  };
  for (const ViewColumns& v : kViews) {
    EXPECT_EQ(Columns(*db_, "SELECT * FROM " + v.view + " LIMIT 0"), v.columns) << v.view;
  }
}

TEST_F(TraceDatabaseTest, ThreadAndProcessViews) {
  EXPECT_EQ(Rows(*db_, "SELECT utid, tid, name, upid, is_main_thread FROM thread ORDER BY utid"),
            (std::vector<Strings>{{"0", "100", "main", "0", "1"},
                                  {"1", "101", "RenderThread", "0", "NULL"},
                                  {"2", "201", "binder:200_1", "1", "NULL"}}));
  EXPECT_EQ(Rows(*db_, "SELECT upid, pid, name, uid FROM process ORDER BY upid"),
            (std::vector<Strings>{{"0", "100", "com.example.app", "NULL"},
                                  {"1", "200", "system_server", "1000"}}));
}

TEST_F(TraceDatabaseTest, SliceViewAliasesAndJoins) {
  EXPECT_EQ(Rows(*db_, "SELECT id, slice_id, cat, name FROM slice WHERE id = 1"),
            (std::vector<Strings>{{"1", "1", "gfx", "measure"}}));
  // The classic thread-slice join.
  EXPECT_EQ(Rows(*db_,
                 "SELECT s.name, t.name, p.name FROM slice s "
                 "JOIN thread_track tt ON s.track_id = tt.id "
                 "JOIN thread t USING (utid) JOIN process p USING (upid) ORDER BY s.id"),
            (std::vector<Strings>{{"doFrame", "main", "com.example.app"},
                                  {"measure", "main", "com.example.app"},
                                  {"layout", "main", "com.example.app"},
                                  {"DrawFrame", "RenderThread", "com.example.app"}}));
  EXPECT_EQ(Rows(*db_, "SELECT name FROM instant"), (std::vector<Strings>{{"mark"}}));
  EXPECT_EQ(Rows(*db_, "SELECT id, upid FROM process_track"), (std::vector<Strings>{{"2", "0"}}));
  EXPECT_EQ(Rows(*db_, "SELECT id, cpu FROM cpu_track"), (std::vector<Strings>{{"5", "1"}}));
}

TEST_F(TraceDatabaseTest, CounterViews) {
  EXPECT_EQ(Rows(*db_, "SELECT id, name, unit FROM counter_track ORDER BY id"),
            (std::vector<Strings>{{"3", "cpufreq", "kHz"}, {"4", "mem.rss", "bytes"}}));
  EXPECT_EQ(Rows(*db_, "SELECT id, cpu FROM cpu_counter_track"),
            (std::vector<Strings>{{"3", "1"}}));
  EXPECT_EQ(Rows(*db_, "SELECT id, upid FROM process_counter_track"),
            (std::vector<Strings>{{"4", "1"}}));
  EXPECT_EQ(Rows(*db_, "SELECT ts, name, CAST(value AS INT) FROM counters"),
            (std::vector<Strings>{{"100", "cpufreq", "300000"},
                                  {"150", "mem.rss", "4096"},
                                  {"200", "cpufreq", "1800000"}}));
  // cast_int! comes from the prelude, as in trace_processor.
  EXPECT_EQ(Scalar(*db_, "SELECT cast_int!(value) FROM counter WHERE id = 2"), "4096");
}

TEST_F(TraceDatabaseTest, SchedAndOtherViews) {
  EXPECT_EQ(Rows(*db_, "SELECT ts, dur, cpu, utid, end_state, ts_end FROM sched ORDER BY ts"),
            (std::vector<Strings>{{"100", "40", "0", "0", "R", "140"},
                                  {"140", "60", "1", "1", "S", "200"},
                                  {"200", "100", "0", "2", "R", "300"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM sched_slice WHERE utid = 2"), "1");
  EXPECT_EQ(Rows(*db_, "SELECT cpu, freq FROM cpu_available_frequencies"),
            (std::vector<Strings>{{"0", "300000"}, {"0", "1800000"}}));
  EXPECT_EQ(Rows(*db_, "SELECT start_ts, end_ts FROM trace_bounds"),
            (std::vector<Strings>{{"100", "1000"}}));
  EXPECT_EQ(Rows(*db_, "SELECT tag, msg FROM android_logs"),
            (std::vector<Strings>{{"ActivityManager", "Start proc"}}));
  EXPECT_EQ(Rows(*db_, "SELECT name, cpu, utid FROM raw"),
            (std::vector<Strings>{{"sched_wakeup", "1", "1"}}));
  EXPECT_EQ(Rows(*db_, "SELECT str_value FROM metadata WHERE name = 'trace_type'"),
            (std::vector<Strings>{{"proto"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT value FROM stats WHERE name = 'traced_buf_chunks_discarded'"),
            "3");
  EXPECT_EQ(Rows(*db_, "SELECT sysname, label_index, name FROM machine"),
            (std::vector<Strings>{{"Linux", "0", "NULL"}}));
  EXPECT_EQ(Rows(*db_, "SELECT slice_out, slice_in FROM flow"), (std::vector<Strings>{{"0", "3"}}));
}

TEST_F(TraceDatabaseTest, IndexedLookupsKeepSqliteComparisonRules) {
  // The string index only answers BINARY equality; other collations fall back to a scan.
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE name = 'DOFRAME' COLLATE NOCASE"), "1");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE name = 'DOFRAME'"), "0");
  // Numeric text compares as a number against integer columns.
  EXPECT_EQ(Scalar(*db_, "SELECT name FROM thread WHERE utid = '1'"), "RenderThread");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE track_id = '0'"), "3");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE track_id = 0.0"), "3");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE track_id = 0.5"), "0");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE id > 1.5 AND id <= '3'"), "2");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice WHERE id = NULL"), "0");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM sched WHERE ts >= 140 AND ts < 200"), "1");
}

TEST_F(TraceDatabaseTest, ArgsDisplayValue) {
  EXPECT_EQ(Rows(*db_,
                 "SELECT key, value_type, display_value FROM args WHERE arg_set_id = 1 "
                 "ORDER BY id"),
            (std::vector<Strings>{{"frame_id", "int", "42"},
                                  {"layer", "string", "app#0"},
                                  {"ratio", "real", "0.5"},
                                  {"debug.visible", "bool", "true"},
                                  {"big", "uint", "18446744073709551615"},
                                  {"ptr", "pointer", "0xff"}}));
}

TEST_F(TraceDatabaseTest, SliceTreeFunctions) {
  EXPECT_EQ(Rows(*db_, "SELECT name FROM ancestor_slice(2)"), (std::vector<Strings>{{"doFrame"}}));
  EXPECT_EQ(Rows(*db_, "SELECT name FROM descendant_slice(0)"),
            (std::vector<Strings>{{"measure"}, {"layout"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT slice_is_ancestor(0, 2)"), "1");
  EXPECT_EQ(Scalar(*db_, "SELECT slice_is_ancestor(1, 2)"), "0");
}

// --------------------------------------------------------------------- results and statements

TEST_F(TraceDatabaseTest, ValueTypes) {
  auto r = db_->Execute("SELECT 1, 1.5, 'text', x'00ff', NULL");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->rows.size(), 1u);
  const auto& row = r->rows[0];
  EXPECT_EQ(row[0].type, SqlValue::Type::kInt);
  EXPECT_EQ(row[0].int_value, 1);
  EXPECT_EQ(row[1].type, SqlValue::Type::kDouble);
  EXPECT_EQ(row[1].double_value, 1.5);
  EXPECT_EQ(row[2].string_value, "text");
  EXPECT_EQ(row[3].type, SqlValue::Type::kString);
  EXPECT_EQ(row[3].string_value, std::string("\0\xff", 2));
  EXPECT_TRUE(row[4].is_null());
  EXPECT_EQ(r->statement_count, 1);
  EXPECT_FALSE(r->truncated);
}

TEST_F(TraceDatabaseTest, MultipleStatementsReturnTheLast) {
  auto r = db_->Execute(
      "CREATE TEMP TABLE nums(x); -- a comment; with a semicolon\n"
      "INSERT INTO nums VALUES (1), (2), (';');\n"
      "SELECT count(*) AS n FROM nums;\n");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->statement_count, 3);
  EXPECT_THAT(r->columns, ElementsAre("n"));
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_EQ(r->rows[0][0].int_value, 3);
}

TEST_F(TraceDatabaseTest, EmptySqlGivesAnEmptyResult) {
  for (const char* sql : {"", "   ", "-- nothing\n;;", "/* nothing */"}) {
    auto r = db_->Execute(sql);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_THAT(r->columns, IsEmpty()) << sql;
    EXPECT_THAT(r->rows, IsEmpty());
    EXPECT_EQ(r->statement_count, 0);
  }
}

TEST_F(TraceDatabaseTest, LastStatementWithoutRowsGivesNoColumns) {
  auto r = db_->Execute("SELECT 1; CREATE TEMP TABLE z(a)");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->columns, IsEmpty());
  EXPECT_EQ(r->statement_count, 2);
}

TEST_F(TraceDatabaseTest, SyntaxErrorIsInvalidArgumentWithSqliteMessage) {
  auto r = db_->Execute("SELECT 1;\nSELEC * FROM slice");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("near \"SELEC\": syntax error"));
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("statement 2, line 2: SELEC * FROM slice"));

  auto missing = db_->Execute("SELECT * FROM no_such_table");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("no such table: no_such_table"));
}

TEST_F(TraceDatabaseTest, RowLimitTruncates) {
  QueryOptions options;
  options.max_rows = 2;
  auto r = db_->Execute("SELECT id FROM slice ORDER BY id", options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows.size(), 2u);
  EXPECT_TRUE(r->truncated);

  options.max_rows = 6;  // exactly the number of slices: nothing is cut
  r = db_->Execute("SELECT id FROM slice", options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rows.size(), 6u);
  EXPECT_FALSE(r->truncated);
}

TEST_F(TraceDatabaseTest, ByteLimitTruncates) {
  QueryOptions options;
  options.max_bytes = 20;  // three 8-byte integers do not fit
  auto r = db_->Execute("SELECT id FROM slice", options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows.size(), 2u);
  EXPECT_TRUE(r->truncated);
}

TEST_F(TraceDatabaseTest, LimitsApplyOnlyToTheLastStatement) {
  QueryOptions options;
  options.max_rows = 1;
  auto r =
      db_->Execute("CREATE TEMP TABLE t AS SELECT id FROM slice; SELECT count(*) FROM t", options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->rows[0][0].int_value, 6);
  EXPECT_FALSE(r->truncated);
}

// ------------------------------------------------------------------ deadlines and cancellation

constexpr char kEndless[] =
    "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r";

TEST_F(TraceDatabaseTest, DeadlineExceeded) {
  QueryOptions options;
  options.timeout = absl::Milliseconds(100);
  const absl::Time start = absl::Now();
  auto r = db_->Execute(kEndless, options);
  EXPECT_LT(absl::Now() - start, absl::Seconds(5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("query exceeded its deadline of 100ms"));
  // The connection is usable afterwards.
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice"), "6");
}

TEST_F(TraceDatabaseTest, DeadlineInsidePerfettoFunctionBody) {
  ASSERT_TRUE(db_->Execute("CREATE PERFETTO FUNCTION endless() RETURNS LONG AS "
                           "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
                           "SELECT count(*) FROM r")
                  .ok());
  QueryOptions options;
  options.timeout = absl::Milliseconds(50);
  auto r = db_->Execute("SELECT endless()", options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDeadlineExceeded) << r.status();
}

TEST_F(TraceDatabaseTest, CancelledFromAnotherThread) {
  std::atomic<bool> cancel{false};
  QueryOptions options;
  options.cancelled = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  auto r = db_->Execute(kEndless, options);
  canceller.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(Scalar(*db_, "SELECT 1"), "1");
}

TEST_F(TraceDatabaseTest, AlreadyCancelledDoesNotRun) {
  std::atomic<bool> cancel{true};
  QueryOptions options;
  options.cancelled = &cancel;
  auto r = db_->Execute("CREATE TEMP TABLE never(x)", options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM sqlite_temp_schema WHERE name = 'never'"), "0");
}

// ------------------------------------------------------------------------- read-only guard

TEST_F(TraceDatabaseTest, WritesToTraceTablesArePermissionDenied) {
  const std::vector<std::pair<std::string, std::string>> kWrites = {
      {"INSERT INTO slice(ts) VALUES (1)", "'slice'"},
      {"UPDATE slice SET name = 'x'", "'slice'"},
      {"DELETE FROM slice", "'slice'"},
      {"WITH x AS (SELECT 1) DELETE FROM main.slice", "'slice'"},
      {"DROP VIEW slice", "'slice'"},
      {"DROP VIEW IF EXISTS thread", "'thread'"},
      {"INSERT INTO __intrinsic_slice(ts) VALUES (1)", "'__intrinsic_slice'"},
      {"DELETE FROM __intrinsic_args", "'__intrinsic_args'"},
      {"DROP TABLE __intrinsic_slice", "'__intrinsic_slice'"},
      {"CREATE TEMP TABLE slice(x)", "'slice'"},
      {"CREATE TEMP VIEW thread AS SELECT 1", "'thread'"},
      {"CREATE TEMP TRIGGER t INSTEAD OF DELETE ON slice BEGIN SELECT 1; END", "'slice'"},
      {"ALTER TABLE slice RENAME TO foo", "'slice'"},
  };
  for (const auto& [sql, object] : kWrites) {
    auto r = db_->Execute(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied) << sql << ": " << r.status();
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(object)) << sql;
  }
  auto r = db_->Execute("DELETE FROM slice");
  EXPECT_EQ(r.status().message(), "trace table 'slice' is read-only");
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM slice"), "6");
}

TEST_F(TraceDatabaseTest, AttachPragmaAndExtensionsAreDenied) {
  for (const char* sql : {"ATTACH DATABASE ':memory:' AS other", "PRAGMA writable_schema = 1",
                          "PRAGMA query_only = 0", "SELECT load_extension('/tmp/x.so')"}) {
    auto r = db_->Execute(sql);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied) << sql << ": " << r.status();
  }
  // Read-only pragmas are fine.
  EXPECT_THAT(Rows(*db_, "PRAGMA table_info(slice)"), ::testing::SizeIs(15));
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM pragma_table_info('thread')"), "11");
  EXPECT_FALSE(Rows(*db_, "PRAGMA function_list").empty());
}

TEST_F(TraceDatabaseTest, CallersMayBuildTheirOwnObjects) {
  EXPECT_EQ(Scalar(*db_,
                   "CREATE TEMP TABLE mine AS SELECT id, name FROM slice WHERE depth = 1;"
                   "INSERT INTO mine VALUES (100, 'extra');"
                   "UPDATE mine SET name = 'changed' WHERE id = 100;"
                   "DELETE FROM mine WHERE id = 1;"
                   "SELECT group_concat(name) FROM mine"),
            "layout,changed");
  EXPECT_TRUE(db_->Execute("DROP TABLE mine").ok());
  EXPECT_TRUE(db_->Execute("CREATE TABLE main_table(x); INSERT INTO main_table VALUES (1)").ok());
  EXPECT_TRUE(db_->Execute("CREATE VIEW my_view AS SELECT * FROM main_table").ok());
  EXPECT_TRUE(db_->Execute("DROP VIEW my_view; DROP TABLE main_table").ok());
  EXPECT_EQ(Scalar(*db_,
                   "CREATE PERFETTO TABLE my_slices AS SELECT id, dur FROM slice WHERE dur > 15;"
                   "SELECT count(*) FROM my_slices"),
            "3");
  EXPECT_TRUE(db_->Execute("DROP TABLE my_slices").ok());
  EXPECT_TRUE(db_->Execute("CREATE PERFETTO TABLE my_slices AS SELECT 1 AS x").ok());
}

TEST_F(TraceDatabaseTest, DanglingTransactionIsRolledBack) {
  ASSERT_TRUE(db_->Execute("CREATE TEMP TABLE tx(a); BEGIN; INSERT INTO tx VALUES (1)").ok());
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM tx"), "0");
}

TEST_F(TraceDatabaseTest, ListTablesAndViews) {
  ASSERT_TRUE(db_->Execute("CREATE TEMP TABLE scratch(x)").ok());
  auto r = db_->ListTablesAndViews();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->columns, ElementsAre("name", "type"));
  std::map<std::string, std::string> objects;
  for (const auto& row : r->rows) objects[row[0].string_value] = row[1].string_value;
  EXPECT_EQ(objects["slice"], "view");
  EXPECT_EQ(objects["thread_track"], "view");
  EXPECT_EQ(objects["scratch"], "table");
  for (const auto& [name, type] : objects) {
    EXPECT_NE(name.substr(0, 1), "_") << name;
    EXPECT_NE(name.substr(0, 7), "sqlite_") << name;
  }
}

// --------------------------------------------------------------------------------- modules

const SqlModule kTestBase = {.name = "tw_test.base", .sql = R"sql(
  CREATE PERFETTO TABLE tw_test_frames(id LONG, dur DURATION) AS
  SELECT id, dur FROM slice WHERE name = 'doFrame';
  CREATE PERFETTO MACRO tw_test_double(x Expr) RETURNS Expr AS ($x * 2);
)sql"};
const SqlModule kTestDerived = {.name = "tw_test.derived", .sql = R"sql(
  INCLUDE PERFETTO MODULE tw_test.base;
  CREATE PERFETTO VIEW tw_test_frame_stats(n LONG, total LONG) AS
  SELECT count(*) AS n, tw_test_double!(sum(dur)) AS total FROM tw_test_frames;
  CREATE PERFETTO FUNCTION tw_test_count() RETURNS LONG AS SELECT n FROM tw_test_frame_stats;
)sql"};
const SqlModule kTestBroken = {.name = "tw_test.broken", .sql = "SELECT * FROM nowhere;"};

class ModuleTest : public TraceDatabaseTest {
 protected:
  static void SetUpTestSuite() {
    static bool added = false;
    if (added) return;
    added = true;
    AddSqlModuleForTesting(&kTestBase);
    AddSqlModuleForTesting(&kTestDerived);
    AddSqlModuleForTesting(&kTestBroken);
  }
};

TEST_F(ModuleTest, IncludeRunsModulesAndTheirIncludes) {
  EXPECT_EQ(
      Rows(*db_, "INCLUDE PERFETTO MODULE tw_test.derived; SELECT * FROM tw_test_frame_stats"),
      (std::vector<Strings>{{"1", "100"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT tw_test_count()"), "1");
  EXPECT_EQ(Scalar(*db_, "SELECT tw_test_double!(21)"), "42");
  // Including again is a no-op (the module's CREATEs would fail if re-run).
  EXPECT_TRUE(db_->Execute("INCLUDE PERFETTO MODULE tw_test.derived").ok());
  EXPECT_TRUE(db_->Execute("INCLUDE PERFETTO MODULE tw_test.base").ok());
  // The module's objects are listed.
  auto list = db_->ListTablesAndViews();
  ASSERT_TRUE(list.ok());
  bool found = false;
  for (const auto& row : list->rows) found |= row[0].string_value == "tw_test_frame_stats";
  EXPECT_TRUE(found);
}

TEST_F(ModuleTest, ModuleObjectsAreReadOnly) {
  ASSERT_TRUE(db_->Execute("INCLUDE PERFETTO MODULE tw_test.derived").ok());
  for (const char* sql : {"DELETE FROM tw_test_frames", "DROP TABLE tw_test_frames",
                          "INSERT INTO tw_test_frames VALUES (1, 2)",
                          "DROP VIEW tw_test_frame_stats", "CREATE TEMP TABLE tw_test_frames(x)"}) {
    EXPECT_EQ(db_->Execute(sql).status().code(), absl::StatusCode::kPermissionDenied) << sql;
  }
  auto redefine = db_->Execute(
      "CREATE OR REPLACE PERFETTO FUNCTION tw_test_count() RETURNS LONG "
      "AS SELECT 0");
  EXPECT_EQ(redefine.status().code(), absl::StatusCode::kPermissionDenied) << redefine.status();
  auto macro = db_->Execute(
      "CREATE OR REPLACE PERFETTO MACRO tw_test_double(x Expr) RETURNS Expr "
      "AS $x");
  EXPECT_EQ(macro.status().code(), absl::StatusCode::kPermissionDenied) << macro.status();
}

TEST_F(ModuleTest, WildcardAndPreludeIncludes) {
  EXPECT_TRUE(db_->Execute("INCLUDE PERFETTO MODULE prelude.after_eof.views").ok());
  EXPECT_TRUE(db_->Execute("INCLUDE PERFETTO MODULE nothing_here.*").ok());
  auto r = db_->Execute("INCLUDE PERFETTO MODULE tw_test.*");  // includes the broken one too
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("module 'tw_test.broken'"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("no such table: nowhere"));
  // The good ones before it stayed included.
  EXPECT_EQ(Scalar(*db_, "SELECT count(*) FROM tw_test_frames"), "1");
}

TEST_F(ModuleTest, UnknownModuleIsInvalidArgument) {
  auto r = db_->Execute("INCLUDE PERFETTO MODULE android.does_not_exist");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("unknown module 'android.does_not_exist'"));
}

// ----------------------------------------------------------------------------- performance

// 200k slices on 1000 thread tracks: joins must go through the intrinsic tables' indexes (id
// lookups, sorted columns, lazily built value indexes). A quadratic plan would need ~10^10 row
// visits and hit the deadline.
TEST(TraceDatabaseScaleTest, JoinsOverLargeTablesUseIndexes) {
  TraceStorage s;
  constexpr uint32_t kThreads = 1000;
  constexpr uint32_t kSlices = 200000;
  const uint32_t upid = s.process.Insert({.pid = 1});
  for (uint32_t t = 0; t < kThreads; ++t) {
    const uint32_t utid = s.thread.Insert({.tid = 1000 + t});
    s.thread.upid.Set(utid, upid);
    testing::AddThreadTrack(s, "t", utid);
  }
  const StringId name = s.Intern("work");
  for (uint32_t i = 0; i < kSlices; ++i) {
    const bool child = i % 2 == 1;
    const uint32_t id =
        s.slice.Insert({.ts = int64_t{i} * 10,
                        .dur = child ? 3 : 8,
                        .track_id = (i / 2) % kThreads,
                        .name = name,
                        .depth = child ? 1u : 0u,
                        .parent_id = child ? std::optional<uint32_t>(i - 1) : std::nullopt});
    if (!child) {
      s.slice.arg_set_id.Set(id, i / 2);
      testing::AddIntArg(s, i / 2, "seq", i);
    }
  }
  s.ExtendBounds(0);
  s.ExtendBounds(int64_t{kSlices} * 10);
  auto db = testing::OpenOrDie(&s);
  ASSERT_NE(db, nullptr);

  QueryOptions options;
  options.timeout = absl::Seconds(5);
  auto run = [&](const char* sql) {
    auto r = db->Execute(sql, options);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status();
    return r.ok() && r->rows.size() == 1 ? r->rows[0][0].int_value : -1;
  };
  EXPECT_EQ(run("SELECT count(*) FROM slice s JOIN thread_track tt ON s.track_id = tt.id "
                "JOIN thread t USING (utid) JOIN process p USING (upid)"),
            kSlices);
  EXPECT_EQ(run("SELECT count(*) FROM slice c JOIN slice p ON c.parent_id = p.id"), kSlices / 2);
  EXPECT_EQ(run("SELECT count(*) FROM slice p JOIN slice c ON c.parent_id = p.id"), kSlices / 2);
  EXPECT_EQ(run("SELECT count(*) FROM slice s JOIN args a USING (arg_set_id) WHERE a.key = 'seq'"),
            kSlices / 2);
  EXPECT_EQ(run("SELECT count(*) FROM slice s WHERE EXTRACT_ARG(s.arg_set_id, 'seq') >= 0"),
            kSlices / 2);
  EXPECT_EQ(run("SELECT count(*) FROM thread t JOIN thread_track tt USING (utid) "
                "JOIN slice s ON s.track_id = tt.id WHERE t.tid = 1500"),
            kSlices / kThreads);
}

}  // namespace
}  // namespace tw

namespace tw {
namespace {

// ------------------------------------------------------------- bound parameters and streaming

class TraceDatabaseParamsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(TraceDatabaseParamsTest, ParametersAreBoundNeverSpliced) {
  QueryOptions options;
  options.params = {{"x", SqlValue::Int(41)}, {"name", SqlValue::String("a'); DROP TABLE t; --")}};
  auto r = db_->Execute("SELECT :x + 1 AS y, :name AS n, :unset IS NULL AS u", options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->rows.size(), 1u);
  EXPECT_EQ(r->rows[0][0].int_value, 42);
  EXPECT_EQ(r->rows[0][1].string_value, "a'); DROP TABLE t; --");
  EXPECT_EQ(r->rows[0][2].int_value, 1);
  // Every statement that uses a parameter gets it, not only the last.
  auto two = db_->Execute("CREATE TEMP TABLE p AS SELECT :x AS v; SELECT v FROM p", options);
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->rows[0][0].int_value, 41);
  // Parameters do not leak into the next call.
  auto after = db_->Execute("SELECT :x IS NULL");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->rows[0][0].int_value, 1);
}

TEST_F(TraceDatabaseParamsTest, StreamsColumnsThenBatches) {
  RowStream stream;
  std::vector<std::string> columns;
  std::vector<size_t> batches;
  int64_t total = 0;
  stream.batch_rows = 3;
  stream.on_columns = [&](const std::vector<std::string>& c) {
    columns = c;
    return true;
  };
  stream.on_rows = [&](std::vector<std::vector<SqlValue>>&& rows) {
    batches.push_back(rows.size());
    for (const auto& row : rows) total += row[0].int_value;
    return true;
  };
  QueryOptions options;
  options.stream = &stream;
  options.max_rows = 8;
  auto r = db_->Execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT i FROM n",
      options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(columns, std::vector<std::string>{"i"});
  EXPECT_EQ(batches, (std::vector<size_t>{3, 3, 2}));
  EXPECT_EQ(total, 36);  // 1..8
  EXPECT_TRUE(r->truncated);
  EXPECT_TRUE(r->rows.empty());
}

TEST_F(TraceDatabaseParamsTest, AConsumerCanStopTheStream) {
  RowStream stream;
  stream.batch_rows = 2;
  int batches = 0;
  stream.on_rows = [&](std::vector<std::vector<SqlValue>>&&) { return ++batches < 2; };
  QueryOptions options;
  options.stream = &stream;
  auto r = db_->Execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT i FROM n",
      options);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(batches, 2);
  EXPECT_TRUE(db_->Execute("SELECT 1").ok());  // the connection is usable afterwards
}

}  // namespace
}  // namespace tw

namespace tw {
namespace {

// QueryOptions::every_output: the result sets trace_processor's shell prints for a script.
class EveryOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  std::vector<std::vector<std::string>> Outputs(std::string_view sql) {
    QueryOptions options;
    options.every_output = true;
    auto r = db_->Execute(sql, options);
    EXPECT_TRUE(r.ok()) << r.status();
    std::vector<std::vector<std::string>> out;
    if (!r.ok()) return out;
    for (const QueryResult& o : r->outputs) {
      std::vector<std::string> lines = {absl::StrJoin(o.columns, ",")};
      for (const auto& row : o.rows) lines.push_back(std::to_string(row.size()) + " cells");
      out.push_back(lines);
    }
    return out;
  }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

TEST_F(EveryOutputTest, EveryStatementWithColumnsPrintsZeroRowsIncluded) {
  EXPECT_THAT(Outputs("SELECT name FROM thread WHERE tid = 100; "
                      "SELECT name, tid FROM thread WHERE tid < 0; SELECT 7 AS x"),
              ElementsAre(ElementsAre("name", "1 cells"), ElementsAre("name,tid"),
                          ElementsAre("x", "1 cells")));
}

TEST_F(EveryOutputTest, StatementsWithoutOutputPrintNothing) {
  EXPECT_THAT(Outputs("CREATE PERFETTO TABLE t AS SELECT 1 AS a; "
                      "INCLUDE PERFETTO MODULE slices.with_context; "
                      "SELECT a FROM t; "
                      "SELECT 1 AS suppress_query_output; "
                      "SELECT CREATE_FUNCTION('twice(x INT)', 'INT', 'SELECT $x * 2'); "
                      "CREATE PERFETTO VIEW v AS SELECT 2 AS b"),
              ElementsAre(ElementsAre("a", "1 cells")));
  // Without the option only the last statement's result is returned, as before.
  auto last = db_->Execute("SELECT 1 AS a; SELECT 2 AS b");
  ASSERT_TRUE(last.ok());
  EXPECT_TRUE(last->outputs.empty());
  EXPECT_THAT(last->columns, ElementsAre("b"));
}

}  // namespace
}  // namespace tw
