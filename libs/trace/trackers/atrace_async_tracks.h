#pragma once
// Tracks of Android's atrace async slices, identified as trace_processor identifies them:
//  - 'S'/'F' (asyncBegin/asyncEnd): per process and slice name; each cookie open at once gets
//    its own track of the set ("atrace_async_slice", dimensions upid, name,
//    track_compressor_idx). These slices never nest: a repeated begin with an open cookie is
//    absorbed (SliceTracker::BeginLegacyUnnestable).
//  - 'G'/'H'/'N' (begin/end/instant on a named track): per process and track name
//    ("atrace_async_slice_for_track"); instants take the first track free at their time.
// An end whose cookie was never begun still names a track (it may be created), as in
// trace_processor; the slice tracker then finds nothing to close on it.

#include <cstdint>
#include <optional>
#include <string_view>

#include "libs/trace/storage/string_pool.h"
#include "libs/trace/trackers/async_track_sets.h"

namespace tw {

struct TraceContext;

class AtraceAsyncTracks {
 public:
  explicit AtraceAsyncTracks(TraceContext* ctx) : ctx_(ctx) {}

  enum class Use : uint8_t { kBegin, kEnd };
  // 'S' / 'F': `name` is the slice name (also the track's).
  uint32_t AsyncSliceTrack(uint32_t upid, StringId name, int64_t cookie, Use use);
  // 'G' / 'H': `track_name` is the named track.
  uint32_t ForTrack(uint32_t upid, StringId track_name, int64_t cookie, Use use);
  // 'N': an instant at `ts` on the named track.
  uint32_t ForTrackInstant(uint32_t upid, StringId track_name, int64_t ts);
  // The single track of "DeviceStateChanged" instants.
  uint32_t DeviceStateTrack();

 private:
  uint32_t SetOf(std::string_view type, uint32_t upid, StringId name);
  AsyncTrackSets::Factory FactoryFor(std::string_view type, uint32_t upid, StringId name);

  TraceContext* ctx_;
  AsyncTrackSets sets_;
  std::optional<uint32_t> device_state_;
};

}  // namespace tw
