#include "libs/trace/trackers/process_counter_tracker.h"

#include "libs/trace/trackers/track_tracker.h"

namespace tw {

ProcessCounterTracker::ProcessCounterTracker(TraceStorage* storage, TrackTracker* tracks)
    : storage_(storage), tracks_(tracks) {}

uint32_t ProcessCounterTracker::KindIndex(const Kind& kind) {
  // Few kinds per trace (one per memory key / counter name): a linear search is enough.
  for (uint32_t i = 0; i < kinds_.size(); ++i) {
    const Kind& k = kinds_[i];
    if (k.name != kind.name || k.type != kind.type || k.dims.size() != kind.dims.size()) continue;
    bool same = true;
    for (size_t d = 0; d < k.dims.size() && same; ++d) {
      same = k.dims[d].key == kind.dims[d].key &&
             k.dims[d].value.string_value == kind.dims[d].value.string_value &&
             k.dims[d].value.int_value == kind.dims[d].value.int_value;
    }
    if (same) return i;
  }
  kinds_.push_back(kind);
  return static_cast<uint32_t>(kinds_.size() - 1);
}

void ProcessCounterTracker::Push(int64_t ts, double value, uint32_t utid, const Kind& kind) {
  const uint32_t row = storage_->counter.Insert({.ts = ts, .track_id = 0, .value = value});  // the track is set in Finish()
  pending_.push_back({row, utid, KindIndex(kind)});
  storage_->ExtendBounds(ts);
}

void ProcessCounterTracker::Finish() {
  for (const Pending& p : pending_) {
    const Kind& kind = kinds_[p.kind];
    const std::optional<uint32_t> upid = storage_->thread.upid.Get(p.utid);
    uint32_t track;
    if (upid) {
      track = tracks_->InternProcessCounterTrack(*upid, kind.name, kind.type, kNullStringId,
                                                 kind.dims);
    } else {
      track = tracks_->InternThreadCounterTrack(p.utid, kind.name, kind.fallback_type,
                                                kNullStringId, kind.dims);
    }
    storage_->counter.track_id.Set(p.row, track);
  }
  pending_.clear();
}

}  // namespace tw
