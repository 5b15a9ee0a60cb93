#include "libs/trace/trackers/android_input_tracker.h"

namespace tw {

void AndroidInputTracker::OnEvent(int64_t ts, const AndroidInputEventData& event) {
  TraceStorage& s = *ctx_->storage;
  const std::optional<uint32_t> args = ctx_->args.AddArgSet(event.args);
  switch (event.kind) {
    case AndroidInputEventData::Kind::kMotion: {
      AndroidMotionEventsTable& t = s.android_motion_events;
      t.event_id.Append(event.event_id);
      t.ts.Append(ts);
      t.arg_set_id.Append(args);
      t.source.Append(event.source);
      t.action.Append(event.action);
      t.device_id.Append(event.device_id);
      t.display_id.Append(event.display_id);
      t.CommitRow();
      s.ExtendBounds(ts);
      break;
    }
    case AndroidInputEventData::Kind::kKey: {
      AndroidKeyEventsTable& t = s.android_key_events;
      t.event_id.Append(event.event_id);
      t.ts.Append(ts);
      t.arg_set_id.Append(args);
      t.source.Append(event.source);
      t.action.Append(event.action);
      t.device_id.Append(event.device_id);
      t.display_id.Append(event.display_id);
      t.key_code.Append(event.key_code);
      t.CommitRow();
      s.ExtendBounds(ts);
      break;
    }
    case AndroidInputEventData::Kind::kWindowDispatch: {
      AndroidInputEventDispatchTable& t = s.android_input_event_dispatch;
      t.event_id.Append(event.event_id);
      t.arg_set_id.Append(args);
      t.vsync_id.Append(event.vsync_id);
      t.window_id.Append(event.window_id);
      t.CommitRow();
      break;
    }
  }
}

}  // namespace tw
