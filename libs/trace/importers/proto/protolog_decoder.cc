#include "libs/trace/importers/proto/protolog_decoder.h"

#include <utility>

#include "libs/trace/events/protolog_events.h"
#include "libs/trace/importers/proto/interned_lookup.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {
namespace {

// Field numbers: wire-format facts of Android's ProtoLog protos.
namespace message {  // ProtoLogMessage
constexpr uint32_t kMessageId = 1, kStrParamIids = 2, kSint64Params = 3, kDoubleParams = 4,
                   kBooleanParams = 5, kStacktraceIid = 6;
}
namespace config {  // ProtoLogViewerConfig (+ MessageData, Group)
constexpr uint32_t kMessages = 1, kGroups = 2;
constexpr uint32_t kMessageId = 1, kMessage = 2, kLevel = 3, kGroupId = 4, kLocation = 5;
constexpr uint32_t kGroupIdField = 1, kGroupTag = 3;
}
// FrameworksNativeInternedData: InternedData extension fields (InternedString: str = 2).
constexpr uint32_t kInternedStringArgs = 36, kInternedStacktrace = 37;

// Repeated doubles arrive packed (length-delimited) or one fixed64 field each.
void ReadDoubles(const proto::Field& f, std::vector<double>* out) {
  if (f.type == proto::kFixed64) {
    out->push_back(f.as_double());
    return;
  }
  if (f.type != proto::kLengthDelimited) return;
  for (size_t i = 0; i + 8 <= f.size; i += 8) {
    proto::Field x;
    x.type = proto::kFixed64;
    uint64_t bits = 0;
    for (int b = 7; b >= 0; --b) bits = (bits << 8) | f.data[i + static_cast<size_t>(b)];
    x.int_value = bits;
    out->push_back(x.as_double());
  }
}

}  // namespace

void ProtoLogDecoder::DecodeMessage(const PacketContext& packet, const proto::Field& field) {
  ProtoLogData data;
  data.kind = ProtoLogData::Kind::kMessage;
  std::vector<uint64_t> string_iids;
  std::optional<uint64_t> stacktrace_iid;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case message::kMessageId: data.message_id = f.as_uint64(); break;
      case message::kStrParamIids:
        proto::ForEachVarint(f, [&](uint64_t v) {
          string_iids.push_back(static_cast<uint32_t>(v));
        });
        break;
      case message::kSint64Params:
        proto::ForEachVarint(f, [&](uint64_t v) {
          data.sint64_params.push_back(proto::ZigZagDecode(v));
        });
        break;
      case message::kDoubleParams: ReadDoubles(f, &data.double_params); break;
      case message::kBooleanParams:
        proto::ForEachVarint(f, [&](uint64_t v) { data.boolean_params.push_back(v != 0); });
        break;
      case message::kStacktraceIid: stacktrace_iid = f.as_uint64(); break;
      default: break;
    }
  }
  for (uint64_t iid : string_iids) {
    std::optional<std::string_view> s;
    if (packet.sequence) s = InternedString(*packet.sequence, kInternedStringArgs, iid);
    if (!s) {
      data.string_params.emplace_back("<ERROR>");
      ctx_->storage->IncrementStat("winscope_protolog_missing_interned_arg_parse_errors");
      continue;
    }
    data.string_params.emplace_back(*s);
  }
  if (stacktrace_iid) {
    std::optional<std::string_view> s;
    if (packet.sequence) s = InternedString(*packet.sequence, kInternedStacktrace, *stacktrace_iid);
    if (s) {
      data.stacktrace = ctx_->Intern(*s);
      data.has_stacktrace = true;
    } else {
      // As trace_processor does: the failure shows as an extra string parameter.
      data.string_params.emplace_back("<ERROR>");
      ctx_->storage->IncrementStat("winscope_protolog_missing_interned_stacktrace_parse_errors");
    }
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kProtoLog, std::move(data)));
}

void ProtoLogDecoder::DecodeViewerConfig(const PacketContext& packet, const proto::Field& field) {
  ProtoLogData data;
  data.kind = ProtoLogData::Kind::kViewerConfig;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    proto::Decoder sd(f);
    proto::Field x;
    if (f.id == config::kGroups) {
      ProtoLogData::Group g;
      while (sd.Next(&x)) {
        if (x.id == config::kGroupIdField) g.id = x.as_uint32();
        if (x.id == config::kGroupTag) g.tag = std::string(x.as_string());
      }
      data.groups.push_back(std::move(g));
    } else if (f.id == config::kMessages) {
      ProtoLogData::MessageFormat m;
      while (sd.Next(&x)) {
        switch (x.id) {
          case config::kMessageId: m.message_id = x.as_uint64(); break;
          case config::kMessage: m.message = std::string(x.as_string()); break;
          case config::kLevel: m.level = x.as_int32(); break;
          case config::kGroupId: m.group_id = x.as_uint32(); break;
          case config::kLocation: m.location = std::string(x.as_string()); break;
          default: break;
        }
      }
      data.formats.push_back(std::move(m));
    }
  }
  // Before every message in time: formats apply to the whole trace.
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(INT64_MIN, EventType::kProtoLog, std::move(data)));
}

}  // namespace tw
