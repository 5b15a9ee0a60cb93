#pragma once
// Chrome's typed metadata packets become metadata rows as trace_processor names them:
// chrome_metadata → cr-<letter>-* (one letter per Chrome instance's packet) and
// cr-background_tracing_metadata / cr-scenario_name_hash; chrome_benchmark_metadata →
// benchmark_*; chrome_trigger → cr-triggered_rule_name_hash and a slice on 'Trace Triggers'.

#include <cstdint>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class ChromeMetadataDecoder {
 public:
  explicit ChromeMetadataDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeChromeMetadata(const proto::Field& field);
  void DecodeBenchmarkMetadata(const proto::Field& field);
  void DecodeChromeTrigger(const PacketContext& packet, const proto::Field& field);

 private:
  void DecodeBackgroundTracing(const proto::Field& field);

  ImportContext* ctx_;
  uint32_t packets_seen_ = 0;  // picks the cr-<letter>- prefix
};

}  // namespace tw
