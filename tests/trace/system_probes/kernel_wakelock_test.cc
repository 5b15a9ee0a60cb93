// kernel_wakelock_data: wakelocks named once per sequence, held times as increments, a sparse
// total-held counter per wakelock (in ns), error flags as stats, and android.kernel_wakelocks.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

// KernelWakelockData (and its Wakelock) field numbers.
constexpr uint32_t kWakelock = 1, kWakelockId = 2, kTimeHeldMillis = 3, kErrorFlags = 4;
constexpr uint32_t kKernel = 1, kNative = 2;

struct Def {
  uint32_t id;
  std::string name;
  uint32_t type;
};

proto::Writer Wakelocks(std::initializer_list<Def> defs, std::initializer_list<uint64_t> ids,
                        std::initializer_list<uint64_t> held_ms, uint64_t errors = 0) {
  proto::Writer w;
  for (const Def& d : defs) {
    proto::Writer def;
    def.Varint(1, d.id);
    def.String(2, d.name);
    def.Varint(3, d.type);
    w.Message(kWakelock, def);
  }
  w.Packed(kWakelockId, std::vector<uint64_t>(ids.begin(), ids.end()));
  w.Packed(kTimeHeldMillis, std::vector<uint64_t>(held_ms.begin(), held_ms.end()));
  if (errors) w.Varint(kErrorFlags, errors);
  return w;
}

constexpr int64_t kSec = 1000000000;

TEST(KernelWakelockTest, SparseTotalsPerWakelockAndHeldRatio) {
  auto t = TraceBuilder()
               .Add(tp::kKernelWakelockData,
                    Wakelocks({{1, "PowerManager", kNative}, {2, "alarmtimer", kKernel}},
                              {1, 2}, {100, 40}),
                    1 * kSec)
               // Increments: PowerManager +20 ms, alarmtimer unreported (unchanged).
               .Add(tp::kKernelWakelockData, Wakelocks({}, {1}, {20}), 2 * kSec)
               .Add(tp::kKernelWakelockData, Wakelocks({}, {1}, {0}), 3 * kSec)
               .Add(tp::kKernelWakelockData, Wakelocks({}, {2}, {500}), 5 * kSec)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, c.ts, CAST(c.value AS INT), t.unit, "
                     "EXTRACT_ARG(t.dimension_arg_set_id, 'wakelock_type') FROM counter c "
                     "JOIN counter_track t ON t.id = c.track_id "
                     "WHERE t.type = 'android_kernel_wakelock' ORDER BY t.name, c.ts"),
            (Grid{{"PowerManager", std::to_string(1 * kSec), "100000000", "ms", "native"},
                  {"PowerManager", std::to_string(2 * kSec), "120000000", "ms", "native"},
                  // 3 s and 5 s repeat 120 ms: no sample, as nothing follows the run.
                  {"alarmtimer", std::to_string(1 * kSec), "40000000", "ms", "kernel"},
                  // The unchanged run is closed at 3 s before the step at 5 s.
                  {"alarmtimer", std::to_string(3 * kSec), "40000000", "ms", "kernel"},
                  {"alarmtimer", std::to_string(5 * kSec), "540000000", "ms", "kernel"}}));
  EXPECT_EQ(Rows(*t, "INCLUDE PERFETTO MODULE android.kernel_wakelocks;"
                     "SELECT ts, dur, awake_dur, name, type, held_dur, held_ratio "
                     "FROM android_kernel_wakelocks"),
            (Grid{{std::to_string(1 * kSec), std::to_string(kSec), std::to_string(kSec),
                   "PowerManager", "native", "20000000", "0.020000"},
                  {std::to_string(1 * kSec), std::to_string(2 * kSec), std::to_string(2 * kSec),
                   "alarmtimer", "kernel", "0", "0"},
                  {std::to_string(3 * kSec), std::to_string(2 * kSec), std::to_string(2 * kSec),
                   "alarmtimer", "kernel", "500000000", "0.250000"}}));
}

TEST(KernelWakelockTest, ClearedStateForgetsIdsAndBadDataIsCounted) {
  proto::Writer cleared;
  cleared.Varint(tp::kTimestamp, 3 * kSec);
  cleared.Varint(tp::kTrustedPacketSequenceId, 1);
  cleared.Varint(tp::kSequenceFlags, 1);  // SEQ_INCREMENTAL_STATE_CLEARED
  cleared.Message(tp::kKernelWakelockData,
                  Wakelocks({{7, "wlan", kKernel}}, {7, 1}, {9, 5}, /*errors=*/1 | 4));
  auto t = TraceBuilder()
               .Add(tp::kKernelWakelockData,
                    Wakelocks({{1, "wlan", kKernel}, {1, "dup", kNative}}, {1}, {30}), 1 * kSec)
               .AddRaw(cleared)
               .Load();
  ASSERT_TRUE(t);
  // After the clear the total starts again from what the packet reports; id 1 is unknown.
  EXPECT_EQ(Rows(*t, "SELECT c.ts, CAST(c.value AS INT) FROM counter c "
                     "JOIN counter_track t ON t.id = c.track_id WHERE t.name = 'wlan' "
                     "ORDER BY c.ts"),
            (Grid{{std::to_string(1 * kSec), "30000000"}, {std::to_string(3 * kSec), "9000000"}}));
  EXPECT_EQ(Rows(*t, "SELECT name, value FROM stats WHERE name GLOB 'kernel_wakelock*' "
                     "AND value > 0 ORDER BY name"),
            (Grid{{"kernel_wakelock_implausibly_large_value_reported", "1"},
                  {"kernel_wakelock_reused_id", "1"},
                  {"kernel_wakelock_unknown_id", "1"},
                  {"kernel_wakelock_zero_value_reported", "1"}}));
}

}  // namespace
}  // namespace tw
