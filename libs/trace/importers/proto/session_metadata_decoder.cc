#include "libs/trace/importers/proto/session_metadata_decoder.h"

#include <iterator>
#include <string>

#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/trace_uuid.h"

namespace tw {

void SessionMetadataDecoder::DecodeServiceEvent(const PacketContext& packet,
                                                const proto::Field& field) {
  namespace se = pf::tracing_service_event;
  TraceStorage& s = *ctx_->storage;
  // The service stamps its events with BOOTTIME whatever the trace clock is. A packet without
  // an explicit clock was read as trace-clock time, so its value is the raw BOOTTIME one: convert
  // it (keeping it as is when no snapshot links the clocks).
  int64_t ts = packet.ts;
  if (packet.timestamp_clock_id == 0) {
    if (auto t = ctx_->clocks.ToTraceTime({kBootTimeClock, 0}, packet.ts)) ts = *t;
  }
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case se::kTracingStarted:
        if (f.as_bool()) s.SetMetadata("tracing_started_ns", ts);
        break;
      case se::kTracingDisabled:
        if (f.as_bool()) s.SetMetadata("tracing_disabled_ns", ts);
        break;
      case se::kAllDataSourcesStarted:
        if (f.as_bool()) s.SetMetadata("all_data_source_started_ns", ts);
        break;
      case se::kAllDataSourcesFlushed:
        // One row per flush: a trace can be flushed several times.
        if (f.as_bool()) s.AppendMetadata("all_data_source_flushed_ns", ts);
        break;
      case se::kSlowStartingDataSources: {
        proto::Decoder sd(f);
        proto::Field ds;
        while (sd.Next(&ds)) {
          if (ds.id != pf::tracing_service_event_data_sources::kDataSource) continue;
          std::string producer, name;
          proto::Decoder dd(ds);
          proto::Field x;
          while (dd.Next(&x)) {
            namespace dsf = pf::tracing_service_event_data_sources_data_source;
            if (x.id == dsf::kProducerName) producer = std::string(x.as_string());
            if (x.id == dsf::kDataSourceName) name = std::string(x.as_string());
          }
          s.AppendMetadata("slow_start_data_source", std::string_view(producer + " " + name));
        }
        break;
      }
      case se::kCloneStarted:
        s.SetStat("traced_clone_started_timestamp_ns", ts);
        break;
      case se::kBufferCloned:
        s.SetIndexedStat("traced_buf_clone_done_timestamp_ns", f.as_int64(), ts);
        break;
      default:
        break;
    }
  }
}

void SessionMetadataDecoder::DecodeTraceUuid(const proto::Field& field, bool* uuid_found) {
  int64_t msb = 0, lsb = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::trace_uuid::kMsb) msb = f.as_int64();
    if (f.id == pf::trace_uuid::kLsb) lsb = f.as_int64();
  }
  if (msb == 0 && lsb == 0) return;
  ctx_->storage->SetMetadata("trace_uuid", std::string_view(FormatTraceUuid(msb, lsb)));
  *uuid_found = true;
}

void SessionMetadataDecoder::DecodeTrigger(const PacketContext& packet, const proto::Field& field,
                                           bool clone) {
  std::string name;
  std::optional<std::string_view> producer;
  std::optional<int32_t> uid;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::trigger::kTriggerName) name = std::string(f.as_string());
    if (f.id == pf::trigger::kProducerName) producer = f.as_string();
    if (f.id == pf::trigger::kTrustedProducerUid) uid = f.as_int32();
  }
  const int64_t ts = packet.ts;
  // Every trigger is also a zero-duration slice on the global "Trace Triggers" track.
  GlobalInstantData slice;
  slice.track_name = ctx_->Intern("Trace Triggers");
  slice.track_type = "triggers";
  slice.name = ctx_->Intern(name);
  if (producer && !producer->empty()) {
    const StringId key = ctx_->Intern("producer_name");
    slice.args.push_back(Arg{key, key, ArgValue::String(ctx_->Intern(*producer))});
  }
  if (uid) {
    const StringId key = ctx_->Intern("trusted_producer_uid");
    slice.args.push_back(Arg{key, key, ArgValue::Int(*uid)});
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(ts, EventType::kGlobalInstant, std::move(slice)));
  bool take;
  if (!trace_trigger_) {
    take = true;
  } else if (clone != trace_trigger_->clone) {
    take = clone;  // a clone-snapshot trigger always beats a plain one
  } else {
    take = ts < trace_trigger_->ts;  // events are seen in file order; the sorter's order is by ts
  }
  if (!take) return;
  trace_trigger_ = Chosen{ts, clone};
  ctx_->storage->SetMetadata("trace_trigger", std::string_view(name));
  if (clone) ctx_->storage->SetStat("traced_clone_trigger_timestamp_ns", ts);
}

void SessionMetadataDecoder::DecodeUiState(const proto::Field& field) {
  ctx_->storage->SetMetadata("ui_state", std::string_view(Base64Encode(field.as_string())));
}

void SessionMetadataDecoder::DecodeConcurrentSessionEvent(const PacketContext& packet,
                                                          const proto::Field& field) {
  // ConcurrentSessionEvent (protos/perfetto/trace/perfetto/concurrent_session_event.proto).
  constexpr uint32_t kState = 1, kSessionName = 2, kSessionId = 3, kConsumerUid = 4,
                     kNumDataSources = 5;
  // ConcurrentSessionEvent.State values, the service's session state machine.
  constexpr uint32_t kDisabled = 1, kClonedReadOnly = 5;
  static constexpr const char* kStateNames[] = {
      nullptr, "DISABLED", "CONFIGURED", "STARTED", "DISABLING_WAITING_STOP_ACKS",
      "CLONED_READ_ONLY"};
  uint32_t state = 0;
  std::string name;
  uint64_t session_id = 0;
  int32_t consumer_uid = 0;
  uint32_t num_data_sources = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case kState: state = f.as_uint32(); break;
      case kSessionName: name = std::string(f.as_string()); break;
      case kSessionId: session_id = f.as_uint64(); break;
      case kConsumerUid: consumer_uid = f.as_int32(); break;
      case kNumDataSources: num_data_sources = f.as_uint32(); break;
      default: break;
    }
  }
  TraceStorage& s = *ctx_->storage;
  if (d.error()) s.IncrementStat("proto_decode_errors");
  if (state == 0 || state >= std::size(kStateNames)) {
    s.IncrementStat("concurrent_session_event_unknown_state");
    return;
  }
  // Clones share their parent's name; a clone's first event (which names its track) is
  // CLONED_READ_ONLY.
  if (name.empty()) name = "Session " + std::to_string(session_id);
  if (state == kClonedReadOnly) name += " (clone)";
  StateChangeData change;
  change.track_type = "concurrent_tracing_sessions";
  const StringId id_key = ctx_->Intern("session_id");
  change.dimensions.push_back(
      Arg{id_key, id_key, ArgValue::Int(static_cast<int64_t>(session_id))});
  change.track_name = ctx_->Intern(name);
  change.value = ctx_->Intern(kStateNames[state]);
  const StringId uid_key = ctx_->Intern("consumer_uid");
  const StringId sources_key = ctx_->Intern("num_data_sources");
  change.args.push_back(Arg{uid_key, uid_key, ArgValue::Int(consumer_uid)});
  change.args.push_back(Arg{sources_key, sources_key, ArgValue::Int(num_data_sources)});
  change.terminal = state == kDisabled;
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kStateChange, std::move(change)));
}

}  // namespace tw
