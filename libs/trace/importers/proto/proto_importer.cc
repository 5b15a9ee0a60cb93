#include "libs/trace/importers/proto/proto_importer.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/heap_graph_fields.h"
#include "libs/trace/importers/proto/inflate_bytes.h"
#include "libs/trace/importers/proto/packet_splitter.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/remote_clock_sync.h"
#include "libs/trace/importers/proto/translation_table_decoder.h"

namespace tw {
namespace {

namespace tp = pf::trace_packet;

constexpr uint32_t kSeqIncrementalStateCleared = 1;
constexpr uint32_t kSeqNeedsIncrementalState = 2;
constexpr uint32_t kFirstSequenceScopedClock = 64;
constexpr uint32_t kLastSequenceScopedClock = 127;

// Names for `tracewise info` of the packet kinds seen most often.
std::string PacketKindName(uint32_t field) {
  switch (field) {
    case tp::kFtraceEvents: return "ftrace_events";
    case tp::kProcessTree: return "process_tree";
    case tp::kClockSnapshot: return "clock_snapshot";
    case tp::kSysStats: return "sys_stats";
    case tp::kProcessStats: return "process_stats";
    case tp::kTrackEvent: return "track_event";
    case tp::kTraceConfig: return "trace_config";
    case tp::kFtraceStats: return "ftrace_stats";
    case tp::kTraceStats: return "trace_stats";
    case tp::kAndroidLog: return "android_log";
    case tp::kSystemInfo: return "system_info";
    case tp::kTrackDescriptor: return "track_descriptor";
    case tp::kThreadDescriptor: return "thread_descriptor";
    case tp::kProcessDescriptor: return "process_descriptor";
    case tp::kServiceEvent: return "service_event";
    case tp::kCpuInfo: return "cpu_info";
    case tp::kTraceUuid: return "trace_uuid";
    case tp::kSynchronizationMarker: return "synchronization_marker";
    case tp::kCompressedPackets: return "compressed_packets";
    case tp::kPackagesList: return "packages_list";
    case tp::kTrigger: return "trigger";
    case 76: return "frame_timeline_event";
    case tp::kGpuCounterEvent: return "gpu_counter_event";
    case tp::kPowerRails: return "power_rails";
    case tp::kBattery: return "battery";
    case tp::kPerfSample: return "perf_sample";
    case pf::kTracePacketHeapGraph: return "heap_graph";
    case tp::kArtProcessMetadata: return "art_process_metadata";
    case tp::kDeobfuscationMapping: return "deobfuscation_mapping";
    case tp::kProfilePacket: return "profile_packet";
    default: return absl::StrCat("field_", field);
  }
}

}  // namespace

ProtoImporter::ProtoImporter(ImportContext* ctx)
    : ctx_(ctx),
      ftrace_(ctx),
      track_events_(ctx),
      system_probes_(ctx),
      perf_samples_(ctx),
      heap_graphs_(ctx),
      heap_profiles_(ctx),
      protovm_(ctx) {
  ctx_->track_events = &track_events_;
}

ProtoImporter::~ProtoImporter() = default;

absl::Status ProtoImporter::Import(ChunkSource* source, int64_t max_packet_bytes) {
  proto::PacketSplitter splitter(source, static_cast<size_t>(max_packet_bytes));
  std::string_view packet;
  while (true) {
    absl::StatusOr<bool> next = splitter.Next(&packet);
    if (!next.ok()) {
      // A damaged compressed stream: keep what decoded before the damage, as a partial trace,
      // unless nothing did.
      if (stats_.packets == 0) return next.status();
      ctx_->storage->IncrementStat("trace_truncated");
      const std::string message(next.status().message());
      ctx_->storage->SetMetadata("trace_corruption", std::string_view(message));
      break;
    }
    if (!*next) break;
    HandlePacket(packet);
  }
  stats_.bytes = splitter.bytes_consumed();
  if (splitter.truncated()) ctx_->storage->IncrementStat("trace_truncated");
  if (splitter.corrupt()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    ctx_->storage->SetMetadata("trace_corruption",
                               std::string_view(splitter.error_message()));
  }
  // What needs every packet first: long-trace-mode loss, the config's diagnostics.
  system_probes_.Finish();
  if (ctx_->clocks.cache_misses() > 0) {
    ctx_->storage->SetStat("clock_sync_cache_miss", ctx_->clocks.cache_misses());
  }
  return absl::OkStatus();
}

void ProtoImporter::HandleInternedData(SequenceState& seq, const proto::Field& f) {
  proto::Decoder d(f);
  proto::Field entry;
  while (d.Next(&entry)) {
    if (entry.type != proto::kLengthDelimited) continue;
    // Every interned message keeps its iid in field 1.
    proto::Decoder ed(entry);
    proto::Field x;
    uint64_t iid = 0;
    bool has_iid = false;
    while (ed.Next(&x)) {
      if (x.id == 1 && x.type == proto::kVarint) {
        iid = x.int_value;
        has_iid = true;
        break;
      }
    }
    if (has_iid) seq.Intern(entry.id, iid, entry.as_string());
  }
}

void ProtoImporter::HandleClockSnapshot(uint32_t sequence_id, SequenceState& seq,
                                        const proto::Field& f) {
  std::vector<ClockTracker::SnapshotClock> clocks;
  std::optional<uint32_t> primary;
  proto::Decoder d(f);
  proto::Field x;
  const uint32_t snapshot_id = snapshot_count_++;
  while (d.Next(&x)) {
    if (x.id == pf::clock_snapshot::kPrimaryTraceClock) primary = x.as_uint32();
    if (x.id != pf::clock_snapshot::kClocks || x.type != proto::kLengthDelimited) continue;
    uint32_t clock_id = 0;
    int64_t ts = 0;
    bool incremental = false;
    int64_t unit = 1;
    proto::Decoder cd(x);
    proto::Field c;
    while (cd.Next(&c)) {
      switch (c.id) {
        case pf::clock_snapshot_clock::kClockId: clock_id = c.as_uint32(); break;
        case pf::clock_snapshot_clock::kTimestamp: ts = c.as_int64(); break;
        case pf::clock_snapshot_clock::kIsIncremental: incremental = c.as_bool(); break;
        case pf::clock_snapshot_clock::kUnitMultiplierNs: unit = std::max<int64_t>(1, c.as_int64()); break;
        default: break;
      }
    }
    const bool scoped = clock_id >= kFirstSequenceScopedClock && clock_id <= kLastSequenceScopedClock;
    if (scoped) {
      seq.set_clock_incremental(clock_id, incremental, unit);
      if (incremental) *seq.incremental_clock(clock_id) = ts;
    }
    clocks.push_back({ClockKey{clock_id, scoped ? sequence_id : 0}, ts * unit});
    ClockSnapshotTable& t = ctx_->storage->clock_snapshot;
    t.Insert({.ts = 0,
              .clock_id = static_cast<int64_t>(clock_id),
              .clock_value = ts * unit,
              .snapshot_id = snapshot_id,
              .machine_id = ctx_->clocks.machine()});
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("invalid_clock_snapshots");
    return;
  }
  if (!ctx_->clocks.has_snapshots() && ctx_->clocks.machine() == 0) {
    if (primary) ctx_->clocks.set_trace_clock(*primary);
    // The first snapshot fixes the trace clock (BOOTTIME unless it names another), which
    // trace_processor records in metadata.
    ctx_->storage->SetMetadata("trace_time_clock_id",
                               static_cast<int64_t>(ctx_->clocks.trace_clock().clock_id));
  }
  ctx_->clocks.AddSnapshot(clocks);
  // The snapshot's own time on the trace clock, for the clock_snapshot table: every clock of the
  // snapshot is converted (as trace_processor fills that table, which also primes its clock
  // conversion cache); the trace clock's own reading, when present, is the answer.
  std::optional<int64_t> trace_ts;
  for (const auto& c : clocks) {
    const std::optional<int64_t> t = ctx_->clocks.ToTraceTime(c.key, c.timestamp_ns);
    if (ctx_->clocks.IsTraceClock(c.key)) {
      trace_ts = c.timestamp_ns;
    } else if (t && !trace_ts) {
      trace_ts = t;
    }
  }
  ClockSnapshotTable& t = ctx_->storage->clock_snapshot;
  for (uint32_t r = t.row_count() - static_cast<uint32_t>(clocks.size()); r < t.row_count(); ++r) {
    t.ts.Set(r, trace_ts.value_or(0));
  }
}

void ProtoImporter::HandleRemoteClockSync(const proto::Field& f) {
  const std::optional<std::vector<SyncedClockReadings>> rounds = ParseRemoteClockSync(f);
  if (!rounds) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }
  // The client's readings are also snapshots of its own clocks (as if its tracing service took
  // them), which relate its other clocks to the ones the sync ties to the host.
  for (const SyncedClockReadings& r : *rounds) {
    std::vector<ClockTracker::SnapshotClock> client;
    for (const auto& [clock, readings] : r.clocks) {
      if (readings.client) client.push_back({ClockKey{clock, 0}, readings.client});
    }
    ctx_->clocks.AddSnapshot(client);
  }
  for (const auto& [clock, offset] : RemoteClockOffsets(*rounds)) {
    // Anchor the relation at a real host reading (the last round that read this clock), so the
    // snapshot lies inside the trace rather than at the clock's epoch.
    int64_t host_anchor = 0;
    for (const SyncedClockReadings& r : *rounds) {
      auto it = r.clocks.find(clock);
      if (it != r.clocks.end() && it->second.host) host_anchor = it->second.host;
    }
    ctx_->clocks.AddRemoteSync(clock, host_anchor, offset);
  }
}

bool ProtoImporter::ResolveTimestamp(const proto::Field* ts_field, uint32_t clock_id,
                                     uint32_t sequence_id, SequenceState& seq, int64_t* out) {
  int64_t raw = ts_field ? static_cast<int64_t>(ts_field->int_value) : 0;
  const bool scoped = clock_id >= kFirstSequenceScopedClock && clock_id <= kLastSequenceScopedClock;
  ClockKey key{clock_id, scoped ? sequence_id : 0};
  if (scoped) {
    const auto props = seq.clock_props(clock_id);
    if (props && props->first) {
      int64_t* last = seq.incremental_clock(clock_id);
      *last += raw;
      raw = *last;
    }
    if (props) raw *= props->second;
  }
  if (clock_id == 0) key = ctx_->clocks.trace_clock();
  const std::optional<int64_t> ts = ctx_->clocks.ToTraceTime(key, raw);
  if (!ts) {
    ctx_->storage->IncrementStat("clock_sync_failure");
    return false;
  }
  *out = *ts;
  return true;
}

void ProtoImporter::HandleRangeOfInterest(const proto::Field& f) {
  // TrackEventRangeOfInterest { int64 start_us = 1 }: where the producer says the data of
  // interest starts (its ring buffers may hold older, incomplete data). Recorded as metadata;
  // the track-event tracker crops to it when asked to.
  std::optional<int64_t> start_us;
  if (f.type == proto::kLengthDelimited) {
    proto::Decoder d(f);
    proto::Field x;
    while (d.Next(&x)) {
      if (x.id == 1) start_us = x.as_int64();
    }
  }
  if (!start_us) {
    ctx_->storage->IncrementStat("track_event_range_of_interest_missing_start_us");
    return;
  }
  ctx_->storage->SetMetadata("range_of_interest_start_us", *start_us);
}

void ProtoImporter::HandleCompressedPackets(const proto::Field& f) {
  if (compression_depth_ > 2) {
    ctx_->storage->IncrementStat("compressed_packets_unsupported");
    return;
  }
  // compressed_packets holds a zlib-deflated Trace (repeated TracePacket).
  const std::optional<std::string> out = InflateBytes(f.as_string(), Compression::kZlib);
  if (!out) {
    ctx_->storage->IncrementStat("compressed_packets_unsupported");
    return;
  }
  ++compression_depth_;
  proto::Decoder d(*out);
  proto::Field p;
  while (d.Next(&p)) {
    if (p.id == pf::trace::kPacket && p.type == proto::kLengthDelimited) HandlePacket(p.as_string());
  }
  if (d.error()) ctx_->storage->IncrementStat("proto_decode_errors");
  --compression_depth_;
}

void ProtoImporter::HandleProcessTree(const PacketContext& packet, const proto::Field& f) {
  namespace pt = pf::process_tree;
  namespace pp = pf::process_tree_process;
  namespace pth = pf::process_tree_thread;
  ProcessTreeData tree;
  proto::Decoder d(f);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.type != proto::kLengthDelimited) continue;
    proto::Decoder sd(x);
    proto::Field y;
    if (x.id == pt::kProcesses) {
      ProcessTreeData::Process p{};
      p.pid = 0;
      p.ppid = 0;
      while (sd.Next(&y)) {
        switch (y.id) {
          case pp::kPid: p.pid = y.as_int32(); break;
          case pp::kPpid: p.ppid = y.as_int32(); break;
          case pp::kCmdline: p.cmdline.emplace_back(y.as_string()); break;
          case pp::kUid: p.uid = y.as_int32(); break;
          case pp::kIsKthread: p.is_kthread = y.as_bool(); break;
          case pp::kCmdlineIsComm: p.cmdline_is_comm = y.as_bool(); break;
          case pp::kProcessStartFromBoot: {
            if (auto t = ctx_->clocks.ToTraceTime({kBootTimeClock, 0}, y.as_int64())) {
              p.process_start_from_boot = *t;
            }
            break;
          }
          default: break;
        }
      }
      tree.processes.push_back(std::move(p));
    } else if (x.id == pt::kThreads) {
      ProcessTreeData::Thread t{0, 0, std::nullopt};
      while (sd.Next(&y)) {
        if (y.id == pth::kTid) t.tid = y.as_int32();
        if (y.id == pth::kTgid) t.tgid = y.as_int32();
        if (y.id == pth::kName) t.name = std::string(y.as_string());
      }
      tree.threads.push_back(std::move(t));
    }
  }
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id),
             Event::WithPayload(packet.ts, EventType::kProcessTree, std::move(tree)));
}

void ProtoImporter::HandlePacket(std::string_view bytes) {
  ++stats_.packets;
  ImportPacket(bytes, /*is_protovm_state=*/false);
}

void ProtoImporter::ImportPacket(std::string_view bytes, bool is_protovm_state) {
  if (bytes.empty()) {
    ctx_->storage->IncrementStat("empty_packets");
    return;
  }
  proto::Field ts_field, data, interned, defaults;
  bool has_ts = false, has_data = false, has_interned = false, has_defaults = false;
  uint32_t clock_id = 0, sequence_id = 0, flags = 0;
  bool cleared = false, first_on_sequence = false, has_sequence_id = false;
  // previous_packet_dropped: 0 none, else a DataLossReason bitmask (bit 0 set on every loss;
  // older writers set just 1, i.e. the historical bool).
  uint32_t dropped = 0;
  std::optional<int32_t> trusted_pid;
  uint32_t raw_machine_id = 0;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case tp::kTimestamp: ts_field = f; has_ts = true; break;
      case tp::kTimestampClockId: clock_id = f.as_uint32(); break;
      case tp::kTrustedPacketSequenceId:
        sequence_id = f.as_uint32();
        has_sequence_id = true;
        break;
      case tp::kSequenceFlags: flags = f.as_uint32(); break;
      case tp::kIncrementalStateCleared: cleared = cleared || f.as_bool(); break;
      case tp::kPreviousPacketDropped: dropped = f.as_uint32(); break;
      case tp::kInternedData: interned = f; has_interned = true; break;
      case tp::kTracePacketDefaults: defaults = f; has_defaults = true; break;
      case tp::kTrustedPid: trusted_pid = f.as_int32(); break;
      case tp::kFirstPacketOnSequence: first_on_sequence = f.as_bool(); break;
      case tp::kMachineId: raw_machine_id = f.as_uint32(); break;
      case tp::kTrustedUid:
        break;
      default:
        if (f.type == proto::kLengthDelimited || f.type == proto::kVarint) {
          data = f;
          has_data = true;
        }
        break;
    }
  }
  if (d.error()) {
    ctx_->storage->IncrementStat("proto_decode_errors");
    return;
  }

  // ProtoVM incremental tracing, before anything reads the packet: registrations, and patches
  // replaced by the full packets (the VM's new state) they stand for.
  if (has_data && data.id == tp::kTraceProvenance && data.type == proto::kLengthDelimited) {
    protovm_.OnTraceProvenance(data);
  } else if (has_data && data.id == tp::kProtovms && data.type == proto::kLengthDelimited) {
    protovm_.OnProtoVms(data);
  } else if (!is_protovm_state && has_sequence_id && protovm_.HasVms(sequence_id)) {
    if (std::optional<std::string> state = protovm_.TryApplyPatch(bytes, sequence_id)) {
      ImportPacket(*state, /*is_protovm_state=*/true);
      return;
    }
  }

  // Loss bookkeeping per sequence, for trace_stats' per-buffer attribution.
  system_probes_.sequence_loss().OnPacket(has_sequence_id, sequence_id, dropped);
  if (first_on_sequence) track_events_.OnFirstPacketOnSequence(sequence_id);
  SequenceState& seq = ctx_->Sequence(sequence_id);
  if (cleared || (flags & kSeqIncrementalStateCleared)) {
    seq.Clear();
  } else if (dropped != 0) {
    // A writer dropped packets: interned data may be missing until it clears state again.
    seq.set_incremental_state_valid(false);
  }
  if (has_defaults) seq.set_defaults(defaults.as_string());
  if (has_interned) HandleInternedData(seq, interned);
  if (has_data) ++stats_.packet_kinds[PacketKindName(data.id)];

  // The machine that wrote the packet: its clocks stamp it, its rows get its data. Containers of
  // other packets and sync markers say nothing about which machine has data.
  if (raw_machine_id == 0 && !(has_data && (data.id == tp::kSynchronizationMarker ||
                                            data.id == tp::kCompressedPackets))) {
    ctx_->NoteHostPacket();
  }
  const uint32_t machine = ctx_->MachineRow(raw_machine_id);
  ctx_->current_machine = static_cast<uint8_t>(std::min<uint32_t>(machine, 255));
  ctx_->clocks.set_machine(machine);

  // A packet that needs the sequence's incremental state is unusable until the writer clears
  // that state (after a loss, or before its first clear). Clock snapshots, service events and
  // extension descriptors never depend on it.
  const bool independent_of_state =
      has_data && (data.id == tp::kClockSnapshot || data.id == tp::kServiceEvent ||
                   data.id == tp::kExtensionDescriptor);
  if ((flags & kSeqNeedsIncrementalState) && sequence_id != 0 && !independent_of_state) {
    const bool usable = seq.can_use_incremental_packets();
    system_probes_.sequence_loss().OnNeedsIncrementalState(sequence_id, !usable);
    if (!usable) {
      ctx_->storage->IncrementStat("packet_skipped_seq_needs_incremental_state_invalid");
      return;
    }
  }
  if (!has_data) return;

  if (data.id == tp::kClockSnapshot) {
    HandleClockSnapshot(sequence_id, seq, data);
    return;
  }
  if (data.id == tp::kRemoteClockSync) {
    HandleRemoteClockSync(data);
    return;
  }

  // Clock of this packet: its own, else the sequence's defaults, else the trace clock.
  if (clock_id == 0 && seq.defaults()) {
    proto::Decoder dd(*seq.defaults());
    proto::Field x;
    while (dd.Next(&x)) {
      if (x.id == pf::trace_packet_defaults::kTimestampClockId) clock_id = x.as_uint32();
    }
  }
  PacketContext packet;
  packet.sequence_id = sequence_id;
  packet.sequence = &seq;
  packet.timestamp_clock_id = clock_id;
  packet.trusted_pid = trusted_pid;
  packet.machine = machine;
  packet.has_timestamp = has_ts;
  if (has_ts) {
    if (!ResolveTimestamp(&ts_field, clock_id, sequence_id, seq, &packet.ts)) return;
    latest_ts_ = std::max(latest_ts_, packet.ts);
  } else {
    packet.ts = latest_ts_;
  }

  switch (data.id) {
    case tp::kFtraceEvents:
      ftrace_.DecodeBundle(packet, data);
      return;
    case tp::kProcessTree:
      HandleProcessTree(packet, data);
      return;
    case tp::kTrackEvent:
      track_events_.OnTrackEvent(packet, data);
      return;
    case tp::kTrackDescriptor:
      track_events_.OnTrackDescriptor(packet, data);
      return;
    case tp::kThreadDescriptor:
      track_events_.OnThreadDescriptor(packet, data);
      return;
    case tp::kStreamingProfilePacket:
      track_events_.OnStreamingProfilePacket(packet, data);
      return;
    case tp::kProcessDescriptor:
      track_events_.OnProcessDescriptor(packet, data);
      return;
    case tp::kPerfSample:
      if (data.type == proto::kLengthDelimited) {
        perf_samples_.Decode(packet, data);
      } else {
        ctx_->storage->IncrementStat("proto_decode_errors");
      }
      return;
    case pf::kTracePacketHeapGraph:
    case tp::kArtProcessMetadata:
    case tp::kDeobfuscationMapping:
      if (data.type != proto::kLengthDelimited) {
        ctx_->storage->IncrementStat("proto_decode_errors");
      } else if (data.id == pf::kTracePacketHeapGraph) {
        heap_graphs_.DecodeHeapGraph(packet, data);
      } else if (data.id == tp::kArtProcessMetadata) {
        heap_graphs_.DecodeArtProcessMetadata(packet, data);
      } else {
        heap_graphs_.DecodeDeobfuscationMapping(packet, data);
      }
      return;
    case tp::kProfilePacket:
      if (data.type == proto::kLengthDelimited) {
        heap_profiles_.Decode(packet, data);
      } else {
        ctx_->storage->IncrementStat("proto_decode_errors");
      }
      return;
    case tp::kCompressedPackets:
      HandleCompressedPackets(data);
      return;
    case tp::kSynchronizationMarker:
    case tp::kTraceProvenance:  // read above, for ProtoVM
    case tp::kProtovms:
      return;
    case tp::kTranslationTable:
      if (data.type != proto::kLengthDelimited ||
          (ctx_->translations && !DecodeTranslationTable(ctx_, data, ctx_->translations))) {
        ctx_->storage->IncrementStat("proto_decode_errors");
      }
      return;
    case tp::kTrackEventRangeOfInterest:
      HandleRangeOfInterest(data);
      return;
    case tp::kExtensionDescriptor:
      if (data.type != proto::kLengthDelimited ||
          !ctx_->descriptors.AddExtensionDescriptor(data.as_string())) {
        ctx_->storage->IncrementStat("proto_decode_errors");
      }
      return;
    default:
      if (!system_probes_.Decode(packet, data)) {
        ctx_->storage->IncrementStat("unknown_packet_types");
      }
      return;
  }
}

}  // namespace tw
