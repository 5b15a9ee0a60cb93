// process_stats packets → per-process counters with trace_processor's names, types and units.

#include <gtest/gtest.h>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace psp = pf::process_stats_process;

proto::Writer Stats(const proto::Writer& process) {
  proto::Writer stats;
  stats.Message(pf::process_stats::kProcesses, process);
  return stats;
}

TEST(ProcessStatsTest, MemoryCountersAreBytesOnProcessTracks) {
  proto::Writer p;
  p.Varint(psp::kVmSizeKb, 100);  // the pid comes after its values: still attributed
  p.Varint(psp::kVmRssKb, 50);
  p.Varint(psp::kRssAnonKb, 40);
  p.Varint(psp::kVmSwapKb, 0);
  p.Varint(psp::kVmHwmKb, 60);
  p.Varint(psp::kPid, 10);
  auto t = TraceBuilder().Add(pf::trace_packet::kProcessStats, Stats(p), 1000).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT p.pid, t.name, t.type, c.ts, c.value FROM counter c "
                 "JOIN process_counter_track t ON c.track_id = t.id "
                 "JOIN process p USING (upid) ORDER BY t.name"),
            (Grid{{"10", "mem.rss", "process_memory", "1000", "51200"},
                  {"10", "mem.rss.anon", "process_memory", "1000", "40960"},
                  {"10", "mem.rss.watermark", "process_memory", "1000", "61440"},
                  {"10", "mem.swap", "process_memory", "1000", "0"},
                  {"10", "mem.virt", "process_memory", "1000", "102400"}}));
}

TEST(ProcessStatsTest, OomScoreRuntimeAndSmaps) {
  proto::Writer p;
  p.Varint(psp::kPid, 7);
  p.Int(psp::kOomScoreAdj, -900);
  p.Varint(psp::kRuntimeUserMode, 16637390000000);
  p.Varint(psp::kRuntimeKernelMode, 1327800000000);
  p.Varint(psp::kSmrPssKb, 2);
  auto t = TraceBuilder().Add(pf::trace_packet::kProcessStats, Stats(p), 5).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t,
                 "SELECT t.name, t.type, c.value FROM counter c "
                 "JOIN process_counter_track t ON c.track_id = t.id ORDER BY t.name"),
            (Grid{{"mem.smaps.pss", "smaps", "2048"},
                  {"oom_score_adj", "oom_score_adj", "-900"},
                  {"runtime.kernel_ns", "proc_stat_runtime", "1327800000000"},
                  {"runtime.user_ns", "proc_stat_runtime", "16637390000000"}}));
}

TEST(ProcessStatsTest, SamplesOfOneProcessShareTracks) {
  TraceBuilder b;
  for (int i = 0; i < 3; ++i) {
    proto::Writer p;
    p.Varint(psp::kPid, 3);
    p.Varint(psp::kVmRssKb, 10 + i);
    b.Add(pf::trace_packet::kProcessStats, Stats(p), 100 * (i + 1));
  }
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT COUNT(*) FROM process_counter_track"), (Grid{{"1"}}));
  EXPECT_EQ(Rows(*t, "SELECT ts, value FROM counter ORDER BY ts"),
            (Grid{{"100", "10240"}, {"200", "11264"}, {"300", "12288"}}));
}

TEST(ProcessStatsTest, ListedThreadsJoinTheirProcess) {
  proto::Writer thread;
  thread.Varint(pf::process_stats_thread::kTid, 11);
  proto::Writer p;
  p.Varint(psp::kPid, 10);
  p.Message(psp::kThreads, thread);
  auto t = TraceBuilder().Add(pf::trace_packet::kProcessStats, Stats(p), 1).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT p.pid FROM thread JOIN process p USING (upid) WHERE tid = 11"),
            (Grid{{"10"}}));
}

}  // namespace
}  // namespace tw
