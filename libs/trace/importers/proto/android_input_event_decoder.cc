#include "libs/trace/importers/proto/android_input_event_decoder.h"

#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_to_args.h"

namespace tw {
namespace {

using Kind = ArgsSchemaField::Kind;

// The schemas of android_input_event.proto's messages, for their args.
constexpr ArgsSchemaField kAxisValueFields[] = {
    {pf::android_motion_event_axis_value::kAxis, "axis", Kind::kInt},
    {pf::android_motion_event_axis_value::kValue, "value", Kind::kFloat},
};
constexpr ArgsSchemaMessage kAxisValue = {kAxisValueFields, std::size(kAxisValueFields)};

constexpr ArgsSchemaField kPointerFields[] = {
    {pf::android_motion_event_pointer::kAxisValue, "axis_value", Kind::kMessage, true,
     &kAxisValue},
    {pf::android_motion_event_pointer::kPointerId, "pointer_id", Kind::kInt},
    {pf::android_motion_event_pointer::kToolType, "tool_type", Kind::kInt},
};
constexpr ArgsSchemaMessage kPointer = {kPointerFields, std::size(kPointerFields)};

namespace me = pf::android_motion_event;
constexpr ArgsSchemaField kMotionFields[] = {
    {me::kEventId, "event_id", Kind::kFixed32},
    {me::kEventTimeNanos, "event_time_nanos", Kind::kInt},
    {me::kSource, "source", Kind::kUint},
    {me::kAction, "action", Kind::kInt},
    {me::kDeviceId, "device_id", Kind::kInt},
    {me::kDisplayId, "display_id", Kind::kSint},
    {me::kClassification, "classification", Kind::kInt},
    {me::kFlags, "flags", Kind::kUint},
    {me::kPointer, "pointer", Kind::kMessage, true, &kPointer},
    {me::kDownTimeNanos, "down_time_nanos", Kind::kInt},
    {me::kCursorPositionX, "cursor_position_x", Kind::kFloat},
    {me::kCursorPositionY, "cursor_position_y", Kind::kFloat},
    {me::kActionButton, "action_button", Kind::kInt},
    {me::kButtonState, "button_state", Kind::kUint},
    {me::kMetaState, "meta_state", Kind::kUint},
    {me::kPolicyFlags, "policy_flags", Kind::kUint},
    {me::kPrecisionX, "precision_x", Kind::kFloat},
    {me::kPrecisionY, "precision_y", Kind::kFloat},
};
constexpr ArgsSchemaMessage kMotion = {kMotionFields, std::size(kMotionFields)};

namespace ke = pf::android_key_event;
constexpr ArgsSchemaField kKeyFields[] = {
    {ke::kEventId, "event_id", Kind::kFixed32},
    {ke::kEventTimeNanos, "event_time_nanos", Kind::kInt},
    {ke::kDownTimeNanos, "down_time_nanos", Kind::kInt},
    {ke::kSource, "source", Kind::kUint},
    {ke::kAction, "action", Kind::kInt},
    {ke::kDeviceId, "device_id", Kind::kInt},
    {ke::kDisplayId, "display_id", Kind::kSint},
    {ke::kKeyCode, "key_code", Kind::kInt},
    {ke::kScanCode, "scan_code", Kind::kUint},
    {ke::kMetaState, "meta_state", Kind::kUint},
    {ke::kRepeatCount, "repeat_count", Kind::kInt},
    {ke::kFlags, "flags", Kind::kUint},
    {ke::kPolicyFlags, "policy_flags", Kind::kUint},
};
constexpr ArgsSchemaMessage kKey = {kKeyFields, std::size(kKeyFields)};

namespace dp = pf::android_window_input_dispatch_event_pointer;
constexpr ArgsSchemaField kDispatchedPointerFields[] = {
    {dp::kPointerId, "pointer_id", Kind::kInt},
    {dp::kXInDisplay, "x_in_display", Kind::kFloat},
    {dp::kYInDisplay, "y_in_display", Kind::kFloat},
    {dp::kAxisValueInWindow, "axis_value_in_window", Kind::kMessage, true, &kAxisValue},
};
constexpr ArgsSchemaMessage kDispatchedPointer = {kDispatchedPointerFields,
                                                  std::size(kDispatchedPointerFields)};

namespace wd = pf::android_window_input_dispatch_event;
constexpr ArgsSchemaField kDispatchFields[] = {
    {wd::kEventId, "event_id", Kind::kFixed32},
    {wd::kVsyncId, "vsync_id", Kind::kInt},
    {wd::kWindowId, "window_id", Kind::kInt},
    {wd::kDispatchedPointer, "dispatched_pointer", Kind::kMessage, true, &kDispatchedPointer},
    {wd::kResolvedFlags, "resolved_flags", Kind::kUint},
};
constexpr ArgsSchemaMessage kDispatch = {kDispatchFields, std::size(kDispatchFields)};

}  // namespace

void AndroidInputEventDecoder::DecodeInputEvent(const PacketContext& packet,
                                                const proto::Field& field) {
  namespace ie = pf::android_input_event;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    AndroidInputEventData data;
    bool ok = false;
    switch (f.id) {
      case ie::kDispatcherMotionEvent:
      case ie::kDispatcherMotionEventRedacted:
        data.kind = AndroidInputEventData::Kind::kMotion;
        ok = DecodeMotion(f, &data);
        break;
      case ie::kDispatcherKeyEvent:
      case ie::kDispatcherKeyEventRedacted:
        data.kind = AndroidInputEventData::Kind::kKey;
        ok = DecodeKey(f, &data);
        break;
      case ie::kDispatcherWindowDispatchEvent:
      case ie::kDispatcherWindowDispatchEventRedacted:
        data.kind = AndroidInputEventData::Kind::kWindowDispatch;
        ok = DecodeDispatch(f, &data);
        break;
      default:
        continue;
    }
    if (!ok) {
      ctx_->storage->IncrementStat("proto_decode_errors");
      continue;
    }
    // The raw proto is kept (base64) for tools that re-read it, as trace_processor keeps it.
    data.base64_proto = ctx_->Intern(Base64Encode(f.as_string()));
    if (data.kind != AndroidInputEventData::Kind::kWindowDispatch) {
      AddBootTimeArgs(f, &data);
    }
    ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
               Event::WithPayload(packet.ts, EventType::kAndroidInputEvent, std::move(data)));
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
}

void AndroidInputEventDecoder::AddBootTimeArgs(const proto::Field& event,
                                               AndroidInputEventData* out) {
  const bool motion = out->kind == AndroidInputEventData::Kind::kMotion;
  const uint32_t event_time_field = motion ? me::kEventTimeNanos : ke::kEventTimeNanos;
  const uint32_t down_time_field = motion ? me::kDownTimeNanos : ke::kDownTimeNanos;
  std::optional<int64_t> event_time, down_time;
  proto::Decoder d(event);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == event_time_field) event_time = f.as_int64();
    if (f.id == down_time_field) down_time = f.as_int64();
  }
  // InputDispatcher stamps events with CLOCK_MONOTONIC; these args give them on the trace's
  // clock (when the trace relates the two clocks).
  auto add = [&](std::string_view key, std::optional<int64_t> monotonic) {
    if (!monotonic) return;
    const std::optional<int64_t> t =
        ctx_->clocks.ToTraceTime({pf::builtin_clock::kMonotonic, 0}, *monotonic);
    if (!t) return;
    const StringId k = ctx_->Intern(key);
    out->args.push_back(Arg{k, k, ArgValue::Int(*t)});
  };
  add("kernel_time", event_time);
  add("down_time", down_time);
}

bool AndroidInputEventDecoder::DecodeMotion(const proto::Field& field,
                                            AndroidInputEventData* out) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case me::kEventId: out->event_id = f.as_uint32(); break;
      case me::kSource: out->source = f.as_uint32(); break;
      case me::kAction: out->action = f.as_int32(); break;
      case me::kDeviceId: out->device_id = f.as_int32(); break;
      case me::kDisplayId: out->display_id = f.as_sint32(); break;
      default: break;
    }
  }
  return !d.error() && ProtoToArgs(kMotion, field, "", ctx_->storage, &out->args);
}

bool AndroidInputEventDecoder::DecodeKey(const proto::Field& field, AndroidInputEventData* out) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case ke::kEventId: out->event_id = f.as_uint32(); break;
      case ke::kSource: out->source = f.as_uint32(); break;
      case ke::kAction: out->action = f.as_int32(); break;
      case ke::kDeviceId: out->device_id = f.as_int32(); break;
      case ke::kDisplayId: out->display_id = f.as_sint32(); break;
      case ke::kKeyCode: out->key_code = f.as_int32(); break;
      default: break;
    }
  }
  return !d.error() && ProtoToArgs(kKey, field, "", ctx_->storage, &out->args);
}

bool AndroidInputEventDecoder::DecodeDispatch(const proto::Field& field,
                                              AndroidInputEventData* out) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case wd::kEventId: out->event_id = f.as_uint32(); break;
      case wd::kVsyncId: out->vsync_id = f.as_int64(); break;
      case wd::kWindowId: out->window_id = f.as_int32(); break;
      default: break;
    }
  }
  return !d.error() && ProtoToArgs(kDispatch, field, "", ctx_->storage, &out->args);
}

}  // namespace tw
