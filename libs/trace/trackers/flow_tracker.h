#pragma once
// Builds the `flow` table: arrows between slices that belong to one causal chain (a task posted
// on one thread and run on another, an IPC and its reply). A flow id stays "open" on the last
// slice it touched; the next slice with that id gets an arrow from it. Arrows always point
// forward in time: if the later-processed slice actually started earlier, the direction is
// swapped (trace_processor's behaviour, which producers emitting ids on end events rely on).
//
// Flow ids are trace-global. Legacy (v1) flow events identify a flow by (id, category, name)
// and bind to the innermost slice open on their track.

#include <cstdint>
#include <optional>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"
#include "libs/trace/trackers/slice_tracker.h"

namespace tw {

class FlowTracker {
 public:
  FlowTracker(TraceStorage* storage, ArgsTracker* args, SliceTracker* slices);

  // Starts flow `id` at `slice` (a second start of an open id is an error).
  void Begin(uint32_t slice, uint64_t id);
  // Links the flow's last slice to `slice`; the flow continues from `slice`.
  void Step(uint32_t slice, uint64_t id);
  // Links the flow's last slice to `slice`; `close` ends the flow.
  void End(uint32_t slice, uint64_t id, bool close);
  bool IsActive(uint64_t id) const { return open_.contains(id); }
  // A v1 flow end that waited for the next slice on its track ('f' without "bp": "e"): an
  // arrow from the flow's last slice to `slice`, as is (no reordering). As in trace_processor,
  // the end is not checked against a start: a flow never started comes from slice 0, and the
  // id then counts as open there.
  void ClosePending(uint32_t slice, uint64_t id);

  // v1 (legacy 's' / 't' / 'f' phases): the flow binds to the innermost open slice of `track`.
  uint64_t V1FlowId(uint64_t source_id, StringId category, StringId name);
  void BeginOnTrack(uint32_t track, uint64_t id);
  void StepOnTrack(uint32_t track, uint64_t id);
  void EndOnTrack(uint32_t track, uint64_t id, bool bind_enclosing_slice, bool close);

 private:
  void Insert(uint64_t id, uint32_t out, uint32_t in);
  // (out, in): the earlier slice first.
  std::pair<uint32_t, uint32_t> Ordered(uint32_t existing, uint32_t incoming) const;

  TraceStorage* storage_;
  ArgsTracker* args_;
  SliceTracker* slices_;
  absl::flat_hash_map<uint64_t, uint32_t> open_;  // flow id → last slice
  struct V1Key {
    uint64_t source_id;
    StringId category;
    StringId name;
    template <typename H>
    friend H AbslHashValue(H h, const V1Key& k) {
      return H::combine(std::move(h), k.source_id, k.category, k.name);
    }
    bool operator==(const V1Key& o) const {
      return std::tie(source_id, category, name) == std::tie(o.source_id, o.category, o.name);
    }
  };
  absl::flat_hash_map<V1Key, uint64_t> v1_ids_;
  absl::flat_hash_map<uint64_t, V1Key> v1_keys_;
  // trace_processor numbers v1 flows from 0 in the same id space as v2 flows; kept for
  // identical trace_id values.
  uint64_t next_v1_id_ = 0;
};

}  // namespace tw
