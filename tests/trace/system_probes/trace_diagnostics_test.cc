// Trace diagnostics: the trace_config a trace was recorded with, read with the import's stats and
// metadata, yields one __intrinsic_trace_diagnostics row per known-bad setting.

#include <string>

#include "tests/trace/system_probes/test_packets.h"

namespace tw::testing {
namespace {

namespace tp = pf::trace_packet;
namespace tc = pf::trace_config;

// FtraceConfig / HeapprofdConfig / DataSourceConfig field numbers used below.
constexpr uint32_t kFtraceEvents = 1, kBufferSizeKb = 10, kDrainPeriodMs = 11,
                   kSymbolizeKsyms = 13, kSyscallEvents = 18, kEnableFunctionGraph = 19,
                   kPreserveFtraceBuffer = 23;
constexpr uint32_t kFtraceConfig = 100, kHeapprofdConfig = 105;

struct Ftrace {
  std::vector<std::string> events;
  int64_t buffer_kb = -1, drain_ms = -1;
  bool ksyms = false, function_graph = false, preserve = false;
  std::vector<std::string> syscalls;
};

proto::Writer DataSource(std::string_view name, const proto::Writer* ftrace = nullptr,
                         uint32_t target_buffer = 0, uint32_t config_field = kFtraceConfig) {
  proto::Writer config;
  config.String(pf::data_source_config::kName, name);
  config.Varint(pf::data_source_config::kTargetBuffer, target_buffer);
  if (ftrace) config.Message(config_field, *ftrace);
  proto::Writer ds;
  ds.Message(pf::trace_config_data_source::kConfig, config);
  return ds;
}

proto::Writer FtraceConfig(const Ftrace& f) {
  proto::Writer w;
  for (const std::string& e : f.events) w.String(kFtraceEvents, e);
  if (f.buffer_kb >= 0) w.Varint(kBufferSizeKb, static_cast<uint64_t>(f.buffer_kb));
  if (f.drain_ms >= 0) w.Varint(kDrainPeriodMs, static_cast<uint64_t>(f.drain_ms));
  if (f.ksyms) w.Bool(kSymbolizeKsyms, true);
  for (const std::string& s : f.syscalls) w.String(kSyscallEvents, s);
  if (f.function_graph) w.Bool(kEnableFunctionGraph, true);
  if (f.preserve) w.Bool(kPreserveFtraceBuffer, true);
  return w;
}

proto::Writer ConfigWithFtrace(const std::vector<Ftrace>& sources) {
  proto::Writer config;
  for (const Ftrace& f : sources) {
    const proto::Writer ftrace = FtraceConfig(f);
    config.Message(tc::kDataSources, DataSource("linux.ftrace", &ftrace));
  }
  return config;
}

Grid Diagnostics(LoadedTrace& t) {
  return Rows(t, "SELECT key, printf('%.2f', confidence) FROM __intrinsic_trace_diagnostics "
                 "ORDER BY id");
}

TEST(TraceDiagnosticsTest, NoConfigNoDiagnostics) {
  proto::Writer stats;
  stats.Varint(pf::trace_stats::kProducersConnected, 1);
  auto t = TraceBuilder().Add(tp::kTraceStats, stats).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Diagnostics(*t), Grid{});
}

TEST(TraceDiagnosticsTest, BufferSizeConfidenceFollowsTheSizeUnlessDataWasLost) {
  // 64 KB or less: certain; 544 KB: half way to 1 MB; 1 MB and 0 (the default): fine.
  auto t = TraceBuilder()
               .Add(tp::kTraceConfig, ConfigWithFtrace({{.buffer_kb = 16},
                                                        {.buffer_kb = 544},
                                                        {.buffer_kb = 1024},
                                                        {.buffer_kb = 0}}))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Diagnostics(*t), (Grid{{"tiny_ftrace_buffer", "0.90"}, {"tiny_ftrace_buffer", "0.55"}}));
  const Grid text = Rows(*t, "SELECT title, description, remediation, trace_id FROM "
                             "__intrinsic_trace_diagnostics ORDER BY id LIMIT 1");
  ASSERT_EQ(text.size(), 1u);
  EXPECT_NE(text[0][1].find("16 KB"), std::string::npos) << text[0][1];
  EXPECT_FALSE(text[0][0].empty());
  EXPECT_FALSE(text[0][2].empty());
  EXPECT_EQ(text[0][3], "0");

  // A cpu that lost events makes the small buffer the likely cause.
  proto::Writer bundle;
  bundle.Varint(pf::ftrace_event_bundle::kCpu, 2);
  bundle.Bool(pf::ftrace_event_bundle::kLostEvents, true);
  auto lossy = TraceBuilder()
                   .Add(tp::kTraceConfig, ConfigWithFtrace({{.buffer_kb = 544}}))
                   .Add(tp::kFtraceEvents, bundle)
                   .Load();
  ASSERT_TRUE(lossy);
  EXPECT_EQ(Diagnostics(*lossy), (Grid{{"tiny_ftrace_buffer", "0.90"}}));
}

TEST(TraceDiagnosticsTest, DrainBandwidthAndPeriod) {
  // 3 MB drained each second: 3 MB/s, under 5 (confidence 0.45); 8 MB per 50 ms is plenty of
  // bandwidth but wakes too often; 390 MB per 70 s (5.6 MB/s) drains too rarely.
  auto t = TraceBuilder()
               .Add(tp::kTraceConfig,
                    ConfigWithFtrace({{.buffer_kb = 3072, .drain_ms = 1000},
                                      {.buffer_kb = 8192, .drain_ms = 50},
                                      {.buffer_kb = 400000, .drain_ms = 70000}}))
               .Load();
  ASSERT_TRUE(t);
  // Rule by rule, each over the data sources in config order.
  EXPECT_EQ(Diagnostics(*t), (Grid{{"low_ftrace_drain_bandwidth", "0.45"},
                                   {"extreme_ftrace_drain_period", "0.60"},
                                   {"extreme_ftrace_drain_period", "0.60"}}));
}

TEST(TraceDiagnosticsTest, KernelAddressesNeedSymbolizeKsyms) {
  auto t = TraceBuilder()
               .Add(tp::kTraceConfig,
                    ConfigWithFtrace({{.events = {"sched/sched_switch", "sched/sched_blocked_reason"},
                                       .function_graph = true},
                                      {.events = {"workqueue/workqueue_execute_start"},
                                       .ksyms = true}}))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Diagnostics(*t), (Grid{{"function_graph_requires_symbolize_ksyms", "1.00"},
                                   {"events_require_symbolize_ksyms", "0.60"}}));
  EXPECT_EQ(Rows(*t, "SELECT description LIKE '%sched/sched_blocked_reason%' FROM "
                     "__intrinsic_trace_diagnostics WHERE key = 'events_require_symbolize_ksyms'"),
            (Grid{{"1"}}));
}

TEST(TraceDiagnosticsTest, SyscallsNeedAFilter) {
  auto t = TraceBuilder()
               .Add(tp::kTraceConfig,
                    ConfigWithFtrace({{.events = {"raw_syscalls/sys_enter"}},
                                      {.events = {"raw_syscalls/sys_exit"},
                                       .syscalls = {"sys_read"}}}))
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Diagnostics(*t), (Grid{{"syscalls_without_filter", "0.30"}}));
}

TEST(TraceDiagnosticsTest, DiscardBufferOnlyMattersForStreamedHighVolumeSources) {
  auto config = [](uint32_t period_ms) {
    proto::Writer discard, ring;
    discard.Varint(pf::trace_config_buffer_config::kFillPolicy, pf::buffer_fill_policy::kDiscard);
    ring.Varint(pf::trace_config_buffer_config::kFillPolicy, 1);
    proto::Writer c;
    c.Bool(tc::kWriteIntoFile, true);
    c.Varint(tc::kFileWritePeriodMs, period_ms);
    c.Message(tc::kBuffers, discard);
    c.Message(tc::kBuffers, ring);
    const proto::Writer ftrace = FtraceConfig({.buffer_kb = 8192});
    c.Message(tc::kDataSources, DataSource("linux.ftrace", &ftrace, 0));
    c.Message(tc::kDataSources, DataSource("track_event", nullptr, 1));
    c.Message(tc::kDataSources, DataSource("android.packages_list", nullptr, 0));
    c.Message(tc::kDataSources, DataSource("track_event", nullptr, 0));
    return c;
  };
  auto streamed = TraceBuilder().Add(tp::kTraceConfig, config(2500)).Load();
  ASSERT_TRUE(streamed);
  EXPECT_EQ(Diagnostics(*streamed), (Grid{{"discard_buffer_for_streaming", "0.80"},
                                          {"discard_buffer_for_streaming", "0.80"}}));
  // A week-long write period is a ring buffer in disguise (Traceur): nothing to say.
  auto ring = TraceBuilder().Add(tp::kTraceConfig, config(604800000)).Load();
  ASSERT_TRUE(ring);
  EXPECT_EQ(Diagnostics(*ring), Grid{});
}

TEST(TraceDiagnosticsTest, HeapprofdSamplingInterval) {
  auto with_interval = [](uint64_t bytes) {
    proto::Writer heapprofd;
    heapprofd.Varint(1, bytes);  // HeapprofdConfig.sampling_interval_bytes
    proto::Writer c;
    c.Message(tc::kDataSources, DataSource("android.heapprofd", &heapprofd, 0, kHeapprofdConfig));
    return c;
  };
  auto low = TraceBuilder().Add(tp::kTraceConfig, with_interval(4096)).Load();
  ASSERT_TRUE(low);
  EXPECT_EQ(Diagnostics(*low), (Grid{{"heapprofd_sampling_interval_too_low", "0.30"}}));
  auto ok = TraceBuilder().Add(tp::kTraceConfig, with_interval(100 * 1024)).Load();
  ASSERT_TRUE(ok);
  EXPECT_EQ(Diagnostics(*ok), Grid{});
}

TEST(TraceDiagnosticsTest, DisplayVideoOnUserBuildsOnly) {
  auto trace = [](std::string_view fingerprint) {
    proto::Writer info;
    info.String(pf::system_info::kAndroidBuildFingerprint, fingerprint);
    proto::Writer c;
    c.Message(tc::kDataSources, DataSource("android.display.video"));
    return TraceBuilder().Add(tp::kSystemInfo, info).Add(tp::kTraceConfig, c).Load();
  };
  auto user = trace("google/panther/panther:15/AP3A/123:user/release-keys");
  ASSERT_TRUE(user);
  EXPECT_EQ(Diagnostics(*user), (Grid{{"display_video_not_enabled", "0.70"}}));
  auto eng = trace("google/panther/panther:15/AP3A/123:eng/test-keys");
  ASSERT_TRUE(eng);
  EXPECT_EQ(Diagnostics(*eng), Grid{});
}

TEST(TraceDiagnosticsTest, PreservedBufferLongAfterBoot) {
  auto trace = [](int64_t started_ns) {
    proto::Writer event;
    event.Bool(pf::tracing_service_event::kTracingStarted, true);
    return TraceBuilder()
        .Add(tp::kTraceConfig, ConfigWithFtrace({{.preserve = true}}))
        .Add(tp::kServiceEvent, event, started_ns)
        .Load();
  };
  constexpr int64_t kMinute = int64_t{60} * 1000 * 1000 * 1000;
  auto late = trace(6 * kMinute);
  ASSERT_TRUE(late);
  EXPECT_EQ(Diagnostics(*late), (Grid{{"preserve_ftrace_buffer_late_start", "0.70"}}));
  auto early = trace(4 * kMinute);
  ASSERT_TRUE(early);
  EXPECT_EQ(Diagnostics(*early), Grid{});
}

}  // namespace
}  // namespace tw::testing
