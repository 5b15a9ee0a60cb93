// android.gpu.frequency and android.gpu.memory over hand-built counter tracks.

#include "gtest/gtest.h"
#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw {
namespace {

using stdlib_testing::Rows;
using stdlib_testing::Table;
using stdlib_testing::TraceBuilder;

// A gpu_frequency counter track for GPU `gpu` (its dimension args: ugpu and gpu).
uint32_t GpuFrequencyTrack(TraceBuilder& b, int64_t gpu, uint32_t arg_set) {
  const uint32_t id = b.CounterTrack("gpufreq", "gpu_frequency");
  for (std::string_view key : {"ugpu", "gpu"}) {
    b.s.args.Insert({.arg_set_id = arg_set,
                     .flat_key = b.s.Intern(key),
                     .key = b.s.Intern(key),
                     .int_value = gpu,
                     .value_type = b.s.Intern("int")});
  }
  b.s.track.dimension_arg_set_id.Set(id, arg_set);
  return id;
}

TEST(AndroidGpuModules, FrequencyIntervalsPerGpu) {
  TraceBuilder b;
  const uint32_t gpu1 = GpuFrequencyTrack(b, 1, 1);
  const uint32_t gpu0 = GpuFrequencyTrack(b, 0, 2);
  b.Counter(gpu0, 1000, 300000);
  b.Counter(gpu0, 1500, 0);
  b.Counter(gpu1, 1200, 900000);
  b.s.ExtendBounds(1000);
  b.s.ExtendBounds(2000);
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.gpu.frequency;"
                      "SELECT * FROM android_gpu_frequency"),
            (Table{{"1000", "500", "0", "300000", "NULL", "0"},
                   {"1500", "500", "0", "0", "300000", "NULL"},
                   {"1200", "800", "1", "900000", "NULL", "NULL"}}));
}

// The last sample lasts until just after the process's end (or the trace's), as
// trace_processor's per-process counters do.
TEST(AndroidGpuModules, MemoryPerProcessLastsUntilTheNextSampleOrTheEnd) {
  TraceBuilder b;
  const uint32_t app = b.Process(400, "com.example.game");
  const uint32_t track = b.ProcessCounterTrack(app, "GPU Memory");
  const uint32_t ended = b.Process(500, "com.example.gone");
  b.s.process.end_ts.Set(ended, 250);
  const uint32_t ended_track = b.ProcessCounterTrack(ended, "GPU Memory");
  const uint32_t global = b.CounterTrack("GPU Memory", "gpu_memory");  // not per process
  b.Counter(track, 100, 4096);
  b.Counter(track, 300, 8192);
  b.Counter(ended_track, 200, 64);
  b.Counter(global, 100, 1 << 20);
  b.s.ExtendBounds(100);
  b.s.ExtendBounds(1000);
  auto db = stdlib_testing::OpenOrDie(b.storage.get());
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.gpu.memory;"
                      "SELECT ts, dur, upid, gpu_memory FROM android_gpu_memory_per_process "
                      "ORDER BY upid, ts"),
            (Table{{"100", "200", std::to_string(app), "4096"},
                   {"300", "701", std::to_string(app), "8192"},
                   {"200", "51", std::to_string(ended), "64"}}));
}

}  // namespace
}  // namespace tw
