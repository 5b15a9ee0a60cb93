#include "libs/trace/importers/proto/android_probes_decoder.h"

#include <cinttypes>
#include <cstdio>

#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

constexpr uint32_t kRealtimeClock = pf::builtin_clock::kRealtime;

}  // namespace

void AndroidProbesDecoder::DecodeAndroidLog(const PacketContext& packet,
                                            const proto::Field& field) {
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::android_log_packet::kEvents && f.type == proto::kLengthDelimited) {
      DecodeLogEvent(packet, f);
    } else if (f.id == pf::android_log_packet::kStats && f.type == proto::kLengthDelimited) {
      DecodeLogStats(f);
    }
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
}

void AndroidProbesDecoder::DecodeLogEvent(const PacketContext& packet, const proto::Field& field) {
  namespace le = pf::android_log_packet_log_event;
  namespace la = pf::android_log_packet_log_event_arg;
  AndroidLogData log{};
  std::optional<std::string_view> tag, message;
  int64_t realtime_ns = 0;
  // Structured (event-log) args are appended to the message as ` name=value`.
  std::string args;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case le::kPid: log.pid = f.as_int32(); break;
      case le::kTid: log.tid = f.as_int32(); break;
      case le::kTimestamp: realtime_ns = f.as_int64(); break;
      case le::kTag: tag = f.as_string(); break;
      case le::kPrio: log.prio = f.as_uint32(); break;
      case le::kMessage: message = f.as_string(); break;
      case le::kArgs: {
        std::optional<std::string_view> name, string_value;
        std::optional<int64_t> int_value;
        std::optional<float> float_value;
        proto::Decoder ad(f);
        proto::Field a;
        while (ad.Next(&a)) {
          if (a.id == la::kName) name = a.as_string();
          if (a.id == la::kStringValue) string_value = a.as_string();
          if (a.id == la::kIntValue) int_value = a.as_int64();
          if (a.id == la::kFloatValue) float_value = a.as_float();
        }
        if (!name) break;
        args += " ";
        args += *name;
        args += "=";
        if (string_value) {
          args += "\"" + std::string(*string_value) + "\"";
        } else if (int_value) {
          args += std::to_string(*int_value);
        } else if (float_value) {
          char buf[64];
          std::snprintf(buf, sizeof(buf), "%f", static_cast<double>(*float_value));
          args += buf;
        }
        break;
      }
      default: break;
    }
  }
  // Log lines carry wall-clock (REALTIME) timestamps; lines that cannot be placed on the trace
  // clock are dropped.
  const std::optional<int64_t> ts = ctx_->clocks.ToTraceTime({kRealtimeClock, 0}, realtime_ns);
  if (!ts) return;
  if (log.prio == 0) log.prio = pf::android_log_priority::kInfo;
  log.tag = tag ? ctx_->Intern(*tag) : kNullStringId;
  std::string text;
  if (message) text = std::string(*message);
  if (!args.empty()) text = message ? text + args : args.substr(1);
  log.msg = (message || !args.empty()) ? ctx_->Intern(text) : kNullStringId;
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(*ts, EventType::kAndroidLog, std::move(log)));
}

void AndroidProbesDecoder::DecodeLogStats(const proto::Field& field) {
  namespace st = pf::android_log_packet_stats;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case st::kNumFailed: ctx_->storage->SetStat("android_log_num_failed", f.as_int64()); break;
      case st::kNumSkipped: ctx_->storage->SetStat("android_log_num_skipped", f.as_int64()); break;
      case st::kNumTotal: ctx_->storage->SetStat("android_log_num_total", f.as_int64()); break;
      default: break;
    }
  }
}

void AndroidProbesDecoder::DecodeInitialDisplayState(const PacketContext& packet,
                                                     const proto::Field& field) {
  int32_t state = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == pf::initial_display_state::kDisplayState) state = f.as_int32();
  }
  // The same track atrace's "ScreenState" counter writes to.
  counters_.Emit(packet, {CounterData::Scope::kGlobal, 0, "ScreenState", "screen_state"},
                 static_cast<double>(state));
}

void AndroidProbesDecoder::DecodePackagesList(const proto::Field& field) {
  namespace pl = pf::packages_list;
  namespace pi = pf::packages_list_package_info;
  TraceStorage& s = *ctx_->storage;
  proto::Decoder d(field);
  proto::Field f;
  bool read_error = false, parse_error = false;
  while (d.Next(&f)) {
    if (f.id == pl::kReadError) read_error = f.as_bool();
    if (f.id == pl::kParseError) parse_error = f.as_bool();
    if (f.id != pl::kPackages || f.type != proto::kLengthDelimited) continue;
    std::string_view name;
    int64_t uid = 0, version_code = 0;
    bool debuggable = false, profileable = false;
    proto::Decoder pd(f);
    proto::Field p;
    while (pd.Next(&p)) {
      switch (p.id) {
        case pi::kName: name = p.as_string(); break;
        case pi::kUid: uid = p.as_int64(); break;
        case pi::kDebuggable: debuggable = p.as_bool(); break;
        case pi::kProfileableFromShell: profileable = p.as_bool(); break;
        case pi::kVersionCode: version_code = p.as_int64(); break;
        default: break;
      }
    }
    // Several packets may list the same packages; the first listing wins.
    if (!packages_.insert(std::string(name)).second) continue;
    s.package_list.Insert({.package_name = s.Intern(name),
                           .uid = uid,
                           .debuggable = debuggable,
                           .profileable_from_shell = profileable,
                           .version_code = version_code});
  }
  s.SetStat("packages_list_has_read_errors", read_error ? 1 : 0);
  s.SetStat("packages_list_has_parse_errors", parse_error ? 1 : 0);
}

void AndroidProbesDecoder::DecodeUserList(const proto::Field& field) {
  namespace ul = pf::android_user_list;
  namespace ui = pf::android_user_list_user_info;
  TraceStorage& s = *ctx_->storage;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == ul::kError && f.as_int32() < 0) s.IncrementStat("user_list_errors");
    if (f.id != ul::kUsers || f.type != proto::kLengthDelimited) continue;
    std::string_view type;
    int64_t uid = 0;
    proto::Decoder ud(f);
    proto::Field u;
    while (ud.Next(&u)) {
      if (u.id == ui::kType) type = u.as_string();
      if (u.id == ui::kUid) uid = u.as_int32();
    }
    // Every data source instance lists the users again: one row per user, latest type.
    AndroidUserListTable& t = s.android_user_list;
    const auto [it, inserted] = user_rows_.try_emplace(uid, t.row_count());
    if (inserted) {
      t.Insert({.android_user_id = uid, .type = s.Intern(type)});
    } else {
      t.type.Set(it->second, s.Intern(type));
    }
  }
  if (d.error()) s.IncrementStat("user_list_errors");
}

void AndroidProbesDecoder::DecodeGpuMemTotal(const PacketContext& packet,
                                             const proto::Field& field) {
  namespace gm = pf::gpu_mem_total_event;
  Event e;
  e.ts = packet.ts;
  e.type = EventType::kGpuMemTotal;
  e.gpu_mem_total = {0, 0, 0};
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == gm::kGpuId) e.gpu_mem_total.gpu_id = f.as_uint32();
    if (f.id == gm::kPid) e.gpu_mem_total.pid = static_cast<int32_t>(f.as_uint32());
    if (f.id == gm::kSize) e.gpu_mem_total.size = f.as_uint64();
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id), std::move(e));
}

void AndroidProbesDecoder::DecodeGraphicsFrameEvent(const PacketContext& packet,
                                                    const proto::Field& field) {
  namespace be = pf::graphics_frame_event_buffer_event;
  proto::Decoder d(field);
  proto::Field f;
  std::optional<proto::Field> buffer_event;
  while (d.Next(&f)) {
    if (f.id == pf::graphics_frame_event::kBufferEvent && f.type == proto::kLengthDelimited) {
      buffer_event = f;
    }
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  if (!buffer_event) return;
  GraphicsFrameEventData data;
  bool has_buffer_id = false;
  proto::Decoder bd(*buffer_event);
  while (bd.Next(&f)) {
    switch (f.id) {
      case be::kFrameNumber: data.frame_number = f.as_uint32(); break;
      case be::kType: data.type = f.as_uint32(); break;
      case be::kLayerName:
        data.has_layer_name = true;
        data.layer_name_text = std::string(f.as_string());
        data.layer_name = ctx_->Intern(f.as_string());
        break;
      case be::kDurationNs: data.duration_ns = static_cast<int64_t>(f.as_uint64()); break;
      case be::kBufferId:
        data.buffer_id = f.as_uint32();
        has_buffer_id = true;
        break;
      default: break;
    }
  }
  if (bd.error() || !has_buffer_id) {
    ctx_->storage->IncrementStat("graphics_frame_event_parser_errors");
    return;
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kGraphicsFrameEvent, std::move(data)));
}

}  // namespace tw
