#pragma once
// trace_config packets (the config the trace was recorded with) and trace_attributes packets
// become metadata: trace_uuid (unless a trace_uuid packet gave one), unique_session_name,
// trace_config_pbtxt, statsd_triggering_subscription_id, trace_attribute.<key>. The config also
// decides some stats only known at the end (long-trace-mode data loss) and the trace diagnostics,
// see Finish().

#include <cstdint>
#include <map>
#include <string>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class TraceConfigDecoder {
 public:
  explicit TraceConfigDecoder(ImportContext* ctx) : ctx_(ctx) {}

  // `uuid_found` is shared with the trace_uuid packet decoder: the first UUID source wins.
  void Decode(const proto::Field& field, bool* uuid_found);
  void DecodeTraceAttributes(const proto::Field& field);

  // After the last packet: stats that combine the config with the service's trace_stats, and
  // the trace diagnostics (trace_diagnostics.h) of the last config seen.
  // `bytes_overwritten` is per buffer, from the last trace_stats.
  void Finish(const std::map<int64_t, int64_t>& bytes_overwritten);

 private:
  void RunDiagnostics();

  ImportContext* ctx_;
  bool seen_ = false;
  std::string raw_config_;  // the last trace_config, serialized
  bool write_into_file_ = false;
  uint32_t file_write_period_ms_ = 0;
  uint32_t flush_period_ms_ = 0;
  int64_t num_buffers_ = 0;
};

}  // namespace tw
