#pragma once
// Decodes the packets of system probes and trace bookkeeping: process_stats and sys_stats
// (memory / cpu counters), system_info and cpu_info (machine description), trace_config,
// trace_stats and ftrace_stats (stats), trace_uuid, triggers, service events, android logs,
// initial display state. Timed data becomes events; descriptive data becomes metadata/stats.

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class SystemProbesDecoder {
 public:
  explicit SystemProbesDecoder(ImportContext* ctx);

  // `field.id` is the TracePacket data field number (tw::pf::trace_packet::k*). Returns false
  // if this decoder does not handle that field.
  bool Decode(const PacketContext& packet, const proto::Field& field);

 private:
  ImportContext* ctx_;
};

}  // namespace tw
