#include "libs/trace/importers/json/json_importer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/json/json_event_decoder.h"
#include "libs/trace/importers/common/json_value.h"
#include "libs/trace/importers/systrace/ftrace_text_line.h"

namespace tw {
namespace {

// A piece of input for an error message: short and printable.
// What trace_processor's tokenizer does as it reads (a V8 profile's start and callsite nodes,
// logs of events it rejects) is delivered ahead of every event, at INT64_MIN, in file order;
// V8 samples are sorted with the other events.
constexpr uint32_t kAheadQueue = 1;
constexpr uint32_t kV8SampleQueue = 2;

std::string Excerpt(std::string_view text) {
  constexpr size_t kMax = 80;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(u >= 0x20 && u < 0x7f ? c : '.');
  }
  if (text.size() > kMax) out += "...";
  return out;
}

}  // namespace

JsonImporter::JsonImporter(TraceStorage* storage, EventSorter* sorter, int64_t max_event_bytes)
    : storage_(storage),
      sorter_(sorter),
      max_event_bytes_(static_cast<size_t>(std::max<int64_t>(max_event_bytes, 1))),
      ftrace_(storage, sorter) {}

absl::Status JsonImporter::Import(ChunkSource* source) {
  JsonTraceReader reader(source, max_event_bytes_);
  absl::Status damage;
  for (bool done = false; !done;) {
    absl::StatusOr<JsonTraceReader::Item> item = reader.Next();
    if (!item.ok()) {
      damage = item.status();
      break;
    }
    using Kind = JsonTraceReader::Kind;
    switch (item->kind) {
      case Kind::kEvent:
        OnEvent(item->text);
        break;
      case Kind::kOversizedEvent:
        NoteFailure(absl::StrCat("an event longer than ", max_event_bytes_, " bytes"), {});
        break;
      case Kind::kDisplayTimeUnit:
        // trace_processor only notes it: timestamps are microseconds whatever the display unit.
        storage_->IncrementStat("json_display_time_unit");
        break;
      case Kind::kMetadata:
        OnMetadata(item->text);
        break;
      case Kind::kSystemTraceLine:
        OnSystemTraceLine(item->text);
        break;
      case Kind::kOversizedLine:
        storage_->IncrementStat("systrace_parse_failure");
        break;
      case Kind::kSystemTraceNotText:
        storage_->IncrementStat("json_system_trace_events_skipped");
        break;
      case Kind::kTrailingData:
        storage_->IncrementStat("json_parser_failure");
        break;
      case Kind::kEnd:
        done = true;
        break;
    }
  }
  return Finish(reader, damage);
}

void JsonImporter::OnEvent(std::string_view text) {
  DecodedJsonEvent decoded;
  switch (DecodeJsonEvent(text, storage_, &decoded)) {
    case JsonEventStatus::kEmpty:
      return;
    case JsonEventStatus::kV8Sample:
      ++stats_.phases["P"];
      OnV8Profile(decoded, text);
      return;
    case JsonEventStatus::kFailed:
      if (decoded.malformed) ++malformed_events_;
      NoteFailure(absl::StrCat(decoded.error, ": ", Excerpt(text)), text, decoded.value_error);
      return;
    case JsonEventStatus::kEvent:
      break;
  }
  for (int i = 0; i < decoded.tokenizer_failures; ++i) {
    LogTokenizerError("json_tokenizer_failure", text, "id2 is not a well-formed JSON object");
  }
  if (decoded.parser_failures > 0) {
    storage_->IncrementStat("json_parser_failure", decoded.parser_failures);
  }
  if (decoded.ts < 0) {
    // As trace_processor's sorter: negative times cannot be placed on the timeline.
    storage_->IncrementStat("trace_sorter_negative_timestamp_dropped");
    return;
  }
  JsonEventData& data = decoded.data;
  if (data.phase == 'X') saw_complete_event_ = true;
  data.order_by_phase = saw_complete_event_;
  ++stats_.phases[std::string(1, data.phase)];
  ++stats_.events;
  sorter_->Push(EventSorter::QueueForSequence(0),
                Event::WithPayload(decoded.ts, EventType::kJsonEvent, std::move(data)));
}


void JsonImporter::PushV8(int64_t ts, uint32_t queue, V8CpuProfileData data) {
  sorter_->Push(EventSorter::QueueForSequence(queue),
                Event::WithPayload(ts, EventType::kV8CpuProfile, std::move(data)));
}

void JsonImporter::OnV8Profile(const DecodedJsonEvent& event, std::string_view raw) {
  if (event.v8_profile_id_invalid) return LogTokenizerError("json_tokenizer_failure", raw, {});
  if (!event.v8_profile_id) return;  // not a profile event trace_processor reads
  absl::StatusOr<V8ProfileArgs> args = ParseV8ProfileArgs(event.v8_args);
  if (!args.ok()) return;
  const uint64_t id = *event.v8_profile_id;
  const uint32_t pid = event.data.pid;
  V8CpuProfileData base;
  base.session_id = id;
  base.pid = pid;
  base.tid = event.data.tid;

  if (args->start_time_us) {
    if (v8_profiles_.Start(id, pid, *args->start_time_us * 1000)) {
      V8CpuProfileData session = base;
      session.kind = V8CpuProfileData::Kind::kSession;
      PushV8(INT64_MIN, kAheadQueue, std::move(session));
    }
    return;
  }

  V8CpuProfileData nodes = base;
  nodes.kind = V8CpuProfileData::Kind::kNodes;
  for (const V8ProfileArgs::Node& node : args->nodes) {
    if (absl::Status s = v8_profiles_.AddNode(id, pid, node, storage_, &nodes.nodes); !s.ok()) {
      LogTokenizerError("legacy_v8_cpu_profile_invalid_callsite", raw,
                        std::string_view(s.message().data(), s.message().size()));
    }
  }
  if (!nodes.nodes.empty()) PushV8(INT64_MIN, kAheadQueue, std::move(nodes));

  if (args->samples.size() != args->time_deltas_us.size()) {
    return LogTokenizerError("json_tokenizer_failure", raw,
                             "v8 legacy profile: samples and timestamps do not have same size");
  }
  for (size_t i = 0; i < args->samples.size(); ++i) {
    absl::StatusOr<int64_t> ts = v8_profiles_.NextSampleTime(id, pid, args->time_deltas_us[i] * 1000);
    if (!ts.ok()) {
      const auto message = ts.status().message();
      return LogTokenizerError("json_tokenizer_failure", raw,
                               std::string_view(message.data(), message.size()));
    }
    V8CpuProfileData sample = base;
    sample.kind = V8CpuProfileData::Kind::kSample;
    sample.node_id = args->samples[i];
    PushV8(*ts, kV8SampleQueue, std::move(sample));
  }
}

void JsonImporter::OnMetadata(std::string_view text) {
  // Each field becomes a json_metadata.<field> row; the metadata table holds ints and strings.
  ForEachJsonMember(text, [&](std::string_view key, const JsonValue& v) {
    const std::string name = absl::StrCat("json_metadata.", absl::string_view(key.data(), key.size()));
    switch (v.type) {
      case JsonValue::Type::kNull:
        break;
      case JsonValue::Type::kBool:
        storage_->SetMetadata(name, int64_t{v.boolean ? 1 : 0});
        break;
      case JsonValue::Type::kNumber: {
        if (std::optional<int64_t> i = JsonNumberToInt64(v.text)) {
          storage_->SetMetadata(name, *i);
          break;
        }
        const std::optional<double> d = JsonNumberToDouble(v.text);
        if (!d) break;
        if (*d == std::trunc(*d) && std::fabs(*d) < 9.2e18) {
          storage_->SetMetadata(name, static_cast<int64_t>(*d));
        } else {
          char buf[32];
          std::snprintf(buf, sizeof(buf), "%g", *d);
          storage_->SetMetadata(name, std::string_view(buf));
        }
        break;
      }
      case JsonValue::Type::kString:
      case JsonValue::Type::kObject:
      case JsonValue::Type::kArray:
        storage_->SetMetadata(name, v.text);
        break;
    }
    return true;
  });
}

void JsonImporter::OnSystemTraceLine(std::string_view line) {
  if (line.empty() || line[0] == '#') return;  // ftrace's header and comments
  FtraceTextLine parsed;
  if (!ParseFtraceTextLine(line, &parsed) || !ftrace_.Decode(parsed)) {
    storage_->IncrementStat("systrace_parse_failure");
    return;
  }
  ++stats_.system_trace_lines;
}

void JsonImporter::LogTokenizerError(std::string_view stat, std::string_view raw,
                                     std::string_view error) {
  ImportLogData log;
  log.stat = std::string(stat);
  const StringId raw_key = storage_->Intern("raw_event");
  log.args.push_back(Arg{raw_key, raw_key, ArgValue::String(storage_->Intern(raw))});
  if (!error.empty()) {
    const StringId error_key = storage_->Intern("error");
    log.args.push_back(Arg{error_key, error_key, ArgValue::String(storage_->Intern(error))});
  }
  sorter_->Push(EventSorter::QueueForSequence(kAheadQueue),
                Event::WithPayload(INT64_MIN, EventType::kImportLog, std::move(log)));
}

void JsonImporter::NoteFailure(std::string_view why, std::string_view raw,
                               std::string_view error) {
  ++stats_.failed_events;
  LogTokenizerError("json_tokenizer_failure", raw, error);
  if (first_failure_.empty()) first_failure_ = std::string(why);
}

absl::Status JsonImporter::Finish(const JsonTraceReader& reader, const absl::Status& damage) {
  stats_.bytes = reader.bytes_read();
  const absl::Status& source_error = reader.source_error();
  if (stats_.events == 0 && stats_.system_trace_lines == 0) {
    // Nothing usable: say why rather than load an empty trace.
    if (!damage.ok()) return damage;
    if (!source_error.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("JSON trace: ", std::string(source_error.message())));
    }
    if (!reader.saw_trace_events() && !reader.saw_system_trace_text()) {
      return absl::InvalidArgumentError(
          "JSON trace: no \"traceEvents\" array: this JSON is not a Chrome trace");
    }
    if (malformed_events_ > 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("JSON trace: none of its ", stats_.failed_events,
                       " trace events could be read (the first: ", first_failure_, ")"));
    }
    if (reader.truncated()) {
      return absl::InvalidArgumentError("JSON trace: the file ends before its first event");
    }
    return absl::OkStatus();  // a well-formed trace without events
  }
  if (!damage.ok() || reader.truncated()) {
    // Keep what came before the damage, and say so.
    storage_->IncrementStat("json_parser_failure");
    if (reader.truncated()) storage_->IncrementStat("trace_truncated");
    std::string message;
    if (!damage.ok()) {
      message = std::string(damage.message());
    } else if (!source_error.ok()) {
      message = absl::StrCat("JSON trace: ", std::string(source_error.message()));
    } else {
      message = "JSON trace: the file ends in the middle (truncated)";
    }
    storage_->SetMetadata("trace_corruption", std::string_view(message));
  }
  return absl::OkStatus();
}

}  // namespace tw
