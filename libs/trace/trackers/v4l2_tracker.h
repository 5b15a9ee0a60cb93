#pragma once
// Video4Linux2 buffer ftrace events → instant slices on the calling thread's track, category
// "Video 4 Linux 2", as trace_processor names them: v4l2_qbuf / v4l2_dqbuf become
// "VIDIOC_QBUF minor=<m> seq=<s> type=<t> index=<i>" (DQBUF alike), each dequeue joined by a
// flow to the queue of the same (minor, sequence, type, index); the vb2_v4l2_* events become
// "<event> minor=<m> seq=<s> type=0 index=0". Args are the event's raw fields (trace_processor
// spells buffer types and flags as names; we keep the numbers).

#include <cstdint>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {

class V4l2Tracker {
 public:
  explicit V4l2Tracker(TraceContext* ctx);

  // Handles `raw` if it is a v4l2 / vb2_v4l2 buffer event (the raw row is stored by the caller).
  void OnFtraceEvent(int64_t ts, const FtraceRawData& raw);

 private:
  using BufferKey = std::tuple<int64_t, int64_t, int64_t, int64_t>;  // minor, seq, type, index

  TraceContext* ctx_;
  StringId qbuf_, dqbuf_, buf_queue_, buf_done_, vb2_qbuf_, vb2_dqbuf_, category_;
  StringId minor_, sequence_, type_, index_;
  absl::flat_hash_map<BufferKey, uint32_t> queued_;  // buffer → its VIDIOC_QBUF slice
};

}  // namespace tw
