#include "libs/trace/importers/proto/trace_config_decoder.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_text.h"
#include "libs/trace/importers/proto/trace_config_schema.h"
#include "libs/trace/importers/proto/trace_diagnostics.h"
#include "libs/trace/importers/proto/trace_uuid.h"

namespace tw {
namespace {

namespace tc = pf::trace_config;

// The major version of a service version string "Perfetto vNN.M-..." / "Perfetto vNN.M (...)";
// nullopt for any other shape.
std::optional<uint32_t> TracingServiceMajorVersion(std::string_view version) {
  constexpr std::string_view kPrefix = "Perfetto v";
  if (version.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string_view rest = version.substr(kPrefix.size());
  const size_t end = rest.find_first_of(".-");
  if (end == std::string_view::npos || end == 0) return std::nullopt;
  uint64_t major = 0;
  for (char c : rest.substr(0, end)) {
    if (c < '0' || c > '9') return std::nullopt;
    major = major * 10 + static_cast<uint64_t>(c - '0');
    if (major > UINT32_MAX) return std::nullopt;
  }
  return static_cast<uint32_t>(major);
}

}  // namespace

void TraceConfigDecoder::Decode(const proto::Field& field, bool* uuid_found) {
  TraceStorage& s = *ctx_->storage;
  seen_ = true;
  raw_config_ = std::string(field.as_string());
  int64_t uuid_msb = 0, uuid_lsb = 0;
  std::vector<proto::Field> buffers;
  std::optional<proto::Field> attributes;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case tc::kBuffers: buffers.push_back(f); break;
      case tc::kWriteIntoFile: write_into_file_ = f.as_bool(); break;
      case tc::kFileWritePeriodMs: file_write_period_ms_ = f.as_uint32(); break;
      case tc::kFlushPeriodMs: flush_period_ms_ = f.as_uint32(); break;
      case tc::kTraceUuidMsb: uuid_msb = f.as_int64(); break;
      case tc::kTraceUuidLsb: uuid_lsb = f.as_int64(); break;
      case tc::kUniqueSessionName: s.SetMetadata("unique_session_name", f.as_string()); break;
      case tc::kTraceAttributes: attributes = f; break;
      case tc::kStatsdMetadata: {
        proto::Decoder md(f);
        proto::Field m;
        while (md.Next(&m)) {
          if (m.id == 4) {  // StatsdMetadata.triggering_subscription_id
            s.SetMetadata("statsd_triggering_subscription_id", m.as_int64());
          }
        }
        break;
      }
      default: break;
    }
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");
  num_buffers_ = static_cast<int64_t>(buffers.size());

  if (!*uuid_found && (uuid_msb != 0 || uuid_lsb != 0)) {
    s.SetMetadata("trace_uuid", std::string_view(FormatTraceUuid(uuid_msb, uuid_lsb)));
    *uuid_found = true;
  }
  const std::string text = ProtoToText(TraceConfigSchema(), field.as_string());
  s.SetMetadata("trace_config_pbtxt", std::string_view(text));

  if (write_into_file_) {
    // A DISCARD buffer stops recording when full, which a long trace written to file will hit.
    for (size_t i = 0; i < buffers.size(); ++i) {
      proto::Decoder bd(buffers[i]);
      proto::Field b;
      while (bd.Next(&b)) {
        if (b.id == pf::trace_config_buffer_config::kFillPolicy &&
            b.as_uint32() == pf::buffer_fill_policy::kDiscard) {
          s.IncrementIndexedStat("config_write_into_file_discard", static_cast<int64_t>(i));
        }
      }
    }
  }
  if (attributes) DecodeTraceAttributes(*attributes);
}

void TraceConfigDecoder::DecodeTraceAttributes(const proto::Field& field) {
  namespace ta = pf::trace_attributes_attribute;
  TraceStorage& s = *ctx_->storage;
  proto::Decoder d(field);
  proto::Field a;
  while (d.Next(&a)) {
    if (a.id != pf::trace_attributes::kAttribute || a.type != proto::kLengthDelimited) continue;
    std::string key;
    std::optional<int64_t> long_value;
    std::optional<std::string_view> string_value;
    proto::Decoder ad(a);
    proto::Field x;
    while (ad.Next(&x)) {
      if (x.id == ta::kKey) key = std::string(x.as_string());
      if (x.id == ta::kLongValue) long_value = x.as_int64();
      if (x.id == ta::kStringValue) string_value = x.as_string();
    }
    // Later attributes (and the packet after the config) override earlier ones.
    const std::string name = "trace_attribute." + key;
    if (long_value) {
      s.SetMetadata(name, *long_value);
    } else if (string_value) {
      s.SetMetadata(name, *string_value);
    }
  }
}

void TraceConfigDecoder::Finish(const std::map<int64_t, int64_t>& bytes_overwritten) {
  if (!seen_) return;
  RunDiagnostics();
  if (!write_into_file_) return;
  TraceStorage& s = *ctx_->storage;
  // Overwritten data never reached the file. A write period of a day or more means the user
  // meant a ring buffer (Traceur's detached mode), where overwriting is expected.
  constexpr uint32_t kRingBufferIntentPeriodMs = 24 * 60 * 60 * 1000;
  if (file_write_period_ms_ < kRingBufferIntentPeriodMs) {
    for (int64_t i = 0; i < num_buffers_; ++i) {
      auto it = bytes_overwritten.find(i);
      if (it != bytes_overwritten.end() && it->second > 0) {
        s.SetIndexedStat("long_trace_mode_bytes_overwritten", i, it->second);
      }
    }
  }
  if (flush_period_ms_) return;
  // Since v54 the service flushes on every file write, so no flush period is needed.
  const std::optional<std::string> version = s.GetMetadataString("tracing_service_version");
  const std::optional<uint32_t> major =
      version ? TracingServiceMajorVersion(*version) : std::nullopt;
  if (!major || *major < 54) s.IncrementStat("config_write_into_file_no_flush");
}

void TraceConfigDecoder::RunDiagnostics() {
  TraceDiagnosticsContext context;
  // tracing_started_ns is on the trace clock; the check wants time since boot. Without a clock
  // path to BOOTTIME the trace clock is taken to be BOOTTIME (the usual case).
  if (const std::optional<int64_t> started = ctx_->storage->GetMetadataInt("tracing_started_ns")) {
    context.tracing_started_boot_ns =
        ctx_->clocks.Convert(ctx_->clocks.trace_clock(), ClockKey{kBootTimeClock, 0}, *started)
            .value_or(*started);
  }
  RunTraceDiagnostics(raw_config_, context, ctx_->storage);
}

}  // namespace tw
