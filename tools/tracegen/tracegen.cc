#include "tools/tracegen/tracegen.h"

#include <cstdio>
#include <functional>
#include <memory>

#include "absl/strings/str_cat.h"
#include "tools/synth/trace_file.h"
#include "tools/tracegen/android_world.h"
#include "tools/tracegen/frame_pipeline.h"
#include "tools/tracegen/polled_stats.h"

namespace tw::tracegen {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr uint32_t kLogInfo = 4, kLogWarn = 5, kLogError = 6;

struct Params {
  TracegenOptions o;
  int64_t duration_ns;
};

// What a scenario adds to the world before the run, and how it completes the truth after it.
struct Scenario {
  std::unique_ptr<FramePipeline> frames;
  std::function<void()> after;  // fills scenario-specific truth after the simulation
};

using Builder = std::function<void(AndroidWorld&, const Params&, Scenario&)>;

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

// ---- scroll scenarios ----

void ScrollSmooth(AndroidWorld& w, const Params&, Scenario& s) { Scroll(w, s); }

const char* kSlowAidl = "AIDL::java::IPackageManager::getPackageInfo::server";

void ScrollBinderJank(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  const int64_t work = static_cast<int64_t>(1.6 * p.o.severity * w.period());
  for (int64_t t : InjectionTimes(w, 400 * kMs)) {
    FrameInjection inj;
    inj.cause = "binder";
    inj.main_in_frame.push_back(AppBegin("PackageManager.getPackageInfo"));
    inj.main_in_frame.push_back(Action::BinderCall(w.ss_proc, work, kSlowAidl, 3));
    inj.main_in_frame.push_back(Action::Print(AppEnd()));
    f.InjectAt(t, std::move(inj));
  }
  s.after = [&w] { CollectInjectedBinder(w, kSlowAidl); };
}

void ScrollRenderThreadGpu(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  const int64_t wait = static_cast<int64_t>(1.3 * p.o.severity * w.period());
  for (int64_t t : InjectionTimes(w, 400 * kMs)) {
    FrameInjection inj;
    inj.cause = "gpu_wait";
    // No free buffer: the GPU still renders an earlier frame, RenderThread waits on its fence.
    inj.rt_in_dequeue.push_back(AppBegin("waiting for GPU completion 48"));
    inj.rt_in_dequeue.push_back(Action::Sleep(wait));
    inj.rt_in_dequeue.push_back(Action::Print(AppEnd()));
    f.InjectAt(t, std::move(inj));
  }
}

void ScrollCpuContention(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  // Media scanning floods the big cores at the app's own priority for a while.
  const int hogs = 4 + static_cast<int>(4 * p.o.severity);
  const int64_t from = w.start() + 400 * kMs;
  const int64_t to = from + std::max<int64_t>(300 * kMs, (w.end() - from) / 2);
  w.AddCpuHogs(hogs, from, to, /*big_only=*/true, /*prio=*/110);
  f.CauseWindow(from, to, "cpu_contention");
  GroundTruth& t = w.truth();
  t.cpu_contention_from_ns = from;
  t.cpu_contention_to_ns = to;
  t.cpu_hog_process = "com.google.android.apps.photos";
  t.cpu_hog_threads = hogs;
  s.after = [&w, from, to] {
    w.truth().main_thread_runnable_ns = w.sim().RunnableNs(w.app_main, from, to);
  };
}

// The app's Java heap over time, from the sizes the GCs reported ("Heap size (KB)" before and
// after each collection): it grows at the allocation rate between collections and shrinks
// during them. Before the first and after the last known size it follows the allocation rate.
struct HeapTimeline {
  std::vector<std::pair<int64_t, int64_t>> points;  // (ts, kB), in time order
  double kb_per_ns = 0;
  int64_t initial_kb = 0;
  int64_t KbAt(int64_t ts) const {
    if (points.empty()) return initial_kb;
    if (ts <= points.front().first) {
      const double back = kb_per_ns * static_cast<double>(points.front().first - ts);
      return std::max<int64_t>(60'000, points.front().second - static_cast<int64_t>(back));
    }
    for (size_t i = 1; i < points.size(); ++i) {
      const auto& [t1, k1] = points[i];
      if (ts > t1) continue;
      const auto& [t0, k0] = points[i - 1];
      const double f = static_cast<double>(ts - t0) / static_cast<double>(std::max<int64_t>(1, t1 - t0));
      return k0 + static_cast<int64_t>(f * static_cast<double>(k1 - k0));
    }
    const double ahead = kb_per_ns * static_cast<double>(ts - points.back().first);
    return points.back().second + static_cast<int64_t>(ahead);
  }
};

void ScrollGcPressure(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  const int32_t pid = AndroidWorld::kAppPid;
  // The feed keeps what it loads: each collection frees less than was allocated since the
  // previous one, so the heap (and the process's RSS) grows over the trace.
  constexpr int64_t kAllocatedBetweenGcsKb = 52'000;
  constexpr int64_t kGcEveryNs = 450 * kMs;
  int64_t heap = 182'000;
  auto gcs = std::make_shared<int64_t>(0);  // GCs that ran (an injected frame may be skipped)
  auto timeline = std::make_shared<HeapTimeline>();
  timeline->initial_kb = heap;
  timeline->kb_per_ns = static_cast<double>(kAllocatedBetweenGcsKb) / static_cast<double>(kGcEveryNs);
  for (int64_t t : InjectionTimes(w, kGcEveryNs)) {
    // An allocation in the frame finds the heap full: it requests a concurrent GC, which runs
    // on HeapTaskDaemon, and the allocating main thread blocks until the GC completes.
    const int64_t gc_work = static_cast<int64_t>(0.9 * p.o.severity * w.period());
    const int64_t before = heap, after = heap - 30'000 - w.rng().Below(9'000);
    heap = after + kAllocatedBetweenGcsKb;
    const int32_t daemon = w.app_heap, main = w.app_main;
    FrameInjection inj;
    inj.cause = "gc";
    inj.main_in_frame.push_back(Action::Call([&w, pid, before, after, gc_work, daemon, main,
                                              heap, gcs, timeline](int64_t now) {
      ++*gcs;
      auto heap_point = [&w, timeline](int64_t kb) {
        return Action::Call([&w, timeline, kb](int64_t) {
          timeline->points.emplace_back(w.sim().last_stamp(), kb);
        });
      };
      w.sim().Deliver(daemon,
                      {Action::Print(absl::StrCat("C|", pid, "|Heap size (KB)|", before)),
                       heap_point(before),
                       Action::Print(absl::StrCat("B|", pid, "|young concurrent copying GC")),
                       Action::Run(gc_work), Action::Print(absl::StrCat("E|", pid)),
                       Action::Print(absl::StrCat("C|", pid, "|Heap size (KB)|", after)),
                       heap_point(after), Action::Signal(main)});
      w.Log(now + gc_work, pid, pid + 11, kLogInfo, AndroidWorld::kPackage,
            absl::StrCat("Background young concurrent copying GC freed ", (before - after) / 1000,
                         "MB AllocSpace objects, 0(0B) LOS objects, 24% free, ", after / 1000,
                         "MB/", heap / 1000, "MB"));
    }));
    inj.main_in_frame.push_back(AppBegin("WaitForGcToComplete"));
    inj.main_in_frame.push_back(Action::Wait());
    inj.main_in_frame.push_back(Action::Print(AppEnd()));
    f.InjectAt(t, std::move(inj));
  }
  s.after = [&w, gcs, timeline] {
    w.truth().gc_events = *gcs;
    // process_stats polls every 100 ms: the app's anonymous memory is its native part plus the
    // Java heap.
    w.WriteMemoryPolls(100 * kMs, [timeline](int64_t ts) { return 70'000 + timeline->KbAt(ts); });
  };
}

void ScrollLockContention(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  const int32_t lock = w.sim().AddLock("FeedRepository");
  const int64_t hold = static_cast<int64_t>(1.5 * p.o.severity * w.period());
  for (int64_t t : InjectionTimes(w, 400 * kMs)) {
    const int64_t vsync = f.VsyncTs(f.VsyncIndexAtOrAfter(t));
    const int32_t worker = w.app_worker;
    // The worker takes the repository lock shortly before the frame and keeps it for a while.
    w.sim().At(vsync - 1 * kMs, [&w, worker, lock, hold](int64_t) {
      w.sim().Deliver(worker, {Action::Acquire(lock, "void com.example.feed.FeedRepository.save(java.util.List)", "FeedRepository.java:118"),
                               AppBegin("FeedRepository.save"), Action::Run(hold),
                               Action::Print(AppEnd()), Action::Release(lock)});
    });
    FrameInjection inj;
    inj.cause = "lock_contention";
    inj.main_in_frame.push_back(Action::Acquire(lock, "java.util.List com.example.feed.FeedRepository.items()", "FeedRepository.java:64"));
    inj.main_in_frame.push_back(Action::Run(100'000));
    inj.main_in_frame.push_back(Action::Release(lock));
    f.InjectAt(t, std::move(inj));
  }
  s.after = [&w] { w.truth().monitor_contentions = w.sim().contentions(); };
}

void ScrollThermal(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  const int64_t cap_ts = w.start() + (w.end() - w.start()) / 2;
  // The cap leaves the big cores at ~half their boosted speed or less with severity.
  const auto& freqs = w.sim().device().clusters[1].freqs_khz;
  const size_t idx = p.o.severity >= 1.0 ? 3 : 6;
  const uint32_t cap = freqs[idx];
  w.sim().At(cap_ts, [&w, cap](int64_t) { w.sim().SetClusterCap(1, cap); });
  f.CauseWindow(cap_ts, w.end(), "thermal_throttling");
  GroundTruth& t = w.truth();
  t.thermal_cap_ts = cap_ts;
  t.thermal_cap_khz = cap;
  for (uint32_t c = 4; c < 8; ++c) t.thermal_capped_cpus.push_back(c);
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
  s.after = [&w, zones, start, end] {
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

// ---- startups ----

// system_server starts the launch on a binder thread, the app runs its launch on the main
// thread, and the launch completes when the first frame is drawn.
void Startup(AndroidWorld& w, const Params& p, Scenario& s, const std::string& type, bool slow_io) {
  s.frames = std::make_unique<FramePipeline>(&w, w.start(), w.end() - 60 * kMs);
  FramePipeline& f = *s.frames;
  w.SetBigBoost(true);
  f.set_first_frame_heavy(true);
  f.StartSurfaceFlinger();
  const int32_t ss = AndroidWorld::kSsPid, app = AndroidWorld::kAppPid;
  const int64_t t0 = w.start() + 150 * kMs;
  const int32_t binder = w.ss_binders[0];
  auto truth = &w.truth();
  truth->startup_type = type;
  const std::string launch = "launchingActivity#1";
  const std::string pkg = AndroidWorld::kPackage;
  w.sim().At(t0, [&w, ss, binder, launch, pkg, truth, type](int64_t) {
    w.sim().Deliver(binder, {
        Action::Print(absl::StrCat("B|", ss, "|AIDL::java::IActivityTaskManager::startActivity::server")),
        Action::Call([truth](int64_t t) { truth->startup_ts = t; }),
        Action::Print(absl::StrCat("S|", ss, "|", launch, "|0")),
        Action::Print(absl::StrCat("S|", ss, "|launching: ", pkg, "|0")),
        Action::Run(3 * kMs),
        Action::Print(absl::StrCat("E|", ss)),
    });
    w.Log(w.sim().now() + 200'000, ss, w.sim().thread(binder).tid, kLogInfo, "ActivityTaskManager",
          absl::StrCat("START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=", pkg, "/.MainActivity} from uid 10131"));
  });
  const double scale = p.o.severity;
  auto app_program = [&w, &f, p, app, slow_io, scale, type, truth]() {
    std::vector<Action> a;
    const std::string e = absl::StrCat("E|", app);
    auto b = [app](const std::string& n) { return Action::Print(absl::StrCat("B|", app, "|", n)); };
    if (type == "cold") {
      a.push_back(Action::Run(2 * kMs));
      a.push_back(Action::BinderCall(w.ss_proc, 2 * kMs, "AIDL::java::IActivityManager::attachApplication::server", 17));
      a.push_back(b("bindApplication"));
      a.push_back(Action::Run(static_cast<int64_t>(25 * kMs * scale)));
      const int reads = slow_io ? 6 : 1;
      for (int i = 0; i < reads; ++i) {
        a.push_back(b(absl::StrCat("Lcom/example/feed/di/Module", i, ";")));
        a.push_back(b("OpenDexFilesFromOat(/data/app/com.example.feed/base.apk)"));
        const int64_t io = slow_io ? static_cast<int64_t>(w.rng().Between(30, 60) * kMs * scale)
                                   : 2 * kMs;
        a.push_back(Action::Call([truth, io](int64_t) { truth->startup_main_thread_d_state_ns += io; }));
        a.push_back(Action::Sleep(io, /*uninterruptible=*/true, /*io_wait=*/true));
        a.push_back(Action::Print(e));
        a.push_back(Action::Run(3 * kMs));
        a.push_back(Action::Print(e));
      }
      a.push_back(Action::Print(e));
    }
    a.push_back(b("activityStart"));
    a.push_back(b("inflate"));
    a.push_back(Action::Run(static_cast<int64_t>(18 * kMs * scale)));
    a.push_back(Action::Print(e));
    a.push_back(Action::Run(8 * kMs));
    a.push_back(Action::Print(e));
    a.push_back(b("activityResume"));
    a.push_back(Action::Run(4 * kMs));
    a.push_back(Action::Print(e));
    a.push_back(Action::Call([&f](int64_t) { f.StartMain(); }));
    return a;
  };
  const int64_t t_app = t0 + 5 * kMs;
  if (type == "cold") {
    // system_server asks zygote for a process; zygote forks it, and the child renames its
    // main thread before attaching to system_server.
    w.sim().At(t_app, [&w, app_program](int64_t) {
      w.sim().Deliver(w.zygote_main, {
          Action::Run(1'200'000),
          Action::Call([&w, app_program](int64_t now) {
            w.SpawnApp(now);
            // SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID, as fork() does.
            w.sim().EmitTaskNewtask(AndroidWorld::kAppPid, 0x01200011);
            std::vector<Action> prog = app_program();
            prog.insert(prog.begin(), Action::Call([&w](int64_t) {
              w.sim().EmitTaskRename(synth::MainThreadComm(AndroidWorld::kPackage));
            }));
            w.sim().Deliver(w.app_main, std::move(prog));
          }),
      });
    });
  } else {
    w.sim().At(t_app, [&w, app_program](int64_t) { w.sim().Deliver(w.app_main, app_program()); });
  }
  f.on_first_queued = [&w, ss, binder, launch, pkg, truth, type](int64_t queued) {
    // WindowManager learns the window is drawn once SurfaceFlinger has latched the frame.
    w.sim().At(queued + w.period() + 1 * kMs, [&w, ss, binder, launch, pkg, truth, type](int64_t) {
      w.sim().Deliver(binder, {
          Action::Run(300'000),
          Action::Call([truth](int64_t t) { truth->startup_dur = t - truth->startup_ts; }),
          Action::Print(absl::StrCat("F|", ss, "|", launch, "|0")),
          Action::Print(absl::StrCat("N|", ss, "|", launch, "|", launch, ":completed-", type, ":", pkg)),
          Action::Print(absl::StrCat("F|", ss, "|launching: ", pkg, "|0")),
          Action::Call([&w, ss, binder, pkg, truth](int64_t t) {
            w.Log(t, ss, w.sim().thread(binder).tid, kLogInfo, "ActivityTaskManager",
                  absl::StrCat("Displayed ", pkg, "/.MainActivity for user 0: +",
                               truth->startup_dur / kMs, "ms"));
          }),
      });
    });
  };
  if (type != "cold") {
    // The app process exists already: its threads are parked until the launch.
  }
}

void StartupCold(AndroidWorld& w, const Params& p, Scenario& s) { Startup(w, p, s, "cold", false); }
void StartupColdSlowIo(AndroidWorld& w, const Params& p, Scenario& s) { Startup(w, p, s, "cold", true); }
void StartupWarm(AndroidWorld& w, const Params& p, Scenario& s) { Startup(w, p, s, "warm", false); }

// ---- input ----

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

// ---- ANR ----

void AnrMainThreadBlocked(AndroidWorld& w, const Params& p, Scenario& s) {
  const int32_t app = AndroidWorld::kAppPid, ss = AndroidWorld::kSsPid;
  const int32_t lock = w.sim().AddLock("FeedDatabase");
  const int64_t t_lock = w.start() + 200 * kMs;
  const int64_t t_input = t_lock + 30 * kMs;
  const int64_t hold = 5'500 * kMs;  // released before the trace ends: the contention finishes
  const int32_t io = w.app_io;
  // The I/O thread takes the database lock, then sits in uninterruptible I/O for seconds.
  w.sim().At(t_lock, [&w, io, lock, hold, app](int64_t) {
    std::vector<Action> a;
    a.push_back(Action::Acquire(lock, "void com.example.feed.db.FeedDatabase.compact()", "FeedDatabase.java:211"));
    a.push_back(Action::Print(absl::StrCat("B|", app, "|FeedDatabase.compact")));
    for (int64_t done = 0; done < hold; done += 50 * kMs) {
      a.push_back(Action::Sleep(48 * kMs, true, true));
      a.push_back(Action::Run(1 * kMs));
    }
    a.push_back(Action::Print(absl::StrCat("E|", app)));
    a.push_back(Action::Release(lock));
    w.sim().Deliver(io, std::move(a));
  });
  // A quick tap first (handled at once), then the tap whose handler needs the same lock.
  DeliverMotion(w, w.start() + 60 * kMs, 1, 0x2f1a, "DOWN", {Action::Run(400'000)});
  DeliverMotion(w, w.start() + 140 * kMs, 2, 0x2f1b, "UP", {Action::Run(900'000)});
  DeliverMotion(w, t_input, 3, 0x2f1c, "DOWN",
                {Action::Run(300'000),
                 Action::Acquire(lock, "void com.example.feed.ui.FeedFragment.onItemClick(int)", "FeedFragment.java:88"),
                 Action::Run(200'000), Action::Release(lock)});
  // Input dispatch times out after 5 s; system_server reports the ANR.
  const int64_t t_anr = t_input + 5'000 * kMs + 12 * kMs;
  const std::string error_id = "b1f7c1d2-58a4-4c3e-9d2e-7f0a61c3e5aa";
  const int32_t binder = w.ss_binders[1];
  const std::string subject = absl::StrCat(
      "Input dispatching timed out (", std::to_string(0x5a3b1c), " ", AndroidWorld::kPackage,
      "/", AndroidWorld::kPackage, ".MainActivity (server) is not responding. Waited 5000ms for MotionEvent)");
  w.sim().At(t_anr, [&w, binder, ss, app, error_id, subject](int64_t now) {
    w.sim().Deliver(binder, {
        Action::Print(absl::StrCat("B|", ss, "|AnrHelper#appNotResponding")),
        Action::Print(absl::StrCat("C|", ss, "|ErrorId:", AndroidWorld::kPackage, " ", app, "#", error_id, "|1")),
        Action::Print(absl::StrCat("C|", ss, "|Subject(for ErrorId ", error_id, "):", subject, "|1")),
        Action::Run(2 * kMs),
        Action::Print(absl::StrCat("E|", ss)),
    });
    w.Log(now + 1 * kMs, ss, w.sim().thread(binder).tid, kLogError, "ActivityManager",
          absl::StrCat("ANR in ", AndroidWorld::kPackage, " (", AndroidWorld::kPackage, "/.MainActivity)"));
    w.Log(now + 1 * kMs + 1000, ss, w.sim().thread(binder).tid, kLogError, "ActivityManager",
          absl::StrCat("Reason: ", subject));
  });
  GroundTruth& t = w.truth();
  t.anr_type = "INPUT_DISPATCHING_TIMEOUT";
  t.anr_ts = t_anr;
  t.anr_blocking_tid = w.sim().thread(io).tid;
  t.monitor_contentions = 1;
  t.anr_blocking_chain = {
      absl::StrCat("main thread ", app, " blocked in deliverInputEvent on monitor FeedDatabase"),
      absl::StrCat("FeedDatabase held by pool-3-thread-1 ", w.sim().thread(io).tid,
                   " in FeedDatabase.compact"),
      "pool-3-thread-1 in uninterruptible sleep (D, io_wait) on disk I/O"};
  (void)p;
  (void)s;
}

// ---- large ----

void Large(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  const int64_t work = static_cast<int64_t>(1.6 * p.o.severity * w.period());
  for (int64_t t : InjectionTimes(w, 1'000 * kMs)) {
    FrameInjection inj;
    inj.cause = "binder";
    inj.main_in_frame.push_back(Action::BinderCall(w.ss_proc, work, kSlowAidl, 3));
    f.InjectAt(t, std::move(inj));
  }
  s.after = [&w] { CollectInjectedBinder(w, kSlowAidl); };
}

struct Entry {
  ScenarioInfo info;
  Builder build;
  bool app_running;
  uint32_t noise_processes, noise_threads;
  double noise_load;
  double noise_mean_run_ns = 350'000;
};

const std::vector<Entry>& Registry() {
  static const std::vector<Entry> kEntries = {
      {{"scroll_smooth", "a list scrolled at the display rate with no jank (baseline)", 2.0}, ScrollSmooth, true, 8, 3, 0.12},
      {{"scroll_binder_jank", "the main thread blocks in slow sync binder calls to system_server on some frames", 2.0}, ScrollBinderJank, true, 8, 3, 0.12},
      {{"scroll_renderthread_gpu", "RenderThread waits for a buffer (GPU fence) in dequeueBuffer on some frames", 2.0}, ScrollRenderThreadGpu, true, 8, 3, 0.12},
      {{"scroll_cpu_contention", "background threads flood the big cores; the main thread waits Runnable", 2.0}, ScrollCpuContention, true, 8, 3, 0.12},
      {{"scroll_gc_pressure", "ART GCs on HeapTaskDaemon block allocating frames (WaitForGcToComplete)", 2.0}, ScrollGcPressure, true, 8, 3, 0.12},
      {{"scroll_lock_contention", "the main thread waits on a monitor lock held by a worker thread", 2.0}, ScrollLockContention, true, 8, 3, 0.12},
      {{"scroll_thermal", "the big cores are frequency-capped mid-trace and frames slow down", 2.0}, ScrollThermal, true, 8, 3, 0.12},
      {{"startup_cold", "cold launch: process start, bindApplication, activityStart, first frame", 1.5}, StartupCold, false, 8, 3, 0.12},
      {{"startup_cold_slow_io", "cold launch with main-thread disk I/O (D state) and class loading", 2.0}, StartupColdSlowIo, false, 8, 3, 0.12},
      {{"startup_warm", "warm launch: the process exists, activityStart, activityResume, first frame", 1.5}, StartupWarm, true, 8, 3, 0.12},
      {{"anr_main_thread_blocked", "input dispatch timeout: main thread waits on a lock held by a worker in I/O", 6.0}, AnrMainThreadBlocked, true, 8, 3, 0.12},
      {{"large", "a long busy scroll with heavy background load, for benchmarks (millions of events)", 20.0}, Large, true, 48, 7, 0.012, 50'000},
  };
  return kEntries;
}

}  // namespace

const std::vector<ScenarioInfo>& Scenarios() {
  static const std::vector<ScenarioInfo> kInfos = [] {
    std::vector<ScenarioInfo> v;
    for (const Entry& e : Registry()) v.push_back(e.info);
    return v;
  }();
  return kInfos;
}

absl::StatusOr<GroundTruth> GenerateTrace(const TracegenOptions& options, const std::string& path) {
  const Entry* entry = nullptr;
  for (const Entry& e : Registry()) {
    if (options.scenario == e.info.name) entry = &e;
  }
  if (!entry) return absl::InvalidArgumentError(absl::StrCat("unknown scenario '", options.scenario, "'"));
  if (options.fps != 60 && options.fps != 90 && options.fps != 120) {
    return absl::InvalidArgumentError("fps must be 60, 90 or 120");
  }
  if (!(options.severity > 0) || options.severity > 10) {
    return absl::InvalidArgumentError("severity must be in (0, 10]");
  }
  Params p{options, 0};
  const double seconds = options.duration_s > 0 ? options.duration_s : entry->info.default_duration_s;
  if (seconds < 0.5 || seconds > 3600) return absl::InvalidArgumentError("duration must be 0.5..3600 s");
  p.o.duration_s = seconds;
  p.duration_ns = static_cast<int64_t>(seconds * 1e9);

  WorldOptions wo;
  wo.refresh_hz = options.fps;
  wo.seed = options.seed;
  wo.compact_sched = options.compact_sched;
  wo.start_ns = 73'000'000'000;  // uptime ~73 s
  wo.duration_ns = p.duration_ns;
  wo.noise_processes = entry->noise_processes;
  wo.noise_threads = entry->noise_threads;
  wo.noise_load = entry->noise_load;
  wo.noise_mean_run_ns = entry->noise_mean_run_ns;
  wo.app_running = entry->app_running;
  wo.hostile_text = options.hostile_text;
  wo.extra_process_names = options.extra_process_names;

  synth::TraceFile file;
  if (absl::Status st = file.Open(path); !st.ok()) return st;
  auto world = std::make_unique<AndroidWorld>(wo, &file);
  Scenario scenario;
  entry->build(*world, p, scenario);
  for (size_t i = 0; i < options.hostile_text.size(); ++i) {
    for (int64_t t = wo.start_ns + 500'000'000; t < wo.start_ns + p.duration_ns; t += 1'000'000'000) {
      world->Log(t + static_cast<int64_t>(i) * 1000, AndroidWorld::kAppPid, AndroidWorld::kAppPid,
                 kLogWarn, AndroidWorld::kPackage, options.hostile_text[i]);
    }
  }
  world->Begin();
  world->Finish();
  if (scenario.frames) scenario.frames->Finish(&file);
  if (scenario.after) scenario.after();
  GroundTruth truth = world->truth();
  truth.scenario = options.scenario;
  truth.duration_s = seconds;
  truth.severity = options.severity;
  truth.bytes = file.bytes();
  if (absl::Status st = file.Close(); !st.ok()) return st;

  const std::string json_path = path + ".truth.json";
  FILE* f = std::fopen(json_path.c_str(), "wb");
  if (!f) return absl::PermissionDeniedError(absl::StrCat("cannot create ", json_path));
  const std::string json = truth.ToJson();
  const bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
  if (std::fclose(f) != 0 || !ok) return absl::DataLossError(absl::StrCat("cannot write ", json_path));
  return truth;
}

}  // namespace tw::tracegen
