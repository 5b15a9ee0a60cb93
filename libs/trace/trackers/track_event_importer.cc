#include "libs/trace/trackers/track_event_importer.h"

#include <string>

#include "libs/trace/trackers/annotation_arrays.h"
#include "libs/trace/trackers/arg_merge.h"
#include "libs/trace/trackers/flow_tracker.h"
#include "libs/trace/trackers/gpu_stage_tracker.h"
#include "libs/trace/trackers/legacy_event_tracks.h"
#include "libs/trace/trackers/state_tracker.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {
namespace {

using Use = DescriptorTracks::Use;

// TrackEvent.Type values.
constexpr uint32_t kTypeSliceBegin = 1;
constexpr uint32_t kTypeSliceEnd = 2;
constexpr uint32_t kTypeInstant = 3;
constexpr uint32_t kTypeCounter = 4;
constexpr uint32_t kTypeState = 5;

// LegacyEvent.InstantEventScope / FlowDirection values.
constexpr uint32_t kScopeGlobal = 1;
constexpr uint32_t kScopeProcess = 2;
constexpr uint32_t kFlowIn = 1;
constexpr uint32_t kFlowOut = 2;
constexpr uint32_t kFlowInOut = 3;

constexpr int32_t kAndroidLogPriorityInfo = 4;

bool IsAsyncPhase(int32_t phase) {
  switch (phase) {
    case 'b': case 'e': case 'n': case 'S': case 'T': case 'p': case 'F':
      return true;
    default:
      return false;
  }
}

LegacyEventTracks::AsyncUse AsyncUseForPhase(int32_t phase) {
  switch (phase) {
    case 'b': case 'S': return LegacyEventTracks::AsyncUse::kBegin;
    case 'e': case 'T': return LegacyEventTracks::AsyncUse::kEnd;
    default: return LegacyEventTracks::AsyncUse::kInstant;  // 'n', 'p', 'F'
  }
}

}  // namespace

TrackEventImporter::TrackEventImporter(const TrackEventTracker::Parts& parts, int64_t ts,
                                       const TrackEventData& event)
    : parts_(parts),
      ctx_(parts.ctx),
      ts_(ts),
      event_(event),
      legacy_phase_(event.legacy ? event.legacy->phase : 0),
      thread_ts_(event.thread_ts),
      thread_instruction_count_(event.thread_instruction_count) {}

bool TrackEventImporter::Import() {
  if (event_.type == 0 && legacy_phase_ == 0) return false;
  if (!ResolveAssociation()) return false;
  // Counters first: their values may become the slice's thread time / instruction count.
  ImportLegacyThreadCounters();
  ImportExtraCounters();
  if (event_.type == kTypeCounter) return ImportCounter();
  if (event_.type == kTypeState) return ImportState();

  const char phase = PhaseOrType();
  switch (phase) {
    case 'B': return BeginThreadSlice();
    case 'E': return EndThreadSlice();
    case 'X': return CompleteSlice();
    case 's': case 't': case 'f': return FlowV1(phase);
    case 'i': case 'I': case 'R': return Instant(phase);
    case 'b': case 'S': return AsyncBegin(phase);
    case 'e': case 'F': return AsyncEnd();
    case 'n': return AsyncInstant();
    case 'T': case 'p': return AsyncStep(phase);
    case 'M': return Metadata();
    default: return RawEvent();
  }
}

bool TrackEventImporter::ResolveAssociation() {
  ProcessTracker& processes = ctx_->processes;
  const ThreadTable& threads = ctx_->storage->thread;
  const uint64_t uuid = event_.track_uuid;
  if (uuid) {
    const std::optional<DescriptorTracks::Resolved> r = parts_.descriptors->Resolve(uuid);
    if (!r) return false;
    switch (r->scope) {
      case DescriptorTracks::Resolved::Scope::kThread:
        utid_ = r->utid;
        upid_ = threads.upid.Get(r->utid);
        break;
      case DescriptorTracks::Resolved::Scope::kProcess:
        upid_ = r->upid;
        // Keep the emitting thread for JSON-style consumers, if it is in that process.
        if (event_.has_thread) {
          const uint32_t candidate = processes.UpdateThread(event_.tid, event_.pid);
          if (threads.upid.Get(candidate) == upid_) passthrough_utid_ = candidate;
        }
        break;
      case DescriptorTracks::Resolved::Scope::kGlobal:
        if (event_.has_thread) passthrough_utid_ = processes.UpdateThread(event_.tid, event_.pid);
        break;
    }
  } else {
    const bool has_pid_override = event_.legacy && event_.legacy->pid_override;
    const bool has_tid_override = event_.legacy && event_.legacy->tid_override;
    // Without a track uuid, legacy events (no type, or an explicit uuid 0 with a legacy
    // phase) fall back to the sequence's thread; typed events go on the default track.
    fallback_to_thread_ = (!event_.has_track_uuid || !event_.has_type) && event_.has_thread;
    fallback_to_thread_ |= has_pid_override;
    fallback_to_thread_ |= has_tid_override && event_.has_thread;
    if (fallback_to_thread_) {
      int64_t pid = static_cast<uint32_t>(event_.pid);
      int64_t tid = event_.tid;
      if (has_pid_override) {
        pid = static_cast<uint32_t>(*event_.legacy->pid_override);
        tid = SyntheticTid(-1, pid);
      }
      if (has_tid_override) {
        tid = static_cast<uint32_t>(*event_.legacy->tid_override);
        if (IsSyntheticTid(event_.tid)) tid = SyntheticTid(tid, pid);
      }
      if (!pid || !tid) return false;  // 0 is the idle task
      utid_ = processes.UpdateThread(tid, pid);
      upid_ = threads.upid.Get(*utid_);
    }
  }

  if (legacy_phase_ == 0) return true;
  // Legacy phases may move the event off the thread track.
  if (IsAsyncPhase(legacy_phase_)) {
    passthrough_utid_ = utid_;
  } else if (legacy_phase_ == 'i' || legacy_phase_ == 'I') {
    switch (event_.legacy->instant_event_scope) {
      case kScopeGlobal:
        passthrough_utid_ = utid_;
        utid_.reset();
        break;
      case kScopeProcess:
        if (!upid_) return false;
        passthrough_utid_ = utid_;
        utid_.reset();
        break;
      default:  // thread scope: needs the thread
        if (!utid_) return false;
        break;
    }
  }
  return true;
}

std::optional<uint32_t> TrackEventImporter::Track(Use use) {
  const uint64_t uuid = event_.track_uuid;
  const bool on_thread = !uuid && fallback_to_thread_;
  std::optional<uint32_t> described;
  if (!on_thread) {
    described = parts_.descriptors->Intern(
        uuid, use, event_.name,
        uuid ? std::optional<uint32_t>(event_.sequence_id) : std::nullopt);
  }
  if (IsAsyncPhase(legacy_phase_)) {
    // Legacy async events live on tracks keyed by their id.
    const TrackEventData::Legacy& l = *event_.legacy;
    int64_t source_id;
    bool process_scoped = false;
    if (l.unscoped_id) {
      source_id = static_cast<int64_t>(*l.unscoped_id);
    } else if (l.global_id) {
      source_id = static_cast<int64_t>(*l.global_id);
    } else if (l.local_id) {
      if (!upid_) return std::nullopt;
      source_id = static_cast<int64_t>(*l.local_id);
      process_scoped = true;
    } else {
      return std::nullopt;
    }
    legacy_source_id_ = source_id;
    // Catapult keeps nestable async events of different categories (legacy async events: of
    // different names) with the same id apart.
    const bool legacy_async = legacy_phase_ == 'S' || legacy_phase_ == 'T' ||
                              legacy_phase_ == 'p' || legacy_phase_ == 'F';
    StringId scope = legacy_async ? event_.name : event_.category;
    if (l.id_scope != kNullStringId) {
      std::string joined(ctx_->storage->Str(event_.category));
      joined += ':';
      joined += ctx_->storage->Str(l.id_scope);
      scope = ctx_->storage->Intern(joined);
    }
    return parts_.legacy_tracks->AsyncTrack(event_.name, upid_.value_or(0), source_id,
                                            process_scoped, scope,
                                            AsyncUseForPhase(legacy_phase_));
  }
  if (legacy_phase_ == 'i' || legacy_phase_ == 'I') {
    switch (event_.legacy->instant_event_scope) {
      case kScopeGlobal: return parts_.legacy_tracks->GlobalInstantTrack();
      case kScopeProcess: return parts_.legacy_tracks->ProcessInstantTrack(*upid_);
      default: break;
    }
  }
  if (on_thread) return ctx_->tracks.InternThreadTrack(*utid_);
  return described;
}

char TrackEventImporter::PhaseOrType() const {
  if (legacy_phase_) return static_cast<char>(legacy_phase_);
  switch (event_.type) {
    case kTypeSliceBegin: return utid_ ? 'B' : 'b';
    case kTypeSliceEnd: return utid_ ? 'E' : 'e';
    case kTypeInstant: return utid_ ? 'i' : 'n';
    default: return 0;
  }
}

void TrackEventImporter::ImportLegacyThreadCounters() {
  if (!utid_) return;
  CounterTable& counters = ctx_->storage->counter;
  // Legacy thread time fields imply no descriptor-based thread time counters for this thread,
  // so they get their own per-thread tracks.
  if (thread_ts_) {
    counters.Insert({.ts = ts_,
                     .track_id = parts_.legacy_tracks->ThreadTimeTrack(*utid_),
                     .value = static_cast<double>(*thread_ts_)});
    ctx_->storage->ExtendBounds(ts_);
  }
  if (thread_instruction_count_) {
    counters.Insert({.ts = ts_,
                     .track_id = parts_.legacy_tracks->ThreadInstructionCountTrack(*utid_),
                     .value = static_cast<double>(*thread_instruction_count_)});
    ctx_->storage->ExtendBounds(ts_);
  }
}

void TrackEventImporter::ImportExtraCounters() {
  if (event_.extra_counters.empty()) return;
  TraceStorage* storage = ctx_->storage;
  const StringId thread_time = storage->Intern("thread_time");
  const StringId instruction_count = storage->Intern("thread_instruction_count");
  for (const auto& [uuid, value] : event_.extra_counters) {
    const std::optional<uint32_t> track =
        parts_.descriptors->Intern(uuid, Use::kCounter, kNullStringId, event_.sequence_id);
    if (!track) continue;  // broken hierarchy: already counted
    storage->counter.Insert({.ts = ts_, .track_id = *track, .value = value});
    storage->ExtendBounds(ts_);
    // Thread time / instruction counters also fill the slice's columns.
    const StringId name = storage->track.name[*track];
    if (name == thread_time) {
      thread_ts_ = static_cast<int64_t>(value);
    } else if (name == instruction_count) {
      thread_instruction_count_ = static_cast<int64_t>(value);
    }
  }
}

bool TrackEventImporter::ImportCounter() {
  const std::optional<uint32_t> track = Track(Use::kCounter);
  if (!track) return false;
  TraceStorage* storage = ctx_->storage;
  const uint32_t row =
      storage->counter.Insert({.ts = ts_, .track_id = *track, .value = event_.counter_value});
  if (auto set = ctx_->args.AddArgSet(BuildArgs())) storage->counter.arg_set_id.Set(row, *set);
  storage->ExtendBounds(ts_);
  return true;
}

bool TrackEventImporter::ImportState() {
  if (!event_.track_uuid && fallback_to_thread_) return false;  // no legacy state tracks
  const std::optional<uint32_t> track = Track(Use::kState);
  if (!track) return false;
  const StringId value = event_.name;
  parts_.states->Update(ts_, *track, value, event_.category,
                        value == kNullStringId ? std::vector<Arg>() : BuildArgs());
  return true;
}

std::vector<Arg> TrackEventImporter::BuildArgs(char phase) {
  ArgsTracker& a = ctx_->args;
  TraceStorage* storage = ctx_->storage;
  const std::vector<Arg>& in = event_.args;
  const size_t log_pos = std::min<size_t>(event_.log_args_pos, in.size());
  const size_t source_pos = std::min<size_t>(event_.source_id_args_pos, in.size());
  ArgSetBuilder out;
  for (size_t i = 0; i < log_pos; ++i) out.AddOrUpdate(in[i]);

  if (event_.log_message) {
    const TrackEventData::LogMessage& m = *event_.log_message;
    if (!utid_) {
      storage->IncrementStat("track_event_parser_errors");
    } else {
      out.AddOrUpdate(a.MakeArg("track_event.log_message.message", ArgValue::String(m.body)));
      StringId tag = kNullStringId;
      if (m.has_source_location) {
        tag = storage->Intern(std::string(storage->Str(m.file_name)) + ":" +
                              std::to_string(m.line_number));
        out.AddOrUpdate(a.MakeArg("track_event.log_message.file_name",
                                       ArgValue::String(m.file_name)));
        out.AddOrUpdate(a.MakeArg("track_event.log_message.function_name",
                                       ArgValue::String(m.function_name)));
        out.AddOrUpdate(a.MakeArg("track_event.log_message.line_number",
                                       ArgValue::Int(m.line_number)));
      }
      // Track-event logs carry no priority by default; show them as INFO.
      const int32_t prio = m.prio.value_or(kAndroidLogPriorityInfo);
      if (m.prio) out.AddOrUpdate(a.MakeArg("track_event.priority", ArgValue::Int(prio)));
      LogTable& logs = storage->logs;
      logs.Insert({.ts = ts_,
                   .utid = utid_,
                   .prio = static_cast<uint32_t>(prio),
                   .log_source = storage->Intern("android_logcat"),
                   .tag = tag,
                   .msg = m.body});
    }
  }
  for (size_t i = log_pos; i < source_pos; ++i) out.AddOrUpdate(in[i]);
  if (legacy_source_id_) {
    out.AddOrUpdate(a.MakeArg("legacy_trace_source_id", ArgValue::Int(*legacy_source_id_)));
  }
  for (size_t i = source_pos; i < in.size(); ++i) out.AddOrUpdate(in[i]);
  if (passthrough_utid_) {
    out.AddIfMissing(
        a.MakeArg("legacy_event.passthrough_utid", ArgValue::Uint(*passthrough_utid_)));
  }
  if (phase) {
    out.AddOrUpdate(a.MakeArg("legacy_event.phase",
                                   ArgValue::String(storage->Intern(std::string(1, phase)))));
  }
  return std::move(out).Take();
}

std::optional<uint32_t> TrackEventImporter::BeginSlice(uint32_t track, std::vector<Arg> args) {
  // Thread timestamps only belong on thread slices ('B'); async slices would need virtual
  // track slices, which are not modelled.
  SliceTracker::ThreadTime tt;
  if (utid_) tt = {thread_ts_, thread_instruction_count_};
  const std::optional<uint32_t> row =
      ctx_->slices.Begin(ts_, track, event_.category, event_.name, {}, tt);
  // The args are written when the slice ends: its end event may add to them.
  if (row && !args.empty()) (*parts_.open_slice_args)[*row] = std::move(args);
  return row;
}

std::optional<uint32_t> TrackEventImporter::EndSlice(uint32_t track) {
  const std::optional<uint32_t> row =
      ctx_->slices.End(ts_, track, event_.category, event_.name, {}, {});
  if (!row) return std::nullopt;
  SliceTable& slices = ctx_->storage->slice;
  ArgSetBuilder merged;
  auto open = parts_.open_slice_args->find(*row);
  if (open != parts_.open_slice_args->end()) {
    merged = ArgSetBuilder(std::move(open->second));
    parts_.open_slice_args->erase(open);
  } else if (!slices.arg_set_id.IsNull(*row)) {
    merged = ArgSetBuilder(ctx_->args.GetArgSet(slices.arg_set_id[*row]));
  }
  std::vector<Arg> end_args = BuildArgs();
  ContinueAnnotationArrays(merged.args(), event_.annotation_array_keys, ctx_->storage, &end_args);
  // The end may repeat the thread passthrough; the begin's stays.
  merged.Merge(end_args, ctx_->storage->Intern("legacy_event.passthrough_utid"));
  if (auto set = ctx_->slices.AddArgSet(std::move(merged).Take())) {
    slices.arg_set_id.Set(*row, *set);
  }
  return row;
}

void TrackEventImporter::Flows(uint32_t slice) {
  FlowTracker& flows = *parts_.flows;
  if (event_.legacy && event_.legacy->bind_id) {
    const uint64_t id = *event_.legacy->bind_id;
    switch (event_.legacy->flow_direction.value_or(0)) {
      case kFlowOut: flows.Begin(slice, id); break;
      case kFlowInOut: flows.Step(slice, id); break;
      case kFlowIn: flows.End(slice, id, /*close=*/false); break;
      default: ctx_->storage->IncrementStat("flow_without_direction"); break;
    }
  }
  for (uint64_t id : event_.flow_ids) {
    if (flows.IsActive(id)) {
      flows.Step(slice, id);
    } else {
      flows.Begin(slice, id);
    }
  }
  for (uint64_t id : event_.terminating_flow_ids) {
    // Terminating an unknown flow does not start one.
    if (flows.IsActive(id)) flows.End(slice, id, /*close=*/true);
  }
  for (uint64_t id : event_.gpu_submission_event_ids) {
    ctx_->gpu_stages->AddRenderStageSubmission(id, slice);
  }
  for (uint64_t id : event_.gpu_wait_event_ids) ctx_->gpu_stages->AddRenderStageWait(id, slice);
}

void TrackEventImporter::RecordCallstack(uint32_t slice, uint32_t track) {
  const std::optional<uint32_t> callsite = ctx_->callstacks.InternCallstack(event_.callstack);
  if (!callsite) return;
  // A TYPE_SLICE_END's callstack is the slice's end callsite; any other event's is its
  // callsite.
  const bool is_end = event_.type == kTypeSliceEnd;
  ctx_->storage->track_event_callstacks.Insert(
      {.slice_id = slice,
       .track_id = track,
       .callsite_id = is_end ? OptU32() : OptU32(*callsite),
       .end_callsite_id = is_end ? OptU32(*callsite) : OptU32(),
       .weight = event_.callstack_weight});
}

bool TrackEventImporter::BeginThreadSlice() {
  if (!utid_) return false;
  const std::optional<uint32_t> track = Track(Use::kBegin);
  if (!track) return false;
  if (auto row = BeginSlice(*track, BuildArgs())) {
    Flows(*row);
    RecordCallstack(*row, *track);
  }
  return true;
}

bool TrackEventImporter::EndThreadSlice() {
  if (!utid_) return false;
  const std::optional<uint32_t> track = Track(Use::kEnd);
  if (!track) return false;
  const std::optional<uint32_t> row = EndSlice(*track);
  if (!row) return true;
  Flows(*row);
  RecordCallstack(*row, *track);
  SliceTable& slices = ctx_->storage->slice;
  if (!slices.thread_ts.IsNull(*row) && thread_ts_) {
    const int64_t delta = *thread_ts_ - slices.thread_ts[*row];
    if (delta != 0) slices.thread_dur.Set(*row, delta);
  }
  if (!slices.thread_instruction_count.IsNull(*row) && thread_instruction_count_) {
    slices.thread_instruction_delta.Set(
        *row, *thread_instruction_count_ - slices.thread_instruction_count[*row]);
  }
  return true;
}

bool TrackEventImporter::CompleteSlice() {
  if (!utid_) return false;
  const int64_t dur = event_.legacy->duration_ns.value_or(0);
  if (dur < 0) return false;
  const std::optional<uint32_t> track = Track(Use::kLegacy);
  if (!track) return false;
  std::optional<int64_t> thread_dur;
  if (thread_ts_) thread_dur = event_.legacy->thread_duration_ns.value_or(0);
  const std::optional<uint32_t> row =
      ctx_->slices.Scoped(ts_, *track, event_.category, event_.name, dur, BuildArgs(),
                          {thread_ts_, thread_instruction_count_}, thread_dur);
  if (!row) return true;
  if (thread_instruction_count_) {
    ctx_->storage->slice.thread_instruction_delta.Set(
        *row, event_.legacy->thread_instruction_delta.value_or(0));
  }
  Flows(*row);
  RecordCallstack(*row, *track);
  return true;
}

bool TrackEventImporter::Instant(char phase) {
  const std::optional<uint32_t> track = Track(Use::kInstant);
  if (!track) return false;
  // A legacy MARK keeps its phase for JSON export.
  std::vector<Arg> args = BuildArgs(phase == 'R' ? 'R' : 0);
  SliceTracker::ThreadTime tt;
  std::optional<int64_t> thread_dur;
  if (utid_) {
    tt = {thread_ts_, thread_instruction_count_};
    if (thread_ts_) thread_dur = 0;
  }
  const std::optional<uint32_t> row =
      ctx_->slices.Scoped(ts_, *track, event_.category, event_.name, 0, args, tt, thread_dur);
  if (!row) return true;
  if (utid_ && thread_instruction_count_) {
    ctx_->storage->slice.thread_instruction_delta.Set(*row, 0);
  }
  Flows(*row);
  RecordCallstack(*row, *track);
  return true;
}

bool TrackEventImporter::AsyncBegin(char phase) {
  const std::optional<uint32_t> track = Track(Use::kBegin);
  if (!track) return false;
  // A legacy ASYNC_BEGIN keeps its phase for JSON export.
  if (auto row = BeginSlice(*track, BuildArgs(phase == 'S' ? 'S' : 0))) {
    Flows(*row);
    RecordCallstack(*row, *track);
  }
  return true;
}

bool TrackEventImporter::AsyncEnd() {
  const std::optional<uint32_t> track = Track(Use::kEnd);
  if (!track) return false;
  if (auto row = EndSlice(*track)) {
    Flows(*row);
    RecordCallstack(*row, *track);
  }
  return true;
}

bool TrackEventImporter::AsyncStep(char phase) {
  // Steps become instants (rebuilding the step's sub-slice is not attempted), keeping their
  // phase; they carry no flows.
  const std::optional<uint32_t> track = Track(Use::kInstant);
  if (!track) return false;
  ctx_->slices.Scoped(ts_, *track, event_.category, event_.name, 0, BuildArgs(phase));
  return true;
}

bool TrackEventImporter::AsyncInstant() {
  const std::optional<uint32_t> track = Track(Use::kInstant);
  if (!track) return false;
  if (auto row = ctx_->slices.Scoped(ts_, *track, event_.category, event_.name, 0, BuildArgs())) {
    Flows(*row);
    RecordCallstack(*row, *track);
  }
  return true;
}

bool TrackEventImporter::FlowV1(char phase) {
  const TrackEventData::Legacy& l = *event_.legacy;
  if (!l.unscoped_id) {
    ctx_->storage->IncrementStat("flow_invalid_id");
    return false;
  }
  const uint64_t id = parts_.flows->V1FlowId(*l.unscoped_id, event_.category, event_.name);
  const std::optional<uint32_t> track = Track(Use::kLegacy);
  if (!track) return false;
  switch (phase) {
    case 's': parts_.flows->BeginOnTrack(*track, id); break;
    case 't': parts_.flows->StepOnTrack(*track, id); break;
    default: parts_.flows->EndOnTrack(*track, id, l.bind_to_enclosing, /*close=*/false); break;
  }
  return true;
}

bool TrackEventImporter::Metadata() {
  if (event_.name == kNullStringId) return false;
  const std::string_view name = ctx_->storage->Str(event_.name);
  const StringId value = event_.first_annotation_string;
  if (name == "thread_name") {
    if (!utid_) return false;
    if (value == kNullStringId || ctx_->storage->Str(value).empty()) return true;
    ctx_->processes.UpdateThreadName(*utid_, value,
                                     ThreadNamePriority::kTrackDescriptorThreadType);
    return true;
  }
  if (name == "process_name") {
    if (!upid_) return false;
    if (value == kNullStringId || ctx_->storage->Str(value).empty()) return true;
    ctx_->processes.UpdateProcessName(*upid_, value, ProcessNamePriority::kTrackDescriptor);
    return true;
  }
  return RawEvent();
}

bool TrackEventImporter::RawEvent() {
  // Other legacy phases (and metadata events other than names) become no slice: as
  // trace_processor does, they are kept in chrome_raw for JSON export, on their thread, with
  // the legacy fields a JSON event would need ahead of the event's own args.
  if (!utid_) return false;
  ArgsTracker& a = ctx_->args;
  TraceStorage* storage = ctx_->storage;
  ArgSetBuilder args;
  args.AddOrUpdate(a.MakeArg("legacy_event.category", ArgValue::String(event_.category)));
  args.AddOrUpdate(a.MakeArg("legacy_event.name", ArgValue::String(event_.name)));
  args.AddOrUpdate(a.MakeArg("legacy_event.phase", ArgValue::String(storage->Intern(std::string(
                                                       1, static_cast<char>(legacy_phase_))))));
  static const TrackEventData::Legacy kNoLegacyFields;
  const TrackEventData::Legacy& l = event_.legacy ? *event_.legacy : kNoLegacyFields;
  if (l.duration_ns) {
    args.AddOrUpdate(a.MakeArg("legacy_event.duration_ns", ArgValue::Int(*l.duration_ns)));
  }
  if (thread_ts_) {
    args.AddOrUpdate(a.MakeArg("legacy_event.thread_timestamp_ns", ArgValue::Int(*thread_ts_)));
    if (l.thread_duration_ns) {
      args.AddOrUpdate(
          a.MakeArg("legacy_event.thread_duration_ns", ArgValue::Int(*l.thread_duration_ns)));
    }
  }
  if (thread_instruction_count_) {
    args.AddOrUpdate(a.MakeArg("legacy_event.thread_instruction_count",
                               ArgValue::Int(*thread_instruction_count_)));
    if (l.thread_instruction_delta) {
      args.AddOrUpdate(a.MakeArg("legacy_event.thread_instruction_delta",
                                 ArgValue::Int(*l.thread_instruction_delta)));
    }
  }
  if (l.use_async_tts) {
    args.AddOrUpdate(a.MakeArg("legacy_event.use_async_tts", ArgValue::Bool(true)));
  }
  // One id, the unscoped one first (global or local depending on the phase, so JSON export
  // keeps it unscoped); its scope only with it.
  bool has_id = true;
  if (l.unscoped_id) {
    args.AddOrUpdate(a.MakeArg("legacy_event.unscoped_id", ArgValue::Uint(*l.unscoped_id)));
  } else if (l.global_id) {
    args.AddOrUpdate(a.MakeArg("legacy_event.global_id", ArgValue::Uint(*l.global_id)));
  } else if (l.local_id) {
    args.AddOrUpdate(a.MakeArg("legacy_event.local_id", ArgValue::Uint(*l.local_id)));
  } else {
    has_id = false;
  }
  if (has_id && l.id_scope != kNullStringId && !storage->Str(l.id_scope).empty()) {
    args.AddOrUpdate(a.MakeArg("legacy_event.id_scope", ArgValue::String(l.id_scope)));
  }
  args.Merge(BuildArgs());
  storage->chrome_raw.Insert({.ts = ts_,
                              .name = storage->Intern("track_event.legacy_event"),
                              .utid = *utid_,
                              .arg_set_id = a.AddArgSet(args.args())});
  return true;
}

}  // namespace tw
