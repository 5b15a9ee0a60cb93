#include "tools/tracegen/android_world.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "tools/tracegen/polled_stats.h"

namespace tw::tracegen {

using proto::Writer;

namespace {
constexpr uint32_t kSeqSystem = 1;  // trace_config, system_info, process_tree
constexpr uint32_t kSeqLog = 30;
// Wall clock at the trace start: logcat timestamps are REALTIME, placed on the trace's BOOTTIME
// through the clock snapshots traced writes.
constexpr int64_t kRealtimeAtStart = 1'700'000'000'000'000'000;
constexpr uint32_t kClockRealtime = 1, kClockMonotonic = 3, kClockBoottime = 6;

// FtraceConfig (protos/perfetto/config/ftrace/ftrace_config.proto) fields used in the
// trace_config packet; perfetto_fields.h stops at DataSourceConfig.ftrace_config.
namespace ftrace_config {
constexpr uint32_t kFtraceEvents = 1, kAtraceCategories = 2, kAtraceApps = 3,
                   kBufferSizeKb = 10, kCompactSched = 12;
constexpr uint32_t kCompactSchedEnabled = 1;
}  // namespace ftrace_config

struct NoiseSpec {
  const char* cmdline;
  int32_t uid;
  std::vector<const char*> threads;
};
const NoiseSpec kNoise[] = {
    {"com.android.systemui", 10112, {"SysUiBg", "RenderThread", "binder:%d_2"}},
    {"com.google.android.gms.persistent", 10145, {"lite_thread_1", "GmsDynamite", "NetworkThread"}},
    {"/system/bin/audioserver", 1041, {"AudioOut_D", "ApmTone", "binder:%d_1"}},
    {"com.google.android.apps.nexuslauncher", 10131, {"launcher-loader", "RenderThread", "hwuiTask0"}},
    {"/system/bin/logd", 1036, {"logd.reader.per", "logd.writer", "logd.auditd"}},
    {"com.android.phone", 1001, {"RILJ", "ServiceStateTra", "binder:%d_3"}},
    {"/vendor/bin/hw/android.hardware.graphics.composer3-service", 1000, {"HwBinder:_1", "composer", "VsyncThread"}},
    {"com.google.android.gms", 10145, {"BG_Thread", "pool-4-thread-1", "Blocking Thread"}},
    {"/system/bin/cameraserver", 1047, {"binder:%d_1", "CameraProviderM", "HwBinder:_2"}},
    {"com.android.vending", 10120, {"background-thre", "Volley-Network", "pool-2-thread-2"}},
    {"com.google.android.youtube", 10160, {"ExoPlayer:Playb", "Cronet", "glide-source"}},
    {"/apex/com.android.art/bin/dex2oat64", 1000, {"dex2oat worker", "Jit thread pool", "Compiler"}},
};
// Slices app-like background threads write around their work (Looper dispatches, database).
const char* kBackgroundSlices[] = {
    "Handler: android.os.Handler", "Looper.dispatch: android.app.ActivityThread$H",
    "SQLiteConnection.executeForCursorWindow", "JobScheduler: onStartJob",
    "NetworkRequest.process", "Handler: androidx.work.impl.utils.taskexecutor"};

const char* kKernelThreads[] = {"rcu_preempt", "ksoftirqd/0", "kworker/u16:3", "kswapd0",
                                "kworker/4:1H", "irq/389-dwc3"};

std::string ExpandPid(const char* pattern, int32_t pid) {
  std::string s = pattern;
  const size_t at = s.find("%d");
  if (at != std::string::npos) s.replace(at, 2, std::to_string(pid));
  return s;
}

}  // namespace

Simulator::Options SimOptions(const WorldOptions& o) {
  Simulator::Options so;
  so.device = DeviceModel::WithCores(o.refresh_hz, o.little_cpus, o.big_cpus);
  so.encoding = o.compact_sched ? synth::SchedEncoding::kCompact : synth::SchedEncoding::kPlain;
  so.seed = o.seed;
  so.start_ns = o.start_ns;
  so.end_ns = o.start_ns + o.duration_ns;
  return so;
}

AndroidWorld::AndroidWorld(const WorldOptions& o, synth::TraceFile* file)
    : o_(o), file_(file), sim_(SimOptions(o), file) {
  BuildSystem();
  truth_.seed = o.seed;
  truth_.fps = o.refresh_hz;
  truth_.compact_sched = o.compact_sched;
  truth_.trace_start_ns = start();
  truth_.trace_end_ns = end();
  truth_.app_package = kPackage;
  truth_.app_pid = kAppPid;
  truth_.app_main_tid = kAppPid;
  truth_.app_render_tid = kAppPid + 28;
  truth_.system_server_pid = kSsPid;
  truth_.surfaceflinger_pid = kSfPid;
}

std::string AndroidWorld::LayerName() const {
  return absl::StrCat("TX - ", kPackage, "/", kPackage, ".MainActivity#1342");
}

void AndroidWorld::BuildSystem() {
  Simulator& s = sim_;
  // system_server: a main looper, the animation thread and a pool of binder threads.
  ss_proc = s.AddProcess(kSsPid, 1000, "system_server", true);
  ss_main = s.AddThread(ss_proc, kSsPid, "system_server", 118);
  ss_anim = s.AddThread(ss_proc, kSsPid + 21, "android.anim", 110);
  ss_input = s.AddThread(ss_proc, kSsPid + 30, "InputDispatcher", 112);
  s.AddThread(ss_proc, kSsPid + 7, "HeapTaskDaemon", 124);
  for (int i = 1; i <= 6; ++i) {
    const int32_t t = s.AddThread(ss_proc, kSsPid + 40 + i, absl::StrCat("binder:", kSsPid, "_", i), 120);
    s.MarkBinderThread(t);
    ss_binders.push_back(t);
  }
  // surfaceflinger: the main thread is SCHED_FIFO (prio 97), RenderEngine composes on the GPU.
  sf_proc = s.AddProcess(kSfPid, 1000, "/system/bin/surfaceflinger", true);
  sf_main = s.AddThread(sf_proc, kSfPid, "/system/bin/surfaceflinger", 97);
  sf_re = s.AddThread(sf_proc, kSfPid + 40, "RenderEngine", 97);
  for (int i = 1; i <= 2; ++i) {
    s.MarkBinderThread(s.AddThread(sf_proc, kSfPid + 10 + i, absl::StrCat("binder:", kSfPid, "_", i), 120));
  }
  s.thread(sf_main).prefer_big = true;
  // zygote64 forks app processes (cold starts).
  zygote_main = s.AddThread(s.AddProcess(743, 0, "zygote64", true), 743, "zygote64", 120);
  if (o_.app_running) SpawnApp(-1);
  // Kernel threads: children of kthreadd, each its own process.
  int32_t kpid = 10;
  for (const char* name : kKernelThreads) {
    const int32_t p = s.AddProcess(kpid, 0, name, true);
    kernel_procs_.push_back(p);
    const int32_t t = s.AddThread(p, kpid, name, 120);
    s.thread(t).generator = [this, t](int64_t) { NoiseGenerator(t, 40'000, 8'000'000, false); };
    kpid += 23;
  }
  // Background processes.
  const double mean_run = o_.noise_mean_run_ns;
  const double mean_sleep = mean_run * (1 - o_.noise_load) / std::max(0.001, o_.noise_load);
  for (uint32_t i = 0; i < o_.noise_processes; ++i) {
    const NoiseSpec& spec = kNoise[i % std::size(kNoise)];
    const int32_t pid = next_pid_;
    next_pid_ += 53;
    std::string cmdline = spec.cmdline;
    if (i >= std::size(kNoise)) cmdline = absl::StrCat("com.example.background", i);
    const int32_t p = s.AddProcess(pid, spec.uid, cmdline, true);
    const int32_t main = s.AddThread(p, pid, cmdline, 120);
    noise_threads.push_back(main);
    for (uint32_t k = 0; k < o_.noise_threads; ++k) {
      const std::string name = ExpandPid(spec.threads[k % spec.threads.size()], pid);
      noise_threads.push_back(s.AddThread(p, pid + 1 + static_cast<int32_t>(k), name, 120 + static_cast<int32_t>(k % 3) * 5));
    }
  }
  for (const std::string& name : o_.extra_process_names) {
    const int32_t pid = next_pid_;
    next_pid_ += 53;
    const int32_t p = s.AddProcess(pid, 10'999, name, true);
    noise_threads.push_back(s.AddThread(p, pid, name, 120));
  }
  for (int32_t t : noise_threads) {
    const double sleep = mean_sleep * (0.5 + s.rng().Uniform());
    // Java processes trace their looper work; native daemons mostly do not.
    const Simulator::Thread& th = s.thread(t);
    bool java = false;
    for (const Simulator::Process& p : s.processes()) {
      if (p.pid == th.tgid) java = p.cmdline[0] != '/';
    }
    s.thread(t).generator = [this, t, mean_run, sleep, java](int64_t) {
      NoiseGenerator(t, mean_run, sleep, java);
    };
  }
}

int32_t AndroidWorld::KernelThread(const std::string& name) const {
  for (int32_t p : kernel_procs_) {
    const Simulator::Process& proc = sim_.processes()[static_cast<size_t>(p)];
    if (proc.cmdline == name && !proc.threads.empty()) return proc.threads.front();
  }
  return -1;
}

void AndroidWorld::SpawnApp(int64_t ts) {
  Simulator& s = sim_;
  app_proc = s.AddProcess(kAppPid, 10234, kPackage, ts < 0);
  app_main = s.AddThread(app_proc, kAppPid, kPackage, 110);
  app_heap = s.AddThread(app_proc, kAppPid + 11, "HeapTaskDaemon", 124);
  s.AddThread(app_proc, kAppPid + 12, "Jit thread pool", 129);
  for (int i = 1; i <= 2; ++i) {
    s.MarkBinderThread(s.AddThread(app_proc, kAppPid + 16 + i, absl::StrCat("binder:", kAppPid, "_", i), 120));
  }
  app_render = s.AddThread(app_proc, kAppPid + 28, "RenderThread", 110);
  app_worker = s.AddThread(app_proc, kAppPid + 37, "DefaultDispatch", 120);
  app_io = s.AddThread(app_proc, kAppPid + 38, "pool-3-thread-1", 120);
  s.thread(app_main).big_only = true;
  s.thread(app_render).big_only = true;
  s.thread(app_heap).prefer_big = false;
  s.TrackRunnable(app_main);
  if (ts >= 0) {
    app_spawned_at_ = ts;
    WriteProcessTree(ts + 1'000'000, false);
    s.thread(app_main).comm = s.thread(zygote_main).comm;
  }
}

void AndroidWorld::NoiseGenerator(int32_t thread, double mean_run, double mean_sleep,
                                  bool traced) {
  synth::Rng& r = sim_.rng();
  Simulator::Thread& th = sim_.thread(thread);
  const int64_t run = static_cast<int64_t>(std::clamp(r.Exponential(mean_run), 15'000.0, 30 * mean_run));
  const bool slice = traced && r.Chance(0.6);
  const NoiseMarkers* markers = nullptr;
  if (slice) {
    auto [it, added] = noise_markers_.try_emplace(th.tgid);
    if (added) {
      for (const char* name : kBackgroundSlices) {
        it->second.begin.push_back(absl::StrCat("B|", th.tgid, "|", name));
      }
      it->second.end = absl::StrCat("E|", th.tgid);
    }
    markers = &it->second;
    th.program.push_back(Action::PrintRef(&markers->begin[r.Below(std::size(kBackgroundSlices))]));
  }
  th.program.push_back(Action::Run(run));
  if (markers) th.program.push_back(Action::PrintRef(&markers->end));
  const bool d = r.Chance(0.08);
  th.program.push_back(Action::Sleep(static_cast<int64_t>(std::max(20'000.0, r.Exponential(mean_sleep))), d, d));
}

void AndroidWorld::AddCpuHogs(int count, int64_t from, int64_t to, bool big_only, int32_t prio) {
  const int32_t pid = next_pid_;
  next_pid_ += 53;
  const int32_t p = sim_.AddProcess(pid, 10177, "com.google.android.apps.photos", true);
  sim_.AddThread(p, pid, "com.google.android.apps.photos", 120);
  for (int i = 0; i < count; ++i) {
    const int32_t t = sim_.AddThread(p, pid + 1 + i, absl::StrCat("MediaScan-", i), prio);
    Simulator::Thread& th = sim_.thread(t);
    th.big_only = big_only;
    th.prefer_big = big_only;
    th.program.push_back(Action::SleepUntil(from + i * 50'000));
    // Mostly-running media decoding: long bursts, short sleeps, until the window closes.
    th.generator = [this, t, to](int64_t now) {
      if (now >= to) return;
      Simulator::Thread& x = sim_.thread(t);
      x.program.push_back(Action::Run(static_cast<int64_t>(sim_.rng().Between(6e6, 12e6))));
      x.program.push_back(Action::Sleep(static_cast<int64_t>(sim_.rng().Between(100e3, 400e3))));
    };
  }
}

void AndroidWorld::Log(int64_t ts, int32_t pid, int32_t tid, uint32_t prio, std::string tag,
                       std::string msg) {
  logs_.push_back(LogLine{ts, pid, tid, prio, std::move(tag), std::move(msg)});
}

void AndroidWorld::Governor(uint32_t cluster, int64_t now) {
  const CpuCluster& cl = sim_.device().clusters[cluster];
  int busy = 0;
  for (uint32_t c = cl.first_cpu; c < cl.first_cpu + cl.cpu_count; ++c) busy += sim_.CpuBusy(c);
  const int n = static_cast<int>(cl.freqs_khz.size());
  const int floor = cluster == 1 && big_boost_ ? n - 6 : 2;
  const double frac = static_cast<double>(busy) / cl.cpu_count;
  int idx = floor + static_cast<int>(std::lround(frac * (n - 1 - floor)));
  idx += static_cast<int>(sim_.rng().Below(3)) - 1;
  idx = std::clamp(idx, floor, n - 1);
  sim_.SetClusterFrequency(cluster, cl.freqs_khz[static_cast<size_t>(idx)]);
  sim_.At(now + 20'000'000, [this, cluster](int64_t t) { Governor(cluster, t); });
}

void AndroidWorld::Begin() {
  WriteHeader();
  WriteProcessTree(start(), true);
  sim_.Start();
  for (uint32_t c = 0; c < sim_.device().clusters.size(); ++c) {
    sim_.At(start() + 5'000'000 + c * 1'000'000, [this, c](int64_t t) { Governor(c, t); });
  }
}

void AndroidWorld::Finish() {
  sim_.RunUntilEnd();
  WriteClockSnapshot(end());
  std::stable_sort(logs_.begin(), logs_.end(),
                   [](const LogLine& a, const LogLine& b) { return a.ts < b.ts; });
  namespace al = pf::android_log_packet;
  namespace le = pf::android_log_packet_log_event;
  for (size_t i = 0; i < logs_.size(); i += 200) {
    Writer bundle;
    for (size_t k = i; k < std::min(logs_.size(), i + 200); ++k) {
      const LogLine& l = logs_[k];
      Writer e;
      e.Varint(le::kLogId, l.tag == "ActivityManager" || l.tag == "ActivityTaskManager" ? 3 : 0);
      e.Int(le::kPid, l.pid);
      e.Int(le::kTid, l.tid);
      e.Int(le::kUid, l.pid == kSsPid ? 1000 : 10234);
      e.Varint(le::kTimestamp, static_cast<uint64_t>(l.ts - start() + kRealtimeAtStart));
      e.String(le::kTag, l.tag);
      e.Varint(le::kPrio, l.prio);
      e.String(le::kMessage, l.msg);
      bundle.Message(al::kEvents, e);
    }
    Writer packet;
    packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(logs_[i].ts));
    packet.Message(pf::trace_packet::kAndroidLog, bundle);
    packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, kSeqLog);
    file_->Write(packet);
  }
  truth_.ftrace_events = sim_.ftrace_events();
  truth_.sched_events = sim_.sched_events();
  truth_.binder_transactions_total = static_cast<int64_t>(sim_.binder_records().size());
}

void AndroidWorld::WriteMemoryPolls(int64_t period,
                                    std::function<int64_t(int64_t ts)> app_anon_kb) {
  // Sizes are drawn from a generator of their own, so adding polls changes nothing else.
  synth::Rng r(o_.seed ^ 0x6d656d6f7279ull);
  std::vector<ProcessMemoryModel> models;
  for (size_t i = 0; i < sim_.processes().size(); ++i) {
    const Simulator::Process& p = sim_.processes()[i];
    if (std::find(kernel_procs_.begin(), kernel_procs_.end(), static_cast<int32_t>(i)) !=
        kernel_procs_.end()) {
      continue;  // kernel threads have no user memory (no VmRSS in their status)
    }
    // kB: anonymous, file-backed and shared resident memory.
    struct Size {
      int64_t anon, file, shmem;
    };
    Size size;
    if (p.pid == kSsPid) {
      size = {210'000, 150'000, 9'000};
    } else if (p.pid == kSfPid) {
      size = {38'000, 52'000, 4'000};
    } else if (p.pid == kAppPid) {
      size = {150'000, 64'000, 3'000};
    } else if (p.cmdline[0] == '/') {  // native daemons
      size = {4'000 + r.Below(16'000), 6'000 + r.Below(14'000), 500};
    } else {  // zygote and Java processes
      size = {40'000 + r.Below(80'000), 40'000 + r.Below(40'000), 2'000};
    }
    ProcessMemoryModel m;
    m.pid = p.pid;
    if (auto k = killed_.find(p.pid); k != killed_.end()) m.exists_until = k->second;
    m.file_kb = size.file;
    m.shmem_kb = size.shmem;
    const int64_t anon = size.anon;
    // A steady size with the small wobble of a live process (a few hundred kB).
    const int64_t pid = p.pid;
    m.anon_kb = [anon, pid, period](int64_t ts) {
      const uint64_t h = static_cast<uint64_t>(pid) * 2654435761u + static_cast<uint64_t>(ts / period);
      return anon + static_cast<int64_t>(h % 601) - 300;
    };
    if (p.pid == kAppPid) {
      if (app_anon_kb) m.anon_kb = std::move(app_anon_kb);
      if (app_spawned_at_ >= 0) m.exists_from = app_spawned_at_;
      GroundTruth& t = truth_;
      for (int64_t ts = start(); ts < end(); ts += period) {
        if (ts < m.exists_from) continue;
        const int64_t bytes = m.RssKb(ts) * 1024;
        if (t.app_rss_first_bytes == 0) t.app_rss_first_bytes = bytes;
        t.app_rss_last_bytes = bytes;
        t.app_rss_peak_bytes = std::max(t.app_rss_peak_bytes, bytes);
      }
    }
    models.push_back(std::move(m));
  }
  truth_.memory_polls = WriteProcessStats(file_, models, start(), end(), period);
}

void AndroidWorld::WriteClockSnapshot(int64_t boottime) {
  namespace cs = pf::clock_snapshot;
  namespace cc = pf::clock_snapshot_clock;
  Writer snap;
  const std::pair<uint32_t, int64_t> clocks[] = {
      {kClockBoottime, boottime},
      {kClockRealtime, boottime - start() + kRealtimeAtStart},
      {kClockMonotonic, boottime - 1'200'000'000}};  // suspended 1.2 s since boot
  for (const auto& [id, ts] : clocks) {
    Writer c;
    c.Varint(cc::kClockId, id);
    c.Varint(cc::kTimestamp, static_cast<uint64_t>(ts));
    snap.Message(cs::kClocks, c);
  }
  snap.Varint(cs::kPrimaryTraceClock, kClockBoottime);
  Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(boottime));
  packet.Message(pf::trace_packet::kClockSnapshot, snap);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, kSeqSystem);
  file_->Write(packet);
}

void AndroidWorld::WriteHeader() {
  WriteClockSnapshot(start() - 2'500'000);
  namespace tp = pf::trace_packet;
  namespace tc = pf::trace_config;
  namespace ds = pf::data_source_config;
  Writer config;
  {
    Writer buffer;
    buffer.Varint(pf::trace_config_buffer_config::kSizeKb, 131072);
    buffer.Varint(pf::trace_config_buffer_config::kFillPolicy, 1);  // RING_BUFFER
    config.Message(tc::kBuffers, buffer);
  }
  auto add_source = [&](const char* name, const Writer* ftrace) {
    Writer dsc;
    dsc.String(ds::kName, name);
    dsc.Varint(ds::kTargetBuffer, 0);
    if (ftrace) dsc.Message(ds::kFtraceConfig, *ftrace);
    Writer source;
    source.Message(pf::trace_config_data_source::kConfig, dsc);
    config.Message(tc::kDataSources, source);
  };
  Writer ftrace;
  for (const char* e : {"sched/sched_switch", "sched/sched_waking", "sched/sched_blocked_reason",
                        "power/cpu_frequency", "power/cpu_idle", "binder/binder_transaction",
                        "binder/binder_transaction_received", "ftrace/print"}) {
    ftrace.String(ftrace_config::kFtraceEvents, e);
  }
  for (const char* c : {"gfx", "view", "input", "am", "wm", "dalvik", "binder_driver", "sched",
                        "freq", "idle", "disk", "res"}) {
    ftrace.String(ftrace_config::kAtraceCategories, c);
  }
  ftrace.String(ftrace_config::kAtraceApps, "*");
  ftrace.Varint(ftrace_config::kBufferSizeKb, 16384);
  if (o_.compact_sched) {
    Writer cs;
    cs.Bool(ftrace_config::kCompactSchedEnabled, true);
    ftrace.Message(ftrace_config::kCompactSched, cs);
  }
  add_source("linux.ftrace", &ftrace);
  add_source("linux.process_stats", nullptr);
  add_source("android.surfaceflinger.frametimeline", nullptr);
  add_source("android.log", nullptr);
  add_source("linux.system_info", nullptr);
  add_source("android.packages_list", nullptr);
  config.Varint(tc::kDurationMs, static_cast<uint64_t>(o_.duration_ns / 1'000'000));
  Writer packet;
  packet.Varint(tp::kTimestamp, static_cast<uint64_t>(start() - 2'000'000));
  packet.Message(tp::kTraceConfig, config);
  packet.Varint(tp::kTrustedPacketSequenceId, kSeqSystem);
  file_->Write(packet);

  const DeviceModel& d = sim_.device();
  Writer uts;
  uts.String(pf::utsname::kSysname, "Linux");
  uts.String(pf::utsname::kVersion, d.kernel_version);
  uts.String(pf::utsname::kRelease, d.kernel_release);
  uts.String(pf::utsname::kMachine, "aarch64");
  Writer info;
  info.Message(pf::system_info::kUtsname, uts);
  info.String(pf::system_info::kAndroidBuildFingerprint, d.fingerprint);
  info.Int(pf::system_info::kHz, 100);
  info.String(pf::system_info::kTracingServiceVersion, "Perfetto v43.0 (tracewise tracegen)");
  info.Varint(pf::system_info::kAndroidSdkVersion, d.sdk);
  info.Varint(pf::system_info::kPageSize, 4096);
  info.Varint(pf::system_info::kNumCpus, d.cpus);
  info.String(pf::system_info::kAndroidSocModel, "TW8");
  Writer sys;
  sys.Varint(tp::kTimestamp, static_cast<uint64_t>(start() - 1'500'000));
  sys.Message(tp::kSystemInfo, info);
  sys.Varint(tp::kTrustedPacketSequenceId, kSeqSystem);
  file_->Write(sys);

  // The installed packages (android.packages_list): the app and the Java background apps.
  Writer packages;
  auto add_package = [&](const std::string& name, int32_t uid, int64_t version) {
    namespace pi = pf::packages_list_package_info;
    Writer p;
    p.String(pi::kName, name);
    p.Varint(pi::kUid, static_cast<uint64_t>(uid));
    p.Bool(pi::kDebuggable, name == kPackage);
    p.Bool(pi::kProfileableFromShell, name == kPackage);
    p.Int(pi::kVersionCode, version);
    packages.Message(pf::packages_list::kPackages, p);
  };
  add_package(kPackage, 10234, 4120);
  for (const Simulator::Process& p : sim_.processes()) {
    // Processes of one package (e.g. "...gms.persistent") are not packages themselves.
    const bool sub_process = p.cmdline.size() > 11 &&
                             p.cmdline.compare(p.cmdline.size() - 11, 11, ".persistent") == 0;
    if (p.uid >= 10000 && p.cmdline != kPackage && p.cmdline[0] != '/' && !sub_process) {
      add_package(p.cmdline, p.uid, 100000 + p.uid);
    }
  }
  Writer pkg_packet;
  pkg_packet.Varint(tp::kTimestamp, static_cast<uint64_t>(start() - 1'200'000));
  pkg_packet.Message(tp::kPackagesList, packages);
  pkg_packet.Varint(tp::kTrustedPacketSequenceId, kSeqSystem);
  file_->Write(pkg_packet);

  Writer cpus;
  for (uint32_t c = 0; c < d.cpus; ++c) {
    const CpuCluster& cl = d.ClusterOf(c);
    Writer cpu;
    cpu.String(pf::cpu_info_cpu::kProcessor, "AArch64 Processor rev 0 (aarch64)");
    for (uint32_t f : cl.freqs_khz) cpu.Varint(pf::cpu_info_cpu::kFrequencies, f);
    cpu.Varint(pf::cpu_info_cpu::kCapacity, static_cast<uint64_t>(cl.capacity * 1024));
    cpus.Message(pf::cpu_info::kCpus, cpu);
  }
  Writer cpu_packet;
  cpu_packet.Varint(tp::kTimestamp, static_cast<uint64_t>(start() - 1'000'000));
  cpu_packet.Message(tp::kCpuInfo, cpus);
  cpu_packet.Varint(tp::kTrustedPacketSequenceId, kSeqSystem);
  file_->Write(cpu_packet);
}

void AndroidWorld::WriteProcessTree(int64_t ts, bool first) {
  namespace pt = pf::process_tree;
  namespace pp = pf::process_tree_process;
  namespace pth = pf::process_tree_thread;
  Writer tree;
  const auto& threads = sim_.threads();
  for (const Simulator::Process& p : sim_.processes()) {
    if (first != p.in_first_tree) continue;
    Writer w;
    w.Varint(pp::kPid, static_cast<uint64_t>(p.pid));
    w.Varint(pp::kPpid, p.pid < 1000 && p.uid == 0 ? 2 : (p.cmdline[0] == '/' ? 1 : 743));
    w.String(pp::kCmdline, p.cmdline);
    w.Varint(pp::kUid, static_cast<uint64_t>(p.uid));
    tree.Message(pt::kProcesses, w);
    for (int32_t t : p.threads) {
      Writer tw;
      tw.Varint(pth::kTid, static_cast<uint64_t>(threads[t].tid));
      tw.String(pth::kName, sim_.comms()[threads[t].comm]);
      tw.Varint(pth::kTgid, static_cast<uint64_t>(threads[t].tgid));
      tree.Message(pt::kThreads, tw);
    }
  }
  Writer packet;
  packet.Varint(pf::trace_packet::kTimestamp, static_cast<uint64_t>(ts));
  packet.Message(pf::trace_packet::kProcessTree, tree);
  packet.Varint(pf::trace_packet::kTrustedPacketSequenceId, kSeqSystem);
  file_->Write(packet);
}

}  // namespace tw::tracegen
