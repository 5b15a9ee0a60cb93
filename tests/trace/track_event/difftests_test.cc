// Runs Perfetto's TrackEvent diff tests (../shared/difftests) through the wired pipeline: the
// tests listed here pass and must keep passing. Skipped when the diff tests are absent.

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "libs/trace/query/result_format.h"
#include "tests/trace/track_event/test_pipeline.h"

namespace tw {
namespace {

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TrackEventDiffTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TrackEventDiffTest, MatchesExpectedCsv) {
  const std::filesystem::path dir =
      std::filesystem::path(TW_SHARED_DIR) / "difftests" / GetParam();
  if (!std::filesystem::exists(dir / "trace.pb")) GTEST_SKIP() << "no diff tests at " << dir;
  auto trace = testing::LoadWithTrackEvents(ReadFile(dir / "trace.pb"));
  ASSERT_TRUE(trace.ok()) << trace.status();
  auto result = (*trace)->Query(ReadFile(dir / "query.sql"));
  ASSERT_TRUE(result.ok()) << result.status();
  std::string diff;
  EXPECT_TRUE(CsvEquivalent(ReadFile(dir / "expected.csv"), FormatCsv(*result), &diff))
      << diff << "\n--- actual\n" << FormatCsv(*result);
}

INSTANTIATE_TEST_SUITE_P(
    TrackEvent, TrackEventDiffTest,
    ::testing::Values(
        "TrackEvent__flow_events_proto_v2",
        "TrackEvent__flow_events_track_event",
        "TrackEvent__incremental_counter_sequences",
        "TrackEvent__legacy_async_event",
        "TrackEvent__state_track_legacy_fallback_error",
        "TrackEvent__track_descriptor_process_thread_sort_index",
        "TrackEvent__track_descriptor_process_thread_sort_index_default_ignored",
        "TrackEvent__track_event_absolute_timestamp_us_overflow",
        "TrackEvent__track_event_counters_counters",
        "TrackEvent__track_event_counters_slices",
        "TrackEvent__track_event_delta_timestamp_addition_overflow",
        "TrackEvent__track_event_instant_slices",
        "TrackEvent__track_event_monotonic_trace_clock_slices",
        "TrackEvent__track_event_name_resolution",
        "TrackEvent__track_event_name_resolution_extended",
        "TrackEvent__track_event_name_resolution_null_override",
        "TrackEvent__track_event_out_of_order_state_descriptors",
        "TrackEvent__track_event_same_tids_threads",
        "TrackEvent__track_event_simple_state",
        "TrackEvent__track_event_state_on_non_state_track",
        "TrackEvent__track_event_tracks",
        "TrackEvent__track_event_tracks_ordering",
        "TrackEvent__track_event_tracks_processes",
        "TrackEvent__track_event_with_atrace_separate_tracks",
        "Tables__flow_direction_corrected_by_timestamp",
        "Tables__flow_table_trace_id",
        "ParsingDebugAnnotation__interned_string_value",
        "SlicesStack__stack_with_categories"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace tw
