// The tracing service's own packets: trace_config, trace_uuid, trace_stats, ftrace_stats,
// service events, triggers, trace attributes and Chrome metadata.

#include <gtest/gtest.h>

#include <vector>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

TEST(TraceBookkeepingTest, TraceUuidPacketIsFormattedMsbFirst) {
  proto::Writer uuid;
  uuid.Int(pf::trace_uuid::kMsb, 1314564453825188563);
  uuid.Int(pf::trace_uuid::kLsb, -6605018796207623390);
  auto t = TraceBuilder().Add(tp::kTraceUuid, uuid).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT str_value FROM metadata WHERE name = 'trace_uuid'"),
            (Grid{{"123e4567-e89b-12d3-a456-426655443322"}}));
}

TEST(TraceBookkeepingTest, UuidPacketWinsOverConfigAndConfigBecomesText) {
  proto::Writer config;
  config.Int(pf::trace_config::kTraceUuidMsb, 5);
  config.Int(pf::trace_config::kTraceUuidLsb, 6);
  config.String(pf::trace_config::kUniqueSessionName, "session");
  proto::Writer uuid;
  uuid.Int(pf::trace_uuid::kLsb, 1);
  auto t = TraceBuilder().Add(tp::kTraceConfig, config).Add(tp::kTraceUuid, uuid).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, str_value FROM metadata WHERE name IN "
                 "('trace_uuid', 'unique_session_name', 'trace_config_pbtxt') ORDER BY name"),
            (Grid{{"trace_config_pbtxt",
                   "trace_uuid_msb: 5\ntrace_uuid_lsb: 6\nunique_session_name: \"session\""},
                  {"trace_uuid", "00000000-0000-0000-0000-000000000001"},
                  {"unique_session_name", "session"}}));
}

TEST(TraceBookkeepingTest, ConfigAndPacketTraceAttributes) {
  auto attribute = [](const char* key, const char* value) {
    proto::Writer a;
    a.String(pf::trace_attributes_attribute::kKey, key);
    a.String(pf::trace_attributes_attribute::kStringValue, value);
    return a;
  };
  proto::Writer config_attrs;
  config_attrs.Message(pf::trace_attributes::kAttribute, attribute("app.variant", "arm64"));
  config_attrs.Message(pf::trace_attributes::kAttribute, attribute("app.build", "b1"));
  proto::Writer config;
  config.Message(pf::trace_config::kTraceAttributes, config_attrs);
  proto::Writer packet_attrs;
  packet_attrs.Message(pf::trace_attributes::kAttribute, attribute("app.variant", "x86"));
  proto::Writer iterations;
  iterations.String(pf::trace_attributes_attribute::kKey, "app.iterations");
  iterations.Int(pf::trace_attributes_attribute::kLongValue, 10);
  packet_attrs.Message(pf::trace_attributes::kAttribute, iterations);
  auto t = TraceBuilder()
               .Add(tp::kTraceConfig, config)
               .Add(tp::kTraceAttributes, packet_attrs)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, str_value, int_value FROM metadata "
                 "WHERE name GLOB 'trace_attribute.*' ORDER BY name"),
            (Grid{{"trace_attribute.app.build", "b1", "NULL"},
                  {"trace_attribute.app.iterations", "NULL", "10"},
                  {"trace_attribute.app.variant", "x86", "NULL"}}));
}

TEST(TraceBookkeepingTest, TraceStatsTotalsBuffersAndFilter) {
  proto::Writer buffer0, buffer1;
  buffer0.Varint(pf::trace_stats_buffer_stats::kBufferSize, 1024);
  buffer0.Varint(pf::trace_stats_buffer_stats::kBytesWritten, 4096);
  buffer1.Varint(pf::trace_stats_buffer_stats::kBytesWritten, 8);
  proto::Writer filter;
  filter.Varint(pf::trace_stats_filter_stats::kInputPackets, 836);
  filter.Varint(pf::trace_stats_filter_stats::kErrors, 12);
  filter.Varint(pf::trace_stats_filter_stats::kBytesDiscardedPerBuffer, 1);
  filter.Varint(pf::trace_stats_filter_stats::kBytesDiscardedPerBuffer, 34);
  proto::Writer stats;
  stats.Message(pf::trace_stats::kBufferStats, buffer0);
  stats.Message(pf::trace_stats::kBufferStats, buffer1);
  stats.Varint(pf::trace_stats::kProducersConnected, 3);
  stats.Message(pf::trace_stats::kFilterStats, filter);
  stats.Varint(pf::trace_stats::kFinalFlushOutcome, 1);
  auto t = TraceBuilder().Add(tp::kTraceStats, stats).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, idx, value FROM stats WHERE name IN ("
                 "'traced_buf_bytes_written', 'traced_buf_buffer_size', "
                 "'traced_producers_connected', 'traced_producers_seen', "
                 "'traced_buf_bytes_filtered_out', 'filter_input_packets', 'filter_errors', "
                 "'traced_final_flush_succeeded') ORDER BY name, idx"),
            (Grid{{"filter_errors", "NULL", "12"},
                  {"filter_input_packets", "NULL", "836"},
                  {"traced_buf_buffer_size", "0", "1024"},
                  {"traced_buf_buffer_size", "1", "0"},
                  {"traced_buf_bytes_filtered_out", "0", "1"},
                  {"traced_buf_bytes_filtered_out", "1", "34"},
                  {"traced_buf_bytes_written", "0", "4096"},
                  {"traced_buf_bytes_written", "1", "8"},
                  {"traced_final_flush_succeeded", "NULL", "1"},
                  {"traced_producers_connected", "NULL", "3"},
                  {"traced_producers_seen", "NULL", "0"}}));
}

TEST(TraceBookkeepingTest, FtraceStatsBeginEndAndDelta) {
  auto phase = [](uint32_t p, uint64_t entries, uint64_t overrun) {
    proto::Writer cpu;
    cpu.Varint(pf::ftrace_cpu_stats::kCpu, 2);
    cpu.Varint(pf::ftrace_cpu_stats::kEntries, entries);
    cpu.Varint(pf::ftrace_cpu_stats::kOverrun, overrun);
    cpu.Double(pf::ftrace_cpu_stats::kNowTs, 1.5);
    proto::Writer s;
    s.Varint(pf::ftrace_stats::kPhase, p);
    s.Message(pf::ftrace_stats::kCpuStats, cpu);
    return s;
  };
  proto::Writer start = phase(pf::ftrace_stats_phase::kStartOfTrace, 7, 1);
  start.String(pf::ftrace_stats::kFailedFtraceEvents, "sched/sched_foo");
  auto t = TraceBuilder()
               .Add(tp::kFtraceStats, start)
               .Add(tp::kFtraceStats, phase(pf::ftrace_stats_phase::kEndOfTrace, 10, 4))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, idx, value FROM stats WHERE name GLOB 'ftrace_cpu_entries_*' "
                 "OR name GLOB 'ftrace_cpu_overrun_*' OR name GLOB 'ftrace_cpu_now_ts_*' "
                 "ORDER BY name"),
            (Grid{{"ftrace_cpu_entries_begin", "2", "7"},
                  {"ftrace_cpu_entries_delta", "2", "3"},
                  {"ftrace_cpu_entries_end", "2", "10"},
                  {"ftrace_cpu_now_ts_begin", "2", "1500000000"},
                  {"ftrace_cpu_now_ts_end", "2", "1500000000"},
                  {"ftrace_cpu_overrun_begin", "2", "1"},
                  {"ftrace_cpu_overrun_delta", "2", "3"},
                  {"ftrace_cpu_overrun_end", "2", "4"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'ftrace_setup_errors'"),
            (Grid{{"1"}}));
}

// Each setup error the producer reports at the start (failed and unknown events, atrace
// errors) is counted once per sequence and kept in the import logs with its message.
TEST(TraceBookkeepingTest, FtraceSetupErrorsAreImportLogsWithMessages) {
  proto::Writer start;
  start.Varint(pf::ftrace_stats::kPhase, pf::ftrace_stats_phase::kStartOfTrace);
  start.String(pf::ftrace_stats::kFailedFtraceEvents, "sched/sched_foo");
  start.String(pf::ftrace_stats::kUnknownFtraceEvents, "vendor/bar");
  start.String(pf::ftrace_stats::kAtraceErrors, "no such category");
  auto t = TraceBuilder()
               .Add(tp::kFtraceStats, start)
               .Add(tp::kFtraceStats, start)  // the same sequence again: not repeated
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'ftrace_setup_errors'"),
            (Grid{{"3"}}));
  EXPECT_EQ(Rows(*t,
                 "SELECT l.name, l.ts, a.key, a.string_value FROM _trace_import_logs l "
                 "JOIN args a USING (arg_set_id) ORDER BY l.id"),
            (Grid{{"ftrace_setup_errors", "NULL", "message", "Ftrace event failed: sched/sched_foo"},
                  {"ftrace_setup_errors", "NULL", "message", "Ftrace event unknown: vendor/bar"},
                  {"ftrace_setup_errors", "NULL", "message", "Atrace failures: no such category"}}));
}

TEST(TraceBookkeepingTest, ServiceEventsAreMetadata) {
  auto event = [](uint32_t field) {
    proto::Writer e;
    e.Bool(field, true);
    return e;
  };
  namespace se = pf::tracing_service_event;
  auto t = TraceBuilder()
               .Add(tp::kServiceEvent, event(se::kTracingStarted), 100)
               .Add(tp::kServiceEvent, event(se::kAllDataSourcesStarted), 110)
               .Add(tp::kServiceEvent, event(se::kAllDataSourcesFlushed), 12344)
               .Add(tp::kServiceEvent, event(se::kAllDataSourcesFlushed), 12345)
               .Add(tp::kServiceEvent, event(se::kTracingDisabled), 20000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, int_value FROM metadata WHERE name GLOB 'tracing_*' OR name "
                 "GLOB 'all_data_source_*' ORDER BY name, int_value"),
            (Grid{{"all_data_source_flushed_ns", "12344"},
                  {"all_data_source_flushed_ns", "12345"},
                  {"all_data_source_started_ns", "110"},
                  {"tracing_disabled_ns", "20000"},
                  {"tracing_started_ns", "100"}}));
}

proto::Writer Trigger(const char* name) {
  proto::Writer t;
  t.String(pf::trigger::kTriggerName, name);
  t.String(pf::trigger::kProducerName, "producer");
  t.Int(pf::trigger::kTrustedProducerUid, 1);
  return t;
}

TEST(TraceBookkeepingTest, TraceTriggerIsTheEarliestTrigger) {
  auto t = TraceBuilder()
               .Add(tp::kTrigger, Trigger("test1"), 101000002)
               .Add(tp::kTrigger, Trigger("test2"), 101000001)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT str_value FROM metadata WHERE name = 'trace_trigger'"),
            (Grid{{"test2"}}));
}

TEST(TraceBookkeepingTest, CloneSnapshotTriggerWins) {
  auto t = TraceBuilder()
               .Add(tp::kTrigger, Trigger("test1"), 101000004)
               .Add(tp::kTrigger, Trigger("test2"), 101000002)
               .Add(tp::kCloneSnapshotTrigger, Trigger("testClone"), 101000003)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT str_value FROM metadata WHERE name = 'trace_trigger'"),
            (Grid{{"testClone"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'traced_clone_trigger_timestamp_ns'"),
            (Grid{{"101000003"}}));
}

TEST(TraceBookkeepingTest, TriggersAreSlicesOnTheTraceTriggersTrack) {
  proto::Writer trigger = Trigger("t1");
  trigger.String(pf::trigger::kProducerName, "producer");
  trigger.Int(pf::trigger::kTrustedProducerUid, 7);
  proto::Writer chrome_named, chrome_hash_only;
  chrome_named.String(1, "cr");  // ChromeTrigger.trigger_name
  chrome_named.Fixed32(2, 42);   // ChromeTrigger.trigger_name_hash
  chrome_hash_only.Fixed32(2, 43);
  auto t = TraceBuilder()
               .Add(tp::kTrigger, trigger, 100)
               .Add(tp::kChromeTrigger, chrome_named, 200)
               .Add(tp::kChromeTrigger, chrome_hash_only, 300)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT s.ts, s.name, s.dur, t.name, "
                     "EXTRACT_ARG(s.arg_set_id, 'producer_name'), "
                     "EXTRACT_ARG(s.arg_set_id, 'trusted_producer_uid'), "
                     "EXTRACT_ARG(s.arg_set_id, 'chrome_trigger.name_hash'), "
                     "EXTRACT_ARG(s.arg_set_id, 'chrome_trigger.name') "
                     "FROM slice s JOIN track t ON s.track_id = t.id ORDER BY s.ts"),
            (Grid{{"100", "t1", "0", "Trace Triggers", "producer", "7", "NULL", "NULL"},
                  {"200", "cr", "0", "Trace Triggers", "NULL", "NULL", "42", "cr"},
                  {"300", "chrome_trigger", "0", "Trace Triggers", "NULL", "NULL", "43", "NULL"}}));
}

TEST(TraceBookkeepingTest, ChromeMetadataRows) {
  proto::Writer hash1, hash2;
  hash1.Varint(1, 123);
  hash1.Varint(2, 456);
  hash2.Varint(1, 789);
  hash2.Varint(2, 120);
  proto::Writer rule;
  rule.Fixed32(4, 1595654158);
  proto::Writer background;
  background.Message(1, rule);
  background.Fixed32(3, 3005533841u);
  namespace cm = pf::chrome_metadata_packet;
  proto::Writer m;
  m.Message(cm::kBackgroundTracingMetadata, background);
  m.Int(cm::kChromeVersionCode, 101);
  m.String(cm::kEnabledCategories, "cat1,cat2,cat3");
  m.Message(cm::kFieldTrialHashes, hash1);
  m.Message(cm::kFieldTrialHashes, hash2);
  m.String(cm::kAppPackageName, "com.android.chrome");
  m.String(cm::kAppVersion, "123.0.0.0");
  m.Varint(cm::kChannel, 3);
  m.String(cm::kOsName, "Android");
  auto t = TraceBuilder().Add(tp::kChromeMetadata, m, 1).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT name, key_type, int_value, str_value FROM metadata "
                 "WHERE name GLOB 'cr-*' ORDER BY name"),
            (Grid{{"cr-a-channel", "single", "3", "NULL"},
                  {"cr-a-enabled_categories", "single", "NULL", "cat1,cat2,cat3"},
                  {"cr-a-field_trial_hashes", "single", "NULL",
                   "{ name: 123, group: 456 } { name: 789, group: 120 } "},
                  {"cr-a-os-name", "single", "NULL", "Android"},
                  {"cr-a-package-name", "single", "NULL", "com.android.chrome"},
                  {"cr-a-playstore_version_code", "single", "101", "NULL"},
                  {"cr-a-product-version", "single", "NULL", "123.0.0.0"},
                  {"cr-background_tracing_metadata", "single", "NULL", "CgUlDsAbXx2RziSz"},
                  {"cr-scenario_name_hash", "single", "3005533841", "NULL"}}));
}

TEST(TraceBookkeepingTest, ChromeEventBundleMetadataRows) {
  // ChromeEventBundle.metadata: name 1, string 2, bool 3, int 4, json 5.
  auto entry = [](std::string_view name, int kind, std::string_view text, int64_t number) {
    proto::Writer m;
    m.String(1, name);
    if (kind == 2 || kind == 5) m.String(static_cast<uint32_t>(kind), text);
    if (kind == 3 || kind == 4) m.Int(static_cast<uint32_t>(kind), number);
    return m;
  };
  proto::Writer first, second;
  first.Message(2, entry("os-name", 2, "Linux", 0));
  first.Message(2, entry("num-cpus", 4, "", 8));
  first.Message(2, entry("highres-ticks", 3, "", 1));
  first.Message(2, entry("empty", 0, "", 0));
  second.Message(2, entry("trace-config", 5, "{\"record_mode\":\"x\"}", 0));
  auto t = TraceBuilder()
               .Add(tp::kChromeEvents, first, 10)
               .Add(tp::kChromeEvents, second, 20)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, int_value, str_value FROM metadata WHERE name GLOB 'cr-*' "
                     "ORDER BY name"),
            (Grid{{"cr-2-trace-config", "NULL", "{\"record_mode\":\"x\"}"},
                  {"cr-highres-ticks", "1", "NULL"},
                  {"cr-num-cpus", "8", "NULL"},
                  {"cr-os-name", "NULL", "Linux"}}));
  EXPECT_EQ(Rows(*t, "SELECT name, value FROM stats WHERE name IN ('empty_chrome_metadata', "
                     "'unknown_packet_types') ORDER BY name"),
            (Grid{{"empty_chrome_metadata", "1"}, {"unknown_packet_types", "0"}}));
}

}  // namespace
}  // namespace tw
