#pragma once
// Decodes FrameTimelineEvent packets (TracePacket field 76, written by SurfaceFlinger): the
// expected and actual timelines of display frames (SurfaceFlinger's) and surface frames (an
// app layer's). Each start becomes a FrameTimelineData event carrying trace_processor's slice
// args ("Present type", "Jank type", "Jank tag", ...), each FrameEnd an event with its cookie.
// Jank strings and tags depend only on the event itself, so they are computed here.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class FrameTimelineDecoder {
 public:
  explicit FrameTimelineDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void Decode(const PacketContext& packet, const proto::Field& field);

 private:
  bool DecodeDisplayFrame(const proto::Field& field, bool actual, FrameTimelineData* out);
  bool DecodeSurfaceFrame(const proto::Field& field, bool actual, FrameTimelineData* out);
  void AddArg(FrameTimelineData* out, std::string_view key, ArgValue value);
  void ParseError();

  ImportContext* ctx_;
};

// FrameTimelineEvent.JankType bitmask → trace_processor's text ("None", "App Deadline Missed,
// Buffer Stuffing", ...). Exposed for tests and the jank_type stdlib helpers.
std::string FrameTimelineJankTypeText(int32_t jank_type);

}  // namespace tw
