#include "libs/trace/importers/proto/frame_timeline_decoder.h"

#include <array>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

namespace jank = pf::frame_timeline_jank;

// Enum texts, indexed by the enum value (trace_processor's wording).
constexpr std::array<std::string_view, 6> kPresentTypes = {
    "Unspecified Present", "On-time Present", "Late Present",
    "Early Present",       "Dropped Frame",   "Unknown Present"};
constexpr std::array<std::string_view, 4> kPredictionTypes = {
    "Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction"};
constexpr std::array<std::string_view, 4> kSeverityTypes = {"Unknown", "None", "Partial", "Full"};
constexpr std::array<std::string_view, 4> kFenceStates = {
    "Unknown", "Latched Signaled", "Latched Unsignaled", "Delayed Latch Fence Unsignaled"};
constexpr int32_t kPresentDropped = 4;

// Jank caused by SurfaceFlinger / the display (blames the display frame).
bool DisplayFrameJanky(int32_t t) {
  if (t == jank::kUnspecified || t == jank::kNone || t == jank::kNonAnimating ||
      t == jank::kDisplayNotOn) {
    return false;
  }
  constexpr int32_t kDisplayBits = jank::kSfScheduling | jank::kPredictionError |
                                   jank::kDisplayHal | jank::kSfCpuDeadlineMissed |
                                   jank::kSfGpuDeadlineMissed;
  return (t & kDisplayBits) != 0;
}

// Jank caused by the app itself (blames the surface frame).
bool SurfaceFrameJanky(int32_t t) {
  if (t == jank::kUnspecified || t == jank::kNone || t == jank::kNonAnimating ||
      t == jank::kDisplayNotOn) {
    return false;
  }
  constexpr int32_t kAppBits = jank::kAppDeadlineMissed | jank::kAppResyncedJitter | jank::kUnknown;
  return (t & kAppBits) != 0;
}

bool NotPerceivable(int32_t t) {
  return t == jank::kNonAnimating || t == jank::kDisplayNotOn ||
         t == jank::kDisplayPowerModeChangeInProgress;
}

std::string_view DisplayJankTag(int32_t t) {
  if (t == jank::kUnspecified) return "Unspecified";
  if (DisplayFrameJanky(t)) return "Self Jank";
  if (t == jank::kSfStuffing) return "SurfaceFlinger Stuffing";
  if (t == jank::kDropped) return "Dropped Frame";
  if (NotPerceivable(t)) return "Non-perceivable Jank";
  return "No Jank";
}

std::string_view SurfaceJankTag(int32_t t, std::optional<int32_t> present_type) {
  if (t == jank::kUnspecified) return "Unspecified";
  if (SurfaceFrameJanky(t)) return "Self Jank";
  if (DisplayFrameJanky(t)) return "Other Jank";
  if (t == jank::kBufferStuffing) return "Buffer Stuffing";
  if (t == jank::kSfStuffing) return "SurfaceFlinger Stuffing";
  if (present_type == kPresentDropped) return "Dropped Frame";
  if (NotPerceivable(t)) return "Non-perceivable Jank";
  return "No Jank";
}

// Very large magnitudes are producer bugs (trace_processor drops them too).
bool IsBadTimestamp(int64_t ts) {
  constexpr int64_t kBad = std::numeric_limits<int64_t>::max() - 10LL * 1000 * 1000 * 1000;
  return ts < 0 || ts >= kBad;
}

// The fields of one start message, by field number (each message has fewer than 21 fields).
struct Fields {
  std::array<std::optional<proto::Field>, 21> at;
  explicit Fields(const proto::Field& message) {
    proto::Decoder d(message);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id < at.size()) at[f.id] = f;
    }
  }
  bool has(uint32_t id) const { return at[id].has_value(); }
  int64_t i64(uint32_t id) const { return at[id] ? at[id]->as_int64() : 0; }
  int32_t i32(uint32_t id) const { return at[id] ? at[id]->as_int32() : 0; }
  double f32(uint32_t id) const { return at[id] ? static_cast<double>(at[id]->as_float()) : 0.0; }
  std::string_view str(uint32_t id) const { return at[id] ? at[id]->as_string() : ""; }
};

}  // namespace

std::string FrameTimelineJankTypeText(int32_t t) {
  if (t == jank::kUnspecified) return "Unspecified";
  if (t == jank::kNone) return "None";
  // Bits in trace_processor's order (not numeric: resynced jitter comes before stuffing).
  static constexpr std::pair<int32_t, std::string_view> kReasons[] = {
      {jank::kSfScheduling, "SurfaceFlinger Scheduling"},
      {jank::kPredictionError, "Prediction Error"},
      {jank::kDisplayHal, "Display HAL"},
      {jank::kSfCpuDeadlineMissed, "SurfaceFlinger CPU Deadline Missed"},
      {jank::kSfGpuDeadlineMissed, "SurfaceFlinger GPU Deadline Missed"},
      {jank::kAppDeadlineMissed, "App Deadline Missed"},
      {jank::kAppResyncedJitter, "App Resynced Jitter"},
      {jank::kBufferStuffing, "Buffer Stuffing"},
      {jank::kUnknown, "Unknown Jank"},
      {jank::kSfStuffing, "SurfaceFlinger Stuffing"},
      {jank::kDropped, "Dropped Frame"},
      {jank::kNonAnimating, "Non Animating"},
      {jank::kDisplayNotOn, "Display not ON"},
      {jank::kDisplayModeChangeInProgress, "ModeChange in progress"},
      {jank::kDisplayPowerModeChangeInProgress, "PowerModeChange in progress"},
  };
  std::string out;
  for (const auto& [bit, text] : kReasons) {
    if ((t & bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += text;
  }
  return out;
}

void FrameTimelineDecoder::ParseError() {
  ctx_->storage->IncrementStat("frame_timeline_event_parser_errors");
}

void FrameTimelineDecoder::AddArg(FrameTimelineData* out, std::string_view key, ArgValue value) {
  const StringId k = ctx_->Intern(key);
  out->args.push_back(Arg{k, k, value});
}

void FrameTimelineDecoder::Decode(const PacketContext& packet, const proto::Field& field) {
  namespace fte = pf::frame_timeline_event;
  if (IsBadTimestamp(packet.ts)) {
    ParseError();
    return;
  }
  proto::Decoder d(field);
  proto::Field f;
  std::optional<proto::Field> event;
  while (d.Next(&f)) {
    if (f.id >= fte::kExpectedDisplayFrameStart && f.id <= fte::kFrameEnd &&
        f.type == proto::kLengthDelimited) {
      event = f;
    }
  }
  if (!event || d.error()) {
    ParseError();
    return;
  }
  FrameTimelineData data;
  bool ok = false;
  switch (event->id) {
    case fte::kExpectedDisplayFrameStart: ok = DecodeDisplayFrame(*event, false, &data); break;
    case fte::kActualDisplayFrameStart: ok = DecodeDisplayFrame(*event, true, &data); break;
    case fte::kExpectedSurfaceFrameStart: ok = DecodeSurfaceFrame(*event, false, &data); break;
    case fte::kActualSurfaceFrameStart: ok = DecodeSurfaceFrame(*event, true, &data); break;
    case fte::kFrameEnd: {
      const Fields end(*event);
      ok = end.has(pf::frame_timeline_frame_end::kCookie);
      data.kind = FrameTimelineData::Kind::kFrameEnd;
      data.cookie = end.i64(pf::frame_timeline_frame_end::kCookie);
      break;
    }
    default: break;
  }
  if (!ok) {
    ParseError();
    return;
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kFrameTimeline, std::move(data)));
}

bool FrameTimelineDecoder::DecodeDisplayFrame(const proto::Field& field, bool actual,
                                              FrameTimelineData* out) {
  namespace ad = pf::frame_timeline_actual_display;
  static_assert(ad::kCookie == pf::frame_timeline_expected_display::kCookie &&
                ad::kToken == pf::frame_timeline_expected_display::kToken &&
                ad::kPid == pf::frame_timeline_expected_display::kPid);
  const Fields m(field);
  if (!m.has(ad::kCookie) || !m.has(ad::kToken) || !m.has(ad::kPid)) return false;
  out->kind = actual ? FrameTimelineData::Kind::kActualDisplayFrame
                     : FrameTimelineData::Kind::kExpectedDisplayFrame;
  out->cookie = m.i64(ad::kCookie);
  out->token = m.i64(ad::kToken);
  out->pid = m.i32(ad::kPid);
  out->name = ctx_->Intern(std::to_string(out->token));
  AddArg(out, "Display frame token", ArgValue::Int(out->token));
  if (!actual) return true;

  auto present = [&](uint32_t id) {
    if (!m.has(id)) return kPresentTypes[0];
    const int32_t v = m.i32(id);
    if (v < 1 || v > 5) {
      ParseError();
      return kPresentTypes[0];
    }
    return kPresentTypes[static_cast<size_t>(v)];
  };
  const int32_t jank_type = m.i32(ad::kJankType);
  const int32_t jank_type_exp = m.i32(ad::kJankTypeExperimental);
  AddArg(out, "Present Delay (ms)", ArgValue::Real(m.f32(ad::kPresentDelayMillis)));
  AddArg(out, "Present type", ArgValue::String(ctx_->Intern(present(ad::kPresentType))));
  AddArg(out, "Present type (experimental)",
         ArgValue::String(ctx_->Intern(present(ad::kPresentTypeExperimental))));
  AddArg(out, "On time finish", ArgValue::Int(m.i64(ad::kOnTimeFinish) != 0));
  AddArg(out, "GPU composition", ArgValue::Int(m.i64(ad::kGpuComposition) != 0));
  AddArg(out, "Jank type", ArgValue::String(ctx_->Intern(FrameTimelineJankTypeText(jank_type))));
  AddArg(out, "Jank type (experimental)",
         ArgValue::String(ctx_->Intern(FrameTimelineJankTypeText(jank_type_exp))));
  std::string_view severity;
  if (m.has(ad::kJankSeverityType)) {
    const int32_t v = m.i32(ad::kJankSeverityType);
    severity = (v >= 0 && v < 4) ? kSeverityTypes[static_cast<size_t>(v)] : kSeverityTypes[0];
  } else {
    // Older traces have no severity: "None" for no jank, else "Unknown".
    severity = jank_type == jank::kNone ? kSeverityTypes[1] : kSeverityTypes[0];
  }
  AddArg(out, "Jank severity type", ArgValue::String(ctx_->Intern(severity)));
  AddArg(out, "Jank Severity Score", ArgValue::Real(m.f32(ad::kJankSeverityScore)));
  std::string_view prediction = kPredictionTypes[0];
  if (m.has(ad::kPredictionType)) {
    const int32_t v = m.i32(ad::kPredictionType);
    if (v >= 1 && v <= 3) {
      prediction = kPredictionTypes[static_cast<size_t>(v)];
    } else {
      ParseError();
    }
  }
  AddArg(out, "Prediction type", ArgValue::String(ctx_->Intern(prediction)));
  AddArg(out, "Jank tag", ArgValue::String(ctx_->Intern(DisplayJankTag(jank_type))));
  AddArg(out, "Jank tag (experimental)",
         ArgValue::String(ctx_->Intern(DisplayJankTag(jank_type_exp))));
  AddArg(out, "Jank Metadata (debugging only)", ArgValue::Real(m.f32(ad::kJankDebugMetadata)));
  if (m.has(ad::kLatchedUnsignaledCount)) {
    AddArg(out, "Latched unsignaled count", ArgValue::Int(m.i64(ad::kLatchedUnsignaledCount)));
  }
  if (m.has(ad::kAddressableUnsignaledLatchCount)) {
    AddArg(out, "Addressable unsignaled latch count",
           ArgValue::Int(m.i64(ad::kAddressableUnsignaledLatchCount)));
  }
  return true;
}

bool FrameTimelineDecoder::DecodeSurfaceFrame(const proto::Field& field, bool actual,
                                              FrameTimelineData* out) {
  namespace as = pf::frame_timeline_actual_surface;
  namespace es = pf::frame_timeline_expected_surface;
  static_assert(as::kCookie == es::kCookie && as::kToken == es::kToken &&
                as::kDisplayFrameToken == es::kDisplayFrameToken && as::kPid == es::kPid &&
                as::kLayerName == es::kLayerName);
  const Fields m(field);
  if (!m.has(as::kCookie) || !m.has(as::kToken) || !m.has(as::kDisplayFrameToken) ||
      !m.has(as::kPid)) {
    return false;
  }
  out->kind = actual ? FrameTimelineData::Kind::kActualSurfaceFrame
                     : FrameTimelineData::Kind::kExpectedSurfaceFrame;
  out->cookie = m.i64(as::kCookie);
  out->token = m.i64(as::kToken);
  out->display_frame_token = m.i64(as::kDisplayFrameToken);
  out->pid = m.i32(as::kPid);
  out->name = ctx_->Intern(std::to_string(out->token));
  const StringId layer = m.has(as::kLayerName) ? ctx_->Intern(m.str(as::kLayerName)) : kNullStringId;
  AddArg(out, "Surface frame token", ArgValue::Int(out->token));
  AddArg(out, "Display frame token", ArgValue::Int(out->display_frame_token));
  if (!actual) {
    AddArg(out, "Layer name", ArgValue::String(layer));
    return true;
  }

  auto present = [&](uint32_t id, std::optional<int32_t>* valid) {
    if (!m.has(id)) return kPresentTypes[0];
    const int32_t v = m.i32(id);
    if (v < 1 || v > 5) {
      ParseError();
      return kPresentTypes[0];
    }
    *valid = v;
    return kPresentTypes[static_cast<size_t>(v)];
  };
  std::optional<int32_t> present_value, present_exp_value;
  const std::string_view present_type = present(as::kPresentType, &present_value);
  const std::string_view present_type_exp =
      present(as::kPresentTypeExperimental, &present_exp_value);
  const int32_t jank_type = m.i32(as::kJankType);
  const int32_t jank_type_exp = m.i32(as::kJankTypeExperimental);

  if (m.has(as::kAnimationTimeMillis)) {
    AddArg(out, "Animation Time (ms)", ArgValue::Real(m.f32(as::kAnimationTimeMillis)));
  }
  AddArg(out, "Present Delay (ms)", ArgValue::Real(m.f32(as::kPresentDelayMillis)));
  AddArg(out, "Vsync Resynced Jitter (ms)", ArgValue::Real(m.f32(as::kVsyncResyncedJitterMillis)));
  AddArg(out, "Layer name", ArgValue::String(layer));
  AddArg(out, "Present type", ArgValue::String(ctx_->Intern(present_type)));
  AddArg(out, "Present type (experimental)", ArgValue::String(ctx_->Intern(present_type_exp)));
  AddArg(out, "On time finish", ArgValue::Int(m.i64(as::kOnTimeFinish) != 0));
  AddArg(out, "GPU composition", ArgValue::Int(m.i64(as::kGpuComposition) != 0));
  AddArg(out, "Jank type", ArgValue::String(ctx_->Intern(FrameTimelineJankTypeText(jank_type))));
  AddArg(out, "Jank type (experimental)",
         ArgValue::String(ctx_->Intern(FrameTimelineJankTypeText(jank_type_exp))));
  std::string_view severity;
  if (m.has(as::kJankSeverityType)) {
    const int32_t v = m.i32(as::kJankSeverityType);
    severity = (v >= 0 && v < 4) ? kSeverityTypes[static_cast<size_t>(v)] : kSeverityTypes[0];
  } else {
    severity = jank_type == jank::kNone ? kSeverityTypes[1] : kSeverityTypes[0];
  }
  AddArg(out, "Jank severity type", ArgValue::String(ctx_->Intern(severity)));
  AddArg(out, "Jank Severity Score", ArgValue::Real(m.f32(as::kJankSeverityScore)));
  std::string_view prediction = kPredictionTypes[0];
  if (m.has(as::kPredictionType)) {
    const int32_t v = m.i32(as::kPredictionType);
    if (v >= 1 && v <= 3) {
      prediction = kPredictionTypes[static_cast<size_t>(v)];
    } else {
      ParseError();
    }
  }
  AddArg(out, "Prediction type", ArgValue::String(ctx_->Intern(prediction)));
  AddArg(out, "Jank tag", ArgValue::String(ctx_->Intern(SurfaceJankTag(jank_type, present_value))));
  AddArg(out, "Jank tag (experimental)",
         ArgValue::String(ctx_->Intern(SurfaceJankTag(jank_type_exp, present_exp_value))));
  std::string_view is_buffer = "Unspecified";
  if (m.has(as::kIsBuffer)) is_buffer = m.i64(as::kIsBuffer) != 0 ? "Yes" : "No";
  AddArg(out, "Is Buffer?", ArgValue::String(ctx_->Intern(is_buffer)));
  AddArg(out, "Jank Metadata (debugging only)", ArgValue::Real(m.f32(as::kJankDebugMetadata)));
  if (m.has(as::kLatchedFenceState)) {
    const int32_t v = m.i32(as::kLatchedFenceState);
    const std::string_view state =
        (v >= 0 && v < 4) ? kFenceStates[static_cast<size_t>(v)] : kFenceStates[0];
    AddArg(out, "Latched fence state", ArgValue::String(ctx_->Intern(state)));
  }
  return true;
}

}  // namespace tw
