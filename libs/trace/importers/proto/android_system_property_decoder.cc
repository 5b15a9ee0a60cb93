#include "libs/trace/importers/proto/android_system_property_decoder.h"

#include <charconv>
#include <optional>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

constexpr std::string_view kPrefix = "debug.tracing.";

std::optional<int32_t> ParseInt32(std::string_view text) {
  int32_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return v;
}

}  // namespace

void AndroidSystemPropertyDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  namespace sp = pf::android_system_property;
  namespace spv = pf::android_system_property_value;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != sp::kValues || f.type != proto::kLengthDelimited) continue;
    std::string_view name, value;
    proto::Decoder vd(f);
    proto::Field v;
    while (vd.Next(&v)) {
      if (v.id == spv::kName) name = v.as_string();
      if (v.id == spv::kValue) value = v.as_string();
    }
    DecodeValue(packet, name, value);
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
}

void AndroidSystemPropertyDecoder::DecodeValue(const PacketContext& packet, std::string_view name,
                                               std::string_view value) {
  if (name == "debug.tracing.device_state") {
    // The instant atrace's "N|pid|DeviceStateChanged|<state>" marker makes.
    AtraceData a;
    a.kind = 'N';
    a.tid = 0;
    a.tgid = 0;
    a.name = ctx_->Intern(value);
    a.track_name = ctx_->Intern("DeviceStateChanged");
    ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
               Event::WithPayload(packet.ts, EventType::kAtrace, std::move(a)));
    return;
  }
  const std::optional<int32_t> state = ParseInt32(value);
  if (!state) return;
  if (name == "debug.tracing.profile_boot_classpath") {
    ctx_->storage->SetMetadata("android_profile_boot_classpath", *state);
    return;
  }
  if (name == "debug.tracing.profile_system_server") {
    ctx_->storage->SetMetadata("android_profile_system_server", *state);
    return;
  }
  if (name == "debug.tracing.screen_state") {
    counters_.Emit(packet, {CounterEmitter::Track{CounterData::Scope::kGlobal, 0, "ScreenState",
                                                  "screen_state"}},
                   *state);
    return;
  }
  if (name.substr(0, kPrefix.size()) != kPrefix) return;
  const std::string_view key = name.substr(kPrefix.size());
  if (key.substr(0, 14) == "battery_stats.") {
    CounterEmitter::Track track{CounterData::Scope::kGlobal, 0, key, "battery_stats"};
    track.dimensions = {counters_.StringDimension("counter_key", key)};
    counters_.Emit(packet, std::move(track), *state);
    return;
  }
  std::string_view track_name;
  if (key == "mcc" || key == "mnc" || key == "desktop_mode_visible_tasks") {
    track_name = key;
  } else if (key == "battery_status") {
    track_name = "BatteryStatus";
  } else if (key == "plug_type") {
    track_name = "PlugType";
  } else {
    return;
  }
  CounterEmitter::Track track{CounterData::Scope::kGlobal, 0, track_name, "sysprop_counter"};
  track.dimensions = {counters_.StringDimension("sysprop_name", name)};
  counters_.Emit(packet, std::move(track), *state);
}

}  // namespace tw
