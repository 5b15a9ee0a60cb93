#pragma once
// Chrome's typed metadata packets become metadata rows as trace_processor names them:
// chrome_metadata → cr-<letter>-* (one letter per Chrome instance's packet) and
// cr-background_tracing_metadata / cr-scenario_name_hash; chrome_benchmark_metadata →
// benchmark_*; chrome_trigger → cr-triggered_rule_name_hash and a slice on 'Trace Triggers';
// chrome_events (the legacy untyped metadata of a ChromeEventBundle) → cr-<name> (cr-<n>-<name>
// for the n-th bundle after the first).

#include <cstdint>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class ChromeMetadataDecoder {
 public:
  explicit ChromeMetadataDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeChromeMetadata(const proto::Field& field);
  void DecodeBenchmarkMetadata(const proto::Field& field);
  void DecodeChromeTrigger(const PacketContext& packet, const proto::Field& field);
  void DecodeChromeEvents(const proto::Field& field);

 private:
  void DecodeBackgroundTracing(const proto::Field& field);

  ImportContext* ctx_;
  uint32_t packets_seen_ = 0;  // picks the cr-<letter>- prefix
  uint32_t bundles_with_metadata_ = 0;  // picks the cr-<n>- prefix of chrome_events metadata
};

}  // namespace tw
