#pragma once
// Decodes track_event packets (TrackDescriptor, TrackEvent, legacy Thread/ProcessDescriptor)
// into self-contained events: interned names, categories, debug annotations, sequence
// defaults, delta-encoded timestamps and incremental counters are resolved against the packet's
// sequence here, so the trackers never see sequence state.
//
// Malformed or unresolvable events are dropped and counted in `stats` under trace_processor's
// names (track_event_invalid_timestamp, track_event_counter_invalid_track_uuid, ...).

#include <cstdint>

#include "libs/trace/events/track_descriptor_registry.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/incremental_counters.h"
#include "libs/trace/importers/proto/track_descriptor_decoder.h"

namespace tw {

class TrackEventDecoder {
 public:
  explicit TrackEventDecoder(ImportContext* ctx);
  ~TrackEventDecoder();

  // Where descriptors are recorded. The loader points this at the track-event tracker's
  // registry (TrackEventTracker::descriptor_registry()) so both sides see the same tracks;
  // until then an internal registry is used.
  void set_descriptor_registry(TrackDescriptorRegistry* registry);

  // A packet of `sequence_id` had TracePacket.first_packet_on_sequence set.
  void OnFirstPacketOnSequence(uint32_t sequence_id);

  void OnTrackDescriptor(const PacketContext& packet, const proto::Field& descriptor);
  void OnTrackEvent(const PacketContext& packet, const proto::Field& event);
  void OnThreadDescriptor(const PacketContext& packet, const proto::Field& descriptor);
  // StreamingProfilePacket: its samples are not stored (no callstack tables yet), but their
  // timestamp deltas advance the sequence's track-event time, which later deltas build on.
  void OnStreamingProfilePacket(const PacketContext& packet, const proto::Field& profile);
  void OnProcessDescriptor(const PacketContext& packet, const proto::Field& descriptor);

 private:
  // A counter sample on `uuid` made absolute: scaled by the descriptor's unit_multiplier and,
  // for incremental counters, added to the sequence's running value. nullopt when `uuid` is
  // not a known counter track.
  std::optional<double> AbsoluteCounterValue(const PacketContext& packet, uint64_t uuid,
                                             double value);

  ImportContext* ctx_;
  TrackDescriptorRegistry own_registry_;
  TrackDescriptorRegistry* registry_;
  TrackDescriptorDecoder descriptors_;
  IncrementalCounters incremental_counters_;
};

}  // namespace tw
