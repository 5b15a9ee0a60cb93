#include "libs/trace/trackers/clock_rate_tracker.h"

#include <cstdlib>
#include <optional>
#include <string>

namespace tw {

ClockRateTracker::ClockRateTracker(TraceContext* ctx)
    : ctx_(ctx),
      set_rate_(ctx->storage->Intern("clock_set_rate")),
      enable_(ctx->storage->Intern("clock_enable")),
      disable_(ctx->storage->Intern("clock_disable")),
      name_key_(ctx->storage->Intern("name")),
      state_key_(ctx->storage->Intern("state")) {}

void ClockRateTracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  if (raw.name != set_rate_ && raw.name != enable_ && raw.name != disable_) return;
  TraceStorage* s = ctx_->storage;
  std::optional<std::string> clock;
  std::optional<double> state;
  for (const Arg& a : raw.args) {
    if (a.key == name_key_ && a.value.type == ArgValue::Type::kString) {
      clock = std::string(s->Str(a.value.string_value));
    } else if (a.key == state_key_) {
      if (a.value.type == ArgValue::Type::kString) {
        const std::string text(s->Str(a.value.string_value));
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end != text.c_str()) state = v;
      } else if (a.value.type != ArgValue::Type::kNull) {
        state = static_cast<double>(a.value.int_value);
      }
    }
  }
  if (!clock || !state) return;
  const bool rate = raw.name == set_rate_;
  const uint32_t track = ctx_->tracks.InternGlobalCounterTrack(
      s->Intern(*clock + (rate ? " Frequency" : " State")),
      rate ? "clock_frequency" : "clock_state", kNullStringId,
      {ctx_->tracks.DimString("linux_device", s->Intern(*clock))});
  s->counter.Insert({.ts = ts, .track_id = track, .value = *state});
}

}  // namespace tw
