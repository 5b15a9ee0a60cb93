#include "libs/trace/importers/proto/trace_diagnostics.h"

#include <string>
#include <vector>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/storage/stats_catalog.h"

namespace tw {
namespace {

namespace tc = pf::trace_config;
namespace dsc = pf::data_source_config;

// FtraceConfig (protos/perfetto/config/ftrace/ftrace_config.proto): the fields the checks read.
namespace ftrace_config {
constexpr uint32_t kFtraceEvents = 1;          // repeated string "group/name"
constexpr uint32_t kBufferSizeKb = 10;         // uint32, per cpu
constexpr uint32_t kDrainPeriodMs = 11;        // uint32
constexpr uint32_t kSymbolizeKsyms = 13;       // bool
constexpr uint32_t kSyscallEvents = 18;        // repeated string
constexpr uint32_t kEnableFunctionGraph = 19;  // bool
constexpr uint32_t kPreserveFtraceBuffer = 23; // bool
}  // namespace ftrace_config

// HeapprofdConfig (protos/perfetto/config/profiling/heapprofd_config.proto).
constexpr uint32_t kHeapprofdSamplingIntervalBytes = 1;  // uint64

// One data source of the config, with what the checks need of it.
struct DataSource {
  std::string name;
  uint32_t target_buffer = 0;
  bool has_ftrace = false;
  std::vector<std::string> ftrace_events;
  std::optional<uint32_t> buffer_size_kb;
  std::optional<uint32_t> drain_period_ms;
  bool symbolize_ksyms = false;
  bool enable_function_graph = false;
  bool preserve_ftrace_buffer = false;
  bool has_syscall_filter = false;
  bool has_heapprofd = false;
  std::optional<uint64_t> heapprofd_sampling_interval_bytes;
};

struct Config {
  bool write_into_file = false;
  uint32_t file_write_period_ms = 0;
  std::vector<bool> buffer_is_discard;  // by buffer index
  std::vector<DataSource> data_sources;  // those carrying a DataSourceConfig
};

void ReadFtraceConfig(const proto::Field& field, DataSource* ds) {
  ds->has_ftrace = true;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case ftrace_config::kFtraceEvents: ds->ftrace_events.emplace_back(f.as_string()); break;
      case ftrace_config::kBufferSizeKb: ds->buffer_size_kb = f.as_uint32(); break;
      case ftrace_config::kDrainPeriodMs: ds->drain_period_ms = f.as_uint32(); break;
      case ftrace_config::kSymbolizeKsyms: ds->symbolize_ksyms = f.as_bool(); break;
      case ftrace_config::kSyscallEvents: ds->has_syscall_filter = true; break;
      case ftrace_config::kEnableFunctionGraph: ds->enable_function_graph = f.as_bool(); break;
      case ftrace_config::kPreserveFtraceBuffer: ds->preserve_ftrace_buffer = f.as_bool(); break;
      default: break;
    }
  }
}

DataSource ReadDataSourceConfig(const proto::Field& field) {
  DataSource ds;
  proto::Decoder d(field);
  proto::Field f;
  while (d.Next(&f)) {
    const bool message = f.type == proto::kLengthDelimited;
    switch (f.id) {
      case dsc::kName: ds.name = std::string(f.as_string()); break;
      case dsc::kTargetBuffer: ds.target_buffer = f.as_uint32(); break;
      case dsc::kFtraceConfig:
        if (message) ReadFtraceConfig(f, &ds);
        break;
      case dsc::kHeapprofdConfig: {
        if (!message) break;
        ds.has_heapprofd = true;
        proto::Decoder hd(f);
        proto::Field h;
        while (hd.Next(&h)) {
          if (h.id == kHeapprofdSamplingIntervalBytes) {
            ds.heapprofd_sampling_interval_bytes = h.as_uint64();
          }
        }
        break;
      }
      default: break;
    }
  }
  return ds;
}

Config ReadConfig(std::string_view bytes) {
  Config c;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case tc::kWriteIntoFile: c.write_into_file = f.as_bool(); break;
      case tc::kFileWritePeriodMs: c.file_write_period_ms = f.as_uint32(); break;
      case tc::kBuffers: {
        bool discard = false;
        if (f.type == proto::kLengthDelimited) {
          proto::Decoder bd(f);
          proto::Field b;
          while (bd.Next(&b)) {
            if (b.id == pf::trace_config_buffer_config::kFillPolicy) {
              discard = b.as_uint32() == pf::buffer_fill_policy::kDiscard;
            }
          }
        }
        c.buffer_is_discard.push_back(discard);
        break;
      }
      case tc::kDataSources: {
        if (f.type != proto::kLengthDelimited) break;
        proto::Decoder dd(f);
        proto::Field x;
        while (dd.Next(&x)) {
          if (x.id == pf::trace_config_data_source::kConfig &&
              x.type == proto::kLengthDelimited) {
            c.data_sources.push_back(ReadDataSourceConfig(x));
          }
        }
        break;
      }
      default: break;
    }
  }
  return c;
}

bool HasSeverity(std::string_view name, std::initializer_list<std::string_view> severities) {
  const StatInfo* info = FindStatInfo(name);
  if (!info) return false;
  for (std::string_view sev : severities) {
    if (info->severity == sev) return true;
  }
  return false;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The build type of an Android fingerprint "brand/product/device:release/id/incremental:type/tags".
bool IsAndroidUserBuild(const TraceStorage& s) {
  const std::optional<std::string> fp = s.GetMetadataString("android_build_fingerprint");
  if (!fp) return false;
  const size_t colon = fp->rfind(':');
  if (colon == std::string::npos) return false;
  const std::string_view rest = std::string_view(*fp).substr(colon + 1);
  return rest.substr(0, rest.find('/')) == "user";
}

class Checks {
 public:
  Checks(const Config& config, const TraceDiagnosticsContext& context, TraceStorage* storage)
      : config_(config), context_(context), s_(storage) {
    ftrace_data_loss_ = s_->AnyStatPositive([](std::string_view name) {
      return name == "ftrace_cpu_has_data_loss" || name == "ftrace_cpu_overrun_delta" ||
             name == "ftrace_cpu_commit_overrun_delta";
    });
  }

  void RunAll() {
    PreserveFtraceBufferLateStart();
    TinyFtraceBuffer();
    LowFtraceDrainBandwidth();
    ExtremeFtraceDrainPeriod();
    SyscallsWithoutFilter();
    EventsRequireSymbolizeKsyms();
    DiscardBufferForStreaming();
    HeapprofdSamplingIntervalTooLow();
    DisplayVideoNotEnabled();
  }

 private:
  void Add(std::string_view key, std::string_view title, std::string_view description,
           std::string_view remediation, double confidence) {
    s_->trace_diagnostics.Insert({.key = s_->Intern(key),
                                  .title = s_->Intern(title),
                                  .description = s_->Intern(description),
                                  .remediation = s_->Intern(remediation),
                                  .confidence = confidence,
                                  .trace_id = 0});
  }

  template <typename Fn>
  void ForEachFtrace(Fn&& fn) {
    for (const DataSource& ds : config_.data_sources) {
      if (ds.has_ftrace) fn(ds);
    }
  }

  // preserve_ftrace_buffer keeps what the kernel buffer held before tracing began: useful right
  // after boot, misleading when tracing starts long afterwards.
  void PreserveFtraceBufferLateStart() {
    constexpr int64_t kFiveMinutesNs = int64_t{5} * 60 * 1000 * 1000 * 1000;
    ForEachFtrace([&](const DataSource& ds) {
      if (!ds.preserve_ftrace_buffer || !context_.tracing_started_boot_ns) return;
      if (*context_.tracing_started_boot_ns <= kFiveMinutesNs) return;
      Add("preserve_ftrace_buffer_late_start", "preserve_ftrace_buffer long after boot",
          "preserve_ftrace_buffer is set but tracing started more than five minutes after "
          "boot: the kept kernel buffer can hold old events that mislead.",
          "Unset preserve_ftrace_buffer unless tracing starts right after boot.", 0.7);
    });
  }

  // A per-cpu buffer under 1 MB overruns under bursts. Confidence: 0.9 at 64 KB or less,
  // falling linearly to 0.2 towards 1 MB; 0.9 whenever ftrace did lose data.
  void TinyFtraceBuffer() {
    constexpr uint32_t kOkKb = 1024, kSevereKb = 64;
    ForEachFtrace([&](const DataSource& ds) {
      if (!ds.buffer_size_kb || *ds.buffer_size_kb == 0) return;  // 0: the default size
      const uint32_t kb = *ds.buffer_size_kb;
      if (kb >= kOkKb) return;
      double confidence = 0.9;
      if (kb > kSevereKb) {
        const double t = static_cast<double>(kb - kSevereKb) / (kOkKb - kSevereKb);
        confidence = 0.9 + t * (0.2 - 0.9);
      }
      if (ftrace_data_loss_) confidence = 0.9;
      Add("tiny_ftrace_buffer", "Ftrace buffer too small",
          "The ftrace buffer_size_kb is " + std::to_string(kb) +
              " KB per cpu (under 1 MB): bursts of events can overrun it and be lost.",
          "Leave buffer_size_kb unset to get the default size, tuned for common loads.",
          confidence);
    });
  }

  // buffer_size_kb / drain_period_ms is the rate ftrace can sustain; under 5 MB/s a burst fills
  // the buffer before it is read. Confidence rises linearly to 0.9 at 1 MB/s or less; 0.9
  // whenever ftrace did lose data.
  void LowFtraceDrainBandwidth() {
    constexpr double kOkMbPerS = 5.0, kSevereMbPerS = 1.0;
    ForEachFtrace([&](const DataSource& ds) {
      if (!ds.buffer_size_kb || !ds.drain_period_ms) return;
      const uint32_t kb = *ds.buffer_size_kb, ms = *ds.drain_period_ms;
      if (kb == 0 || ms == 0) return;
      const double mb_per_s = (kb / 1024.0) / (ms / 1000.0);
      if (mb_per_s >= kOkMbPerS) return;
      double confidence = 0.9;
      if (mb_per_s > kSevereMbPerS) {
        confidence = 0.9 * (kOkMbPerS - mb_per_s) / (kOkMbPerS - kSevereMbPerS);
      }
      if (ftrace_data_loss_) confidence = 0.9;
      Add("low_ftrace_drain_bandwidth", "Low ftrace drain bandwidth",
          "buffer_size_kb=" + std::to_string(kb) + " drained every " + std::to_string(ms) +
              " ms sustains under 5 MB/s: a burst of events can fill the buffer before it is "
              "read.",
          "Leave buffer_size_kb and drain_period_ms unset, or enlarge the buffer or drain it "
          "more often to exceed 5 MB/s.",
          confidence);
    });
  }

  // Outside [100 ms, 60 s] the drain either wakes the CPUs too often or lets buffers overrun.
  void ExtremeFtraceDrainPeriod() {
    ForEachFtrace([&](const DataSource& ds) {
      if (!ds.drain_period_ms) return;
      const uint32_t ms = *ds.drain_period_ms;
      if (ms >= 100 && ms <= 60000) return;
      Add("extreme_ftrace_drain_period", "Extreme ftrace drain period",
          "drain_period_ms is " + std::to_string(ms) +
              " ms, outside 100 ms to 60 s: too many wakeups, or overruns between reads.",
          "Leave drain_period_ms unset, or keep it between 100 ms and 60 s.", 0.6);
    });
  }

  // raw_syscalls without a syscall_events filter records every system call of every thread.
  void SyscallsWithoutFilter() {
    ForEachFtrace([&](const DataSource& ds) {
      bool syscalls = false;
      for (const std::string& e : ds.ftrace_events) {
        syscalls = syscalls || e == "raw_syscalls/sys_enter" || e == "raw_syscalls/sys_exit";
      }
      if (!syscalls || ds.has_syscall_filter) return;
      Add("syscalls_without_filter", "Unfiltered syscall tracing",
          "raw_syscalls events are enabled with no syscall_events filter: every system call "
          "is recorded, which makes traces large and fills buffers fast.",
          "List only the syscalls you need in syscall_events.", ftrace_data_loss_ ? 0.9 : 0.3);
    });
  }

  // Events whose payload is a kernel address are unreadable without symbolize_ksyms, and the
  // symbols cannot be recovered after recording.
  void EventsRequireSymbolizeKsyms() {
    ForEachFtrace([&](const DataSource& ds) {
      if (ds.symbolize_ksyms) return;
      if (ds.enable_function_graph) {
        Add("function_graph_requires_symbolize_ksyms", "Function graph needs symbolize_ksyms",
            "enable_function_graph records kernel function addresses, which stay addresses "
            "without symbolize_ksyms and cannot be named afterwards.",
            "Set symbolize_ksyms: true in the ftrace config.", 1.0);
      }
      std::string offending;
      for (const std::string& e : ds.ftrace_events) {
        if (e == "workqueue/workqueue_execute_start" || e == "sched/sched_blocked_reason") {
          offending = e;
          break;
        }
      }
      if (offending.empty()) return;
      Add("events_require_symbolize_ksyms", "Events need symbolize_ksyms",
          "The ftrace event " + offending +
              " carries kernel addresses; without symbolize_ksyms they cannot be named, now "
              "or later.",
          "Set symbolize_ksyms: true in the ftrace config.", 0.6);
    });
  }

  // A DISCARD buffer stops recording the first time it fills: behind ftrace or track_event in a
  // trace streamed to a file, the trace silently ends early. A write period of a week or more
  // is Traceur asking for a ring buffer, not streaming; an unset period means the default
  // (periodic) writes.
  void DiscardBufferForStreaming() {
    constexpr uint32_t kRingBufferIntentPeriodMs = 604800000;
    if (!config_.write_into_file || config_.file_write_period_ms >= kRingBufferIntentPeriodMs) {
      return;
    }
    for (const DataSource& ds : config_.data_sources) {
      if (ds.name != "linux.ftrace" && ds.name != "track_event") continue;
      if (ds.target_buffer >= config_.buffer_is_discard.size() ||
          !config_.buffer_is_discard[ds.target_buffer]) {
        continue;
      }
      Add("discard_buffer_for_streaming", "DISCARD buffer for a streaming trace",
          "The data source \"" + ds.name +
              "\" writes into a DISCARD buffer while the trace streams to a file: recording "
              "stops once that buffer first fills.",
          "Use the RING_BUFFER fill_policy (the default) for buffers behind ftrace or "
          "track_event in long traces.",
          0.8);
    }
  }

  // Sampling every few bytes adds overhead without making the profile more accurate.
  void HeapprofdSamplingIntervalTooLow() {
    constexpr uint64_t k100Kb = 100 * 1024;
    for (const DataSource& ds : config_.data_sources) {
      if (!ds.has_heapprofd || !ds.heapprofd_sampling_interval_bytes) continue;
      const uint64_t interval = *ds.heapprofd_sampling_interval_bytes;
      if (interval == 0 || interval >= k100Kb) continue;
      const bool errors = s_->AnyStatPositive([](std::string_view name) {
        return StartsWith(name, "heapprofd") && HasSeverity(name, {"error"});
      });
      Add("heapprofd_sampling_interval_too_low", "Heapprofd sampling interval too low",
          "heapprofd samples every " + std::to_string(interval) +
              " bytes (under 100 KB): more overhead without a more accurate profile.",
          "Raise sampling_interval_bytes to 100 KB or more.", errors ? 0.9 : 0.3);
    }
  }

  // On user builds display video is off until the debug.tracing_video_allowed property is set
  // (reset on reboot): asked for, no frames and no producer error means it was not set.
  void DisplayVideoNotEnabled() {
    bool asked = false;
    for (const DataSource& ds : config_.data_sources) {
      asked = asked || ds.name == "android.display.video";
    }
    if (!asked || !IsAndroidUserBuild(*s_) || context_.has_video_frames) return;
    const bool producer_error = s_->AnyStatPositive([](std::string_view name) {
      return StartsWith(name, "android_video_") && HasSeverity(name, {"error", "data_loss"});
    });
    if (producer_error) return;
    Add("display_video_not_enabled", "Display video not captured",
        "The config asks for android.display.video but no frame was captured and the producer "
        "reported no error: on user builds display video stays off until the "
        "debug.tracing_video_allowed property is set, and it resets on reboot.",
        "Before recording (again after each reboot): adb shell setprop "
        "debug.tracing_video_allowed true",
        0.7);
  }

  const Config& config_;
  const TraceDiagnosticsContext& context_;
  TraceStorage* s_;
  bool ftrace_data_loss_ = false;
};

}  // namespace

void RunTraceDiagnostics(std::string_view config, const TraceDiagnosticsContext& context,
                         TraceStorage* storage) {
  const Config c = ReadConfig(config);
  Checks(c, context, storage).RunAll();
}

}  // namespace tw
