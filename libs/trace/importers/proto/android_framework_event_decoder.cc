#include "libs/trace/importers/proto/android_framework_event_decoder.h"

#include <string>

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

StringId EnumName(ImportContext* ctx, std::string_view enum_name, int32_t value) {
  if (auto name = ctx->descriptors.EnumValueName(enum_name, value)) return ctx->Intern(*name);
  return ctx->Intern(std::to_string(value));
}

}  // namespace

bool IsAndroidFrameworkTrackEventExtension(uint32_t field_id) {
  return field_id == pf::frameworks_base_track_event::kProcessStartEvent ||
         field_id == pf::frameworks_base_track_event::kBinderDiedEvent;
}

void DecodeAndroidFrameworkTrackEventExtension(ImportContext* ctx, const PacketContext& packet,
                                               int64_t ts, const proto::Field& field) {
  if (field.type != proto::kLengthDelimited) return;
  AndroidProcessLifecycleData data;
  data.is_start = field.id == pf::frameworks_base_track_event::kProcessStartEvent;
  bool has_pid = false;
  proto::Decoder d(field);
  proto::Field f;
  if (data.is_start) {
    namespace ps = pf::android_process_start_event;
    while (d.Next(&f)) {
      switch (f.id) {
        case ps::kUid: data.uid = f.as_int32(); break;
        case ps::kPid: data.pid = f.as_int32(); has_pid = true; break;
        case ps::kProcessName: data.process_name = ctx->Intern(f.as_string()); break;
        case ps::kBindApplicationDelayMs: data.bind_application_delay_ms = f.as_int64(); break;
        case ps::kProcessStartDelayMs: data.process_start_delay_ms = f.as_int64(); break;
        case ps::kHostingName: data.hosting_name = ctx->Intern(f.as_string()); break;
        case ps::kHostingType:
          data.hosting_type = EnumName(ctx, ".com.android.internal.HostingTypeId", f.as_int32());
          break;
        case ps::kTriggerType:
          data.trigger_type = EnumName(ctx, ".com.android.internal.TriggerType", f.as_int32());
          break;
        case ps::kStartSeqId: data.start_seq_id = f.as_int64(); break;
        case ps::kPackageUid: data.package_uid = f.as_int32(); break;
        case ps::kCallerUid: data.caller_uid = f.as_int32(); break;
        case ps::kDefiningUid: data.defining_uid = f.as_int32(); break;
        default: break;
      }
    }
  } else {
    namespace bd = pf::android_binder_died_event;
    while (d.Next(&f)) {
      if (f.id == bd::kPid) {
        data.pid = f.as_int32();
        has_pid = true;
      }
      if (f.id == bd::kUid) data.uid = f.as_int32();
    }
  }
  if (d.error()) {
    ctx->storage->IncrementStat("track_event_parser_errors");
    return;
  }
  if (!has_pid) return;  // nothing to attach it to
  ctx->Push(EventSorter::QueueForSequence(packet.sequence_id),
            Event::WithPayload(ts, EventType::kAndroidProcessLifecycle, std::move(data)));
}

}  // namespace tw
