#include "tools/tracegen/scenario_kit.h"

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tools/tracegen/kernel_events.h"
#include "tools/tracegen/polled_stats.h"

namespace tw::tracegen {

std::string AppPrefix() { return absl::StrCat("B|", AndroidWorld::kAppPid, "|"); }
std::string AppEnd() { return absl::StrCat("E|", AndroidWorld::kAppPid); }
Action AppBegin(const std::string& name) { return Action::Print(AppPrefix() + name); }

// A scroll over (almost) the whole trace at the device's refresh rate.
FramePipeline& Scroll(AndroidWorld& w, Scenario& s) {
  s.frames = std::make_unique<FramePipeline>(&w, w.start() + 100 * kMs, w.end() - 60 * kMs);
  w.SetBigBoost(true);
  s.frames->Start();
  return *s.frames;
}

// Times in the scroll at which to inject, every `every` from 300 ms on.
std::vector<int64_t> InjectionTimes(AndroidWorld& w, int64_t every) {
  std::vector<int64_t> out;
  for (int64_t t = w.start() + 300 * kMs; t < w.end() - 250 * kMs; t += every) {
    out.push_back(t + static_cast<int64_t>(w.rng().Below(static_cast<uint32_t>(every / 4))));
  }
  return out;
}

void CollectInjectedBinder(AndroidWorld& w, const std::string& aidl) {
  GroundTruth& t = w.truth();
  for (const BinderRecord& r : w.sim().binder_records()) {
    if (r.aidl != aidl || r.client_tid != AndroidWorld::kAppPid) continue;
    InjectedBinder b;
    b.client_tid = r.client_tid;
    b.client_pid = r.client_pid;
    b.client_thread = AndroidWorld::kPackage;
    b.server_tid = r.server_tid;
    b.server_pid = r.server_pid;
    b.server_process = "system_server";
    b.aidl = r.aidl;
    b.ts = r.ts;
    b.dur = r.end_ts > 0 ? r.end_ts - r.ts : -1;
    t.injected_binder.push_back(b);
  }
}

// One MotionEvent delivered to the app's window at `ts`: InputDispatcher (system_server)
// publishes it on the window's input channel, the app's main thread receives it, runs
// `handling` inside deliverInputEvent and sends FINISHED back, and InputDispatcher receives
// that. The slices are the ones InputDispatcher and InputTransport write (android.input
// follows an event through them); the ground truth gets their exact times.
void DeliverMotion(AndroidWorld& w, int64_t ts, uint32_t seq, uint32_t event_id,
                   const std::string& action, std::vector<Action> handling) {
  const int32_t ss = AndroidWorld::kSsPid, app = AndroidWorld::kAppPid;
  const std::string window = absl::StrCat(std::to_string(0x5a3b1c), " ", AndroidWorld::kPackage,
                                          "/", AndroidWorld::kPackage, ".MainActivity");
  const std::string server = window + " (server)", client = window + " (client)";
  const std::string hex_seq = absl::StrCat("0x", absl::Hex(seq));
  const std::string hex_id = absl::StrCat("0x", absl::Hex(event_id));
  GroundTruth& truth = w.truth();
  const size_t index = truth.input_events.size();
  truth.input_events.push_back(InputEventTruth{"MOTION", hex_seq, action});
  // Records the time of the marker just written into the event's truth.
  auto mark = [&w, index](int64_t InputEventTruth::*field) {
    return Action::Call([&w, index, field](int64_t) {
      w.truth().input_events[index].*field = w.sim().last_stamp();
    });
  };
  auto begin = [](int32_t pid, const std::string& name) {
    return Action::Print(absl::StrCat("B|", pid, "|", name));
  };
  const std::string ss_end = absl::StrCat("E|", ss), app_end = absl::StrCat("E|", app);

  std::vector<Action> ack = {
      begin(ss, absl::StrCat("receiveMessage(inputChannel=", server, ", seq=", hex_seq, ", type=FINISHED)")),
      mark(&InputEventTruth::ack_ts), Action::Run(15'000), Action::Print(ss_end)};
  auto shared_ack = std::make_shared<std::vector<Action>>(std::move(ack));
  std::vector<Action> on_app = {
      begin(app, absl::StrCat("receiveMessage(inputChannel=", client, ", seq=", hex_seq, ", type=MOTION)")),
      mark(&InputEventTruth::receive_ts), Action::Run(20'000), Action::Print(app_end),
      // eventTimeNano is CLOCK_MONOTONIC, 1.2 s behind the trace's BOOTTIME in this world.
      begin(app, absl::StrCat("deliverInputEvent src=0x1002 eventTimeNano=", ts - 1'200'000'000,
                              " id=", hex_id))};
  for (Action& a : handling) on_app.push_back(std::move(a));
  on_app.push_back(Action::Print(app_end));
  on_app.push_back(begin(app, absl::StrCat("sendMessage(inputChannel=", client, ", seq=", hex_seq, ", type=FINISHED)")));
  on_app.push_back(mark(&InputEventTruth::finish_ts));
  on_app.push_back(Action::Run(10'000));
  on_app.push_back(Action::Print(app_end));
  const int32_t dispatcher = w.ss_input, main = w.app_main;
  on_app.push_back(Action::Call([&w, dispatcher, shared_ack](int64_t) {
    w.sim().Deliver(dispatcher, std::move(*shared_ack));
  }));
  auto shared_app = std::make_shared<std::vector<Action>>(std::move(on_app));

  std::vector<Action> dispatch = {
      begin(ss, absl::StrCat("prepareDispatchCycleLocked(inputChannel=", server, ", id=", hex_id, ")")),
      Action::Run(15'000),
      begin(ss, absl::StrCat("startDispatchCycleLocked(inputChannel=", server, ")")),
      begin(ss, absl::StrCat("publishMotionEvent(inputChannel=", server, ", action=", action, ")")),
      begin(ss, absl::StrCat("sendMessage(inputChannel=", server, ", seq=", hex_seq, ", type=MOTION)")),
      mark(&InputEventTruth::dispatch_ts), Action::Run(25'000), Action::Print(ss_end),
      // The socket write wakes the app's looper.
      Action::Call([&w, main, shared_app](int64_t) { w.sim().Deliver(main, std::move(*shared_app)); }),
      Action::Print(ss_end), Action::Print(ss_end), Action::Print(ss_end)};
  auto shared_dispatch = std::make_shared<std::vector<Action>>(std::move(dispatch));
  w.sim().At(ts, [&w, dispatcher, shared_dispatch](int64_t) {
    w.sim().Deliver(dispatcher, std::move(*shared_dispatch));
  });
}

void FloodBigCores(AndroidWorld& w, FramePipeline& f, Scenario& s, int64_t from, int64_t to,
                   double severity) {
  // Media scanning floods the big cores at the app's own priority for a while: as many hogs as
  // big cores and more with severity, so the big cluster stays saturated.
  const int big = static_cast<int>(w.sim().device().clusters[1].cpu_count);
  const int hogs = big + static_cast<int>(big * severity);
  w.AddCpuHogs(hogs, from, to, /*big_only=*/true, /*prio=*/110);
  f.CauseWindow(from, to, "cpu_contention");
  GroundTruth& t = w.truth();
  t.cpu_contention_from_ns = from;
  t.cpu_contention_to_ns = to;
  t.cpu_hog_process = "com.google.android.apps.photos";
  t.cpu_hog_threads = hogs;
  auto previous = std::move(s.after);
  s.after = [&w, from, to, previous] {
    if (previous) previous();
    w.truth().main_thread_runnable_ns = w.sim().RunnableNs(w.app_main, from, to);
  };
}

void CapBigCluster(AndroidWorld& w, FramePipeline& f, Scenario& s, int64_t cap_ts, double severity) {
  // The cap leaves the big cores at ~half their boosted speed or less with severity.
  const auto& freqs = w.sim().device().clusters[1].freqs_khz;
  const size_t idx = severity >= 1.0 ? 3 : 6;
  const uint32_t cap = freqs[idx];
  w.sim().At(cap_ts, [&w, cap](int64_t) { w.sim().SetClusterCap(1, cap); });
  f.CauseWindow(cap_ts, w.end(), "thermal_throttling");
  GroundTruth& t = w.truth();
  t.thermal_cap_ts = cap_ts;
  t.thermal_cap_khz = cap;
  const CpuCluster& big = w.sim().device().clusters[1];
  for (uint32_t c = big.first_cpu; c < big.first_cpu + big.cpu_count; ++c) t.thermal_capped_cpus.push_back(c);
  w.Log(cap_ts, AndroidWorld::kSsPid, AndroidWorld::kSsPid, kLogWarn, "ThermalManagerService",
        "Thermal status changed to SEVERE (skin temperature 46.2C)");
  // linux.sys_stats polls the thermal zones every 100 ms: the skin heats up to the SEVERE
  // threshold at the cap and stays there; the big cluster's zone peaks at the cap and cools
  // down once the cap bites.
  const int64_t start = w.start(), end = w.end();
  auto ramp = [](int64_t ts, int64_t t0, int64_t t1, int64_t from, int64_t to) {
    if (ts <= t0) return from;
    if (ts >= t1) return to;
    return from + (to - from) * (ts - t0) / (t1 - t0);
  };
  std::vector<ThermalZoneModel> zones = {
      {"thermal_zone0", "skin-therm",
       [=](int64_t ts) { return ramp(ts, start, cap_ts, 38, 46); }},
      {"thermal_zone4", "BIG",
       [=](int64_t ts) {
         return ts <= cap_ts ? ramp(ts, start, cap_ts, 61, 88) : ramp(ts, cap_ts, end, 88, 74);
       }},
  };
  constexpr int64_t kPoll = 100 * kMs;
  auto previous = std::move(s.after);
  s.after = [&w, zones, start, end, previous] {
    if (previous) previous();
    GroundTruth& truth = w.truth();
    truth.thermal_samples_per_zone = WriteThermalZones(w.file(), zones, start, end, kPoll);
    for (const ThermalZoneModel& z : zones) {
      for (int64_t ts = start; ts < end; ts += kPoll) {
        if (z.celsius(ts) <= truth.thermal_hottest_c) continue;
        truth.thermal_hottest_c = z.celsius(ts);
        truth.thermal_hottest_zone = z.type;
      }
    }
  };
}

FrameInjection GcWaitInjection(AndroidWorld& w, int64_t gc_work) {
  const int32_t pid = AndroidWorld::kAppPid;
  const int32_t daemon = w.app_heap, main = w.app_main;
  FrameInjection inj;
  inj.cause = "gc";
  inj.main_in_frame.push_back(Action::Call([&w, pid, gc_work, daemon, main](int64_t) {
    w.truth().gc_events += 1;
    w.sim().Deliver(daemon, {Action::Print(absl::StrCat("B|", pid, "|young concurrent copying GC")),
                             Action::Run(gc_work), Action::Print(absl::StrCat("E|", pid)),
                             Action::Signal(main)});
  }));
  inj.main_in_frame.push_back(AppBegin("WaitForGcToComplete"));
  inj.main_in_frame.push_back(Action::Wait());
  inj.main_in_frame.push_back(Action::Print(AppEnd()));
  return inj;
}

FrameInjection BinderInjection(AndroidWorld& w, int64_t work, const std::string& aidl,
                               const std::string& java_slice) {
  FrameInjection inj;
  inj.cause = "binder";
  inj.main_in_frame.push_back(AppBegin(java_slice));
  inj.main_in_frame.push_back(Action::BinderCall(w.ss_proc, work, aidl, 3));
  inj.main_in_frame.push_back(Action::Print(AppEnd()));
  return inj;
}

namespace {

// One disk read of `bytes` at `sector` by the running thread: the request is issued, the pages
// land in the page cache, and the request completes `dur` later from the disk's interrupt.
std::vector<Action> DiskRead(AndroidWorld& w, uint64_t sector, uint32_t bytes, int64_t dur) {
  namespace ke = kernel_events;
  std::vector<Action> a;
  a.push_back(Action::Call([&w, sector, bytes, dur](int64_t now) {
    proto::Writer issue;
    issue.Varint(ke::block_rq_issue::kDev, 0x10300000);  // 259:0 (an NVMe/UFS partition)
    issue.Varint(ke::block_rq_issue::kSector, sector);
    issue.Varint(ke::block_rq_issue::kNrSector, bytes / 512);
    issue.Varint(ke::block_rq_issue::kBytes, bytes);
    issue.String(ke::block_rq_issue::kRwbs, "RA");
    issue.String(ke::block_rq_issue::kComm, "om.example.feed");
    issue.String(ke::block_rq_issue::kCmd, "");
    w.sim().EmitFtraceFromRunning(ke::kBlockRqIssue, issue);
    w.sim().At(now + dur, [&w, sector, bytes](int64_t) {
      proto::Writer done;
      done.Varint(ke::block_rq_complete::kDev, 0x10300000);
      done.Varint(ke::block_rq_complete::kSector, sector);
      done.Varint(ke::block_rq_complete::kNrSector, bytes / 512);
      done.Int(ke::block_rq_complete::kErrors, 0);
      done.String(ke::block_rq_complete::kRwbs, "RA");
      done.String(ke::block_rq_complete::kCmd, "");
      done.Int(ke::block_rq_complete::kError, 0);
      w.sim().EmitFtrace(0, 0, ke::kBlockRqComplete, done);
    });
  }));
  a.push_back(Action::Sleep(dur, /*uninterruptible=*/true, /*io_wait=*/true));
  a.push_back(Action::Call([&w, sector, bytes](int64_t) {
    for (uint32_t page = 0; page < bytes / 4096; ++page) {
      proto::Writer fill;
      fill.Varint(ke::mm_filemap_add_to_page_cache::kPfn, 0x8a000 + sector / 8 + page);
      fill.Varint(ke::mm_filemap_add_to_page_cache::kIIno, 131'077);
      fill.Varint(ke::mm_filemap_add_to_page_cache::kIndex, sector / 8 + page);
      fill.Varint(ke::mm_filemap_add_to_page_cache::kSDev, 0x10300000);
      w.sim().EmitFtraceFromRunning(ke::kMmFilemapAddToPageCache, fill);
    }
  }));
  return a;
}

}  // namespace

FrameInjection FileReadInjection(AndroidWorld& w, const std::string& java_slice, int reads,
                                 int64_t each) {
  FrameInjection inj;
  inj.cause = "io";
  inj.main_in_frame.push_back(AppBegin(java_slice));
  for (int i = 0; i < reads; ++i) {
    const uint64_t sector = 2'048'000 + w.rng().Below(1'000'000) * 8;
    for (Action& a : DiskRead(w, sector, 16'384, each)) inj.main_in_frame.push_back(std::move(a));
    inj.main_in_frame.push_back(Action::Run(150'000));
  }
  inj.main_in_frame.push_back(Action::Print(AppEnd()));
  return inj;
}

int32_t AddBusyProcess(AndroidWorld& w, const std::string& cmdline, const std::string& thread_prefix,
                       int threads, int64_t from, int64_t to, int cluster, int32_t prio) {
  Simulator& sim = w.sim();
  const int32_t pid = w.NewPid();
  const int32_t p = sim.AddProcess(pid, 10190, cmdline, true);
  sim.AddThread(p, pid, cmdline, 120);
  for (int i = 0; i < threads; ++i) {
    const int32_t t = sim.AddThread(p, pid + 1 + i, absl::StrCat(thread_prefix, i), prio);
    Simulator::Thread& th = sim.thread(t);
    th.big_only = cluster == 1;
    th.prefer_big = cluster == 1;
    th.little_only = cluster == 0;
    th.program.push_back(Action::SleepUntil(from + i * 50'000));
    th.generator = [&w, t, to](int64_t now) {
      if (now >= to) return;
      Simulator::Thread& x = w.sim().thread(t);
      x.program.push_back(Action::Run(static_cast<int64_t>(w.sim().rng().Between(6e6, 12e6))));
      x.program.push_back(Action::Sleep(static_cast<int64_t>(w.sim().rng().Between(100e3, 400e3))));
    };
  }
  return p;
}

}  // namespace tw::tracegen
