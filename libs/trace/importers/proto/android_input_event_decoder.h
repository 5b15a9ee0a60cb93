#pragma once
// Decodes AndroidInputEvent packets (android.input.inputevent data source, carried in
// TracePacket field 112 winscope_extensions, extension 5): motion and key events as
// InputDispatcher processed them and their dispatch to windows. Each becomes an
// AndroidInputEventData event with the message flattened into args, as trace_processor stores
// them for android_motion_events / android_key_events / android_input_event_dispatch.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class AndroidInputEventDecoder {
 public:
  explicit AndroidInputEventDecoder(ImportContext* ctx) : ctx_(ctx) {}

  // `field` is the WinscopeExtensions message; other extensions in it are ignored.
  // One AndroidInputEvent (the android_input_event extension of WinscopeExtensions).
  void DecodeInputEvent(const PacketContext& packet, const proto::Field& field);

 private:
  bool DecodeMotion(const proto::Field& field, AndroidInputEventData* out);
  bool DecodeKey(const proto::Field& field, AndroidInputEventData* out);
  bool DecodeDispatch(const proto::Field& field, AndroidInputEventData* out);
  // kernel_time / down_time: a motion or key event's monotonic times on the trace clock.
  void AddBootTimeArgs(const proto::Field& event, AndroidInputEventData* out);

  ImportContext* ctx_;
};

}  // namespace tw
