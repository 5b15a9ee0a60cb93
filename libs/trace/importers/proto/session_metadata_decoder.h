#pragma once
// Packets the tracing service writes about the session itself become metadata and stats:
// service_event (tracing_started_ns, all_data_source_flushed_ns, ...), trace_uuid, trigger and
// clone_snapshot_trigger (trace_trigger), ui_state. concurrent_session_event (the service's log
// of every tracing session's lifecycle) becomes one state track per session.

#include <cstdint>
#include <optional>

#include "libs/trace/importers/proto/import_context.h"

namespace tw {

class SessionMetadataDecoder {
 public:
  explicit SessionMetadataDecoder(ImportContext* ctx) : ctx_(ctx) {}

  void DecodeServiceEvent(const PacketContext& packet, const proto::Field& field);
  // `uuid_found` is shared with the trace_config decoder: a trace_uuid packet always wins.
  void DecodeTraceUuid(const proto::Field& field, bool* uuid_found);
  // trigger (clone = false) and clone_snapshot_trigger (clone = true).
  void DecodeTrigger(const PacketContext& packet, const proto::Field& field, bool clone);
  void DecodeUiState(const proto::Field& field);
  // A session's state change: a row on its "concurrent_tracing_sessions" state track
  // (dimension session_id; named by unique_session_name, else "Session <id>", clones suffixed
  // " (clone)"), DISABLED ending at once. Unknown states are counted, not shown.
  void DecodeConcurrentSessionEvent(const PacketContext& packet, const proto::Field& field);

 private:
  ImportContext* ctx_;
  // trace_trigger names the trigger that ended the trace: the earliest clone-snapshot trigger
  // if any, else the earliest trigger (in timestamp order; file order on ties).
  struct Chosen {
    int64_t ts;
    bool clone;
  };
  std::optional<Chosen> trace_trigger_;
};

}  // namespace tw
