#pragma once
// Imports a Perfetto protobuf trace: splits the stream into TracePackets (never holding the
// whole file), keeps per-sequence state (interning, defaults, incremental clocks), converts
// timestamps to the trace clock and hands each packet's payload to the decoder for its kind.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "libs/trace/importers/proto/ftrace_decoder.h"
#include "libs/trace/importers/proto/heap_graph_decoder.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/heap_profile_decoder.h"
#include "libs/trace/importers/proto/perf_sample_decoder.h"
#include "libs/trace/importers/proto/protovm_incremental_tracing.h"
#include "libs/trace/importers/proto/system_probes_decoder.h"
#include "libs/trace/importers/proto/track_event_decoder.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw {

struct ProtoImportStats {
  int64_t packets = 0;
  int64_t bytes = 0;
  std::map<std::string, int64_t> packet_kinds;
};

class ProtoImporter {
 public:
  explicit ProtoImporter(ImportContext* ctx);
  ~ProtoImporter();

  // Reads every packet of `source`. A truncated or corrupt tail is recorded in stats and the
  // packets before it are kept; only an I/O error fails the import.
  absl::Status Import(ChunkSource* source, int64_t max_packet_bytes);

  // Decodes one TracePacket (also used for packets inside compressed_packets).
  void HandlePacket(std::string_view packet);

  const ProtoImportStats& stats() const { return stats_; }
  // Whether the trace's FtraceStats said the ftrace buffer from before tracing was kept.
  bool ftrace_buffer_preserved() const { return ctx_->ftrace_buffer_preserved; }
  // Where cpu_info stores the args of cpu rows (ARM identifier, cpu_features.*) and import logs
  // their details.
  void set_cpu_arg_set_sink(ArgSetSink sink) { system_probes_.set_arg_set_sink(std::move(sink)); }

 private:
  // Decodes one packet; `is_protovm_state`: a packet a ProtoVM made from a patch (never a patch
  // itself).
  void ImportPacket(std::string_view bytes, bool is_protovm_state);
  bool ResolveTimestamp(const proto::Field* ts_field, uint32_t clock_id, uint32_t sequence_id,
                        SequenceState& seq, int64_t* out);
  void HandleClockSnapshot(uint32_t sequence_id, SequenceState& seq, const proto::Field& f);
  // A remote machine's RemoteClockSync: the offsets that put its clocks on the host's timeline.
  void HandleRemoteClockSync(const proto::Field& f);
  void HandleProcessTree(const PacketContext& packet, const proto::Field& f);
  void HandleRangeOfInterest(const proto::Field& f);
  void HandleCompressedPackets(const proto::Field& f);
  void HandleInternedData(SequenceState& seq, const proto::Field& f);

  ImportContext* ctx_;
  FtraceDecoder ftrace_;
  TrackEventDecoder track_events_;
  SystemProbesDecoder system_probes_;
  PerfSampleDecoder perf_samples_;
  HeapGraphDecoder heap_graphs_;  // ART heap dumps, their process metadata, deobfuscation maps
  HeapProfileDecoder heap_profiles_;
  ProtoVmIncrementalTracing protovm_;
  ProtoImportStats stats_;
  int64_t latest_ts_ = 0;
  uint32_t snapshot_count_ = 0;
  int compression_depth_ = 0;
};

}  // namespace tw
