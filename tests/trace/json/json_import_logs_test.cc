// Chrome JSON events that cannot be imported are counted in stats and logged with their
// details (trace_import_logs + args), as trace_processor logs them.

#include <gtest/gtest.h>

#include "tests/trace/json/json_test_util.h"

namespace tw {
namespace {

using json_test::Int;
using json_test::Load;
using json_test::Rows;
using json_test::Stat;

TEST(JsonImportLogsTest, EventsTheParserRejectsAreLoggedWithTheirNameAndPhase) {
  // Two legacy async steps ('T' without a duration) named alike and a complete event without
  // one: three logs, whose identical details share one arg set.
  auto t = Load(R"([
    {"ph":"T","name":"step","ts":1,"pid":1,"tid":1,"id":"0x1","args":{}},
    {"ph":"T","name":"step","ts":2,"pid":1,"tid":1,"id":"0x1","args":{}},
    {"ph":"X","name":"nodur","ts":3,"pid":1,"tid":1},
    {"ph":"X","name":"ok","ts":4,"dur":1,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Stat(*t, "json_parser_failure"), 3);
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM __intrinsic_trace_import_logs"), 3);
  EXPECT_EQ(Rows(*t, "SELECT l.ts, a.key, a.display_value FROM __intrinsic_trace_import_logs l "
                     "JOIN args a USING (arg_set_id) ORDER BY l.id, a.id"),
            "1000,event_name,step\n1000,event_phase,T\n"
            "2000,event_name,step\n2000,event_phase,T\n"
            "3000,event_name,nodur\n3000,event_phase,X\n");
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM args WHERE key = 'event_name'"), 2);
}

TEST(JsonImportLogsTest, EventsTheTokenizerRejectsAreLoggedWithTheirText) {
  auto t = Load(R"([
    {"name":"no phase","ts":1,"pid":1,"tid":1},
    {"ph":"X","name":"bad dur","ts":2,"dur":"x","pid":1,"tid":1},
    {"ph":"X","name":"ok","ts":4,"dur":1,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Stat(*t, "json_tokenizer_failure"), 2);
  EXPECT_EQ(Rows(*t, "SELECT a.key FROM __intrinsic_trace_import_logs l "
                     "JOIN args a USING (arg_set_id) ORDER BY l.id, a.id"),
            "raw_event\nraw_event\nerror\n");
  EXPECT_EQ(Int(*t, "SELECT COUNT(*) FROM args WHERE key = 'raw_event' "
                    "AND string_value GLOB '*no phase*'"),
            1);
}

TEST(JsonImportLogsTest, APartiallyOverlappingCompleteEventIsLoggedWithTheOverlap) {
  auto t = Load(R"([
    {"ph":"X","name":"a","ts":10,"dur":10,"pid":1,"tid":1},
    {"ph":"X","name":"b","ts":15,"dur":10,"pid":1,"tid":1}
  ])");
  ASSERT_TRUE(t);
  EXPECT_EQ(Stat(*t, "slice_spill_overlapping_complete_event"), 1);
  EXPECT_EQ(Rows(*t, "SELECT a.key, a.display_value FROM __intrinsic_trace_import_logs l "
                     "JOIN args a USING (arg_set_id) ORDER BY a.id"),
            "event_name,b\nevent_phase,X\noverlap_start,15000\noverlap_end,20000\n"
            "conflicting_slice_name,a\nconflicting_slice_ts,10000\nconflicting_slice_dur,10000\n");
}

}  // namespace
}  // namespace tw
