// android.power_rails over hand-built power rail counters.

#include <gtest/gtest.h>

#include "tests/trace/stdlib/stdlib_test_util.h"

namespace tw::stdlib_testing {
namespace {

// A power_rails counter track with its hardware names as source args (arg set `set`).
uint32_t Rail(TraceBuilder& b, std::string_view name, std::string_view raw,
              std::string_view subsystem, uint32_t set) {
  const uint32_t track = b.CounterTrack(name, "power_rails");
  for (auto [key, value] : {std::pair{"raw_name", raw}, std::pair{"subsystem_name", subsystem}}) {
    b.s.args.Insert({.arg_set_id = set,
                     .flat_key = b.s.Intern(key),
                     .key = b.s.Intern(key),
                     .string_value = b.s.Intern(value),
                     .value_type = b.s.Intern("string")});
  }
  b.s.track.source_arg_set_id.Set(track, set);
  return track;
}

TEST(AndroidPowerRails, MetadataNamesEachRail) {
  TraceBuilder b;
  Rail(b, "power.rails.gpu", "S2S_VDD_G3D", "gpu", 1);
  Rail(b, "power.VSYS_PWR_MODEM_uws", "VSYS_PWR_MODEM", "modem", 2);
  b.CounterTrack("batt.charge_uah", "battery");  // not a rail
  auto db = b.Open();
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.power_rails;"
                      "SELECT power_rail_name, raw_power_rail_name, friendly_name, "
                      "subsystem_name, machine_id FROM android_power_rails_metadata "
                      "ORDER BY power_rail_name"),
            (Table{{"power.VSYS_PWR_MODEM_uws", "VSYS_PWR_MODEM", "NULL", "modem", "0"},
                   {"power.rails.gpu", "S2S_VDD_G3D", "gpu", "gpu", "0"}}));
}

TEST(AndroidPowerRails, AveragePowerBetweenEnergySamples) {
  TraceBuilder b;
  const uint32_t gpu = Rail(b, "power.rails.gpu", "S2S_VDD_G3D", "gpu", 1);
  // Energy in uWs at 1 s and 3 s: 4000 uWs over 2 s is 2 mW.
  b.Counter(gpu, 1000000000, 10000);
  b.Counter(gpu, 3000000000, 14000);
  auto db = b.Open(0, 4000000000);
  EXPECT_EQ(Rows(*db, "INCLUDE PERFETTO MODULE android.power_rails;"
                      "SELECT ts, dur, raw_power_rail_name, energy_since_boot, "
                      "energy_since_boot_at_end, average_power, energy_delta "
                      "FROM android_power_rails_counters ORDER BY ts"),
            (Table{{"1000000000", "2000000000", "S2S_VDD_G3D", "10000", "14000", "2", "NULL"},
                   {"3000000000", "1000000000", "S2S_VDD_G3D", "14000", "NULL", "NULL",
                    "4000"}}));
}

}  // namespace
}  // namespace tw::stdlib_testing
