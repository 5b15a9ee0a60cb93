#pragma once
// Turns resolved TrackEvents into slices, instants, counters, states and flows on the tracks
// their descriptors define (thread, process, async, counter tracks, nested in a hierarchy),
// following trace_processor's import semantics so Perfetto queries give the same answers.
//
// Descriptor facts come from the TrackDescriptorRegistry this tracker owns; the proto importer
// records descriptors into it (the loader hands it over, see descriptor_registry()).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/events/track_descriptor_registry.h"

namespace tw {

struct TraceContext;
class AsyncTrackSets;
class DescriptorTracks;
class FlowTracker;
class LegacyEventTracks;
class StateTracker;

class TrackEventTracker {
 public:
  explicit TrackEventTracker(TraceContext* ctx);
  ~TrackEventTracker();

  // The registry the importer must write descriptors into (before events are sorted).
  TrackDescriptorRegistry& descriptor_registry() { return registry_; }

  void OnTrackEvent(int64_t ts, TrackEventData& event);
  // Drop track events before the trace's range of interest (metadata
  // range_of_interest_start_us, from a TrackEventRangeOfInterest packet), counting them in
  // track_event_dropped_packets_outside_of_range_of_interest.
  void set_crop_to_range_of_interest(bool crop) { crop_to_range_of_interest_ = crop; }
  // A counter sample for the counter track described by `track_uuid` (from other importers).
  void OnTrackCounter(int64_t ts, uint64_t track_uuid, double value);
  // End of trace: writes anything accumulated (args of slices still open, sort-index hints,
  // process/thread args from descriptors).
  void Finish();

  // State shared with the per-event importer (track_event_importer.h).
  struct Parts {
    TraceContext* ctx;
    DescriptorTracks* descriptors;
    LegacyEventTracks* legacy_tracks;
    FlowTracker* flows;
    StateTracker* states;
    // Args of slices opened by track events, written when the slice ends (end events add to
    // them) or at Finish.
    absl::flat_hash_map<uint32_t, std::vector<Arg>>* open_slice_args;
  };

 private:
  void OnTrackDescriptor(const TrackEventData& d);
  // Whether an event at `ts` is before the range of interest and cropping is on.
  bool OutsideRangeOfInterest(int64_t ts);
  void OnThreadDescriptor(const TrackEventData& d);
  void OnProcessDescriptor(const TrackEventData& d);
  // Binds the thread to its process and names it (descriptor names win over ftrace's).
  uint32_t UpdateThreadFromDescriptor(const TrackEventData::ThreadInfo& thread);
  // Names the process (without overriding system names) and records its labels.
  void ApplyProcessDescriptor(const TrackEventData::ProcessInfo& process);
  void AddProcessArg(uint32_t upid, const Arg& arg);
  void AddThreadArg(uint32_t utid, const Arg& arg);

  TraceContext* ctx_;
  TrackDescriptorRegistry registry_;
  std::unique_ptr<AsyncTrackSets> sets_;
  std::unique_ptr<DescriptorTracks> descriptors_;
  std::unique_ptr<LegacyEventTracks> legacy_tracks_;
  std::unique_ptr<FlowTracker> flows_;
  std::unique_ptr<StateTracker> states_;
  absl::flat_hash_map<uint32_t, std::vector<Arg>> open_slice_args_;
  absl::flat_hash_map<uint32_t, std::vector<Arg>> process_args_;
  absl::flat_hash_map<uint32_t, std::vector<Arg>> thread_args_;
  bool crop_to_range_of_interest_ = false;
  // The range's start in ns, read once from the metadata the importer wrote (the whole trace
  // is read before events are routed); nullopt inside: no range.
  std::optional<std::optional<int64_t>> range_of_interest_start_ns_;
};

}  // namespace tw
