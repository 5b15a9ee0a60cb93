#include "libs/trace/importers/proto/track_event_decoder.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "libs/trace/importers/proto/android_framework_event_decoder.h"
#include "libs/trace/importers/proto/debug_annotation_decoder.h"
#include "libs/trace/importers/proto/descriptor_args.h"
#include "libs/trace/importers/proto/interned_lookup.h"
#include "libs/trace/importers/proto/interned_source_location.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "libs/trace/importers/proto/repeated_varints.h"
#include "libs/trace/importers/proto/saturating_math.h"
#include "libs/trace/importers/proto/schema_pools.h"
#include "libs/trace/importers/proto/track_event_callstack.h"

namespace tw {
namespace {

namespace te = pf::track_event;
namespace le = pf::track_event_legacy_event;
namespace ted = pf::track_event_defaults;

// TaskExecution.posted_from_iid (protos/perfetto/trace/track_event/task_execution.proto).
constexpr uint32_t kTaskExecutionPostedFromIid = 1;
// The typed TrackEvent payloads trace_processor turns into args by reflection over
// TrackEvent's descriptor, keyed by field path ("chrome_latency_info.component_info[0].time_us"):
// cc_scheduler_state, chrome_user_event, chrome_keyed_service, chrome_legacy_ipc,
// chrome_latency_info, chrome_frame_reporter, source_location, source_location_iid,
// chrome_message_pump, chrome_mojo_event_info, chrome_application_state_info,
// chrome_renderer_scheduler_state, chrome_window_handle_event_info,
// chrome_content_settings_event_info, chrome_active_processes, screenshot; and every extension
// field its descriptor knows (Chrome's ChromeTrackEvent: page_load, blink_task_scope, ...).
// chrome_histogram_sample (28), reflected there too, is decoded by hand (AddHistogramSampleArgs)
// because its interned name joins its args.
const std::vector<uint32_t> kReflectedFields = {24, 25, 26, 27, 29, 32, 33, 34,
                                                35, 38, 39, 40, 41, 43, 49, 50};

// TrackEvent's index in the embedded pool: the same in every trace's copy of it.
std::optional<uint32_t> TrackEventIndex() {
  static const std::optional<uint32_t> index =
      TrackEventDescriptors().FindMessageIndex(".tracewise.schema.track_event.TrackEvent");
  return index;
}

const ProtoMessageDef* TrackEventDef(const DescriptorPool& pool) {
  const std::optional<uint32_t> index = TrackEventIndex();
  return index ? &pool.messages()[*index] : nullptr;
}

// Whether a field without a decoder of its own is reflected: the listed ones and extensions
// (those the embedded schema knows and those the trace's own descriptors define).
bool IsReflectedField(const DescriptorPool& pool, uint32_t id) {
  if (std::find(kReflectedFields.begin(), kReflectedFields.end(), id) != kReflectedFields.end()) {
    return true;
  }
  const ProtoMessageDef* def = TrackEventDef(pool);
  const ProtoFieldDef* field = def ? def->Field(id) : nullptr;
  return field && field->is_extension;
}

// The args of an event's reflected fields, in wire order: they are written back as one
// TrackEvent message holding just them and walked with the descriptor.
void AddReflectedArgs(const DescriptorPool& pool, const SequenceState& seq,
                      const std::vector<proto::Field>& fields, TraceStorage* storage,
                      std::vector<Arg>* args) {
  const ProtoMessageDef* track_event = TrackEventDef(pool);
  if (!track_event) return;
  proto::Writer w;
  for (const proto::Field& f : fields) {
    switch (f.type) {
      case proto::kVarint: w.Varint(f.id, f.int_value); break;
      case proto::kFixed64: w.Fixed64(f.id, f.int_value); break;
      case proto::kFixed32: w.Fixed32(f.id, static_cast<uint32_t>(f.int_value)); break;
      case proto::kLengthDelimited: w.Bytes(f.id, f.as_string()); break;
      default: break;
    }
  }
  DescriptorArgsOptions options;
  options.allowed_fields = &kReflectedFields;
  // Interned source locations inside typed payloads are resolved, as trace_processor does.
  options.debug_annotation_hook = AnnotationFieldHook(storage, &seq, &pool);
  options.scalar_hook = [&](const std::string&, const std::string& flat_key, const ArgValue& v,
                            std::vector<Arg>* out) {
    if (v.type != ArgValue::Type::kInt && v.type != ArgValue::Type::kUint) return false;
    return ExpandInternedSourceLocationArg(seq, storage, flat_key,
                                           static_cast<uint64_t>(v.int_value), out);
  };
  if (!DescriptorToArgs(pool, *track_event, w.Take(), storage, args, options)) {
    storage->IncrementStat("track_event_parser_errors");
  }
}

// Legacy events carry at most this many extra counter values (trace_processor's limit).
constexpr size_t kMaxExtraCounters = 8;
constexpr uint32_t kMonotonicClock = pf::builtin_clock::kMonotonic;

// Repeated scalar fields may arrive packed (one length-delimited field) or not.
void AppendVarints(const proto::Field& f, std::vector<uint64_t>* out) {
  if (f.type == proto::kLengthDelimited) {
    proto::PackedVarints it(f);
    uint64_t v;
    while (it.Next(&v)) out->push_back(v);
  } else {
    out->push_back(f.int_value);
  }
}
void AppendFixed64(const proto::Field& f, std::vector<uint64_t>* out) {
  if (f.type == proto::kLengthDelimited) {
    for (size_t i = 0; i + 8 <= f.size; i += 8) {
      uint64_t v;
      std::memcpy(&v, f.data + i, 8);
      out->push_back(v);
    }
  } else {
    out->push_back(f.int_value);
  }
}
void AppendDoubles(const proto::Field& f, std::vector<double>* out) {
  std::vector<uint64_t> bits;
  AppendFixed64(f, &bits);
  for (uint64_t b : bits) {
    double d;
    std::memcpy(&d, &b, sizeof(d));
    out->push_back(d);
  }
}

// TrackEvent extensions of GpuTrackEvent (gpu_track_event.proto).
constexpr uint32_t kGpuCorrelationExtension = 3000;  // GpuCorrelation
constexpr uint32_t kGpuApiExtension = 3001;          // GpuApi enum
constexpr uint32_t kRenderStageSubmissionEventIds = 1;  // GpuCorrelation fields
constexpr uint32_t kRenderStageWaitEventIds = 2;

// The fields of one TrackEvent, gathered in one pass over the wire bytes.
struct RawEvent {
  std::optional<int64_t> timestamp_delta_us;
  int64_t timestamp_absolute_us = 0;
  std::optional<int64_t> thread_time_delta_us;
  std::optional<int64_t> thread_time_absolute_us;
  std::optional<int64_t> thread_instruction_count_delta;
  std::optional<int64_t> thread_instruction_count_absolute;
  std::optional<uint32_t> type;
  std::optional<uint64_t> track_uuid;
  uint64_t name_iid = 0;
  std::optional<std::string_view> name;
  std::vector<uint64_t> category_iids;
  std::vector<std::string_view> categories;
  std::vector<proto::Field> debug_annotations;
  std::optional<proto::Field> legacy_event;
  std::optional<int64_t> counter_value;
  std::optional<double> double_counter_value;
  std::vector<uint64_t> extra_counter_values;  // int64 on the wire
  std::vector<uint64_t> extra_counter_track_uuids;
  std::vector<double> extra_double_counter_values;
  std::vector<uint64_t> extra_double_counter_track_uuids;
  std::vector<uint64_t> flow_ids;
  std::vector<uint64_t> flow_ids_old;
  std::vector<uint64_t> terminating_flow_ids;
  std::vector<uint64_t> terminating_flow_ids_old;
  std::optional<uint64_t> source_location_iid;
  std::optional<proto::Field> task_execution;
  std::optional<proto::Field> log_message;
  std::optional<uint64_t> correlation_id;
  std::optional<std::string_view> correlation_id_str;
  std::optional<uint64_t> correlation_id_str_iid;
  std::optional<proto::Field> histogram_sample;  // ChromeHistogramSample
  std::vector<proto::Field> reflected;  // typed payloads turned into args by reflection
  std::vector<proto::Field> framework_extensions;  // Android framework process lifecycle
  std::optional<proto::Field> gpu_correlation;     // GpuTrackEvent extensions
  std::optional<int64_t> gpu_api;
  std::optional<proto::Field> callstack;  // InlineCallstack
  uint64_t callstack_iid = 0;             // 0: none (iids start at 1)
  std::optional<double> callstack_weight;
};

bool ParseRawEvent(const DescriptorPool& pool, const proto::Field& field, RawEvent* e) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case te::kTimestampDeltaUs: e->timestamp_delta_us = f.as_int64(); break;
      case te::kTimestampAbsoluteUs: e->timestamp_absolute_us = f.as_int64(); break;
      case te::kThreadTimeDeltaUs: e->thread_time_delta_us = f.as_int64(); break;
      case te::kThreadTimeAbsoluteUs: e->thread_time_absolute_us = f.as_int64(); break;
      case te::kThreadInstructionCountDelta:
        e->thread_instruction_count_delta = f.as_int64();
        break;
      case te::kThreadInstructionCountAbsolute:
        e->thread_instruction_count_absolute = f.as_int64();
        break;
      case te::kType: e->type = f.as_uint32(); break;
      case te::kTrackUuid: e->track_uuid = f.as_uint64(); break;
      case te::kNameIid: e->name_iid = f.as_uint64(); break;
      case te::kName: e->name = f.as_string(); break;
      case te::kCategoryIids: AppendVarints(f, &e->category_iids); break;
      case te::kCategories: e->categories.push_back(f.as_string()); break;
      case te::kDebugAnnotations: e->debug_annotations.push_back(f); break;
      case te::kLegacyEvent: e->legacy_event = f; break;
      case te::kCounterValue: e->counter_value = f.as_int64(); break;
      case te::kDoubleCounterValue: e->double_counter_value = f.as_double(); break;
      case te::kExtraCounterValues: AppendVarints(f, &e->extra_counter_values); break;
      case te::kExtraCounterTrackUuids: AppendVarints(f, &e->extra_counter_track_uuids); break;
      case te::kExtraDoubleCounterValues: AppendDoubles(f, &e->extra_double_counter_values); break;
      case te::kExtraDoubleCounterTrackUuids:
        AppendVarints(f, &e->extra_double_counter_track_uuids);
        break;
      case te::kFlowIds: AppendFixed64(f, &e->flow_ids); break;
      case te::kFlowIdsOld: AppendVarints(f, &e->flow_ids_old); break;
      case te::kTerminatingFlowIds: AppendFixed64(f, &e->terminating_flow_ids); break;
      case te::kTerminatingFlowIdsOld: AppendVarints(f, &e->terminating_flow_ids_old); break;
      case te::kSourceLocationIid:
        e->source_location_iid = f.as_uint64();
        e->reflected.push_back(f);  // and reflected too, as "source_location_iid"
        break;
      case te::kTaskExecution: e->task_execution = f; break;
      case te::kLogMessage: e->log_message = f; break;
      case te::kCorrelationId: e->correlation_id = f.as_uint64(); break;
      case te::kCorrelationIdStr: e->correlation_id_str = f.as_string(); break;
      case te::kCorrelationIdStrIid: e->correlation_id_str_iid = f.as_uint64(); break;
      case kGpuCorrelationExtension:
        if (f.type == proto::kLengthDelimited) e->gpu_correlation = f;
        break;
      case kGpuApiExtension: e->gpu_api = f.as_int64(); break;
      case te::kChromeHistogramSample: e->histogram_sample = f; break;
      case te::kCallstack:
        if (f.type == proto::kLengthDelimited) e->callstack = f;
        break;
      case te::kCallstackIid: e->callstack_iid = f.as_uint64(); break;
      case te::kCallstackWeight: e->callstack_weight = f.as_double(); break;
      default:
        if (IsReflectedField(pool, f.id)) {
          e->reflected.push_back(f);
        } else if (IsAndroidFrameworkTrackEventExtension(f.id)) {
          e->framework_extensions.push_back(f);
        }
        break;
    }
  }
  return !d.error();
}

// The GpuTrackEvent extensions: args as trace_processor reflects them (gpu_api by its enum
// name, gpu_correlation's event ids as arrays), and the render stage event ids the slice
// submitted or waits for, which the GPU tracker links to render stages with flows.
void DecodeGpuExtensions(ImportContext* ctx, const RawEvent& e, TrackEventData* data) {
  auto add = [&](std::string_view flat_key, std::string_view key, ArgValue v) {
    data->args.push_back(Arg{ctx->Intern(flat_key), ctx->Intern(key), v});
  };
  if (e.gpu_correlation) {
    size_t submitted = 0, waited = 0;
    proto::Decoder d(*e.gpu_correlation);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == kRenderStageSubmissionEventIds) {
        proto::ForEachVarint(f, [&](uint64_t id) {
          data->gpu_submission_event_ids.push_back(id);
          add("gpu_correlation.render_stage_submission_event_ids",
              "gpu_correlation.render_stage_submission_event_ids[" +
                  std::to_string(submitted++) + "]",
              ArgValue::Uint(id));
        });
      } else if (f.id == kRenderStageWaitEventIds) {
        proto::ForEachVarint(f, [&](uint64_t id) {
          data->gpu_wait_event_ids.push_back(id);
          add("gpu_correlation.render_stage_wait_event_ids",
              "gpu_correlation.render_stage_wait_event_ids[" + std::to_string(waited++) + "]",
              ArgValue::Uint(id));
        });
      }
    }
  }
  if (e.gpu_api) {
    static constexpr std::string_view kApis[] = {"GPU_API_UNDEFINED", "GPU_API_OPEN_GL",
                                                 "GPU_API_VULKAN",    "GPU_API_OPEN_CL",
                                                 "GPU_API_CUDA",      "GPU_API_HIP"};
    if (*e.gpu_api >= 0 && *e.gpu_api < 6) {
      add("gpu_api", "gpu_api", ArgValue::String(ctx->Intern(kApis[*e.gpu_api])));
    } else {
      add("gpu_api", "gpu_api", ArgValue::Int(*e.gpu_api));
    }
  }
}

TrackEventData::Legacy ParseLegacy(ImportContext* ctx, const proto::Field& field,
                                   uint64_t* name_iid) {
  TrackEventData::Legacy l;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case le::kNameIid: *name_iid = f.as_uint64(); break;
      case le::kPhase: l.phase = f.as_int32(); break;
      case le::kDurationUs: l.duration_ns = SaturatingMultiply(f.as_int64(), 1000); break;
      case le::kThreadDurationUs:
        l.thread_duration_ns = SaturatingMultiply(f.as_int64(), 1000);
        break;
      case le::kThreadInstructionDelta: l.thread_instruction_delta = f.as_int64(); break;
      case le::kUnscopedId: l.unscoped_id = f.as_uint64(); break;
      case le::kGlobalId: l.global_id = f.as_uint64(); break;
      case le::kLocalId: l.local_id = f.as_uint64(); break;
      case le::kIdScope: l.id_scope = ctx->Intern(f.as_string()); break;
      case le::kBindId: l.bind_id = f.as_uint64(); break;
      case le::kBindToEnclosing: l.bind_to_enclosing = f.as_bool(); break;
      case le::kUseAsyncTts: l.use_async_tts = f.as_bool(); break;
      case le::kFlowDirection: l.flow_direction = f.as_uint32(); break;
      case le::kInstantEventScope: l.instant_event_scope = f.as_uint32(); break;
      case le::kPidOverride: l.pid_override = f.as_int32(); break;
      case le::kTidOverride: l.tid_override = f.as_int32(); break;
      default: break;
    }
  }
  return l;
}

// TracePacketDefaults.track_event_defaults of the sequence.
struct EventDefaults {
  std::optional<uint64_t> track_uuid;
  std::vector<uint64_t> extra_counter_track_uuids;
  std::vector<uint64_t> extra_double_counter_track_uuids;
};

EventDefaults ParseDefaults(const SequenceState* seq) {
  EventDefaults out;
  if (!seq || !seq->defaults()) return out;
  proto::Decoder d(*seq->defaults());
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != pf::trace_packet_defaults::kTrackEventDefaults ||
        f.type != proto::kLengthDelimited) {
      continue;
    }
    proto::Decoder dd(f);
    proto::Field x;
    while (dd.Next(&x)) {
      switch (x.id) {
        case ted::kTrackUuid: out.track_uuid = x.as_uint64(); break;
        case ted::kExtraCounterTrackUuids: AppendVarints(x, &out.extra_counter_track_uuids); break;
        case ted::kExtraDoubleCounterTrackUuids:
          AppendVarints(x, &out.extra_double_counter_track_uuids);
          break;
        default: break;
      }
    }
  }
  return out;
}

// SourceLocation (interned): file name with '\' made '/', function name, line number.
StringId ResolveCategory(ImportContext* ctx, const SequenceState& seq, const RawEvent& e) {
  namespace id = pf::interned_data;
  if (e.category_iids.size() == 1 && e.categories.empty()) {
    if (auto name = InternedStringCounted(ctx->storage, seq, id::kEventCategories,
                                          e.category_iids[0], pf::event_category::kName)) {
      return ctx->Intern(*name);
    }
    return ctx->Intern("unknown(" + std::to_string(e.category_iids[0]) + ")");
  }
  if (e.category_iids.empty() && e.categories.size() == 1) return ctx->Intern(e.categories[0]);
  // Several categories: one comma-joined string (the table has a single category column).
  std::string joined;
  for (uint64_t iid : e.category_iids) {
    auto name = InternedStringCounted(ctx->storage, seq, id::kEventCategories, iid,
                                      pf::event_category::kName);
    if (!name) continue;
    if (!joined.empty()) joined += ',';
    joined.append(*name);
  }
  for (std::string_view c : e.categories) {
    if (!joined.empty()) joined += ',';
    joined.append(c);
  }
  return joined.empty() ? kNullStringId : ctx->Intern(joined);
}

int32_t ToAndroidLogPriority(uint32_t prio) {
  // LogMessage.Priority and AndroidLogPriority share values (UNSPECIFIED..FATAL = 0..7).
  return prio <= 7 ? static_cast<int32_t>(prio) : 0;
}

// A ChromeHistogramSample (name_hash 1, name 2, sample 3, name_iid 4): its fields become
// chrome_histogram_sample.* args, and an interned name (InternedData.histogram_names) the
// chrome_histogram_sample.name arg, as trace_processor shows them. A sample with both a name and
// a name_iid, or an iid never interned, is a parser error.
template <typename Add>
void AddHistogramSampleArgs(ImportContext* ctx, const SequenceState& seq,
                            const proto::Field& sample, const Add& add) {
  constexpr uint32_t kNameHash = 1, kName = 2, kSample = 3, kNameIid = 4;
  std::optional<uint64_t> name_iid;
  bool has_name = false;
  proto::Decoder d(sample);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case kNameHash: add("chrome_histogram_sample.name_hash", ArgValue::Uint(f.as_uint64())); break;
      case kName:
        has_name = true;
        add("chrome_histogram_sample.name", ArgValue::String(ctx->Intern(f.as_string())));
        break;
      case kSample: add("chrome_histogram_sample.sample", ArgValue::Int(f.as_int64())); break;
      case kNameIid:
        name_iid = f.as_uint64();
        add("chrome_histogram_sample.name_iid", ArgValue::Uint(f.as_uint64()));
        break;
      default: break;
    }
  }
  if (!name_iid) return;
  if (has_name) {
    ctx->storage->IncrementStat("track_event_parser_errors");
    return;
  }
  if (auto name = InternedStringCounted(ctx->storage, seq, pf::interned_data::kHistogramNames,
                                        *name_iid, 2)) {
    add("chrome_histogram_sample.name", ArgValue::String(ctx->Intern(*name)));
  } else {
    ctx->storage->IncrementStat("track_event_parser_errors");
  }
}

}  // namespace

TrackEventDecoder::TrackEventDecoder(ImportContext* ctx)
    : ctx_(ctx), registry_(&own_registry_), descriptors_(ctx) {
  descriptors_.set_registry(registry_);
}

TrackEventDecoder::~TrackEventDecoder() = default;

void TrackEventDecoder::set_descriptor_registry(TrackDescriptorRegistry* registry) {
  registry_ = registry ? registry : &own_registry_;
  descriptors_.set_registry(registry_);
}

void TrackEventDecoder::OnFirstPacketOnSequence(uint32_t sequence_id) {
  registry_->MarkFirstPacketOnSequence(sequence_id);
}

void TrackEventDecoder::OnTrackDescriptor(const PacketContext& packet,
                                          const proto::Field& descriptor) {
  descriptors_.OnTrackDescriptor(packet, descriptor);
}

void TrackEventDecoder::OnThreadDescriptor(const PacketContext& packet,
                                           const proto::Field& descriptor) {
  descriptors_.OnThreadDescriptor(packet, descriptor);
}

void TrackEventDecoder::OnStreamingProfilePacket(const PacketContext& packet,
                                                 const proto::Field& profile) {
  constexpr uint32_t kTimestampDeltaUs = 2;  // StreamingProfilePacket.timestamp_delta_us
  if (!packet.sequence) return;
  SequenceState::TrackEventTimes& times = packet.sequence->track_event_times();
  // A time that went negative (an overflowing delta) poisons the sequence: every later packet
  // that needs it is invalid, as in trace_processor.
  if (times.timestamp_ns < 0) {
    ctx_->storage->IncrementStat("streaming_profile_invalid_timestamp");
    return;
  }
  proto::Decoder d(profile);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != kTimestampDeltaUs) continue;
    bool invalid = false;
    proto::ForEachVarint(f, [&](uint64_t raw) {
      if (invalid) return;
      const int64_t delta_us = static_cast<int64_t>(raw);
      times.timestamp_ns = SaturatingAdd(times.timestamp_ns, SaturatingMultiply(delta_us, 1000));
      if (times.timestamp_ns < 0) invalid = true;
    });
    if (invalid) {
      ctx_->storage->IncrementStat("streaming_profile_invalid_timestamp");
      return;
    }
  }
}

void TrackEventDecoder::OnProcessDescriptor(const PacketContext& packet,
                                            const proto::Field& descriptor) {
  descriptors_.OnProcessDescriptor(packet, descriptor);
}

std::optional<double> TrackEventDecoder::AbsoluteCounterValue(const PacketContext& packet,
                                                              uint64_t uuid, double value) {
  const TrackReservation* r = registry_->Find(uuid);
  if (!r || !r->counter) return std::nullopt;
  if (r->counter->unit_multiplier > 0) value *= static_cast<double>(r->counter->unit_multiplier);
  if (r->counter->is_incremental && packet.sequence) {
    value = incremental_counters_.Accumulate(packet.sequence_id, packet.sequence, uuid, value);
  }
  return value;
}

void TrackEventDecoder::OnTrackEvent(const PacketContext& packet, const proto::Field& field) {
  TraceStorage* storage = ctx_->storage;
  SequenceState* seq = packet.sequence;
  if (!seq) return;
  RawEvent e;
  if (!ParseRawEvent(ctx_->descriptors.pool(), field, &e)) {
    storage->IncrementStat("track_event_tokenizer_errors");
    return;
  }
  SequenceState::TrackEventTimes& times = seq->track_event_times();
  // After a data loss the delta references belong to the lost packets: they stay unusable
  // until a ThreadDescriptor follows a state reset.
  if (!seq->incremental_state_valid()) times.valid = false;

  // Timestamp: legacy delta/absolute microseconds (MONOTONIC, relative to the sequence's
  // ThreadDescriptor for deltas), else the packet's own timestamp.
  int64_t ts;
  bool needs_clock_conversion = false;
  if (e.timestamp_delta_us) {
    if (!times.valid) {
      storage->IncrementStat("track_event_skipped_timestamp_delta_without_valid_state");
      return;
    }
    times.timestamp_ns =
        SaturatingAdd(times.timestamp_ns, SaturatingMultiply(*e.timestamp_delta_us, 1000));
    ts = times.timestamp_ns;
    needs_clock_conversion = true;
  } else if (e.timestamp_absolute_us != 0) {
    // One-off absolute timestamps leave the delta reference alone.
    ts = SaturatingMultiply(e.timestamp_absolute_us, 1000);
    needs_clock_conversion = true;
  } else if (packet.has_timestamp) {
    ts = packet.ts;
  } else {
    storage->IncrementStat("track_event_missing_timestamp");
    return;
  }
  // Checked before conversion: a clock offset could bring an overflowed (saturated) value
  // back into a plausible range.
  if (ts < 0) {
    storage->IncrementStat("track_event_invalid_timestamp");
    return;
  }
  if (needs_clock_conversion) {
    if (auto converted = ctx_->clocks.ToTraceTime(ClockKey{kMonotonicClock, 0}, ts)) {
      ts = *converted;
    }
  }

  TrackEventData data;
  data.kind = TrackEventData::Kind::kEvent;
  data.sequence_id = packet.sequence_id;
  if (seq->tid) {
    data.has_thread = true;
    data.pid = seq->pid.value_or(0);
    data.tid = *seq->tid;
    if (descriptors_.IsSandboxed(packet.sequence_id)) data.tid = SyntheticTid(data.tid, data.pid);
  }

  if (e.thread_time_delta_us) {
    if (!times.valid) {
      storage->IncrementStat("track_event_skipped_thread_time_delta_without_valid_state");
      return;
    }
    times.thread_timestamp_ns = SaturatingAdd(times.thread_timestamp_ns,
                                              SaturatingMultiply(*e.thread_time_delta_us, 1000));
    data.thread_ts = times.thread_timestamp_ns;
  } else if (e.thread_time_absolute_us) {
    data.thread_ts = SaturatingMultiply(*e.thread_time_absolute_us, 1000);
  }
  if (e.thread_instruction_count_delta) {
    if (!times.valid) {
      storage->IncrementStat(
          "track_event_skipped_thread_instruction_delta_without_valid_state");
      return;
    }
    times.thread_instruction_count =
        SaturatingAdd(times.thread_instruction_count, *e.thread_instruction_count_delta);
    data.thread_instruction_count = times.thread_instruction_count;
  } else if (e.thread_instruction_count_absolute) {
    data.thread_instruction_count = *e.thread_instruction_count_absolute;
  }

  const EventDefaults defaults = ParseDefaults(seq);
  data.has_type = e.type.has_value();
  data.type = e.type.value_or(0);
  data.has_track_uuid = e.track_uuid.has_value();
  data.track_uuid = e.track_uuid ? *e.track_uuid : defaults.track_uuid.value_or(0);

  if (data.type == pf::track_event_type::kCounter) {
    if (!e.track_uuid && !defaults.track_uuid) {
      storage->IncrementStat("track_event_counter_missing_track_uuid");
      return;
    }
    if (!e.counter_value && !e.double_counter_value) {
      storage->IncrementStat("track_event_counter_missing_value");
      return;
    }
    const double raw = e.counter_value ? static_cast<double>(*e.counter_value)
                                       : *e.double_counter_value;
    const std::optional<double> value = AbsoluteCounterValue(packet, data.track_uuid, raw);
    if (!value) {
      storage->IncrementStat("track_event_counter_invalid_track_uuid");
      return;
    }
    data.counter_value = *value;
  }
  if (data.type == pf::track_event_type::kState && !e.track_uuid && !defaults.track_uuid) {
    storage->IncrementStat("track_event_state_missing_track_uuid");
    return;
  }

  // Extra counters: integer values first, then doubles, each against the event's uuids or
  // else the sequence defaults'.
  auto add_extra = [&](const auto& values, const std::vector<uint64_t>& event_uuids,
                       const std::vector<uint64_t>& default_uuids) {
    if (values.empty()) return true;
    const std::vector<uint64_t>& uuids = !event_uuids.empty() ? event_uuids : default_uuids;
    if (uuids.empty()) {
      storage->IncrementStat("track_event_extra_counter_missing_track_uuids");
      return false;
    }
    for (size_t i = 0; i < values.size(); ++i) {
      if (i >= uuids.size() || uuids[i] == 0) {
        storage->IncrementStat("track_event_extra_counter_track_uuid_mismatch");
        return false;
      }
      if (data.extra_counters.size() >= kMaxExtraCounters) {
        storage->IncrementStat("track_event_extra_counter_exceeds_max");
        return false;
      }
      double raw;
      if constexpr (std::is_same_v<std::decay_t<decltype(values[i])>, double>) {
        raw = values[i];
      } else {
        raw = static_cast<double>(static_cast<int64_t>(values[i]));
      }
      const std::optional<double> v = AbsoluteCounterValue(packet, uuids[i], raw);
      if (!v) {
        storage->IncrementStat("track_event_extra_counter_invalid_track");
        return false;
      }
      data.extra_counters.emplace_back(uuids[i], *v);
    }
    return true;
  };
  if (!add_extra(e.extra_counter_values, e.extra_counter_track_uuids,
                 defaults.extra_counter_track_uuids)) {
    return;
  }
  if (!add_extra(e.extra_double_counter_values, e.extra_double_counter_track_uuids,
                 defaults.extra_double_counter_track_uuids)) {
    return;
  }

  // Name and category (interned per sequence).
  uint64_t name_iid = e.name_iid;
  if (e.legacy_event) {
    uint64_t legacy_name_iid = 0;
    data.legacy = ParseLegacy(ctx_, *e.legacy_event, &legacy_name_iid);
    if (!name_iid) name_iid = legacy_name_iid;
  }
  if (name_iid) {
    if (auto name = InternedStringCounted(storage, *seq, pf::interned_data::kEventNames,
                                          name_iid, pf::event_name::kName)) {
      data.name = ctx_->Intern(*name);
    }
  } else if (e.name) {
    data.name = ctx_->Intern(*e.name);
  }
  data.category = ResolveCategory(ctx_, *seq, e);

  // Flows: the current fields win over the deprecated ones when both are present.
  data.flow_ids = !e.flow_ids.empty() ? e.flow_ids : e.flow_ids_old;
  data.terminating_flow_ids =
      !e.terminating_flow_ids.empty() ? e.terminating_flow_ids : e.terminating_flow_ids_old;

  // Args, in trace_processor's order.
  std::vector<Arg>& args = data.args;
  auto add = [&](std::string_view key, ArgValue v) {
    const StringId k = ctx_->Intern(key);
    args.push_back(Arg{k, k, v});
  };
  if (e.source_location_iid) {
    if (auto loc = LookupSourceLocation(*seq, *e.source_location_iid);
        loc && *e.source_location_iid) {
      add("source.file_name", ArgValue::String(ctx_->Intern(loc->file_name)));
      add("source.function_name", ArgValue::String(ctx_->Intern(loc->function_name)));
      add("source.line_number", ArgValue::Uint(loc->line_number.value_or(0)));
    } else {
      storage->IncrementStat("track_event_parser_errors");
    }
  }
  if (e.task_execution) {
    uint64_t iid = 0;
    proto::Decoder d(*e.task_execution);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == kTaskExecutionPostedFromIid) iid = f.as_uint64();
    }
    std::optional<SourceLocation> loc;
    if (iid) loc = LookupSourceLocation(*seq, iid);
    if (loc) {
      add("task.posted_from.file_name", ArgValue::String(ctx_->Intern(loc->file_name)));
      add("task.posted_from.function_name", ArgValue::String(ctx_->Intern(loc->function_name)));
      add("task.posted_from.line_number", ArgValue::Uint(loc->line_number.value_or(0)));
    } else {
      storage->IncrementStat("track_event_parser_errors");
    }
  }
  data.log_args_pos = static_cast<uint32_t>(args.size());
  if (e.log_message) {
    uint64_t body_iid = 0;
    std::optional<uint64_t> source_iid;
    std::optional<uint32_t> prio;
    proto::Decoder d(*e.log_message);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == pf::log_message::kBodyIid) body_iid = f.as_uint64();
      if (f.id == pf::log_message::kSourceLocationIid) source_iid = f.as_uint64();
      if (f.id == pf::log_message::kPrio) prio = f.as_uint32();
    }
    auto body = InternedString(*seq, pf::interned_data::kLogMessageBody, body_iid,
                               pf::log_message_body::kBody);
    std::optional<SourceLocation> loc;
    if (source_iid) loc = LookupSourceLocation(*seq, *source_iid);
    if (!body || (source_iid && !loc)) {
      storage->IncrementStat("track_event_parser_errors");
    } else {
      TrackEventData::LogMessage m;
      m.body = ctx_->Intern(*body);
      if (loc) {
        m.has_source_location = true;
        m.file_name = ctx_->Intern(loc->file_name);
        m.function_name = ctx_->Intern(loc->function_name);
        m.line_number = loc->line_number.value_or(0);
      }
      if (prio) m.prio = ToAndroidLogPriority(*prio);
      data.log_message = m;
    }
  }
  if (e.correlation_id) {
    add("correlation_id",
        ArgValue::String(ctx_->Intern("tp:#" + std::to_string(*e.correlation_id))));
  }
  if (e.correlation_id_str) {
    add("correlation_id", ArgValue::String(ctx_->Intern(*e.correlation_id_str)));
  }
  if (e.correlation_id_str_iid) {
    if (auto s = InternedString(*seq, pf::interned_data::kCorrelationIdStr,
                                *e.correlation_id_str_iid, pf::interned_string::kStr)) {
      add("correlation_id", ArgValue::String(ctx_->Intern(*s)));
    }
  }
  if (e.histogram_sample) AddHistogramSampleArgs(ctx_, *seq, *e.histogram_sample, add);
  data.source_id_args_pos = static_cast<uint32_t>(args.size());
  // The callstack (an interned one wins over an inline one, as only one should be set).
  std::optional<std::vector<CallstackFrame>> callstack;
  if (e.callstack_iid) {
    callstack = DecodeInternedCallstack(ctx_, *seq, e.callstack_iid);
  } else if (e.callstack) {
    callstack = DecodeInlineCallstack(ctx_, *e.callstack);
  }
  if (callstack) {
    data.callstack = std::move(*callstack);
  } else if (e.callstack_iid || e.callstack) {
    storage->IncrementStat("track_event_parser_errors");
  }
  data.callstack_weight = e.callstack_weight;
  if (!e.reflected.empty()) {
    AddReflectedArgs(ctx_->descriptors.pool(), *seq, e.reflected, storage, &args);
  }
  DecodeGpuExtensions(ctx_, e, &data);
  if (!e.debug_annotations.empty()) {
    DebugAnnotationDecoder annotations(storage, seq, &args, &ctx_->descriptors.pool());
    for (const proto::Field& a : e.debug_annotations) {
      if (!annotations.Decode(a)) storage->IncrementStat("track_event_parser_errors");
    }
    data.first_annotation_string = annotations.first_string_value();
    for (const auto& [array_key, next_index] : annotations.array_indices()) {
      data.annotation_array_keys.push_back(ctx_->Intern(array_key));
    }
  }

  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(ts, EventType::kTrackEvent, std::move(data)));
  // After the event itself, as trace_processor handles extensions once the slice exists.
  for (const proto::Field& extension : e.framework_extensions) {
    DecodeAndroidFrameworkTrackEventExtension(ctx_, packet, ts, extension);
  }
}

}  // namespace tw
