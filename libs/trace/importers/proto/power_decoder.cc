#include "libs/trace/importers/proto/power_decoder.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace tw {
namespace {

// Field numbers (wire-format facts of Perfetto's power protos).
namespace battery {  // BatteryCounters
constexpr uint32_t kChargeCounterUah = 1, kCapacityPercent = 2, kCurrentUa = 3,
                   kCurrentAvgUa = 4, kName = 5, kEnergyCounterUwh = 6, kVoltageUv = 7;
}
namespace power_rails {  // PowerRails and its RailDescriptor / EnergyData
constexpr uint32_t kRailDescriptor = 1, kEnergyData = 2, kSessionUuid = 3;
constexpr uint32_t kIndex = 1, kRailName = 2, kSubsysName = 3;  // RailDescriptor
constexpr uint32_t kTimestampMs = 2, kEnergy = 3;               // EnergyData (index = 1)
}
namespace energy {  // AndroidEnergyEstimationBreakdown
constexpr uint32_t kDescriptor = 1, kConsumerId = 2, kEnergyUws = 3, kPerUidBreakdown = 4;
constexpr uint32_t kConsumers = 1;  // AndroidEnergyConsumerDescriptor.energy_consumers
constexpr uint32_t kConsumerIdField = 1, kOrdinal = 2, kType = 3, kConsumerName = 4;
constexpr uint32_t kUid = 1, kUidEnergyUws = 2;  // EnergyUidBreakdown
}
namespace residency {  // EntityStateResidency
constexpr uint32_t kPowerEntityState = 1, kResidency = 2;
constexpr uint32_t kEntityIndex = 1, kStateIndex = 2, kEntityName = 3, kStateName = 4;
constexpr uint32_t kTotalTimeInStateMs = 3;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The names trace_processor gives the rails of known Pixel power meters; nullptr otherwise.
const char* FriendlyRailName(std::string_view raw) {
  struct Entry {
    std::string_view suffix;
    const char* name;
  };
  static constexpr Entry kRails[] = {
      {"M_VDD_CPUCL0", "cpu.little"},     {"M_VDD_CPUCL0_M", "cpu.little.mem"},
      {"M_VDD_CPUCL1", "cpu.mid"},        {"M_VDD_CPUCL1_M", "cpu.mid.mem"},
      {"M_VDD_CPUCL2", "cpu.big"},        {"M_VDD_INT", "system.fabric"},
      {"M_VDD_TPU", "tpu"},               {"VSYS_PWR_DISP", "display"},
      {"VSYS_PWR_DISPLAY", "display"},    {"M_DISP", "ldo.main.a.display"},
      {"VSYS_PWR_MODEM", "modem"},        {"M_VDD_MIF", "memory.interface"},
      {"VSYS_PWR_WLAN_BT", "wifi.bt"},    {"VSYS_PWR_MMWAVE", "mmwave"},
      {"S_VDD_AOC_RET", "aoc.memory"},    {"S_VDD_AOC", "aoc.logic"},
      {"S_VDDQ_MEM", "ddr.a"},            {"S_VDD2L", "ddr.b"},
      {"S_VDD2L_MEM", "ddr.b"},           {"S_VDD2H_MEM", "ddr.c"},
      {"S_VDD_G3D", "gpu"},               {"S_VDD_G3D_L2", "gpu.l2"},
      {"S_GNSS_CORE", "gps"},             {"VSYS_PWR_RFFE", "radio.frontend"},
      {"VSYS_PWR_CAMERA", "camera"},      {"S_VDD_CAM", "multimedia"},
      {"S_UDFPS", "udfps"},               {"S_PLL_MIPI_UFS", "ufs"},
      {"M_LLDO1", "ldo.main.a"},          {"M_LLDO2", "ldo.main.b"},
      {"S_LLDO1", "ldo.sub"},
  };
  for (const Entry& e : kRails) {
    if (EndsWith(raw, e.suffix)) return e.name;
  }
  return nullptr;
}

}  // namespace

void PowerDecoder::DecodeBattery(const PacketContext& packet, const proto::Field& field) {
  std::optional<int64_t> charge, current, current_avg, energy, voltage;
  std::optional<double> capacity;
  std::string name;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case battery::kChargeCounterUah: charge = f.as_int64(); break;
      case battery::kCapacityPercent: capacity = static_cast<double>(f.as_float()); break;
      case battery::kCurrentUa: current = f.as_int64(); break;
      case battery::kCurrentAvgUa: current_avg = f.as_int64(); break;
      case battery::kName: name = std::string(f.as_string()); break;
      case battery::kEnergyCounterUwh: energy = f.as_int64(); break;
      case battery::kVoltageUv: voltage = f.as_int64(); break;
      default: break;
    }
  }
  // Tracks of type battery_counter, by battery and counter: "batt.<battery>.<counter>".
  auto emit = [&](std::string_view counter, double value) {
    const std::string track_name = name.empty() ? "batt." + std::string(counter)
                                                : "batt." + name + "." + std::string(counter);
    counters_.Emit(packet,
                   {CounterData::Scope::kGlobal, 0, track_name, "battery_counter", {},
                    {counters_.StringDimension("battery_name", name),
                     counters_.StringDimension("counter_name", counter)}},
                   value);
  };
  if (charge) {
    emit("charge_uah", static_cast<double>(*charge));
  } else if (energy && voltage) {
    // Charge from energy and voltage.
    if (*voltage > 0) emit("charge_uah", static_cast<double>(*energy * 1000000 / *voltage));
  }
  if (capacity) emit("capacity_pct", *capacity);
  if (current) emit("current_ua", static_cast<double>(*current));
  if (current_avg) emit("current.avg_ua", static_cast<double>(*current_avg));
  if (voltage) emit("voltage_uv", static_cast<double>(*voltage));
  if (current && voltage) {
    // Power from current and voltage, positive whether charging or not.
    emit("power_mw", std::abs(static_cast<double>(*current * *voltage / 1000000000)));
  }
}

void PowerDecoder::DecodePowerRails(const PacketContext& packet, const proto::Field& field) {
  uint64_t session = 0;
  std::vector<proto::Field> descriptors, samples;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == power_rails::kSessionUuid) session = f.as_uint64();
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == power_rails::kRailDescriptor) descriptors.push_back(f);
    if (f.id == power_rails::kEnergyData) samples.push_back(f);
  }
  for (const proto::Field& desc : descriptors) {
    uint32_t index = 0;
    Rail rail;
    proto::Decoder dd(desc);
    proto::Field x;
    while (dd.Next(&x)) {
      if (x.id == power_rails::kIndex) index = x.as_uint32();
      if (x.id == power_rails::kRailName) rail.name = std::string(x.as_string());
      if (x.id == power_rails::kSubsysName) rail.subsystem = std::string(x.as_string());
    }
    if (index > 256) continue;  // not a plausible meter channel
    // Known Pixel meters get trace_processor's friendly names; others their own.
    const char* friendly = FriendlyRailName(rail.name);
    rail.track_name =
        friendly ? "power.rails." + std::string(friendly) : "power." + rail.name + "_uws";
    // The rail's track exists from its description on, whether or not it is ever sampled.
    counters_.Declare(packet, RailTrack(session, rail));
    rails_[{packet.machine, session, index}] = std::move(rail);
  }
  if (samples.empty()) {
    ctx_->storage->IncrementStat("power_rail_empty_packet");
    return;
  }
  for (const proto::Field& sample : samples) {
    uint32_t index = 0;
    std::optional<uint64_t> timestamp_ms;
    uint64_t energy_uws = 0;
    proto::Decoder sd(sample);
    proto::Field x;
    while (sd.Next(&x)) {
      if (x.id == power_rails::kIndex) index = x.as_uint32();
      if (x.id == power_rails::kTimestampMs) timestamp_ms = x.as_uint64();
      if (x.id == power_rails::kEnergy) energy_uws = x.as_uint64();
    }
    // Each sample has its own time: milliseconds of BOOTTIME.
    int64_t ts = packet.ts;
    if (timestamp_ms) {
      const std::optional<int64_t> t = ctx_->clocks.ToTraceTime(
          {kBootTimeClock, 0}, static_cast<int64_t>(*timestamp_ms) * 1000000);
      if (!t) continue;
      ts = *t;
    }
    auto it = rails_.find({packet.machine, session, index});
    if (it == rails_.end()) {
      ctx_->storage->IncrementStat("power_rail_unknown_index");
      continue;
    }
    PacketContext at = packet;
    at.ts = ts;
    // The time the packet carrying the sample was written, as an arg of the sample.
    counters_.Emit(at, RailTrack(session, it->second), static_cast<double>(energy_uws),
                   {counters_.UintDimension("packet_ts", static_cast<uint64_t>(packet.ts))});
  }
}

CounterEmitter::Track PowerDecoder::RailTrack(uint64_t session, const Rail& rail) {
  CounterEmitter::Track track;
  track.name = rail.track_name;
  track.type = "power_rails";
  track.dimensions = {counters_.StringDimension("name", rail.name),
                      counters_.UintDimension("session_uuid", session)};
  track.source_args = {counters_.StringDimension("raw_name", rail.name),
                       counters_.StringDimension("subsystem_name", rail.subsystem)};
  return track;
}

void PowerDecoder::DecodeEnergyBreakdown(const PacketContext& packet, const proto::Field& field) {
  std::optional<proto::Field> descriptor;
  std::optional<int32_t> consumer_id;
  std::optional<int64_t> energy_uws;
  std::vector<proto::Field> per_uid;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case energy::kDescriptor: descriptor = f; break;
      case energy::kConsumerId: consumer_id = f.as_int32(); break;
      case energy::kEnergyUws: energy_uws = f.as_int64(); break;
      case energy::kPerUidBreakdown: per_uid.push_back(f); break;
      default: break;
    }
  }
  // A packet with a descriptor carries only the descriptor (the first one for an id wins).
  if (descriptor) {
    proto::Decoder dd(*descriptor);
    proto::Field c;
    while (dd.Next(&c)) {
      if (c.id != energy::kConsumers || c.type != proto::kLengthDelimited) continue;
      std::optional<int32_t> id;
      Consumer consumer{"", "", 0};
      proto::Decoder cd(c);
      proto::Field x;
      while (cd.Next(&x)) {
        if (x.id == energy::kConsumerIdField) id = x.as_int32();
        if (x.id == energy::kOrdinal) consumer.ordinal = x.as_int32();
        if (x.id == energy::kType) consumer.type = std::string(x.as_string());
        if (x.id == energy::kConsumerName) consumer.name = std::string(x.as_string());
      }
      if (!id) {
        ctx_->storage->IncrementStat("energy_descriptor_invalid");
        continue;
      }
      consumers_.try_emplace(*id, std::move(consumer));
    }
    return;
  }
  if (!consumer_id || !energy_uws) {
    ctx_->storage->IncrementStat("energy_breakdown_missing_values");
    return;
  }
  auto it = consumers_.find(*consumer_id);
  if (it == consumers_.end()) {
    ctx_->storage->IncrementStat("energy_breakdown_missing_values");
    return;
  }
  const Consumer& consumer = it->second;
  counters_.Emit(packet,
                 {CounterData::Scope::kGlobal, 0, consumer.name,
                  "android_energy_estimation_breakdown", {},
                  {counters_.UintDimension("energy_consumer_id", static_cast<uint32_t>(*consumer_id))},
                  {counters_.StringDimension("consumer_type", consumer.type),
                   counters_.IntDimension("ordinal", consumer.ordinal)}},
                 static_cast<double>(*energy_uws));
  for (const proto::Field& b : per_uid) {
    std::optional<int32_t> uid;
    std::optional<int64_t> uws;
    proto::Decoder bd(b);
    proto::Field x;
    while (bd.Next(&x)) {
      if (x.id == energy::kUid) uid = x.as_int32();
      if (x.id == energy::kUidEnergyUws) uws = x.as_int64();
    }
    if (!uid || !uws) {
      ctx_->storage->IncrementStat("energy_uid_breakdown_missing_values");
      continue;
    }
    counters_.Emit(packet,
                   {CounterData::Scope::kGlobal, 0, consumer.name,
                    "android_energy_estimation_breakdown_per_uid", {},
                    {counters_.UintDimension("energy_consumer_id", static_cast<uint32_t>(*consumer_id)),
                     counters_.UintDimension("uid", static_cast<uint32_t>(*uid))}},
                   static_cast<double>(*uws));
  }
}

void PowerDecoder::DecodeEntityStateResidency(const PacketContext& packet,
                                              const proto::Field& field) {
  std::vector<proto::Field> states, residencies;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == residency::kPowerEntityState) states.push_back(f);
    if (f.id == residency::kResidency) residencies.push_back(f);
  }
  // Descriptors name (entity, state) pairs; the first description of a pair wins.
  for (const proto::Field& s : states) {
    std::optional<int32_t> entity, state;
    EntityState names;
    proto::Decoder sd(s);
    proto::Field x;
    while (sd.Next(&x)) {
      if (x.id == residency::kEntityIndex) entity = x.as_int32();
      if (x.id == residency::kStateIndex) state = x.as_int32();
      if (x.id == residency::kEntityName) names.entity = std::string(x.as_string());
      if (x.id == residency::kStateName) names.state = std::string(x.as_string());
    }
    if (!entity || !state) {
      ctx_->storage->IncrementStat("energy_descriptor_invalid");
      continue;
    }
    entity_states_.try_emplace({*entity, *state}, std::move(names));
  }
  if (residencies.empty()) {
    ctx_->storage->IncrementStat("entity_state_residency_invalid");
    return;
  }
  for (const proto::Field& r : residencies) {
    int32_t entity = 0, state = 0;
    uint64_t time_ms = 0;
    proto::Decoder rd(r);
    proto::Field x;
    while (rd.Next(&x)) {
      if (x.id == residency::kEntityIndex) entity = x.as_int32();
      if (x.id == residency::kStateIndex) state = x.as_int32();
      if (x.id == residency::kTotalTimeInStateMs) time_ms = x.as_uint64();
    }
    auto it = entity_states_.find({entity, state});
    if (it == entity_states_.end()) {
      ctx_->storage->IncrementStat("entity_state_residency_lookup_failed");
      return;
    }
    counters_.Emit(packet,
                   {CounterData::Scope::kGlobal, 0,
                    "Entity residency: " + it->second.entity + " is " + it->second.state,
                    "entity_state", {},
                    {counters_.StringDimension("entity_name", it->second.entity),
                     counters_.StringDimension("state_name", it->second.state)}},
                   static_cast<double>(time_ms));
  }
}

}  // namespace tw
