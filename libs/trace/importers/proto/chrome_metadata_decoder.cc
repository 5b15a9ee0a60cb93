#include "libs/trace/importers/proto/chrome_metadata_decoder.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

// Field numbers of messages perfetto_fields.h does not list (wire-format facts from
// protos/perfetto/trace/chrome/chrome_metadata.proto and chrome_trigger.proto).
namespace finch_hash {
constexpr uint32_t kName = 1;   // uint32
constexpr uint32_t kGroup = 2;  // uint32
}  // namespace finch_hash
namespace background_tracing_metadata {
constexpr uint32_t kScenarioNameHash = 3;  // fixed32
}  // namespace background_tracing_metadata
namespace chrome_trigger {
constexpr uint32_t kTriggerName = 1;      // string
constexpr uint32_t kTriggerNameHash = 2;  // fixed32
}  // namespace chrome_trigger

}  // namespace

void ChromeMetadataDecoder::DecodeChromeMetadata(const proto::Field& field) {
  namespace cm = pf::chrome_metadata_packet;
  TraceStorage& s = *ctx_->storage;
  // There is no id tying this packet to a Chrome instance, so instances are lettered in order.
  const std::string prefix =
      std::string("cr-") + static_cast<char>('a' + packets_seen_++ % 26) + "-";
  std::optional<int64_t> version_code, channel;
  std::optional<std::string_view> app_version, os_name, package_name, categories;
  std::optional<proto::Field> background;
  std::string field_trials;
  bool has_field_trials = false;
  int on_line = 0;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case cm::kChromeVersionCode: version_code = f.as_int32(); break;
      case cm::kAppVersion: app_version = f.as_string(); break;
      case cm::kOsName: os_name = f.as_string(); break;
      case cm::kAppPackageName: package_name = f.as_string(); break;
      case cm::kChannel: channel = f.as_uint32(); break;
      case cm::kEnabledCategories: categories = f.as_string(); break;
      case cm::kBackgroundTracingMetadata: background = f; break;
      case cm::kFieldTrialHashes: {
        uint32_t name = 0, group = 0;
        proto::Decoder hd(f);
        proto::Field h;
        while (hd.Next(&h)) {
          if (h.id == finch_hash::kName) name = h.as_uint32();
          if (h.id == finch_hash::kGroup) group = h.as_uint32();
        }
        // Two hashes per line, to fit the UI.
        if (on_line == 2) {
          field_trials += "\n";
          on_line = 1;
        } else {
          ++on_line;
        }
        field_trials += "{ name: " + std::to_string(name) + ", group: " + std::to_string(group) +
                        " } ";
        has_field_trials = true;
        break;
      }
      default: break;
    }
  }
  // Appended (not set): every Chrome instance keeps its own rows.
  if (version_code) s.AppendMetadata(prefix + "playstore_version_code", *version_code);
  if (app_version) s.AppendMetadata(prefix + "product-version", *app_version);
  if (os_name) s.AppendMetadata(prefix + "os-name", *os_name);
  if (package_name) s.AppendMetadata(prefix + "package-name", *package_name);
  if (channel) s.AppendMetadata(prefix + "channel", *channel);
  if (categories) s.AppendMetadata(prefix + "enabled_categories", *categories);
  if (has_field_trials) {
    s.AppendMetadata(prefix + "field_trial_hashes", std::string_view(field_trials));
  }
  if (background) DecodeBackgroundTracing(*background);
}

void ChromeMetadataDecoder::DecodeBackgroundTracing(const proto::Field& field) {
  TraceStorage& s = *ctx_->storage;
  s.AppendMetadata("cr-background_tracing_metadata",
                   std::string_view(Base64Encode(field.as_string())));
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == background_tracing_metadata::kScenarioNameHash) {
      s.AppendMetadata("cr-scenario_name_hash", static_cast<int64_t>(f.as_uint32()));
    }
  }
}

void ChromeMetadataDecoder::DecodeBenchmarkMetadata(const proto::Field& field) {
  namespace cb = pf::chrome_benchmark_metadata;
  TraceStorage& s = *ctx_->storage;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case cb::kBenchmarkName: s.SetMetadata("benchmark_name", f.as_string()); break;
      case cb::kBenchmarkDescription:
        s.SetMetadata("benchmark_description", f.as_string());
        break;
      case cb::kLabel: s.SetMetadata("benchmark_label", f.as_string()); break;
      case cb::kStoryName: s.SetMetadata("benchmark_story_name", f.as_string()); break;
      case cb::kStoryTags: s.AppendMetadata("benchmark_story_tags", f.as_string()); break;
      case cb::kBenchmarkStartTimeUs:
        s.SetMetadata("benchmark_start_time_us", f.as_int64());
        break;
      case cb::kStoryRunTimeUs: s.SetMetadata("benchmark_story_run_time_us", f.as_int64()); break;
      case cb::kStoryRunIndex:
        s.SetMetadata("benchmark_story_run_index", static_cast<int64_t>(f.as_int32()));
        break;
      case cb::kHadFailures:
        s.SetMetadata("benchmark_had_failures", static_cast<int64_t>(f.as_bool()));
        break;
      default: break;
    }
  }
}

void ChromeMetadataDecoder::DecodeChromeTrigger(const PacketContext& packet,
                                                const proto::Field& field) {
  // Like a trace trigger, a Chrome trigger is a zero-duration slice on the global
  // "Trace Triggers" track, named after the trigger (or "chrome_trigger"). trace_processor also
  // ends the trigger's flow (flow_id) there; flows by id from this packet are not kept yet.
  uint32_t hash = 0;
  std::optional<std::string_view> name;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == chrome_trigger::kTriggerName) name = f.as_string();
    if (f.id == chrome_trigger::kTriggerNameHash) hash = f.as_uint32();
  }
  ctx_->storage->AppendMetadata("cr-triggered_rule_name_hash", static_cast<int64_t>(hash));
  GlobalInstantData slice;
  slice.track_name = ctx_->Intern("Trace Triggers");
  slice.track_type = "triggers";
  slice.name = ctx_->Intern(name ? *name : std::string_view("chrome_trigger"));
  const StringId hash_key = ctx_->Intern("chrome_trigger.name_hash");
  slice.args.push_back(Arg{hash_key, hash_key, ArgValue::Uint(hash)});
  if (name) {
    const StringId name_key = ctx_->Intern("chrome_trigger.name");
    slice.args.push_back(Arg{name_key, name_key, ArgValue::String(slice.name)});
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kGlobalInstant, std::move(slice)));
}

void ChromeMetadataDecoder::DecodeChromeEvents(const proto::Field& field) {
  // ChromeEventBundle.metadata (repeated ChromeMetadata {name = 1; one of string_value = 2,
  // bool_value = 3, int_value = 4, json_value = 5}). The bundle's legacy JSON and ftrace text
  // payloads are not imported.
  constexpr uint32_t kBundleMetadata = 2;
  constexpr uint32_t kName = 1, kString = 2, kBool = 3, kInt = 4, kJson = 5;
  TraceStorage& s = *ctx_->storage;
  std::vector<proto::Field> entries;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == kBundleMetadata && f.type == proto::kLengthDelimited) entries.push_back(f);
  }
  if (d.error()) s.IncrementStat("proto_decode_errors");
  if (entries.empty()) return;
  const uint32_t bundle = ++bundles_with_metadata_;
  for (const proto::Field& e : entries) {
    std::string_view name;
    std::optional<std::string_view> text;
    std::optional<int64_t> number;
    proto::Decoder md(e);
    proto::Field x;
    while (md.Next(&x)) {
      switch (x.id) {
        case kName: name = x.as_string(); break;
        case kString:
        case kJson: text = x.as_string(); number.reset(); break;
        case kBool:
        case kInt: number = x.as_int64(); text.reset(); break;
        default: break;
      }
    }
    if (!text && !number) {
      s.IncrementStat("empty_chrome_metadata");
      continue;
    }
    // Several Chrome instances: the second bundle's keys are cr-2-<name>, and so on.
    std::string key = "cr-";
    if (bundle > 1) key += std::to_string(bundle) + "-";
    key += name;
    if (text) {
      s.AppendMetadata(key, *text);
    } else {
      s.AppendMetadata(key, *number);
    }
  }
}

}  // namespace tw
