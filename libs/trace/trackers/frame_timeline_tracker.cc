#include "libs/trace/trackers/frame_timeline_tracker.h"

#include <string>

#include "libs/trace/trackers/track_spec.h"

namespace tw {
namespace {
constexpr std::string_view kExpectedType = "android_expected_frame_timeline";
constexpr std::string_view kActualType = "android_actual_frame_timeline";
}  // namespace

FrameTimelineTracker::FrameTimelineTracker(TraceContext* ctx)
    : ctx_(ctx),
      expected_name_(ctx->storage->Intern("Expected Timeline")),
      actual_name_(ctx->storage->Intern("Actual Timeline")) {}

uint32_t FrameTimelineTracker::SetOf(uint32_t upid, bool actual) {
  return track_sets_.SetFor((actual ? "actual:" : "expected:") + std::to_string(upid));
}

AsyncTrackSets::Factory FrameTimelineTracker::TrackFactory(uint32_t upid, bool actual) {
  // A process's timelines are compressed track sets, as in trace_processor: each track's
  // dimensions name its place in the set, and the set is its track group.
  return [this, upid, actual](uint32_t index, int64_t group) {
    TrackSpec spec;
    spec.name = actual ? actual_name_ : expected_name_;
    spec.type = actual ? kActualType : kExpectedType;
    spec.upid = upid;
    spec.dimensions = {ctx_->args.MakeArg("upid", ArgValue::Int(upid)),
                       ctx_->args.MakeArg("track_compressor_idx", ArgValue::Uint(index))};
    spec.track_group_id = group;
    return CreateTrack(ctx_->storage, &ctx_->args, spec);
  };
}

uint32_t FrameTimelineTracker::BeginTrack(uint32_t upid, bool actual, int64_t cookie) {
  return track_sets_.Begin(SetOf(upid, actual), cookie, TrackFactory(upid, actual));
}

uint32_t FrameTimelineTracker::EndTrack(uint32_t upid, bool actual, int64_t cookie) {
  return track_sets_.End(SetOf(upid, actual), cookie, TrackFactory(upid, actual));
}

void FrameTimelineTracker::OnEvent(int64_t ts, const FrameTimelineData& e) {
  using Kind = FrameTimelineData::Kind;
  TraceStorage* storage = ctx_->storage;
  storage->ExtendBounds(ts);
  if (e.kind == Kind::kFrameEnd) {
    auto it = open_by_cookie_.find(e.cookie);
    if (it == open_by_cookie_.end()) {
      storage->IncrementStat("frame_timeline_unpaired_end_event");
      return;
    }
    const Open open = it->second;
    open_by_cookie_.erase(it);
    if (!open.has_slice) return;
    const uint32_t track = EndTrack(open.upid, open.actual, e.cookie);
    ctx_->slices.End(ts, track, kNullStringId, kNullStringId, {});
    return;
  }

  const bool actual = e.kind == Kind::kActualDisplayFrame || e.kind == Kind::kActualSurfaceFrame;
  const uint32_t upid = ctx_->processes.GetOrCreateProcess(e.pid);
  if (e.kind == Kind::kExpectedSurfaceFrame &&
      !expected_surface_tokens_.insert({upid, e.token}).second) {
    open_by_cookie_[e.cookie] = Open{upid, actual, false};
    return;
  }
  open_by_cookie_[e.cookie] = Open{upid, actual, true};
  const uint32_t track = BeginTrack(upid, actual, e.cookie);
  const std::optional<uint32_t> slice = ctx_->slices.Begin(ts, track, kNullStringId, e.name, e.args);
  if (!slice) return;
  if (e.kind == Kind::kActualSurfaceFrame) {
    surface_slices_by_display_token_[e.display_frame_token].push_back(*slice);
  } else if (e.kind == Kind::kActualDisplayFrame) {
    // Surface frames always precede the display frame that presents them.
    auto it = surface_slices_by_display_token_.find(e.token);
    if (it != surface_slices_by_display_token_.end()) {
      for (uint32_t surface : it->second)
        storage->flow.Insert({.slice_out = surface, .slice_in = *slice, .trace_id = std::nullopt});
      surface_slices_by_display_token_.erase(it);
    }
  }
}

}  // namespace tw
