// Scrolling scenarios: a list scrolled at the display rate, with one problem (or none) injected
// into some frames or time windows.
#include <memory>

#include "absl/strings/str_cat.h"
#include "tools/tracegen/polled_stats.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {

void ScrollSmooth(AndroidWorld& w, const Params&, Scenario& s) { Scroll(w, s); }

namespace {
const char* const kSlowAidl = "AIDL::java::IPackageManager::getPackageInfo::server";
}  // namespace

void ScrollBinderJank(AndroidWorld& w, const Params& p, Scenario& s) {
  w.truth().planted_causes = {"binder"};
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
  w.truth().planted_causes = {"render_thread"};
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
  w.truth().planted_causes = {"cpu_runnable"};
  FramePipeline& f = Scroll(w, s);
  const int64_t from = w.start() + 400 * kMs;
  const int64_t to = from + std::max<int64_t>(300 * kMs, (w.end() - from) / 2);
  FloodBigCores(w, f, s, from, to, p.o.severity);
}

namespace {

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

}  // namespace

void ScrollGcPressure(AndroidWorld& w, const Params& p, Scenario& s) {
  w.truth().planted_causes = {"gc"};
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
  w.truth().planted_causes = {"lock"};
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
  w.truth().planted_causes = {"cpu_frequency"};
  FramePipeline& f = Scroll(w, s);
  CapBigCluster(w, f, s, w.start() + (w.end() - w.start()) / 2, p.o.severity);
}

void Large(AndroidWorld& w, const Params& p, Scenario& s) {
  w.truth().planted_causes = {"binder"};
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

}  // namespace tw::tracegen
