#pragma once
// Imports one TrackEvent (already resolved by the decoder) into rows: it works out which
// thread/process the event belongs to, picks its track (descriptor, legacy pid/tid fallback,
// legacy async id, legacy instant scope), and dispatches on the phase to slices, instants,
// counters, states, flows and metadata — trace_processor's rules, case by case.

#include <cstdint>
#include <optional>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/trackers/descriptor_tracks.h"
#include "libs/trace/trackers/track_event_tracker.h"

namespace tw {

class TrackEventImporter {
 public:
  TrackEventImporter(const TrackEventTracker::Parts& parts, int64_t ts,
                     const TrackEventData& event);

  // False when the event cannot be imported (no thread for a thread-only phase, unknown track,
  // async event without id, ...): the caller counts it in track_event_parser_errors.
  bool Import();

 private:
  bool ResolveAssociation();
  void ImportLegacyThreadCounters();
  void ImportExtraCounters();
  bool ImportCounter();
  bool ImportState();
  char PhaseOrType() const;

  // The track for the event; `use` says how a merged descriptor track is used.
  std::optional<uint32_t> Track(DescriptorTracks::Use use);

  // The event's args in trace_processor's order, plus a legacy phase arg if `phase` is set.
  // Also writes the log message row (its args need the thread).
  std::vector<Arg> BuildArgs(char phase = 0);

  bool BeginThreadSlice();
  bool EndThreadSlice();
  bool CompleteSlice();
  bool Instant(char phase);
  bool AsyncBegin(char phase);
  bool AsyncEnd();
  bool AsyncStep(char phase);
  bool AsyncInstant();
  bool FlowV1(char phase);
  bool Metadata();
  bool RawEvent();

  std::optional<uint32_t> BeginSlice(uint32_t track, std::vector<Arg> args);
  std::optional<uint32_t> EndSlice(uint32_t track);
  void Flows(uint32_t slice);
  // The event's callstack, linked to the slice it began, ended or was on `track`.
  void RecordCallstack(uint32_t slice, uint32_t track);

  const TrackEventTracker::Parts& parts_;
  TraceContext* ctx_;
  const int64_t ts_;
  const TrackEventData& event_;
  const int32_t legacy_phase_;

  std::optional<uint32_t> utid_;
  std::optional<uint32_t> upid_;
  std::optional<uint32_t> passthrough_utid_;
  std::optional<int64_t> legacy_source_id_;
  bool fallback_to_thread_ = false;
  std::optional<int64_t> thread_ts_;
  std::optional<int64_t> thread_instruction_count_;
};

}  // namespace tw
