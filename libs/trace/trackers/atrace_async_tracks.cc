#include "libs/trace/trackers/atrace_async_tracks.h"

#include <string>

#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_spec.h"

namespace tw {

uint32_t AtraceAsyncTracks::SetOf(std::string_view type, uint32_t upid, StringId name) {
  std::string key(type);
  key += "|" + std::to_string(upid) + "|" + std::to_string(name);
  return sets_.SetFor(key);
}

AsyncTrackSets::Factory AtraceAsyncTracks::FactoryFor(std::string_view type, uint32_t upid,
                                                      StringId name) {
  return [this, type, upid, name](uint32_t index, int64_t group) {
    ArgsTracker& a = ctx_->args;
    TrackSpec spec;
    spec.name = name;
    spec.type = type;
    spec.upid = upid;
    spec.dimensions = {a.MakeArg("upid", ArgValue::Int(upid)),
                       a.MakeArg("name", ArgValue::String(name)),
                       a.MakeArg("track_compressor_idx", ArgValue::Uint(index))};
    spec.track_group_id = group;
    return CreateTrack(ctx_->storage, &ctx_->args, spec);
  };
}

uint32_t AtraceAsyncTracks::AsyncSliceTrack(uint32_t upid, StringId name, int64_t cookie,
                                            Use use) {
  constexpr std::string_view kType = "atrace_async_slice";
  const uint32_t set = SetOf(kType, upid, name);
  const AsyncTrackSets::Factory factory = FactoryFor(kType, upid, name);
  return use == Use::kBegin ? sets_.Begin(set, cookie, factory, /*saturating=*/true)
                            : sets_.End(set, cookie, factory);
}

uint32_t AtraceAsyncTracks::ForTrack(uint32_t upid, StringId track_name, int64_t cookie,
                                     Use use) {
  constexpr std::string_view kType = "atrace_async_slice_for_track";
  const uint32_t set = SetOf(kType, upid, track_name);
  const AsyncTrackSets::Factory factory = FactoryFor(kType, upid, track_name);
  return use == Use::kBegin ? sets_.Begin(set, cookie, factory) : sets_.End(set, cookie, factory);
}

uint32_t AtraceAsyncTracks::ForTrackInstant(uint32_t upid, StringId track_name, int64_t ts) {
  constexpr std::string_view kType = "atrace_async_slice_for_track";
  return sets_.Scoped(SetOf(kType, upid, track_name), ts, 0, FactoryFor(kType, upid, track_name));
}

uint32_t AtraceAsyncTracks::DeviceStateTrack() {
  if (!device_state_) {
    TrackSpec spec;
    spec.name = ctx_->storage->Intern("DeviceStateChanged");
    spec.type = "android_device_state";
    device_state_ = CreateTrack(ctx_->storage, &ctx_->args, spec);
  }
  return *device_state_;
}

}  // namespace tw
