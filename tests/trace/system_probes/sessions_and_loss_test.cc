// What the tracing service tells about the session: packet loss per sequence attributed to
// buffers through trace_stats' writer_stats, long-trace-mode overwrites, every session's
// lifecycle (concurrent_session_event), and the android.aflags snapshots with their errors.

#include "tests/trace/system_probes/test_packets.h"

namespace tw::testing {
namespace {

namespace tp = pf::trace_packet;

// A packet with only sequence bookkeeping.
proto::Writer Bookkeeping(uint32_t sequence, uint32_t dropped = 0, uint32_t flags = 0) {
  proto::Writer p;
  p.Varint(tp::kTrustedPacketSequenceId, sequence);
  if (dropped) p.Varint(tp::kPreviousPacketDropped, dropped);
  if (flags) p.Varint(tp::kSequenceFlags, flags);
  return p;
}

// trace_stats naming, for each writer sequence, the buffer it wrote into.
proto::Writer WriterStats(const std::vector<std::pair<uint32_t, uint32_t>>& sequence_buffer) {
  proto::Writer stats;
  for (const auto& [sequence, buffer] : sequence_buffer) {
    proto::Writer w;
    w.Varint(pf::trace_stats_writer_stats::kSequenceId, sequence);
    w.Varint(pf::trace_stats_writer_stats::kBuffer, buffer);
    stats.Message(pf::trace_stats::kWriterStats, w);
  }
  return stats;
}

TEST(SequenceLossTest, LossIsCountedPerSequenceAndAttributedToItsBuffer) {
  TraceBuilder b;
  // Sequence 2 (buffer 0): a loss flag on its first packet is not a loss of this trace.
  b.AddRaw(Bookkeeping(2, 1)).AddRaw(Bookkeeping(2)).AddRaw(Bookkeeping(2));
  // Sequences 3 and 4 (buffer 1): one loss each; the cause bits count per cause.
  b.AddRaw(Bookkeeping(3)).AddRaw(Bookkeeping(3, 1 | 64)).AddRaw(Bookkeeping(3));
  b.AddRaw(Bookkeeping(4)).AddRaw(Bookkeeping(4, 1 | 2 | 256));
  // Sequence 9 never appears in writer_stats' buffers: not attributed.
  b.AddRaw(Bookkeeping(9)).AddRaw(Bookkeeping(9, 1));
  b.Add(tp::kTraceStats, WriterStats({{2, 0}, {3, 1}, {4, 1}, {5, 1}}));
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, idx, value FROM stats WHERE (name = "
                     "'traced_buf_sequence_packet_loss' OR name GLOB 'traced_buf_data_loss_*') "
                     "AND value > 0 ORDER BY name, idx"),
            (Grid{{"traced_buf_data_loss_overwrite", "1", "1"},
                  {"traced_buf_data_loss_read_gap", "1", "1"},
                  {"traced_buf_data_loss_smb_full", "1", "1"},
                  {"traced_buf_sequence_packet_loss", "1", "2"}}));
  EXPECT_EQ(Rows(*t, "SELECT idx, value FROM stats WHERE name = "
                     "'traced_buf_sequence_packet_loss' ORDER BY idx"),
            (Grid{{"0", "0"}, {"1", "2"}}));
}

TEST(SequenceLossTest, SequencesWhoseEveryIncrementalPacketWasSkipped) {
  constexpr uint32_t kCleared = 1, kNeeds = 2;
  TraceBuilder b;
  // Sequence 2 clears its state first: its packets are usable.
  b.AddRaw(Bookkeeping(2, 0, kCleared)).AddRaw(Bookkeeping(2, 0, kNeeds));
  // Sequence 3 never clears: every packet needing state is skipped.
  b.AddRaw(Bookkeeping(3, 0, kNeeds)).AddRaw(Bookkeeping(3, 0, kNeeds));
  // Sequence 4 loses data after its clear: one packet skipped, one used.
  b.AddRaw(Bookkeeping(4, 0, kCleared)).AddRaw(Bookkeeping(4, 0, kNeeds));
  b.AddRaw(Bookkeeping(4, 1, kNeeds));
  b.Add(tp::kTraceStats, WriterStats({{2, 0}, {3, 1}, {4, 1}}));
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT idx, value FROM stats WHERE name = "
                     "'traced_buf_incremental_sequences_dropped' ORDER BY idx"),
            (Grid{{"0", "0"}, {"1", "1"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = "
                     "'packet_skipped_seq_needs_incremental_state_invalid'"),
            (Grid{{"3"}}));
}

TEST(LongTraceModeTest, OverwrittenBytesOfAStreamedTraceAreLost) {
  auto trace = [](uint32_t period_ms) {
    proto::Writer config;
    config.Bool(pf::trace_config::kWriteIntoFile, true);
    config.Varint(pf::trace_config::kFileWritePeriodMs, period_ms);
    proto::Writer buffer;
    buffer.Varint(pf::trace_config_buffer_config::kSizeKb, 1024);
    config.Message(pf::trace_config::kBuffers, buffer);
    config.Message(pf::trace_config::kBuffers, buffer);
    proto::Writer b0, b1;
    b0.Varint(pf::trace_stats_buffer_stats::kBytesOverwritten, 2048);
    b1.Varint(pf::trace_stats_buffer_stats::kBytesOverwritten, 0);
    proto::Writer stats;
    stats.Message(pf::trace_stats::kBufferStats, b0);
    stats.Message(pf::trace_stats::kBufferStats, b1);
    return TraceBuilder().Add(tp::kTraceConfig, config).Add(tp::kTraceStats, stats).Load();
  };
  const std::string sql =
      "SELECT idx, value, severity FROM stats WHERE name = 'long_trace_mode_bytes_overwritten'";
  auto streamed = trace(5000);
  ASSERT_TRUE(streamed);
  EXPECT_EQ(Rows(*streamed, sql), (Grid{{"0", "2048", "data_loss"}}));
  // A period of a day or more means a ring buffer was wanted: overwriting is expected.
  auto ring = trace(24 * 60 * 60 * 1000);
  ASSERT_TRUE(ring);
  EXPECT_EQ(Rows(*ring, sql), Grid{});
}

proto::Writer SessionEvent(uint32_t state, uint64_t id, std::string_view name = "",
                           int32_t uid = 0) {
  proto::Writer e;
  e.Varint(1, state);
  if (!name.empty()) e.String(2, name);
  e.Varint(3, id);
  if (uid) e.Int(4, uid);
  e.Varint(5, 3);
  return e;
}

TEST(ConcurrentSessionsTest, EachSessionIsAStateTrack) {
  constexpr uint32_t kDisabled = 1, kConfigured = 2, kStarted = 3, kCloned = 5;
  TraceBuilder b;
  b.Add(tp::kConcurrentSessionEvent, SessionEvent(kConfigured, 7, "boot", 2000), 100);
  b.Add(tp::kConcurrentSessionEvent, SessionEvent(kStarted, 7, "boot", 2000), 150);
  b.Add(tp::kConcurrentSessionEvent, SessionEvent(kStarted, 8), 200);
  b.Add(tp::kConcurrentSessionEvent, SessionEvent(kCloned, 9, "boot"), 300);
  b.Add(tp::kConcurrentSessionEvent, SessionEvent(kDisabled, 7, "boot"), 400);
  b.Add(tp::kConcurrentSessionEvent, SessionEvent(42, 8), 450);  // a state from the future
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, s.ts, s.dur, s.value FROM state s JOIN track t ON "
                     "s.track_id = t.id WHERE t.type = 'concurrent_tracing_sessions' "
                     "ORDER BY t.name, s.ts"),
            (Grid{{"Session 8", "200", "-1", "STARTED"},
                  {"boot", "100", "50", "CONFIGURED"},
                  {"boot", "150", "250", "STARTED"},
                  {"boot", "400", "0", "DISABLED"},
                  {"boot (clone)", "300", "-1", "CLONED_READ_ONLY"}}));
  EXPECT_EQ(Rows(*t, "SELECT extract_arg(s.arg_set_id, 'consumer_uid'), "
                     "extract_arg(s.arg_set_id, 'num_data_sources') FROM state s WHERE s.ts = 150"),
            (Grid{{"2000", "3"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = "
                     "'concurrent_session_event_unknown_state'"),
            (Grid{{"1"}}));
}

TEST(AndroidAflagsTest, SnapshotsBecomeRowsAndErrorsImportLogs) {
  proto::Writer flag;
  flag.String(1, "ns");
  flag.String(2, "enable_x");
  flag.String(3, "com.example.flags");
  flag.String(4, "system");
  flag.String(5, "true");
  flag.Varint(7, 1);   // FLAG_PERMISSION_READ_ONLY
  flag.Varint(8, 2);   // VALUE_PICKED_FROM_SERVER
  flag.Varint(9, 3);   // FLAG_STORAGE_BACKEND_DEVICE_CONFIG
  flag.Varint(10, 2);  // FLAG_TYPE_INTEGER
  proto::Writer staged = flag;
  staged.String(6, "false");
  proto::Writer snapshot;
  snapshot.Message(1, flag);
  snapshot.Message(1, staged);
  proto::Writer failed;
  failed.String(2, "aflags exited with 1");
  auto t = TraceBuilder()
               .Add(tp::kAndroidAflags, snapshot, 1000)
               .Add(tp::kAndroidAflags, failed, 2000)
               .Add(tp::kAndroidAflags, proto::Writer(), 3000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "INCLUDE PERFETTO MODULE android.aflags; SELECT ts, package, name, "
                     "flag_namespace, container, value, staged_value, permission, "
                     "value_picked_from, storage_backend, type FROM android_aflags"),
            (Grid{{"1000", "com.example.flags", "enable_x", "ns", "system", "true", "NULL",
                   "read-only", "server", "device_config", "integer"},
                  {"1000", "com.example.flags", "enable_x", "ns", "system", "true", "false",
                   "read-only", "server", "device_config", "integer"}}));
  EXPECT_EQ(Rows(*t, "SELECT ts, name, severity, display_value FROM _trace_import_logs "
                     "JOIN args USING (arg_set_id)"),
            (Grid{{"2000", "android_aflags_errors", "error", "aflags exited with 1"}}));
  EXPECT_EQ(Rows(*t, "SELECT value FROM stats WHERE name = 'android_aflags_errors'"),
            (Grid{{"1"}}));
}

}  // namespace
}  // namespace tw::testing
