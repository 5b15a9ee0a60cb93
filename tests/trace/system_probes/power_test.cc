// Power data sources: battery counters, power rails (descriptors, per-sample times, sessions),
// the energy estimation breakdown (per consumer and per uid) and entity state residency, plus
// the android.entity_state_residency module over them.

#include <gtest/gtest.h>

#include <cstring>

#include "tests/trace/system_probes/test_packets.h"

namespace tw {
namespace {

using testing::Grid;
using testing::Rows;
using testing::TraceBuilder;
namespace tp = pf::trace_packet;

// Field numbers of the power protos (BatteryCounters, PowerRails, ...), as the tests write them.
namespace battery {
constexpr uint32_t kChargeCounterUah = 1, kCapacityPercent = 2, kCurrentUa = 3, kName = 5,
                   kEnergyCounterUwh = 6, kVoltageUv = 7;
}
namespace rails {
constexpr uint32_t kRailDescriptor = 1, kEnergyData = 2, kSessionUuid = 3;
constexpr uint32_t kIndex = 1, kRailName = 2, kSubsysName = 3;  // RailDescriptor
constexpr uint32_t kTimestampMs = 2, kEnergy = 3;               // EnergyData
}
namespace energy {
constexpr uint32_t kDescriptor = 1, kConsumerId = 2, kEnergyUws = 3, kPerUid = 4;
constexpr uint32_t kConsumers = 1;
constexpr uint32_t kId = 1, kOrdinal = 2, kType = 3, kName = 4;
constexpr uint32_t kUid = 1, kUidEnergy = 2;
}
namespace residency {
constexpr uint32_t kState = 1, kResidency = 2;
constexpr uint32_t kEntity = 1, kStateIndex = 2, kEntityName = 3, kStateName = 4, kTimeMs = 3;
}

void Float(proto::Writer& w, uint32_t field, float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  w.Fixed32(field, bits);
}

TEST(PowerTest, BatteryCountersDeriveChargeAndPower) {
  proto::Writer main, aux;
  main.Int(battery::kChargeCounterUah, 3000000);
  Float(main, battery::kCapacityPercent, 80.5f);
  main.Int(battery::kCurrentUa, -500000);   // discharging
  main.Int(battery::kVoltageUv, 4000000);   // 4 V
  // A named battery with no charge counter: charge from energy / voltage.
  aux.String(battery::kName, "aux");
  aux.Int(battery::kEnergyCounterUwh, 8000000);
  aux.Int(battery::kVoltageUv, 2000000);
  auto t = TraceBuilder().Add(tp::kBattery, main, 1000).Add(tp::kBattery, aux, 2000).Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, t.type, c.ts, c.value FROM counter c "
                     "JOIN counter_track t ON t.id = c.track_id ORDER BY t.name"),
            (Grid{{"batt.aux.charge_uah", "battery_counter", "2000", "4000000"},
                  {"batt.aux.voltage_uv", "battery_counter", "2000", "2000000"},
                  {"batt.capacity_pct", "battery_counter", "1000", "80.500000"},
                  {"batt.charge_uah", "battery_counter", "1000", "3000000"},
                  {"batt.current_ua", "battery_counter", "1000", "-500000"},
                  {"batt.power_mw", "battery_counter", "1000", "2000"},
                  {"batt.voltage_uv", "battery_counter", "1000", "4000000"}}));
  EXPECT_EQ(Rows(*t, "SELECT extract_arg(dimension_arg_set_id, 'battery_name'), "
                     "extract_arg(dimension_arg_set_id, 'counter_name') FROM counter_track "
                     "WHERE name = 'batt.aux.charge_uah'"),
            (Grid{{"aux", "charge_uah"}}));
}

proto::Writer Rail(uint32_t index, std::string_view name, std::string_view subsystem) {
  proto::Writer d;
  d.Varint(rails::kIndex, index);
  d.String(rails::kRailName, name);
  d.String(rails::kSubsysName, subsystem);
  return d;
}

proto::Writer Energy(uint32_t index, int64_t timestamp_ms, uint64_t uws) {
  proto::Writer e;
  e.Varint(rails::kIndex, index);
  if (timestamp_ms >= 0) e.Varint(rails::kTimestampMs, static_cast<uint64_t>(timestamp_ms));
  e.Varint(rails::kEnergy, uws);
  return e;
}

TEST(PowerTest, PowerRailSamplesAtTheirOwnTimeWithThePacketTime) {
  proto::Writer descriptors;
  descriptors.Message(rails::kRailDescriptor, Rail(0, "S4M_VDD_CPUCL0", "CPU"));  // known meter
  descriptors.Message(rails::kRailDescriptor, Rail(1, "VSYS_X", "misc"));
  descriptors.Message(rails::kRailDescriptor, Rail(2, "NEVER_SAMPLED", "misc"));
  proto::Writer samples;
  samples.Message(rails::kEnergyData, Energy(0, 7, 70));   // 7 ms BOOTTIME
  samples.Message(rails::kEnergyData, Energy(1, -1, 10));  // no own time: the packet's
  samples.Message(rails::kEnergyData, Energy(9, 7, 1));    // no such rail
  proto::Writer empty;  // neither descriptors nor samples
  auto t = TraceBuilder()
               .Add(tp::kPowerRails, descriptors)
               .Add(tp::kPowerRails, samples, 9000000)
               .Add(tp::kPowerRails, empty, 9500000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, c.ts, c.value, extract_arg(c.arg_set_id, 'packet_ts') "
                     "FROM counter c JOIN counter_track t ON t.id = c.track_id ORDER BY c.ts"),
            (Grid{{"power.rails.cpu.little", "7000000", "70", "9000000"},
                  {"power.VSYS_X_uws", "9000000", "10", "9000000"}}));
  // Every described rail has its track, with the raw name and subsystem as args.
  EXPECT_EQ(Rows(*t, "SELECT name, type, extract_arg(source_arg_set_id, 'raw_name'), "
                     "extract_arg(source_arg_set_id, 'subsystem_name'), "
                     "extract_arg(dimension_arg_set_id, 'name') FROM counter_track ORDER BY id"),
            (Grid{{"power.rails.cpu.little", "power_rails", "S4M_VDD_CPUCL0", "CPU",
                   "S4M_VDD_CPUCL0"},
                  {"power.VSYS_X_uws", "power_rails", "VSYS_X", "misc", "VSYS_X"},
                  {"power.NEVER_SAMPLED_uws", "power_rails", "NEVER_SAMPLED", "misc",
                   "NEVER_SAMPLED"}}));
  EXPECT_EQ(Rows(*t, "SELECT name, value FROM stats WHERE name IN "
                     "('power_rail_unknown_index', 'power_rail_empty_packet') ORDER BY name"),
            (Grid{{"power_rail_empty_packet", "2"}, {"power_rail_unknown_index", "1"}}));
}

TEST(PowerTest, PowerRailSessionsKeepSameIndexApart) {
  TraceBuilder b;
  for (uint64_t session : {100u, 200u}) {
    proto::Writer p;
    p.Varint(rails::kSessionUuid, session);
    p.Message(rails::kRailDescriptor, Rail(0, session == 100 ? "CPU" : "GPU", "s"));
    p.Message(rails::kEnergyData, Energy(0, -1, session));
    b.Add(tp::kPowerRails, p, static_cast<int64_t>(session));
  }
  auto t = b.Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, extract_arg(t.dimension_arg_set_id, 'session_uuid'), "
                     "c.value FROM counter c JOIN counter_track t ON t.id = c.track_id "
                     "ORDER BY c.ts"),
            (Grid{{"power.CPU_uws", "100", "100"}, {"power.GPU_uws", "200", "200"}}));
}

TEST(PowerTest, EnergyBreakdownPerConsumerAndUid) {
  proto::Writer consumer;
  consumer.Varint(energy::kId, 3);
  consumer.Varint(energy::kOrdinal, 1);
  consumer.String(energy::kType, "CPU_CLUSTER");
  consumer.String(energy::kName, "CPUCL1");
  proto::Writer descriptor;
  descriptor.Message(energy::kConsumers, consumer);
  proto::Writer no_id;  // a consumer without an id is invalid
  no_id.String(energy::kName, "nameless");
  descriptor.Message(energy::kConsumers, no_id);
  proto::Writer with_descriptor;
  with_descriptor.Message(energy::kDescriptor, descriptor);

  proto::Writer uid;
  uid.Varint(energy::kUid, 10123);
  uid.Varint(energy::kUidEnergy, 40);
  proto::Writer sample;
  sample.Varint(energy::kConsumerId, 3);
  sample.Varint(energy::kEnergyUws, 100);
  sample.Message(energy::kPerUid, uid);
  proto::Writer unknown;  // a consumer never described
  unknown.Varint(energy::kConsumerId, 8);
  unknown.Varint(energy::kEnergyUws, 1);

  auto t = TraceBuilder()
               .Add(tp::kAndroidEnergyEstimationBreakdown, with_descriptor)
               .Add(tp::kAndroidEnergyEstimationBreakdown, sample, 5000)
               .Add(tp::kAndroidEnergyEstimationBreakdown, unknown, 6000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT t.name, t.type, extract_arg(t.dimension_arg_set_id, 'uid'), "
                     "extract_arg(t.source_arg_set_id, 'consumer_type'), "
                     "extract_arg(t.source_arg_set_id, 'ordinal'), c.ts, c.value "
                     "FROM counter c JOIN counter_track t ON t.id = c.track_id ORDER BY t.id"),
            (Grid{{"CPUCL1", "android_energy_estimation_breakdown", "NULL", "CPU_CLUSTER", "1",
                   "5000", "100"},
                  {"CPUCL1", "android_energy_estimation_breakdown_per_uid", "10123", "NULL",
                   "NULL", "5000", "40"}}));
  EXPECT_EQ(Rows(*t, "SELECT name, value FROM stats WHERE name IN "
                     "('energy_descriptor_invalid', 'energy_breakdown_missing_values') "
                     "ORDER BY name"),
            (Grid{{"energy_breakdown_missing_values", "1"}, {"energy_descriptor_invalid", "1"}}));
}

proto::Writer State(int32_t entity, int32_t state, std::string_view entity_name,
                    std::string_view state_name) {
  proto::Writer s;
  s.Int(residency::kEntity, entity);
  s.Int(residency::kStateIndex, state);
  s.String(residency::kEntityName, entity_name);
  s.String(residency::kStateName, state_name);
  return s;
}

proto::Writer Residency(int32_t entity, int32_t state, uint64_t ms) {
  proto::Writer r;
  r.Int(residency::kEntity, entity);
  r.Int(residency::kStateIndex, state);
  r.Varint(residency::kTimeMs, ms);
  return r;
}

TEST(PowerTest, EntityStateResidencyTracksAndModule) {
  proto::Writer first;
  first.Message(residency::kState, State(0, 0, "Wifi", "Sleep"));
  first.Message(residency::kState, State(0, 1, "Wifi", "Awake"));
  first.Message(residency::kResidency, Residency(0, 0, 100));
  first.Message(residency::kResidency, Residency(0, 1, 50));
  proto::Writer second;
  second.Message(residency::kResidency, Residency(0, 0, 150));  // +50 ms of 100 ms
  second.Message(residency::kResidency, Residency(0, 1, 100));
  auto t = TraceBuilder()
               .Add(tp::kEntityStateResidency, first, 1000000000)
               .Add(tp::kEntityStateResidency, second, 1100000000)
               .Load();
  ASSERT_TRUE(t);
  EXPECT_EQ(Rows(*t, "SELECT name, type FROM counter_track ORDER BY id"),
            (Grid{{"Entity residency: Wifi is Sleep", "entity_state"},
                  {"Entity residency: Wifi is Awake", "entity_state"}}));
  ASSERT_TRUE(t->Query("INCLUDE PERFETTO MODULE android.entity_state_residency").ok());
  EXPECT_EQ(Rows(*t, "SELECT ts, dur, entity_name, state_name, state_time_since_boot, "
                     "state_time_ratio FROM android_entity_state_residency "
                     "ORDER BY state_name, ts"),
            (Grid{{"1000000000", "100000000", "Wifi", "Awake", "50000000", "0.500000"},
                  {"1100000000", "NULL", "Wifi", "Awake", "100000000", "NULL"},
                  {"1000000000", "100000000", "Wifi", "Sleep", "100000000", "0.500000"},
                  {"1100000000", "NULL", "Wifi", "Sleep", "150000000", "NULL"}}));
}

}  // namespace
}  // namespace tw
