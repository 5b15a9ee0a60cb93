#pragma once
// The Android framework's process lifecycle events (AndroidProcessLifecycleData) →
// android_track_event_process rows, one per process: a start names the process, sets its uid
// and records start_seq_id, uids, start reason and fw_start_ts (the first start's time); a
// binder death records fw_end_ts and ends the process's main thread.

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class AndroidFrameworkProcessTracker {
 public:
  explicit AndroidFrameworkProcessTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const AndroidProcessLifecycleData& event);

 private:
  uint32_t RowFor(uint32_t upid);

  TraceContext* ctx_;
  absl::flat_hash_map<uint32_t, uint32_t> rows_;  // upid → row
};

}  // namespace tw
