#include "libs/trace/trackers/v4l2_tracker.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "libs/trace/trackers/raw_event_args.h"

namespace tw {

V4l2Tracker::V4l2Tracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  qbuf_ = s->Intern("v4l2_qbuf");
  dqbuf_ = s->Intern("v4l2_dqbuf");
  buf_queue_ = s->Intern("vb2_v4l2_buf_queue");
  buf_done_ = s->Intern("vb2_v4l2_buf_done");
  vb2_qbuf_ = s->Intern("vb2_v4l2_qbuf");
  vb2_dqbuf_ = s->Intern("vb2_v4l2_dqbuf");
  category_ = s->Intern("Video 4 Linux 2");
  minor_ = s->Intern("minor");
  sequence_ = s->Intern("sequence");
  type_ = s->Intern("type");
  index_ = s->Intern("index");
}

void V4l2Tracker::OnFtraceEvent(int64_t ts, const FtraceRawData& raw) {
  const bool vidioc = raw.name == qbuf_ || raw.name == dqbuf_;
  const bool vb2 = raw.name == buf_queue_ || raw.name == buf_done_ || raw.name == vb2_qbuf_ ||
                   raw.name == vb2_dqbuf_;
  if (!vidioc && !vb2) return;
  TraceStorage* s = ctx_->storage;
  const int64_t minor = RawIntArg(raw, minor_).value_or(0);
  const int64_t seq = RawIntArg(raw, sequence_).value_or(0);
  // The vb2 events carry no buffer type or index.
  const int64_t type = vidioc ? RawIntArg(raw, type_).value_or(0) : 0;
  const int64_t index = vidioc ? RawIntArg(raw, index_).value_or(0) : 0;
  std::string prefix;
  if (raw.name == qbuf_) {
    prefix = "VIDIOC_QBUF";
  } else if (raw.name == dqbuf_) {
    prefix = "VIDIOC_DQBUF";
  } else {
    prefix = std::string(s->Str(raw.name));
  }
  const StringId name =
      s->Intern(absl::StrCat(prefix, " minor=", minor, " seq=", seq, " type=", type,
                             " index=", index));
  const uint32_t track = ctx_->tracks.InternThreadTrack(ctx_->processes.GetOrCreateThread(raw.pid));
  const std::optional<uint32_t> slice =
      ctx_->slices.Scoped(ts, track, category_, name, 0, raw.args);
  if (!vidioc || !slice) return;
  const BufferKey key{minor, seq, type, index};
  if (raw.name == qbuf_) {
    queued_[key] = *slice;
    return;
  }
  if (auto it = queued_.find(key); it != queued_.end()) {
    s->flow.Insert({.slice_out = it->second, .slice_in = *slice, .trace_id = std::nullopt});
    queued_.erase(it);
  }
}

}  // namespace tw
