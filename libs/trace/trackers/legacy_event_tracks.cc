#include "libs/trace/trackers/legacy_event_tracks.h"

#include <string>

#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_spec.h"

namespace tw {

uint32_t LegacyEventTracks::AsyncTrack(StringId name, uint32_t upid, int64_t trace_id,
                                       bool process_scoped, StringId scope, AsyncUse use) {
  // A process-scoped track's name goes through the trace's process track name translation.
  if (process_scoped) name = ctx_->slices.translations().ProcessTrackName(name);
  // All events with one id share the name of the first of them, so a begin and an end that
  // disagree on the name still meet on one track.
  const StringId root_name =
      process_scoped ? process_root_names_.try_emplace({upid, trace_id}, name).first->second
                     : global_root_names_.try_emplace(trace_id, name).first->second;
  std::string key = process_scoped ? "legacy_async_process_slice|" + std::to_string(upid) + "|"
                                   : std::string("legacy_async_global_slice|");
  key += std::to_string(scope) + "|" + std::to_string(root_name);
  const uint32_t set = sets_->SetFor(key);

  AsyncTrackSets::Factory factory = [this, root_name, upid, process_scoped, scope](
                                        uint32_t index, int64_t group) {
    ArgsTracker& a = ctx_->args;
    TrackSpec spec;
    spec.name = root_name;
    spec.type = process_scoped ? "legacy_async_process_slice" : "legacy_async_global_slice";
    if (process_scoped) {
      spec.upid = upid;
      spec.dimensions.push_back(a.MakeArg("upid", ArgValue::Int(upid)));
    }
    spec.dimensions.push_back(a.MakeArg("scope", ArgValue::String(scope)));
    spec.dimensions.push_back(a.MakeArg("name", ArgValue::String(root_name)));
    spec.dimensions.push_back(a.MakeArg("track_compressor_idx", ArgValue::Uint(index)));
    spec.source_args = {
        a.MakeArg("source", ArgValue::String(ctx_->storage->Intern("chrome"))),
        a.MakeArg("trace_id_is_process_scoped", ArgValue::Bool(process_scoped)),
        a.MakeArg("upid", ArgValue::Uint(upid)),
        a.MakeArg("source_scope", ArgValue::String(scope)),
    };
    spec.track_group_id = group;
    return CreateTrack(ctx_->storage, &ctx_->args, spec);
  };
  switch (use) {
    case AsyncUse::kBegin: return sets_->Begin(set, trace_id, factory);
    case AsyncUse::kEnd: return sets_->End(set, trace_id, factory);
    case AsyncUse::kInstant: return sets_->Instant(set, trace_id, factory);
  }
  return sets_->Instant(set, trace_id, factory);
}

uint32_t LegacyEventTracks::GlobalInstantTrack() {
  if (!global_instants_) {
    TrackSpec spec;
    spec.type = "legacy_chrome_global_instants";
    spec.source_args = {
        ctx_->args.MakeArg("source", ArgValue::String(ctx_->storage->Intern("chrome")))};
    global_instants_ = CreateTrack(ctx_->storage, &ctx_->args, spec);
  }
  return *global_instants_;
}

uint32_t LegacyEventTracks::ProcessInstantTrack(uint32_t upid) {
  auto it = process_instants_.find(upid);
  if (it != process_instants_.end()) return it->second;
  TrackSpec spec;
  spec.type = "chrome_process_instant";
  spec.upid = upid;
  spec.dimensions = {ctx_->args.MakeArg("upid", ArgValue::Int(upid))};
  spec.source_args = {
      ctx_->args.MakeArg("source", ArgValue::String(ctx_->storage->Intern("chrome")))};
  const uint32_t track = CreateTrack(ctx_->storage, &ctx_->args, spec);
  process_instants_.emplace(upid, track);
  return track;
}

uint32_t LegacyEventTracks::ThreadTimeTrack(uint32_t utid) {
  return ctx_->tracks.InternThreadCounterTrack(utid, ctx_->storage->Intern("thread_time"),
                                               "thread_time");
}

uint32_t LegacyEventTracks::ThreadInstructionCountTrack(uint32_t utid) {
  return ctx_->tracks.InternThreadCounterTrack(
      utid, ctx_->storage->Intern("thread_instruction_count"), "thread_instructions");
}

}  // namespace tw
