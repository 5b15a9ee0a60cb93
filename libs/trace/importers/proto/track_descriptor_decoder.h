#pragma once
// Decodes the descriptor packets of the track_event family: TrackDescriptor, and the legacy
// ThreadDescriptor / ProcessDescriptor packets.
//
// A descriptor has two effects, at two times (as in trace_processor):
//  - immediately, while decoding (before sorting): the track's reservation goes into the
//    TrackDescriptorRegistry, and a thread descriptor becomes the sequence's default thread and
//    the reference for delta-encoded timestamps;
//  - at the packet's timestamp, through the sorter: a TrackEventData of a descriptor kind, so
//    the tracker resolves the track and names its thread/process in time order.

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/track_descriptor_registry.h"
#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class TrackDescriptorDecoder {
 public:
  explicit TrackDescriptorDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void set_registry(TrackDescriptorRegistry* registry) { registry_ = registry; }

  void OnTrackDescriptor(const PacketContext& packet, const proto::Field& descriptor);
  void OnThreadDescriptor(const PacketContext& packet, const proto::Field& descriptor);
  void OnProcessDescriptor(const PacketContext& packet, const proto::Field& descriptor);

  // Whether the thread last described on `sequence_id` has a sandboxed (per-process) tid, so
  // events must use a synthetic tid for it (see SyntheticTid).
  bool IsSandboxed(uint32_t sequence_id) const {
    auto it = sandboxed_sequences_.find(sequence_id);
    return it != sandboxed_sequences_.end() && it->second;
  }

 private:
  void Push(const PacketContext& packet, TrackEventData data);

  ImportContext* ctx_;
  TrackDescriptorRegistry* registry_ = nullptr;
  absl::flat_hash_map<uint32_t, bool> sandboxed_sequences_;
};

}  // namespace tw
