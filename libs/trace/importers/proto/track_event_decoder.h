#pragma once
// Decodes track_event packets (TrackDescriptor, TrackEvent, legacy Thread/ProcessDescriptor)
// into self-contained events: interned names, categories, debug annotations and flows are
// resolved against the packet's sequence here, so the trackers never see sequence state.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class TrackEventDecoder {
 public:
  explicit TrackEventDecoder(ImportContext* ctx);
  ~TrackEventDecoder();

  void OnTrackDescriptor(const PacketContext& packet, const proto::Field& descriptor);
  void OnTrackEvent(const PacketContext& packet, const proto::Field& event);
  void OnThreadDescriptor(const PacketContext& packet, const proto::Field& descriptor);
  void OnProcessDescriptor(const PacketContext& packet, const proto::Field& descriptor);

 private:
  ImportContext* ctx_;
};

}  // namespace tw
