#pragma once
// Counters a thread emits on behalf of its process (rss_stat, oom_score_adj_update,
// mm_event_record, Chrome JSON 'C' events): the sample is stored at once, but its track is
// chosen after the last event, when every thread's process is known. A thread that never got
// a process falls back to a per-thread track of the "<type>_thread_fallback" type, as
// trace_processor does; tracks are created in the order the samples arrived.

#include <cstdint>
#include <string>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

class TrackTracker;

class ProcessCounterTracker {
 public:
  ProcessCounterTracker(TraceStorage* storage, TrackTracker* tracks);

  // What identifies the track beside the process (or thread): its type, name and the
  // dimensions after upid / utid (e.g. process_memory_key).
  struct Kind {
    std::string type;
    std::string fallback_type;
    StringId name = kNullStringId;
    std::vector<Arg> dims;
  };

  // Stores one sample; `utid` is the thread that emitted it.
  void Push(int64_t ts, double value, uint32_t utid, const Kind& kind);
  // Places every stored sample on its track.
  void Finish();

 private:
  struct Pending {
    uint32_t row;
    uint32_t utid;
    uint32_t kind;  // index into kinds_
  };
  uint32_t KindIndex(const Kind& kind);

  TraceStorage* storage_;
  TrackTracker* tracks_;
  std::vector<Kind> kinds_;
  std::vector<Pending> pending_;
};

}  // namespace tw
