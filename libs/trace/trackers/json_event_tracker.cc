#include "libs/trace/trackers/json_event_tracker.h"

#include <algorithm>
#include <limits>

#include "libs/trace/trackers/arg_merge.h"
#include "libs/trace/trackers/async_track_sets.h"
#include "libs/trace/trackers/flow_tracker.h"
#include "libs/trace/trackers/legacy_event_tracks.h"
#include "libs/trace/trackers/trace_context.h"
#include "libs/trace/trackers/track_spec.h"

namespace tw {
namespace {

// The same-timestamp order key (smaller first): ends, then complete events by descending
// duration, then everything else.
int64_t PhaseOrderKey(const JsonEventData& e) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (e.phase) {
    case 'E':
      return std::numeric_limits<int64_t>::min();
    case 'X': {
      const int64_t dur = e.dur.value_or(kMax);
      return dur < 0 ? kMax : kMax - dur;
    }
    default:
      return kMax;
  }
}

// Cpus beyond this are not believed (a cpu row is created for every number up to it).
constexpr uint32_t kMaxCpu = 4096;

}  // namespace

JsonEventTracker::JsonEventTracker(TraceContext* ctx)
    : ctx_(ctx),
      sets_(std::make_unique<AsyncTrackSets>()),
      async_tracks_(std::make_unique<LegacyEventTracks>(ctx, sets_.get())),
      flows_(std::make_unique<FlowTracker>(ctx->storage, &ctx->args, &ctx->slices)) {}

JsonEventTracker::~JsonEventTracker() = default;

void JsonEventTracker::OnEvent(int64_t ts, JsonEventData& event) {
  // Interned on first use so traces of other formats keep their string pool as it was.
  if (no_name_ == kNullStringId) {
    no_name_ = ctx_->storage->Intern("[No name]");
    running_ = ctx_->storage->Intern("Running");
  }
  if (!held_.empty() && ts != held_ts_) FlushTimestamp();
  held_ts_ = ts;
  held_.push_back(std::move(event));
}

void JsonEventTracker::FlushTimestamp() {
  const bool by_phase = std::any_of(held_.begin(), held_.end(),
                                    [](const JsonEventData& e) { return e.order_by_phase; });
  if (by_phase && held_.size() > 1) {
    std::stable_sort(held_.begin(), held_.end(), [](const JsonEventData& a, const JsonEventData& b) {
      return PhaseOrderKey(a) < PhaseOrderKey(b);
    });
  }
  for (const JsonEventData& e : held_) Import(held_ts_, e);
  held_.clear();
}

void JsonEventTracker::EventError(int64_t ts, const JsonEventData& e, std::string_view stat,
                                  std::vector<Arg> extra) {
  ArgsTracker& a = ctx_->args;
  std::vector<Arg> args = {
      a.MakeArg("event_name", ArgValue::String(e.name)),
      a.MakeArg("event_phase", ArgValue::String(ctx_->storage->Intern(std::string(1, e.phase))))};
  args.insert(args.end(), extra.begin(), extra.end());
  ctx_->storage->RecordImportLog(stat, ts, a.AddArgSet(args));
}

void JsonEventTracker::Import(int64_t ts, const JsonEventData& e) {
  ProcessTracker& processes = ctx_->processes;
  TraceStorage* storage = ctx_->storage;
  // String pids / tids ("quick and dirty" traces) name their process / thread.
  if (e.pid_name != kNullStringId) {
    const uint32_t upid = processes.GetOrCreateProcess(e.pid);
    processes.SetProcessMetadata(upid, storage->Str(e.pid_name), "");
  }
  if (e.tid_name != kNullStringId) {
    const uint32_t utid = processes.GetOrCreateThread(e.tid);
    processes.UpdateThreadName(utid, e.tid_name, ThreadNamePriority::kOther);
  }
  const uint32_t utid = processes.UpdateThread(e.tid, e.pid);
  const StringId name = e.name == kNullStringId ? no_name_ : e.name;
  SliceTracker& slices = ctx_->slices;

  switch (e.phase) {
    case 'B': {
      const uint32_t track = ctx_->tracks.InternThreadTrack(utid);
      OnSliceBegun(track, slices.Begin(ts, track, e.category, name, e.args, {e.thread_ts, {}}));
      MaybeAddFlow(ts, track, e);
      return;
    }
    case 'E': {
      // An end names what it closes only optionally; the begin's thread time gives thread_dur.
      const uint32_t track = ctx_->tracks.InternThreadTrack(utid);
      slices.End(ts, track, e.category, e.name, e.args, {e.thread_ts, {}});
      return;
    }
    case 'X': {
      if (!e.dur) return ParserFailure(ts, e);
      uint32_t track = ctx_->tracks.InternThreadTrack(utid);
      if (auto overlap = slices.FindOverlap(ts, track, *e.dur)) {
        // Producers should nest or separate complete events; rather than drop one that does
        // neither, trace_processor spills it onto an overflow track of the thread.
        EventError(ts, e, "slice_spill_overlapping_complete_event", slices.OverlapArgs(*overlap));
        track = OverlapTrack(utid, ts, *e.dur);
      }
      OnSliceBegun(track, slices.Scoped(ts, track, e.category, name, *e.dur, e.args,
                                        {e.thread_ts, {}}, e.thread_dur));
      MaybeAddFlow(ts, track, e);
      return;
    }
    case 'b':
    case 'e':
    case 'n':
      return Async(ts, e);
    case 'C':
      return Counters(ts, e, utid);
    case 'i':
    case 'I':
    case 'R':
      return Instant(ts, e, utid);
    case 's':
    case 't':
    case 'f':
      return FlowV1(ts, e, utid);
    case 'T':
      return ThreadState(ts, e, utid);
    case 'M':
      return Metadata(e, utid);
    default:
      // Object snapshots, legacy async steps and other phases trace_processor does not turn
      // into rows: the event still told us which process its thread belongs to.
      return;
  }
}

uint32_t JsonEventTracker::OverlapTrack(uint32_t utid, int64_t ts, int64_t dur) {
  std::vector<OverflowTrack>& tracks = overflow_tracks_[utid];
  const int64_t end = dur > 0 ? ts + dur : ts;
  for (OverflowTrack& t : tracks) {
    if (t.busy_until <= ts) {
      t.busy_until = end;
      return t.track;
    }
  }
  ArgsTracker& a = ctx_->args;
  TrackSpec spec;
  spec.type = "thread_overlapping_slice";
  spec.utid = utid;
  spec.dimensions.push_back(a.MakeArg("utid", ArgValue::Int(utid)));
  spec.dimensions.push_back(
      a.MakeArg("track_compressor_idx", ArgValue::Uint(static_cast<uint64_t>(tracks.size()))));
  const uint32_t track = CreateTrack(ctx_->storage, &a, spec);
  tracks.push_back({track, end});
  return track;
}

void JsonEventTracker::Async(int64_t ts, const JsonEventData& e) {
  if (!e.pid_exists || !e.async_cookie) return ParserFailure(ts, e);
  const uint32_t upid = ctx_->processes.GetOrCreateProcess(e.pid);
  using Use = LegacyEventTracks::AsyncUse;
  const Use use = e.phase == 'b' ? Use::kBegin : e.phase == 'e' ? Use::kEnd : Use::kInstant;
  // JSON async ids are not scoped further than by the category already in the cookie.
  const uint32_t track = async_tracks_->AsyncTrack(e.name, upid, *e.async_cookie,
                                                   e.async_process_scoped, kNullStringId, use);
  SliceTracker& slices = ctx_->slices;
  switch (e.phase) {
    case 'b':
      OnSliceBegun(track, slices.Begin(ts, track, e.category,
                                       e.name == kNullStringId ? no_name_ : e.name, e.args));
      MaybeAddFlow(ts, track, e);
      return;
    case 'e':
      // Thread time is not defined for async slices: tts is ignored here.
      slices.End(ts, track, e.category, e.name, e.args);
      return;
    default:
      OnSliceBegun(track, slices.Scoped(ts, track, e.category, e.name, 0, e.args));
      MaybeAddFlow(ts, track, e);
      return;
  }
}

void JsonEventTracker::Counters(int64_t ts, const JsonEventData& e, uint32_t utid) {
  if (e.counter_args_missing) return ParserFailure(ts, e);
  for (const auto& [counter_name, value] : e.counters) {
    ProcessCounterTracker::Kind kind;
    kind.type = "json_counter";
    kind.fallback_type = "json_counter_thread_fallback";
    kind.name = counter_name;
    kind.dims = {ctx_->tracks.DimString("name", counter_name)};
    ctx_->process_counters.Push(ts, value, utid, kind);
  }
}

void JsonEventTracker::Instant(int64_t ts, const JsonEventData& e, uint32_t utid) {
  SliceTracker& slices = ctx_->slices;
  uint32_t track = 0;
  switch (e.scope) {
    case JsonEventData::Scope::kGlobal:
      track = async_tracks_->GlobalInstantTrack();
      break;
    case JsonEventData::Scope::kProcess:
      if (!e.pid_exists) return ParserFailure(ts, e);
      track = async_tracks_->ProcessInstantTrack(ctx_->processes.GetOrCreateProcess(e.pid));
      break;
    case JsonEventData::Scope::kThread:
    case JsonEventData::Scope::kNone: {
      if (!e.tid_exists) return ParserFailure(ts, e);
      track = ctx_->tracks.InternThreadTrack(utid);
      const StringId name = e.name == kNullStringId ? no_name_ : e.name;
      OnSliceBegun(track, slices.Scoped(ts, track, e.category, name, 0, e.args,
                                        {e.thread_ts, {}}));
      return;
    }
  }
  OnSliceBegun(track, slices.Scoped(ts, track, e.category, e.name, 0, e.args));
}

void JsonEventTracker::FlowV1(int64_t ts, const JsonEventData& e, uint32_t utid) {
  if (!e.flow_v1_id) return EventError(ts, e, "flow_invalid_id");
  const uint32_t track = ctx_->tracks.InternThreadTrack(utid);
  // A v1 flow is identified by its id, category and name together.
  const uint64_t id = flows_->V1FlowId(*e.flow_v1_id, e.category, e.name);
  switch (e.phase) {
    case 's':
      flows_->BeginOnTrack(track, id);
      return;
    case 't':
      flows_->StepOnTrack(track, id);
      return;
    default:
      if (e.bind_enclosing_slice) {
        flows_->EndOnTrack(track, id, /*bind_enclosing_slice=*/true, /*close=*/false);
      } else {
        pending_flow_ends_[track].push_back(id);
      }
      return;
  }
}

void JsonEventTracker::OnSliceBegun(uint32_t track, std::optional<uint32_t> slice) {
  if (!slice) return;
  auto it = pending_flow_ends_.find(track);
  if (it == pending_flow_ends_.end()) return;
  for (uint64_t id : it->second) flows_->ClosePending(*slice, id);
  pending_flow_ends_.erase(it);
}

void JsonEventTracker::MaybeAddFlow(int64_t ts, uint32_t track, const JsonEventData& e) {
  if (!e.bind_id) return;
  if (e.flow_in && e.flow_out) {
    flows_->StepOnTrack(track, *e.bind_id);
  } else if (e.flow_out) {
    flows_->BeginOnTrack(track, *e.bind_id);
  } else if (e.flow_in) {
    flows_->EndOnTrack(track, *e.bind_id, /*bind_enclosing_slice=*/true, /*close=*/false);
  } else {
    EventError(ts, e, "flow_without_direction");
  }
}

void JsonEventTracker::ThreadState(int64_t ts, const JsonEventData& e, uint32_t utid) {
  // 'T' with a duration is a thread state; without one (a legacy async step) it is an error
  // for trace_processor too.
  if (!e.dur) return ParserFailure(ts, e);
  TraceStorage* storage = ctx_->storage;
  const StringId state = e.name == kNullStringId ? no_name_ : e.name;
  ThreadStateTable& states = storage->thread_state;
  const uint32_t row = states.Insert({.ts = ts, .utid = utid, .state = state});
  states.dur.Set(row, *e.dur);
  if (e.io_wait) states.io_wait.Set(row, static_cast<int8_t>(*e.io_wait != 0));
  if (e.blocked_function != kNullStringId) states.blocked_function.Set(row, e.blocked_function);
  storage->ExtendBounds(ts);
  if (*e.dur > 0) storage->ExtendBounds(ts + *e.dur);
  // A Running state that names its cpu is also a scheduling slice.
  if (state == running_ && e.cpu && *e.cpu < kMaxCpu) {
    const uint32_t cpu = ctx_->sched.Cpu(*e.cpu);
    storage->sched_slice.Insert({.ts = ts, .dur = *e.dur, .utid = utid, .ucpu = cpu});
  }
}

void JsonEventTracker::Metadata(const JsonEventData& e, uint32_t utid) {
  ProcessTracker& processes = ctx_->processes;
  const std::string_view kind = ctx_->storage->Str(e.name);
  if (kind == "thread_name" && e.metadata_value != kNullStringId) {
    processes.UpdateThreadName(utid, e.metadata_value, ThreadNamePriority::kOther);
  } else if (kind == "process_name" && e.metadata_value != kNullStringId) {
    processes.SetProcessMetadata(processes.GetOrCreateProcess(e.pid),
                                 ctx_->storage->Str(e.metadata_value), "");
  } else if (kind == "process_sort_index" && e.sort_index) {
    process_sort_index_[processes.GetOrCreateProcess(e.pid)] = *e.sort_index;
  } else if (kind == "thread_sort_index" && e.sort_index) {
    thread_sort_index_[utid] = *e.sort_index;
  }
}

void JsonEventTracker::WriteSortIndexHints() {
  TraceStorage* storage = ctx_->storage;
  ArgsTracker& args = ctx_->args;
  // Added to whatever args the process / thread already has.
  for (const auto& [upid, index] : process_sort_index_) {
    ArgSetBuilder merged;
    if (auto set = storage->process.arg_set_id.Get(upid)) {
      merged = ArgSetBuilder(args.GetArgSet(*set));
    }
    merged.AddOrUpdate(args.MakeArg("process_sort_index_hint", ArgValue::Int(index)));
    if (auto set = args.AddArgSet(merged.args())) storage->process.arg_set_id.Set(upid, *set);
  }
  for (const auto& [utid, index] : thread_sort_index_) {
    ArgSetBuilder merged;
    if (auto set = storage->thread.arg_set_id.Get(utid)) {
      merged = ArgSetBuilder(args.GetArgSet(*set));
    }
    merged.AddOrUpdate(args.MakeArg("thread_sort_index_hint", ArgValue::Int(index)));
    if (auto set = args.AddArgSet(merged.args())) storage->thread.arg_set_id.Set(utid, *set);
  }
  process_sort_index_.clear();
  thread_sort_index_.clear();
}

void JsonEventTracker::Finish() {
  if (!held_.empty()) FlushTimestamp();
  WriteSortIndexHints();
  // v1 flow ends still waiting for a slice never found one.
  pending_flow_ends_.clear();
}

}  // namespace tw
