#include "libs/trace/trackers/descriptor_tracks.h"

#include <string>

#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_spec.h"

namespace tw {
namespace {

using Scope = DescriptorTracks::Resolved::Scope;
using Merge = TrackReservation::MergeBehavior;

// Deeper hierarchies are rejected (trace_processor's limit), which also bounds recursion.
constexpr size_t kMaxAncestors = 100;

// The dimensions of a track in a set of merged siblings: the scope (thread/process, if any),
// the parent, the merge key, and the track's index in the set.
struct MergedDims {
  uint64_t parent_uuid;
  uint32_t merge_type;
  StringId merge_value;

  std::vector<Arg> Build(ArgsTracker* args, std::vector<Arg> dims, uint32_t index) const {
    dims.push_back(
        args->MakeArg("parent_track_uuid", ArgValue::Int(static_cast<int64_t>(parent_uuid))));
    dims.push_back(args->MakeArg("merge_key_type", ArgValue::Uint(merge_type)));
    dims.push_back(args->MakeArg("merge_key_value", ArgValue::String(merge_value)));
    dims.push_back(args->MakeArg("track_compressor_idx", ArgValue::Uint(index)));
    return dims;
  }
};

}  // namespace

DescriptorTracks::DescriptorTracks(TraceContext* ctx, TrackDescriptorRegistry* registry,
                                   AsyncTrackSets* sets)
    : ctx_(ctx), registry_(registry), sets_(sets) {}

bool DescriptorTracks::HierarchyValid(uint64_t uuid) {
  std::vector<uint64_t> seen;
  uint64_t current = uuid;
  for (size_t i = 0; i < kMaxAncestors; ++i) {
    if (current == TrackDescriptorRegistry::kDefaultTrackUuid) return true;
    for (uint64_t s : seen) {
      if (s == current) {
        ctx_->storage->IncrementStat("track_event_track_hierarchy_loop");
        return false;
      }
    }
    const TrackReservation* r = registry_->Find(current);
    if (!r) {
      ctx_->storage->IncrementStat("track_hierarchy_missing_uuid");
      return false;
    }
    seen.push_back(current);
    current = r->parent_uuid;
  }
  ctx_->storage->IncrementStat("track_event_track_hierarchy_too_deep");
  return false;
}

std::optional<DescriptorTracks::Resolved> DescriptorTracks::Resolve(uint64_t uuid) {
  auto it = states_.find(uuid);
  if (it != states_.end() && it->second.resolved) return it->second.resolved;
  std::optional<Resolved> resolved = ResolveImpl(uuid);
  states_[uuid].resolved = resolved;
  return resolved;
}

std::optional<DescriptorTracks::Resolved> DescriptorTracks::ResolveImpl(uint64_t uuid) {
  if (!registry_->Find(uuid)) {
    // Events may use a uuid nobody described: an unnamed global track (uuid 0 is the
    // "Default Track").
    TrackReservation r;
    if (uuid == TrackDescriptorRegistry::kDefaultTrackUuid) {
      r.name = ctx_->storage->Intern("Default Track");
    }
    registry_->Reserve(uuid, r);
  }
  if (!HierarchyValid(uuid)) return std::nullopt;
  const TrackReservation r = *registry_->Find(uuid);

  bool process_ordering_explicit = false;
  bool thread_ordering_explicit = false;
  if (const TrackReservation* root = registry_->Find(TrackDescriptorRegistry::kDefaultTrackUuid)) {
    process_ordering_explicit = root->process_ordering_explicit;
    thread_ordering_explicit = root->thread_ordering_explicit;
  }

  std::optional<int64_t> tid = r.tid;
  if (r.use_synthetic_tid && r.tid && r.pid) tid = SyntheticTid(*r.tid, *r.pid);

  std::optional<Resolved> parent;
  if (r.parent_uuid != TrackDescriptorRegistry::kDefaultTrackUuid) parent = Resolve(r.parent_uuid);

  ProcessTracker& processes = ctx_->processes;
  Resolved out;
  out.is_counter = r.is_counter();
  out.is_state = r.is_state;
  if (tid) {
    const int64_t pid = r.pid.value_or(0);
    uint32_t utid = processes.UpdateThread(*tid, pid);
    auto [slot, inserted] = uuid_by_utid_.try_emplace(utid, uuid);
    if (!inserted) {
      // Another uuid already described this thread: one descriptor per thread, so its tid
      // must have been reused by a new thread.
      slot->second = uuid;
      utid = processes.StartNewThread(std::nullopt, *tid);
      processes.UpdateThread(*tid, pid);
      uuid_by_utid_[utid] = uuid;
    }
    if (thread_ordering_explicit && r.sibling_order_rank) {
      thread_sort_hints_[utid] = *r.sibling_order_rank;
    }
    out.scope = Scope::kThread;
    out.utid = utid;
    out.is_root = true;
    return out;
  }
  if (r.pid) {
    uint32_t upid = processes.GetOrCreateProcess(*r.pid);
    auto [slot, inserted] = uuid_by_upid_.try_emplace(upid, uuid);
    if (!inserted) {
      // Likewise for processes: the pid was reused.
      slot->second = uuid;
      upid = processes.StartNewProcess(std::nullopt, std::nullopt, *r.pid, kNullStringId,
                                       ThreadNamePriority::kTrackDescriptor);
      uuid_by_upid_[upid] = uuid;
    }
    if (process_ordering_explicit && r.sibling_order_rank) {
      process_sort_hints_[upid] = *r.sibling_order_rank;
    }
    out.scope = Scope::kProcess;
    out.upid = upid;
    out.is_root = true;
    return out;
  }
  if (parent && parent->scope != Scope::kGlobal) {
    out.scope = parent->scope;
    out.utid = parent->utid;
    out.upid = parent->upid;
    return out;
  }
  out.scope = Scope::kGlobal;
  return out;
}

StringId DescriptorTracks::ProcessTrackName(StringId raw) const {
  return ctx_->slices.translations().ProcessTrackName(raw);
}

std::vector<Arg> DescriptorTracks::SourceArgs(uint64_t uuid, std::optional<uint32_t> sequence_id,
                                              bool is_root_in_scope) {
  ArgsTracker& a = ctx_->args;
  TraceStorage* s = ctx_->storage;
  const TrackReservation& r = *registry_->Find(uuid);
  std::vector<Arg> args = {
      a.MakeArg("source", ArgValue::String(s->Intern("descriptor"))),
      a.MakeArg("trace_id", ArgValue::Int(static_cast<int64_t>(uuid))),
      a.MakeArg("is_root_in_scope", ArgValue::Bool(is_root_in_scope)),
  };
  if (r.counter) {
    if (r.counter->category != kNullStringId) {
      args.push_back(a.MakeArg("category", ArgValue::String(r.counter->category)));
    }
    if (r.counter->builtin_type != kNullStringId) {
      args.push_back(a.MakeArg("builtin_counter_type", ArgValue::String(r.counter->builtin_type)));
    }
    if (r.counter->y_axis_share_key != kNullStringId) {
      args.push_back(a.MakeArg("y_axis_share_key", ArgValue::String(r.counter->y_axis_share_key)));
    }
  }
  if (sequence_id && registry_->HasFirstPacketOnSequence(*sequence_id)) {
    args.push_back(a.MakeArg("has_first_packet_on_sequence", ArgValue::Bool(true)));
  }
  const char* ordering = nullptr;
  switch (r.ordering) {
    case TrackReservation::ChildOrdering::kLexicographic: ordering = "lexicographic"; break;
    case TrackReservation::ChildOrdering::kChronological: ordering = "chronological"; break;
    case TrackReservation::ChildOrdering::kExplicit: ordering = "explicit"; break;
    case TrackReservation::ChildOrdering::kUnknown: break;
  }
  if (ordering) args.push_back(a.MakeArg("child_ordering", ArgValue::String(s->Intern(ordering))));
  if (r.sibling_order_rank) {
    args.push_back(a.MakeArg("sibling_order_rank", ArgValue::Int(*r.sibling_order_rank)));
  }
  if (r.description != kNullStringId) {
    args.push_back(a.MakeArg("description", ArgValue::String(r.description)));
  }
  return args;
}

DescriptorTracks::State* DescriptorTracks::EnsureInterned(uint64_t uuid, StringId event_name,
                                                          std::optional<uint32_t> sequence_id) {
  auto it = states_.find(uuid);
  if (it != states_.end() && it->second.interned) return &it->second;
  State fresh;
  if (!InternImpl(uuid, event_name, sequence_id, &fresh)) return nullptr;
  State& state = states_[uuid];
  state.interned = true;
  state.track = fresh.track;
  state.set = fresh.set;
  state.factory = std::move(fresh.factory);
  return &state;
}

std::optional<uint32_t> DescriptorTracks::InternForParent(uint64_t uuid,
                                                          std::optional<uint32_t> sequence_id) {
  State* s = EnsureInterned(uuid, kNullStringId, sequence_id);
  if (!s) return std::nullopt;
  if (s->track) return s->track;
  return sets_->First(*s->set, s->factory);
}

std::optional<uint32_t> DescriptorTracks::Intern(uint64_t uuid, Use use, StringId event_name,
                                                 std::optional<uint32_t> sequence_id) {
  State* s = EnsureInterned(uuid, event_name, sequence_id);
  if (!s) return std::nullopt;
  const int64_t cookie = static_cast<int64_t>(uuid);
  switch (use) {
    case Use::kBegin:
      return s->track ? *s->track : sets_->Begin(*s->set, cookie, s->factory);
    case Use::kEnd:
      return s->track ? *s->track : sets_->End(*s->set, cookie, s->factory);
    case Use::kInstant:
      return s->track ? *s->track : sets_->Instant(*s->set, cookie, s->factory);
    case Use::kCounter:
      if (!s->resolved || !s->resolved->is_counter) return std::nullopt;
      return s->track;
    case Use::kLegacy:
      // Legacy phases need a track of the uuid's own.
      return s->track;
    case Use::kState:
      if (!s->resolved || !s->resolved->is_state) return std::nullopt;
      return s->track ? *s->track : sets_->Begin(*s->set, cookie, s->factory);
  }
  return std::nullopt;
}

void DescriptorTracks::RefreshName(uint64_t uuid) {
  auto it = states_.find(uuid);
  if (it == states_.end() || !it->second.track) return;
  const TrackReservation* r = registry_->Find(uuid);
  if (!r || r->merge != Merge::kNone || r->name == kNullStringId) return;
  ctx_->storage->track.name.Set(*it->second.track, r->name);
}

bool DescriptorTracks::InternImpl(uint64_t uuid, StringId event_name,
                                  std::optional<uint32_t> sequence_id, State* state) {
  const std::optional<Resolved> resolved = Resolve(uuid);
  if (!resolved) return false;
  const TrackReservation r = *registry_->Find(uuid);
  TraceStorage* storage = ctx_->storage;
  ArgsTracker* args = &ctx_->args;

  std::optional<uint32_t> parent_track;
  std::optional<Resolved> parent;
  if (r.parent_uuid != TrackDescriptorRegistry::kDefaultTrackUuid) {
    parent_track = InternForParent(r.parent_uuid, sequence_id);
    parent = Resolve(r.parent_uuid);
  }
  const StringId unit = r.counter ? r.counter->unit : kNullStringId;
  const int64_t uuid_dim = static_cast<int64_t>(uuid);
  auto dim = [&](std::string_view key, ArgValue v) { return args->MakeArg(key, v); };
  auto create = [&](TrackSpec spec) { state->track = CreateTrack(storage, args, spec); };

  if (resolved->is_root) {
    TrackSpec spec;
    spec.name = r.name;
    spec.source_args = SourceArgs(uuid, sequence_id, /*is_root_in_scope=*/true);
    if (resolved->scope == Scope::kThread) {
      if (r.counter) {
        spec.type = "thread_counter_track_event";
        spec.event_type = "counter";
        spec.unit = unit;
      } else if (r.use_separate_track) {
        spec.type = r.is_state ? "thread_state_track_event" : "thread_track_event";
        spec.event_type = r.is_state ? "state" : "slice";
      } else {
        // The thread's own slice track, shared with atrace and legacy events.
        state->track = ctx_->tracks.InternThreadTrack(resolved->utid);
        return true;
      }
      spec.utid = resolved->utid;
      spec.dimensions = {dim("utid", ArgValue::Int(resolved->utid)),
                         dim("track_uuid", ArgValue::Int(uuid_dim))};
    } else {
      spec.name = ProcessTrackName(r.name);
      if (r.counter) {
        spec.type = "process_counter_track_event";
        spec.event_type = "counter";
        spec.unit = unit;
      } else {
        spec.type = r.is_state ? "process_state_track_event" : "process_track_event";
        spec.event_type = r.is_state ? "state" : "slice";
      }
      spec.upid = resolved->upid;
      spec.dimensions = {dim("upid", ArgValue::Int(resolved->upid)),
                         dim("track_uuid", ArgValue::Int(uuid_dim))};
    }
    create(std::move(spec));
    return true;
  }

  const StringId name = r.name != kNullStringId ? r.name : event_name;
  // Merged siblings are keyed by name, or by an explicit merge key.
  const uint32_t merge_type = static_cast<uint32_t>(r.merge);
  const StringId merge_value = r.merge == Merge::kByKey ? r.merge_key : name;
  const std::string merge_key_suffix = std::to_string(r.parent_uuid) + "|" +
                                       std::to_string(merge_type) + "|" +
                                       std::to_string(merge_value);
  const MergedDims merged_dims{r.parent_uuid, merge_type, merge_value};

  if (parent_track && parent && parent->scope != Scope::kGlobal) {
    const bool thread = parent->scope == Scope::kThread;
    // Under a thread/process root, tracks stay top-level (trace_processor keeps them as root
    // tracks of the thread/process for backwards compatibility); deeper ones nest.
    const std::optional<uint32_t> parent_id =
        parent->is_root ? std::nullopt : std::optional<uint32_t>(*parent_track);
    std::vector<Arg> scope_dims = {
        thread ? dim("utid", ArgValue::Int(parent->utid)) : dim("upid", ArgValue::Int(parent->upid))};
    TrackSpec spec;
    if (thread) {
      spec.utid = parent->utid;
    } else {
      spec.upid = parent->upid;
    }
    spec.parent_id = parent_id;
    spec.source_args = SourceArgs(uuid, sequence_id, /*is_root_in_scope=*/false);
    if (r.counter) {
      spec.name = thread ? r.name : ProcessTrackName(r.name);
      spec.type = thread ? "thread_counter_track_event" : "process_counter_track_event";
      spec.event_type = "counter";
      spec.unit = unit;
      spec.dimensions = scope_dims;
      spec.dimensions.push_back(dim("track_uuid", ArgValue::Int(uuid_dim)));
      create(std::move(spec));
      return true;
    }
    if (r.merge == Merge::kNone || r.is_state) {
      spec.name = thread ? name : ProcessTrackName(name);
      spec.type = r.is_state ? (thread ? "thread_state_track_event" : "process_state_track_event")
                             : (thread ? "thread_track_event" : "process_track_event");
      spec.event_type = r.is_state ? "state" : "slice";
      spec.dimensions = scope_dims;
      spec.dimensions.push_back(dim("track_uuid", ArgValue::Int(uuid_dim)));
      create(std::move(spec));
      return true;
    }
    spec.name = thread ? name : ProcessTrackName(name);
    spec.type = thread ? "thread_merged_track_event" : "process_merged_track_event";
    const std::string key = std::string(spec.type) + "|" +
                            std::to_string(thread ? parent->utid : parent->upid) + "|" +
                            merge_key_suffix;
    state->set = sets_->SetFor(key);
    state->factory = [this, spec, scope_dims, merged_dims](uint32_t index, int64_t group) {
      TrackSpec s = spec;
      s.dimensions = merged_dims.Build(&ctx_->args, scope_dims, index);
      s.track_group_id = group;
      return CreateTrack(ctx_->storage, &ctx_->args, s);
    };
    return true;
  }

  // Global tracks: always nested under their parent, if any.
  const bool is_root_in_scope = uuid == TrackDescriptorRegistry::kDefaultTrackUuid;
  TrackSpec spec;
  spec.parent_id = parent_track;
  spec.source_args = SourceArgs(uuid, sequence_id, is_root_in_scope);
  if (r.counter) {
    spec.name = r.name;
    spec.type = "global_counter_track_event";
    spec.event_type = "counter";
    spec.unit = unit;
    spec.dimensions = {dim("track_uuid", ArgValue::Int(uuid_dim))};
    create(std::move(spec));
    return true;
  }
  if (r.merge == Merge::kNone || r.is_state) {
    spec.name = name;
    spec.type = r.is_state ? "global_state_track_event" : "global_track_event";
    spec.event_type = r.is_state ? "state" : "slice";
    spec.dimensions = {dim("track_uuid", ArgValue::Int(uuid_dim))};
    create(std::move(spec));
    return true;
  }
  spec.name = name;
  spec.type = "global_merged_track_event";
  state->set = sets_->SetFor(std::string(spec.type) + "|" + merge_key_suffix);
  state->factory = [this, spec, merged_dims](uint32_t index, int64_t group) {
    TrackSpec s = spec;
    s.dimensions = merged_dims.Build(&ctx_->args, {}, index);
    s.track_group_id = group;
    return CreateTrack(ctx_->storage, &ctx_->args, s);
  };
  return true;
}

}  // namespace tw
