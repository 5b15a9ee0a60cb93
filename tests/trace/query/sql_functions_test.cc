// The native SQL functions, through a TraceDatabase over hand-built storage.

#include "libs/trace/query/sql_functions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/trace/query/test_trace.h"

namespace tw {
namespace {

using ::testing::HasSubstr;
using testing::Rows;
using testing::Scalar;
using Strings = std::vector<std::string>;

class SqlFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    storage_ = testing::MakeSmallTrace();
    db_ = testing::OpenOrDie(storage_.get());
    ASSERT_NE(db_, nullptr);
  }
  absl::Status Error(std::string_view sql) { return db_->Execute(sql).status(); }
  std::unique_ptr<TraceStorage> storage_;
  std::unique_ptr<TraceDatabase> db_;
};

// -------------------------------------------------------------------------------- EXTRACT_ARG

TEST_F(SqlFunctionsTest, ExtractArgReturnsTypedValues) {
  EXPECT_EQ(Rows(*db_,
                 "SELECT extract_arg(1, 'frame_id'), typeof(extract_arg(1, 'frame_id')), "
                 "extract_arg(1, 'layer'), extract_arg(1, 'ratio'), "
                 "typeof(extract_arg(1, 'ratio')), extract_arg(1, 'debug.visible'), "
                 "extract_arg(1, 'big'), extract_arg(1, 'ptr'), extract_arg(2, 'frame_id')"),
            (std::vector<Strings>{
                {"42", "integer", "app#0", "0.500000", "real", "1", "-1", "255", "43"}}));
}

TEST_F(SqlFunctionsTest, ExtractArgMissingIsNull) {
  EXPECT_EQ(Rows(*db_,
                 "SELECT extract_arg(1, 'nope'), extract_arg(1, 'never interned anywhere'), "
                 "extract_arg(NULL, 'frame_id'), extract_arg(7, 'frame_id'), "
                 "extract_arg(-1, 'frame_id')"),
            (std::vector<Strings>{{"NULL", "NULL", "NULL", "NULL", "NULL"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT extract_arg(arg_set_id, 'layer') FROM slice WHERE id = 0"),
            "app#0");
}

TEST_F(SqlFunctionsTest, ExtractArgBadArguments) {
  EXPECT_THAT(std::string(Error("SELECT extract_arg('x', 'frame_id')").message()),
              HasSubstr("EXTRACT_ARG: 1st argument should be arg set id"));
  EXPECT_THAT(std::string(Error("SELECT extract_arg(1, 5)").message()),
              HasSubstr("EXTRACT_ARG: 2nd argument should be key"));
}

TEST(SqlFunctionsStandaloneTest, ExtractArgWithUnsortedArgSets) {
  // Importers write sets in order; if one ever does not, lookups must still be right.
  TraceStorage s;
  testing::AddIntArg(s, 5, "a", 50);
  testing::AddIntArg(s, 2, "a", 20);
  testing::AddStringArg(s, 5, "b", "five");
  testing::AddIntArg(s, 3, "a", 30);
  auto db = testing::OpenOrDie(&s);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Rows(*db,
                 "SELECT extract_arg(5, 'a'), extract_arg(5, 'b'), extract_arg(2, 'a'), "
                 "extract_arg(3, 'a'), extract_arg(4, 'a')"),
            (std::vector<Strings>{{"50", "five", "20", "30", "NULL"}}));
}

// ---------------------------------------------------------------------------------- PERCENTILE

constexpr char kOneToTen[] =
    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10) ";

TEST_F(SqlFunctionsTest, PercentileInterpolatesBetweenRanks) {
  EXPECT_EQ(Rows(*db_, std::string(kOneToTen) +
                           "SELECT percentile(x, 0), percentile(x, 50), percentile(x, 90), "
                           "percentile(x, 100), percentile(x, 25.0), median(x) FROM n"),
            (std::vector<Strings>{
                {"1.000000", "5.500000", "9.100000", "10.000000", "3.250000", "5.500000"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT percentile(dur, 50) FROM slice"), "15.000000");
  EXPECT_EQ(Scalar(*db_, "SELECT typeof(percentile(dur, 50)) FROM slice WHERE dur = 50"), "real");
}

TEST_F(SqlFunctionsTest, PercentileIgnoresNullsAndIsNullWithoutValues) {
  EXPECT_EQ(Scalar(*db_,
                   "SELECT percentile(v, 50) FROM (SELECT NULL AS v UNION ALL SELECT 4 "
                   "UNION ALL SELECT NULL UNION ALL SELECT 8)"),
            "6.000000");
  EXPECT_EQ(Scalar(*db_, "SELECT percentile(dur, 50) FROM slice WHERE dur > 1000"), "NULL");
  EXPECT_EQ(Rows(*db_,
                 "SELECT track_id, percentile(dur, 50) FROM slice WHERE track_id = 0 "
                 "GROUP BY track_id"),
            (std::vector<Strings>{{"0", "20.000000"}}));
}

TEST_F(SqlFunctionsTest, PercentileErrors) {
  EXPECT_THAT(std::string(Error("SELECT percentile(dur, 101) FROM slice").message()),
              HasSubstr("not a number between 0.0 and 100.0"));
  EXPECT_THAT(std::string(Error("SELECT percentile(dur, 'a') FROM slice").message()),
              HasSubstr("not a number between 0.0 and 100.0"));
  EXPECT_THAT(std::string(Error("SELECT percentile(dur, id) FROM slice").message()),
              HasSubstr("not the same for all input rows"));
  EXPECT_THAT(std::string(Error("SELECT percentile(name, 50) FROM slice").message()),
              HasSubstr("1st argument to percentile() is not numeric"));
}

// ------------------------------------------------------------------- bounds, metadata, clocks

TEST_F(SqlFunctionsTest, TraceBounds) {
  EXPECT_EQ(Rows(*db_, "SELECT trace_start(), trace_end(), trace_dur()"),
            (std::vector<Strings>{{"100", "1000", "900"}}));
}

TEST_F(SqlFunctionsTest, ExtractMetadata) {
  EXPECT_EQ(Rows(*db_,
                 "SELECT extract_metadata('trace_type'), "
                 "extract_metadata('trace_size_bytes'), extract_metadata('nope'), "
                 "extract_metadata(NULL)"),
            (std::vector<Strings>{{"proto", "12345", "NULL", "NULL"}}));
}

TEST(SqlFunctionsStandaloneTest, ExtractMetadataPerMachineAndTrace) {
  TraceStorage s;
  auto add = [&](std::string_view name, std::optional<std::string_view> str, OptI64 i,
                 OptU32 machine, OptU32 trace) {
    s.metadata.Insert({.name = s.Intern(name),
                       .key_type = s.Intern("single"),
                       .int_value = i,
                       .str_value = str ? s.Intern(*str) : kNullStringId,
                       .machine_id = machine,
                       .trace_id = trace});
  };
  add("system_name", "Linux", std::nullopt, 0u, std::nullopt);
  add("system_name", "Darwin", std::nullopt, 1u, std::nullopt);
  add("ftrace_start", std::nullopt, 1000, 0u, 0u);
  add("ftrace_start", std::nullopt, 2000, 1u, 0u);
  add("trace_type", "proto", std::nullopt, std::nullopt, 0u);
  auto db = testing::OpenOrDie(&s);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Rows(*db,
                 "SELECT extract_metadata('system_name'), "
                 "extract_metadata_for_machine(0, 'system_name'), "
                 "extract_metadata_for_machine(1, 'system_name'), "
                 "extract_metadata_for_machine(2, 'system_name'), "
                 "extract_metadata_for_machine(1, 'ftrace_start'), "
                 "extract_metadata_for_trace(0, 'trace_type'), "
                 "extract_exact_metadata(1, 0, 'ftrace_start'), "
                 "extract_exact_metadata(1, 1, 'ftrace_start')"),
            (std::vector<Strings>{
                {"Linux", "Linux", "Darwin", "NULL", "2000", "proto", "2000", "NULL"}}));
}

TEST(SqlFunctionsStandaloneTest, ClockConversions) {
  TraceStorage s;
  auto snapshot = [&](int64_t ts, int64_t clock, int64_t value) {
    s.clock_snapshot.Insert(
        {.ts = ts, .clock_id = clock, .clock_value = value, .snapshot_id = 0, .machine_id = {}});
  };
  // REALTIME (1) ran slower than trace time between the two snapshots.
  snapshot(100, 1, 1000);
  snapshot(200, 1, 1050);
  snapshot(100, 3, 7);  // MONOTONIC
  auto db = testing::OpenOrDie(&s);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Rows(*db,
                 "SELECT to_realtime(50), to_realtime(100), to_realtime(150), "
                 "to_realtime(200), to_realtime(300), to_monotonic(150), to_realtime(NULL)"),
            (std::vector<Strings>{{"1000", "1000", "1050", "1050", "1150", "57", "NULL"}}));
  EXPECT_THAT(std::string(db->Execute("SELECT to_realtime('x')").status().message()),
              HasSubstr("TO_REALTIME: first argument should be timestamp"));
}

TEST_F(SqlFunctionsTest, ClockFunctionsOnTheSmallTrace) {
  // One REALTIME snapshot: trace time 0 is 1s after the epoch.
  EXPECT_EQ(Rows(*db_, "SELECT to_realtime(0), to_realtime(5), to_monotonic(5), abs_time_str(5)"),
            (std::vector<Strings>{
                {"1000000000", "1000000005", "NULL", "1970-01-01T00:00:01.000000005"}}));
  EXPECT_EQ(Scalar(*db_, "SELECT to_timecode(3723004005006)"), "01:02:03 004 005 006");
}

// ------------------------------------------------------------------------------------ strings

TEST_F(SqlFunctionsTest, Hash) {
  // 64-bit FNV-1a: text hashes its bytes, integers their 8 little-endian bytes.
  EXPECT_EQ(Rows(*db_, "SELECT hash('abc'), hash(1), hash(1, 'a')"),
            (std::vector<Strings>{
                {"-1792535898324117685", "-8517097267634966620", "5952155467226901439"}}));
  EXPECT_THAT(std::string(Error("SELECT hash(1.5)").message()),
              HasSubstr("HASH: arg 0 has unknown type"));
}

// Native frames' names as profilers record them: mangled C++ names read demangled; anything
// else (plain names, bare type codes the ABI demangler would accept, broken names) is NULL.
TEST_F(SqlFunctionsTest, DemangleReadsMangledCppNames) {
  EXPECT_EQ(Rows(*db_,
                 "SELECT demangle('_ZN7android6Parcel5writeEPKvm'), demangle('_Z3fooi'), "
                 "demangle('main'), demangle('i'), demangle('_Zbroken'), demangle(NULL)"),
            (std::vector<Strings>{{"android::Parcel::write(void const*, unsigned long)",
                                   "foo(int)", "NULL", "NULL", "NULL", "NULL"}}));
  EXPECT_THAT(std::string(Error("SELECT demangle(1)").message()), HasSubstr("DEMANGLE"));
}

TEST_F(SqlFunctionsTest, StringHelpers) {
  EXPECT_EQ(Rows(*db_,
                 "SELECT reverse('abc'), reverse(NULL), unhex('0xff'), unhex(' 1A '), "
                 "str_split('a b c', ' ', 1), str_split('a b c', ' ', 3), "
                 "str_split('a::b', '::', 1), str_split(NULL, ' ', 0)"),
            (std::vector<Strings>{{"cba", "NULL", "255", "26", "b", "NULL", "b", "NULL"}}));
  EXPECT_THAT(std::string(Error("SELECT unhex('xyz')").message()), HasSubstr("UNHEX"));
  EXPECT_THAT(std::string(Error("SELECT str_split('a', '', 0)").message()),
              HasSubstr("delimiter must be a non-empty string"));
  EXPECT_THAT(std::string(Error("SELECT str_split('a', ' ', -1)").message()),
              HasSubstr("field number must be a non-negative integer"));
}

TEST_F(SqlFunctionsTest, MathFunctionsFromSqlite) {
  // trace_processor exposes ln/exp/sqrt; this SQLite has them built in.
  EXPECT_EQ(Rows(*db_, "SELECT sqrt(16), exp(0), ln(1)"),
            (std::vector<Strings>{{"4.000000", "1.000000", "0.000000"}}));
}

}  // namespace
}  // namespace tw
