#include "libs/trace/importers/proto/track_descriptor_decoder.h"

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/saturating_math.h"

namespace tw {
namespace {

namespace td = pf::track_descriptor;
namespace thd = pf::thread_descriptor;
namespace prd = pf::process_descriptor;
namespace cd = pf::counter_descriptor;

struct ThreadFields {
  bool has_pid = false;
  bool has_tid = false;
  int64_t pid = 0;
  int64_t tid = 0;
  std::optional<std::string_view> name;
  int64_t reference_timestamp_us = 0;
  int64_t reference_thread_time_us = 0;
  int64_t reference_thread_instruction_count = 0;
};

ThreadFields ParseThread(const proto::Field& field) {
  ThreadFields t;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case thd::kPid: t.has_pid = true; t.pid = f.as_int32(); break;
      case thd::kTid: t.has_tid = true; t.tid = f.as_int64(); break;
      case thd::kThreadName: t.name = f.as_string(); break;
      case thd::kReferenceTimestampUs: t.reference_timestamp_us = f.as_int64(); break;
      case thd::kReferenceThreadTimeUs: t.reference_thread_time_us = f.as_int64(); break;
      case thd::kReferenceThreadInstructionCount:
        t.reference_thread_instruction_count = f.as_int64();
        break;
      default: break;
    }
  }
  return t;
}

struct ProcessFields {
  bool has_pid = false;
  TrackEventData::ProcessInfo info;
};

ProcessFields ParseProcess(ImportContext* ctx, const proto::Field& field) {
  ProcessFields p;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case prd::kPid: p.has_pid = true; p.info.pid = f.as_int32(); break;
      case prd::kProcessName:
        // An empty name must not erase a name learnt elsewhere.
        if (f.size) p.info.name = ctx->Intern(f.as_string());
        break;
      case prd::kStartTimestampNs:
        if (f.as_int64() > 0) p.info.start_timestamp_ns = f.as_int64();
        break;
      case prd::kProcessLabels: p.info.labels.push_back(ctx->Intern(f.as_string())); break;
      default: break;
    }
  }
  return p;
}

// The sequence's default thread, and the reference for delta-encoded timestamps.
void ApplyThreadToSequence(SequenceState* seq, const ThreadFields& t) {
  seq->pid = static_cast<int32_t>(t.pid);
  seq->tid = static_cast<int32_t>(t.tid);
  SequenceState::TrackEventTimes& times = seq->track_event_times();
  times.valid = true;
  times.timestamp_ns = SaturatingMultiply(t.reference_timestamp_us, 1000);
  times.thread_timestamp_ns = SaturatingMultiply(t.reference_thread_time_us, 1000);
  times.thread_instruction_count = t.reference_thread_instruction_count;
}

TrackEventData::ThreadInfo ToThreadInfo(ImportContext* ctx, const ThreadFields& t,
                                        bool sandboxed) {
  TrackEventData::ThreadInfo info;
  info.pid = t.pid;
  info.tid = t.tid;
  info.is_sandboxed = sandboxed;
  if (t.name && !t.name->empty()) info.name = ctx->Intern(*t.name);
  return info;
}

}  // namespace

void TrackDescriptorDecoder::Push(const PacketContext& packet, TrackEventData data) {
  data.sequence_id = packet.sequence_id;
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kTrackEvent, std::move(data)));
}

void TrackDescriptorDecoder::OnTrackDescriptor(const PacketContext& packet,
                                               const proto::Field& descriptor) {
  TraceStorage* storage = ctx_->storage;
  TrackReservation r;
  bool has_uuid = false;
  uint64_t uuid = 0;
  std::optional<proto::Field> thread, process, counter, chrome_process, chrome_thread;
  std::optional<std::string_view> name, static_name, atrace_name;
  bool has_state = false;
  std::optional<std::string_view> merge_key;
  std::optional<uint64_t> merge_key_int;
  std::optional<uint32_t> merge_behavior;
  std::optional<uint32_t> child_ordering;

  proto::Decoder d(descriptor);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case td::kUuid: has_uuid = true; uuid = f.as_uint64(); break;
      case td::kName: name = f.as_string(); break;
      case td::kStaticName: static_name = f.as_string(); break;
      case td::kAtraceName: atrace_name = f.as_string(); break;
      case td::kDescription: r.description = ctx_->Intern(f.as_string()); break;
      case td::kParentUuid: r.parent_uuid = f.as_uint64(); break;
      case td::kThread: thread = f; break;
      case td::kProcess: process = f; break;
      case td::kCounter: counter = f; break;
      case td::kChromeProcess: chrome_process = f; break;
      case td::kChromeThread: chrome_thread = f; break;
      case td::kState: has_state = true; break;
      case td::kDisallowMergingWithSystemTracks: r.use_separate_track = f.as_bool(); break;
      case td::kChildOrdering: child_ordering = f.as_uint32(); break;
      case td::kSiblingOrderRank: r.sibling_order_rank = f.as_int32(); break;
      case td::kSiblingMergeBehavior: merge_behavior = f.as_uint32(); break;
      case td::kSiblingMergeKey: merge_key = f.as_string(); break;
      case td::kSiblingMergeKeyInt: merge_key_int = f.as_uint64(); break;
      case td::kProcessOrdering: r.process_ordering_explicit = f.as_uint32() == 1; break;
      case td::kThreadOrdering: r.thread_ordering_explicit = f.as_uint32() == 1; break;
      default: break;
    }
  }
  if (d.error()) {
    storage->IncrementStat("track_event_tokenizer_errors");
    return;
  }
  if (!has_uuid) {
    storage->IncrementStat("track_descriptor_missing_uuid");
    return;
  }
  if (child_ordering) {
    using O = TrackReservation::ChildOrdering;
    switch (*child_ordering) {
      case pf::child_tracks_ordering::kUnknown: r.ordering = O::kUnknown; break;
      case pf::child_tracks_ordering::kLexicographic: r.ordering = O::kLexicographic; break;
      case pf::child_tracks_ordering::kChronological: r.ordering = O::kChronological; break;
      case pf::child_tracks_ordering::kExplicit: r.ordering = O::kExplicit; break;
      default:
        storage->IncrementStat("track_descriptor_invalid_child_ordering");
        return;
    }
  }
  if (merge_behavior) {
    using M = TrackReservation::MergeBehavior;
    switch (*merge_behavior) {
      case pf::sibling_merge_behavior::kNone: r.merge = M::kNone; break;
      case pf::sibling_merge_behavior::kBySiblingMergeKey:
        r.merge = M::kByKey;
        if (merge_key) {
          r.merge_key = ctx_->Intern(*merge_key);
        } else if (merge_key_int) {
          r.merge_key = ctx_->Intern("sibling_merge_key_int:" + std::to_string(*merge_key_int));
        }
        break;
      default: r.merge = M::kByName; break;
    }
  }
  if (name) {
    r.name = ctx_->Intern(*name);
  } else if (static_name) {
    r.name = ctx_->Intern(*static_name);
  } else if (atrace_name) {
    r.name = ctx_->Intern(*atrace_name);
  }

  TrackEventData data;
  data.kind = TrackEventData::Kind::kTrackDescriptor;
  data.descriptor_uuid = uuid;
  if (chrome_process) {
    TrackEventData::ChromeProcessInfo info;
    proto::Decoder cd_dec(*chrome_process);
    proto::Field x;
    while (cd_dec.Next(&x)) {
      if (x.id == pf::chrome_process_descriptor::kHostAppPackageName) {
        info.host_app_package_name = ctx_->Intern(x.as_string());
      } else if (x.id == pf::chrome_process_descriptor::kCrashTraceId) {
        info.crash_trace_id = x.as_uint64();
      }
    }
    data.chrome_process = info;
  }

  auto reserve = [&] {
    switch (registry_->Reserve(uuid, r)) {
      case TrackDescriptorRegistry::ReserveResult::kConflict:
        storage->IncrementStat("track_descriptor_conflicting_reservation");
        break;
      case TrackDescriptorRegistry::ReserveResult::kDefaultTrackWithParent:
        storage->IncrementStat("track_descriptor_default_track_with_parent");
        break;
      default:
        break;
    }
  };

  if (thread) {
    const ThreadFields t = ParseThread(*thread);
    if (!t.has_pid || !t.has_tid) {
      storage->IncrementStat("track_descriptor_thread_missing_pid_tid");
      return;
    }
    bool sandboxed = false;
    if (chrome_thread) {
      proto::Decoder ct(*chrome_thread);
      proto::Field x;
      while (ct.Next(&x)) {
        if (x.id == pf::chrome_thread_descriptor::kIsSandboxedTid) sandboxed = x.as_bool();
      }
    }
    r.min_timestamp = packet.ts;
    r.pid = t.pid;
    r.tid = t.tid;
    r.use_synthetic_tid = sandboxed;
    reserve();
    SequenceState* seq = packet.sequence;
    if (seq && seq->incremental_state_valid()) {
      ApplyThreadToSequence(seq, t);
      sandboxed_sequences_[packet.sequence_id] = sandboxed;
    }
    data.thread = ToThreadInfo(ctx_, t, sandboxed);
    Push(packet, std::move(data));
    return;
  }

  if (process) {
    const ProcessFields p = ParseProcess(ctx_, *process);
    if (!p.has_pid) {
      storage->IncrementStat("track_descriptor_process_missing_pid");
      return;
    }
    r.pid = p.info.pid;
    r.min_timestamp = packet.ts;
    reserve();
    data.process = p.info;
    Push(packet, std::move(data));
    return;
  }

  if (counter) {
    TrackReservation::Counter c;
    std::string categories;
    uint32_t type = pf::builtin_counter_type::kUnspecified;
    uint32_t unit = pf::counter_unit::kUnspecified;
    std::optional<std::string_view> unit_name;
    proto::Decoder cdec(*counter);
    proto::Field x;
    while (cdec.Next(&x)) {
      switch (x.id) {
        case cd::kType: type = x.as_uint32(); break;
        case cd::kCategories:
          if (!categories.empty()) categories += ',';
          categories.append(x.as_string());
          break;
        case cd::kUnit: unit = x.as_uint32(); break;
        case cd::kUnitMultiplier: c.unit_multiplier = x.as_int64(); break;
        case cd::kIsIncremental: c.is_incremental = x.as_bool(); break;
        case cd::kUnitName: unit_name = x.as_string(); break;
        case cd::kYAxisShareKey: c.y_axis_share_key = ctx_->Intern(x.as_string()); break;
        default: break;
      }
    }
    if (!categories.empty()) c.category = ctx_->Intern(categories);
    const StringId thread_time = ctx_->Intern("thread_time");
    const StringId instruction_count = ctx_->Intern("thread_instruction_count");
    if (r.name == kNullStringId) {
      if (type == pf::builtin_counter_type::kThreadTimeNs) r.name = thread_time;
      if (type == pf::builtin_counter_type::kThreadInstructionCount) r.name = instruction_count;
    }
    if (type == pf::builtin_counter_type::kThreadTimeNs) {
      c.unit = ctx_->Intern("ns");
      c.builtin_type = thread_time;
    } else if (type == pf::builtin_counter_type::kThreadInstructionCount) {
      c.unit = ctx_->Intern("count");
      c.builtin_type = instruction_count;
    } else if (unit == pf::counter_unit::kTimeNs) {
      c.unit = ctx_->Intern("ns");
    } else if (unit == pf::counter_unit::kCount) {
      c.unit = ctx_->Intern("count");
    } else if (unit == pf::counter_unit::kSizeBytes) {
      c.unit = ctx_->Intern("bytes");
    } else if (unit_name) {
      c.unit = ctx_->Intern(*unit_name);
    }
    r.counter = c;
    reserve();
    Push(packet, std::move(data));
    return;
  }

  r.is_state = has_state;
  reserve();
  Push(packet, std::move(data));
}

void TrackDescriptorDecoder::OnThreadDescriptor(const PacketContext& packet,
                                                const proto::Field& descriptor) {
  SequenceState* seq = packet.sequence;
  // Delta timestamps after a data loss would be computed from a stale reference: wait for a
  // descriptor that follows a state reset.
  if (!seq || !seq->incremental_state_valid()) {
    ctx_->storage->IncrementStat("thread_descriptor_skipped_incremental_state_invalid");
    return;
  }
  const ThreadFields t = ParseThread(descriptor);
  ApplyThreadToSequence(seq, t);
  sandboxed_sequences_[packet.sequence_id] = false;
  TrackEventData data;
  data.kind = TrackEventData::Kind::kThreadDescriptor;
  data.thread = ToThreadInfo(ctx_, t, false);
  Push(packet, std::move(data));
}

void TrackDescriptorDecoder::OnProcessDescriptor(const PacketContext& packet,
                                                 const proto::Field& descriptor) {
  const ProcessFields p = ParseProcess(ctx_, descriptor);
  TrackEventData data;
  data.kind = TrackEventData::Kind::kProcessDescriptor;
  data.process = p.info;
  Push(packet, std::move(data));
}

}  // namespace tw
