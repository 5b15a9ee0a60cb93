#include "libs/trace/trackers/graphics_frame_tracker.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// GraphicsFrameEvent.BufferEventType values with a phase meaning.
constexpr uint32_t kDequeue = 1;
constexpr uint32_t kQueue = 2;
constexpr uint32_t kAcquireFence = 4;
constexpr uint32_t kLatch = 5;
constexpr uint32_t kPresentFence = 8;

}  // namespace

GraphicsFrameTracker::GraphicsFrameTracker(TraceContext* ctx) : ctx_(ctx) {
  TraceStorage* s = ctx->storage;
  unknown_event_ = s->Intern("unknown_event");
  no_layer_name_ = s->Intern("no_layer_name");
  frame_number_key_ = s->Intern("frame_number");
  layer_name_key_ = s->Intern("layer_name");
  queue_to_acquire_key_ = s->Intern("queue_to_acquire_time");
  acquire_to_latch_key_ = s->Intern("acquire_to_latch_time");
  latch_to_present_key_ = s->Intern("latch_to_present_time");
  static constexpr const char* kTypeNames[] = {
      "unspecified_event", "Dequeue", "Queue", "Post", "AcquireFenceSignaled", "Latch",
      "HWCCompositionQueued", "FallbackComposition", "PresentFenceSignaled",
      "ReleaseFenceSignaled", "Modify", "Detach", "Attach", "Cancel"};
  for (size_t i = 0; i < std::size(kTypeNames); ++i) type_names_[i] = s->Intern(kTypeNames[i]);
}

uint32_t GraphicsFrameTracker::Track(const std::string& name) {
  return ctx_->tracks.InternGlobalTrack(ctx_->storage->Intern(name), "graphics_frame_event",
                                     /*name_is_dimension=*/true);
}

void GraphicsFrameTracker::OnEvent(int64_t ts, const GraphicsFrameEventData& e) {
  const StringId layer = e.has_layer_name ? e.layer_name : no_layer_name_;
  const std::string key = absl::StrCat(e.buffer_id, e.layer_name_text);
  AddBufferSlice(ts, e, layer, key);
  AddPhaseSlices(ts, e, layer, key);
  ctx_->storage->ExtendBounds(ts);
}

void GraphicsFrameTracker::AddBufferSlice(int64_t ts, const GraphicsFrameEventData& e,
                                          StringId layer, const std::string& key) {
  BufferTimes& b = buffers_[key];
  const uint32_t type = e.type.value_or(0);
  switch (type) {
    case kDequeue: break;
    case kAcquireFence: b.acquire_ts = ts; break;
    case kQueue: b.queue_ts = ts; break;
    case kLatch: b.latch_ts = ts; break;
    default: ctx_->storage->IncrementStat("graphics_frame_event_parser_errors"); break;
  }
  b.last_was_dequeue = type == kDequeue;
  const StringId name =
      e.type && *e.type < std::size(type_names_) ? type_names_[*e.type] : unknown_event_;
  ArgsTracker& args = ctx_->args;
  const std::vector<Arg> slice_args = {
      args.MakeArg("frame_number", ArgValue::Int(e.frame_number)),
      args.MakeArg("layer_name", ArgValue::String(layer)),
      args.MakeArg("queue_to_acquire_time",
                   ArgValue::Int(std::max<int64_t>(b.acquire_ts - b.queue_ts, 0))),
      args.MakeArg("acquire_to_latch_time", ArgValue::Int(b.latch_ts - b.acquire_ts)),
      args.MakeArg("latch_to_present_time", ArgValue::Int(ts - b.latch_ts)),
  };
  const uint32_t track = Track(absl::StrCat("Buffer: ", e.buffer_id, " ", e.layer_name_text));
  ctx_->slices.Scoped(ts, track, kNullStringId, name, e.duration_ns, slice_args);
}

std::optional<uint32_t> GraphicsFrameTracker::BeginPhase(int64_t ts,
                                                         const GraphicsFrameEventData& e,
                                                         uint32_t track, StringId layer) {
  // Frame 0 means "unknown": the slice is named by its time instead.
  const StringId name = ctx_->storage->Intern(
      e.frame_number != 0 ? std::to_string(e.frame_number) : std::to_string(ts));
  return ctx_->slices.Begin(ts, track, kNullStringId, name,
                            {ctx_->args.MakeArg("frame_number", ArgValue::Int(e.frame_number)),
                             ctx_->args.MakeArg("layer_name", ArgValue::String(layer))});
}

void GraphicsFrameTracker::SetFrameNumber(uint32_t slice, int64_t frame_number) {
  ctx_->slices.AddArgs(slice, {ctx_->args.MakeArg("frame_number", ArgValue::Int(frame_number))});
}

void GraphicsFrameTracker::MarkDequeueLost(uint32_t slice) {
  ctx_->storage->slice.name.Set(slice, ctx_->storage->Intern("0"));
  SetFrameNumber(slice, 0);
}

void GraphicsFrameTracker::AddPhaseSlices(int64_t ts, const GraphicsFrameEventData& e,
                                          StringId layer, const std::string& key) {
  Phases& p = phases_[key];
  const std::string suffix = absl::StrCat(e.buffer_id, " ", e.layer_name_text);
  switch (e.type.value_or(0)) {
    case kDequeue: {
      if (auto* d = std::get_if<Dequeued>(&p.open)) {
        MarkDequeueLost(d->slice);
        p.open = std::monostate();
      }
      if (auto slice = BeginPhase(ts, e, Track("APP_" + suffix), layer)) {
        p.open = Dequeued{*slice, ts};
      }
      break;
    }
    case kQueue: {
      if (auto* d = std::get_if<Dequeued>(&p.open)) {
        const uint32_t slice = d->slice;
        const int64_t dequeue_ts = d->ts;
        ctx_->slices.End(ts, ctx_->storage->slice.track_id[slice], kNullStringId, kNullStringId,
                         {});
        SetFrameNumber(slice, e.frame_number);
        ctx_->storage->slice.name.Set(slice, ctx_->storage->Intern(std::to_string(e.frame_number)));
        // The buffer was already acquired after this dequeue: there is no GPU phase to show.
        if (p.last_acquire_ts && *p.last_acquire_ts > dequeue_ts) {
          p.open = std::monostate();
          return;
        }
      }
      const uint32_t track = Track("GPU_" + suffix);
      BeginPhase(ts, e, track, layer);
      p.open = Queued{track};
      break;
    }
    case kAcquireFence: {
      if (auto* q = std::get_if<Queued>(&p.open)) {
        ctx_->slices.End(ts, q->track, kNullStringId, kNullStringId, {});
        p.open = std::monostate();
      }
      p.last_acquire_ts = ts;
      break;
    }
    case kLatch: {
      if (auto* d = std::get_if<Dequeued>(&p.open)) MarkDequeueLost(d->slice);
      const uint32_t track = Track("SF_" + suffix);
      BeginPhase(ts, e, track, layer);
      p.open = Latched{track};
      break;
    }
    case kPresentFence: {
      if (auto* l = std::get_if<Latched>(&p.open)) {
        ctx_->slices.End(ts, l->track, kNullStringId, kNullStringId, {});
        p.open = std::monostate();
      }
      // The previous frame of this layer stays on display until this one is presented.
      if (auto it = display_tracks_.find(layer); it != display_tracks_.end()) {
        ctx_->slices.End(ts, it->second, kNullStringId, kNullStringId, {});
      }
      const uint32_t track = Track("Display_" + e.layer_name_text);
      BeginPhase(ts, e, track, layer);
      display_tracks_[layer] = track;
      break;
    }
    default: break;
  }
}

}  // namespace tw
