#include "libs/trace/trackers/android_input_tracker.h"

namespace tw {

void AndroidInputTracker::OnEvent(int64_t ts, const AndroidInputEventData& event) {
  TraceStorage& s = *ctx_->storage;
  const std::optional<uint32_t> args = ctx_->args.AddArgSet(event.args);
  const OptU32 base64 =
      event.base64_proto == kNullStringId ? OptU32() : OptU32(event.base64_proto);
  switch (event.kind) {
    case AndroidInputEventData::Kind::kMotion: {
      AndroidMotionEventsTable& t = s.android_motion_events;
      t.Insert({.event_id = event.event_id,
                .ts = ts,
                .arg_set_id = args,
                .base64_proto_id = base64,
                .source = event.source,
                .action = event.action,
                .device_id = event.device_id,
                .display_id = event.display_id});
      s.ExtendBounds(ts);
      break;
    }
    case AndroidInputEventData::Kind::kKey: {
      AndroidKeyEventsTable& t = s.android_key_events;
      t.Insert({.event_id = event.event_id,
                .ts = ts,
                .arg_set_id = args,
                .base64_proto_id = base64,
                .source = event.source,
                .action = event.action,
                .device_id = event.device_id,
                .display_id = event.display_id,
                .key_code = event.key_code});
      s.ExtendBounds(ts);
      break;
    }
    case AndroidInputEventData::Kind::kWindowDispatch: {
      AndroidInputEventDispatchTable& t = s.android_input_event_dispatch;
      t.Insert({.event_id = event.event_id,
                .arg_set_id = args,
                .vsync_id = event.vsync_id,
                .window_id = event.window_id,
                .base64_proto_id = base64});
      break;
    }
  }
}

}  // namespace tw
