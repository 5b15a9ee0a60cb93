#pragma once
// Turns TrackDescriptor uuids into threads, processes and track rows, with trace_processor's
// semantics:
//  - a descriptor with a thread (process) is that thread's (process's) root track; a second
//    uuid for the same pid/tid means the id was reused, so a new thread (process) starts;
//  - a descriptor without one inherits its parent's thread/process, or is global;
//  - a root thread descriptor shares the thread's ordinary slice track (the one atrace uses)
//    unless it asks for a separate one;
//  - child tracks merge with same-named siblings (SiblingMergeBehavior) into a set of
//    interchangeable tracks, one per concurrently open uuid; unnamed tracks take the name of
//    the first event on them;
//  - tracks are created lazily, when an event (or a child) first needs them.

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/events/track_descriptor_registry.h"
#include "libs/trace/trackers/async_track_sets.h"

namespace tw {

struct TraceContext;

class DescriptorTracks {
 public:
  struct Resolved {
    enum class Scope : uint8_t { kThread, kProcess, kGlobal };
    Scope scope = Scope::kGlobal;
    uint32_t utid = 0;  // kThread
    uint32_t upid = 0;  // kProcess
    bool is_counter = false;
    bool is_state = false;
    // The thread's/process's own descriptor (as opposed to a track under it).
    bool is_root = false;
  };
  // What the track is wanted for: slices in a merged set need to know when they open/close.
  enum class Use : uint8_t { kBegin, kEnd, kInstant, kCounter, kState, kLegacy };

  // `sets` is shared with other users of async track sets so track_group_id values are unique.
  DescriptorTracks(TraceContext* ctx, TrackDescriptorRegistry* registry, AsyncTrackSets* sets);

  // The thread/process `uuid` belongs to (starting them on first use). nullopt when its
  // hierarchy is broken (loop, missing parent, too deep: counted in stats).
  std::optional<Resolved> Resolve(uint64_t uuid);

  // The track for an event on `uuid`. `event_name` names a track whose descriptor has no name;
  // `sequence_id` is the sequence the event came from (nullopt for the default track).
  std::optional<uint32_t> Intern(uint64_t uuid, Use use, StringId event_name,
                                 std::optional<uint32_t> sequence_id);

  // A descriptor for `uuid` was seen again: a track that never merges takes its latest name.
  void RefreshName(uint64_t uuid);

  // Sort-index hints from descriptors (only when the root descriptor asks for explicit
  // process/thread ordering): upid/utid → sibling_order_rank.
  const absl::flat_hash_map<uint32_t, int64_t>& process_sort_hints() const {
    return process_sort_hints_;
  }
  const absl::flat_hash_map<uint32_t, int64_t>& thread_sort_hints() const {
    return thread_sort_hints_;
  }

 private:
  struct State {
    std::optional<Resolved> resolved;
    bool interned = false;
    std::optional<uint32_t> track;  // a track of its own, or
    std::optional<uint32_t> set;    // a set of tracks shared with merged siblings
    AsyncTrackSets::Factory factory;
  };

  std::optional<Resolved> ResolveImpl(uint64_t uuid);
  bool HierarchyValid(uint64_t uuid);
  State* EnsureInterned(uint64_t uuid, StringId event_name, std::optional<uint32_t> sequence_id);
  bool InternImpl(uint64_t uuid, StringId event_name, std::optional<uint32_t> sequence_id,
                  State* state);
  std::optional<uint32_t> InternForParent(uint64_t uuid, std::optional<uint32_t> sequence_id);
  std::vector<Arg> SourceArgs(uint64_t uuid, std::optional<uint32_t> sequence_id,
                              bool is_root_in_scope);
  // A process-associated track's name as the trace's process track name translation gives it.
  StringId ProcessTrackName(StringId raw) const;

  TraceContext* ctx_;
  TrackDescriptorRegistry* registry_;
  // Node-based: resolution recurses into parents while holding a State*.
  std::unordered_map<uint64_t, State> states_;
  absl::flat_hash_map<uint32_t, uint64_t> uuid_by_utid_;
  absl::flat_hash_map<uint32_t, uint64_t> uuid_by_upid_;
  absl::flat_hash_map<uint32_t, int64_t> process_sort_hints_;
  absl::flat_hash_map<uint32_t, int64_t> thread_sort_hints_;
  AsyncTrackSets* sets_;
};

}  // namespace tw
