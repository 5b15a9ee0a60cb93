#include "libs/trace/trace_loader.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "libs/common/process_memory.h"
#include "libs/common/status_macros.h"
#include "libs/trace/importers/android_bugreport/dumpstate_importer.h"
#include "libs/trace/importers/json/json_importer.h"
#include "libs/trace/importers/proto/import_context.h"
#include "libs/trace/importers/proto/proto_importer.h"
#include "libs/trace/importers/proto/trace_uuid.h"
#include "libs/trace/importers/systrace/systrace_importer.h"
#include "libs/trace/reader/open_trace.h"
#include "libs/trace/sorter/event_sorter.h"
#include "libs/trace/trackers/event_router.h"
#include "libs/trace/trackers/track_event_tracker.h"
#include "libs/trace/trackers/trace_context.h"

namespace tw {
namespace {

std::string EventTypeName(EventType t) {
  switch (t) {
    case EventType::kSchedSwitch: return "sched_switch";
    case EventType::kSchedWaking: return "sched_waking";
    case EventType::kTaskNewtask: return "task_newtask";
    case EventType::kTaskRename: return "task_rename";
    case EventType::kProcessExit: return "sched_process_exit";
    case EventType::kProcessFree: return "sched_process_free";
    case EventType::kSchedBlockedReason: return "sched_blocked_reason";
    case EventType::kCpuFrequency: return "cpu_frequency";
    case EventType::kCpuIdle: return "cpu_idle";
    case EventType::kAtrace: return "atrace";
    case EventType::kFtraceRaw: return "ftrace_other";
    case EventType::kFtracePrint: return "ftrace_print";
    case EventType::kProcessTree: return "process_tree";
    case EventType::kCounter: return "counter";
    case EventType::kTrackEvent: return "track_event";
    case EventType::kAndroidLog: return "android_log";
    case EventType::kSysEnter: return "sys_enter";
    case EventType::kSysExit: return "sys_exit";
    case EventType::kIrqEnter: return "irq_handler_entry";
    case EventType::kIrqExit: return "irq_handler_exit";
    case EventType::kSoftIrqEnter: return "softirq_entry";
    case EventType::kSoftIrqExit: return "softirq_exit";
    case EventType::kThreadName: return "thread_name";
    case EventType::kJsonEvent: return "json_event";
    case EventType::kV8CpuProfile: return "v8_cpu_profile";
    case EventType::kImportLog: return "import_log";
    case EventType::kGlobalInstant: return "global_instant";
    case EventType::kFrameTimeline: return "frame_timeline";
    case EventType::kAndroidInputEvent: return "android_input_event";
    case EventType::kGpuMemTotal: return "gpu_mem_total";
    case EventType::kAndroidProcessLifecycle: return "android_process_lifecycle";
    case EventType::kGraphicsFrameEvent: return "graphics_frame_event";
    case EventType::kGpuEvent: return "gpu_event";
    case EventType::kGpuStage: return "gpu_stage";
    case EventType::kAndroidCpuPerUidTotals: return "android_cpu_per_uid_totals";
    case EventType::kWinscope: return "winscope";
    case EventType::kStateChange: return "state_change";
    case EventType::kGlobalSlice: return "global_slice";
    case EventType::kProtoLog: return "protolog";
    case EventType::kPerfSample: return "perf_sample";
    case EventType::kHeapProfile: return "heap_profile";
    case EventType::kGenericTaskState: return "generic_task_state";
    case EventType::kGenericTaskRename: return "generic_task_rename";
    case EventType::kGenericProcessTree: return "generic_process_tree";
    case EventType::kHeapGraph: return "heap_graph";
    case EventType::kArtProcessMetadata: return "art_process_metadata";
    case EventType::kDeobfuscationMapping: return "deobfuscation_mapping";
    case EventType::kNetworkPacket: return "network_packet";
  }
  return "unknown";
}

// trace_processor's names for the trace_type metadata.
std::string_view TraceTypeName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kPerfettoProto: return "proto";
    case TraceFormat::kJson: return "json";
    case TraceFormat::kSystrace:
    case TraceFormat::kSystraceHtml: return "systrace";
    case TraceFormat::kAndroidDumpstate: return "android_dumpstate";
    default: return "unknown";
  }
}

// Passes bytes through, keeping a copy of the first `limit` of them: trace_processor names a
// trace without a UUID of its own by a hash of its head.
class HeadRecordingSource : public ChunkSource {
 public:
  HeadRecordingSource(std::unique_ptr<ChunkSource> inner, size_t limit)
      : inner_(std::move(inner)), limit_(limit) {}
  absl::StatusOr<size_t> Read(uint8_t* buf, size_t capacity) override {
    absl::StatusOr<size_t> n = inner_->Read(buf, capacity);
    if (n.ok() && head_.size() < limit_) {
      head_.append(reinterpret_cast<const char*>(buf), std::min(*n, limit_ - head_.size()));
    }
    return n;
  }
  const std::string& head() const { return head_; }

 private:
  std::unique_ptr<ChunkSource> inner_;
  size_t limit_;
  std::string head_;
};

int64_t ElapsedNs(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              since)
      .count();
}

absl::StatusOr<std::unique_ptr<LoadedTrace>> Load(OpenedTrace opened,
                                                  const LoadOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  auto storage = std::make_unique<TraceStorage>();
  LoadInfo info;
  info.format = std::string(TraceFormatName(opened.format));
  info.gzip = opened.gzip;
  info.file_bytes = opened.file_bytes;

  // The hash covers the file as stored; for a gzip file that is not what the importer reads,
  // so such traces get no derived UUID.
  HeadRecordingSource* head = nullptr;
  if (!opened.gzip) {
    auto recording = std::make_unique<HeadRecordingSource>(std::move(opened.source), 4096);
    head = recording.get();
    opened.source = std::move(recording);
  }

  TraceContext context(storage.get());
  context.track_events->set_crop_to_range_of_interest(options.crop_track_events);
  EventRouter router(&context);
  // Indexed by EventType (a uint8_t).
  int64_t event_counts[256] = {};
  EventSorter sorter(options.sort_window_ns, [&](Event& e) {
    ++event_counts[static_cast<int>(e.type)];
    router.Route(e);
  });

  switch (opened.format) {
    case TraceFormat::kPerfettoProto: {
      // In system traces pid 0 is the idle task (trace_processor assumes so for every proto
      // trace).
      context.processes.SetPidZeroIsUpidZeroIdleProcess();
      ImportContext ictx;
      ictx.storage = storage.get();
      ictx.sorter = &sorter;
      ProtoImporter importer(&ictx);
      importer.set_cpu_arg_set_sink(
          [&context](const std::vector<Arg>& args) { return context.args.AddArgSet(args); });
      // Track descriptors are facts about uuids, known before any event is sorted: the
      // importer records them where the track-event tracker will read them.
      ictx.track_events->set_descriptor_registry(&context.track_events->descriptor_registry());
      ictx.translations = &context.slices.translations();
      RETURN_IF_ERROR(importer.Import(opened.source.get(), options.max_packet_bytes));
      router.set_ftrace_buffer_preserved(importer.ftrace_buffer_preserved());
      info.packets = importer.stats().packets;
      info.decoded_bytes = importer.stats().bytes;
      info.packet_kinds = importer.stats().packet_kinds;
      break;
    }
    case TraceFormat::kSystrace:
    case TraceFormat::kSystraceHtml: {
      // ftrace text names the idle task "<idle>-0"; trace_processor treats pid 0 as the idle
      // process for systrace too.
      context.processes.SetPidZeroIsUpidZeroIdleProcess();
      SystraceImporter importer(storage.get(), &sorter);
      RETURN_IF_ERROR(importer.Import(opened.source.get()));
      info.packets = importer.stats().lines;
      info.decoded_bytes = importer.stats().bytes;
      info.packet_kinds = importer.stats().event_counts;
      break;
    }
    case TraceFormat::kAndroidDumpstate: {
      // Battery history is on REALTIME, which is then the trace clock.
      DumpstateImporter importer(storage.get(), &sorter);
      RETURN_IF_ERROR(importer.Import(opened.source.get()));
      info.packets = importer.stats().lines;
      info.decoded_bytes = importer.stats().bytes;
      info.packet_kinds = importer.stats().sections;
      break;
    }
    case TraceFormat::kJson: {
      // Chrome JSON: pids are the producer's own, pid 0 is not the idle task.
      JsonImporter importer(storage.get(), &sorter, options.max_packet_bytes);
      RETURN_IF_ERROR(importer.Import(opened.source.get()));
      info.packets = importer.stats().events;
      info.decoded_bytes = importer.stats().bytes;
      info.packet_kinds = importer.stats().phases;
      break;
    }
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "trace format '", std::string(TraceFormatName(opened.format)),
          "' is not supported yet"));
  }
  info.decode_ns = ElapsedNs(start);
  info.rss_after_decode_bytes = CurrentRssBytes();
  info.events_buffered_peak = static_cast<int64_t>(sorter.buffered());
  const auto track_start = std::chrono::steady_clock::now();
  // The machine description (system_info) decides how kernel data is read: the task-state bit
  // layout and the syscall table. It is known before any event is routed when the whole trace
  // is sorted at the end (the default).
  if (auto release = storage->GetMetadataString("system_release")) {
    context.sched.set_kernel_version(ParseKernelVersion(*release));
  }
  if (auto machine = storage->GetMetadataString("system_machine")) {
    context.syscalls.set_arch(SyscallArchFromMachine(*machine));
  }
  sorter.Finish();
  router.Finish();
  info.sort_and_track_ns = ElapsedNs(track_start);
  const auto finalize_start = std::chrono::steady_clock::now();
  if (sorter.out_of_order_events() > 0) {
    storage->SetStat("sorter_push_event_out_of_order", sorter.out_of_order_events());
  }
  for (int i = 0; i < 256; ++i) {
    if (event_counts[i]) {
      info.event_kinds[EventTypeName(static_cast<EventType>(i))] = event_counts[i];
      info.events += event_counts[i];
    }
  }
  storage->SetMetadata("trace_size_bytes", info.file_bytes);
  storage->SetMetadata("trace_type", std::string_view(TraceTypeName(opened.format)));
  if (head && !storage->GetMetadataString("trace_uuid")) {
    storage->SetMetadata("trace_uuid", std::string_view(TraceUuidFromFilePrefix(head->head())));
  }
  storage->ComputeBoundsFromTables();
  storage->FinalizeStatsAndMetadata();

  ASSIGN_OR_RETURN(std::unique_ptr<TraceDatabase> db, TraceDatabase::Open(storage.get()));
  info.finalize_ns = ElapsedNs(finalize_start);
  info.load_ns = ElapsedNs(start);
  info.storage_bytes = static_cast<int64_t>(storage->memory_bytes());
  info.peak_rss_bytes = PeakRssBytes();
  return std::make_unique<LoadedTrace>(std::move(storage), std::move(db), std::move(info));
}

}  // namespace

absl::StatusOr<std::unique_ptr<LoadedTrace>> LoadTraceFile(const std::string& path,
                                                           const LoadOptions& options) {
  ASSIGN_OR_RETURN(OpenedTrace opened, OpenTraceFile(path));
  return Load(std::move(opened), options);
}

absl::StatusOr<std::unique_ptr<LoadedTrace>> LoadTraceBytes(std::string_view bytes,
                                                            const LoadOptions& options) {
  ASSIGN_OR_RETURN(OpenedTrace opened, OpenTraceBytes(bytes));
  return Load(std::move(opened), options);
}

}  // namespace tw
