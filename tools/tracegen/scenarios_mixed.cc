// Scrolling scenarios that test judgement rather than detection: two causes in one trace,
// decoys that must not be blamed, a problem too small to call critical, one bad interval in a
// long trace, and thermal throttling mixed with CPU contention.
#include "absl/strings/str_cat.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {
namespace {

const char* const kPackageInfo = "AIDL::java::IPackageManager::getPackageInfo::server";
const char* const kQueryIntents = "AIDL::java::IPackageManager::queryIntentActivities::server";

}  // namespace

void ScrollBinderGc(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  w.truth().planted_causes = {"binder", "gc"};
  // Binder calls on more frames than GC waits: binder explains more of the jank and leads.
  const int64_t binder_work = static_cast<int64_t>(1.6 * p.o.severity * w.period());
  const int64_t gc_work = static_cast<int64_t>(1.1 * p.o.severity * w.period());
  for (int64_t t : InjectionTimes(w, 330 * kMs)) {
    f.InjectAt(t, BinderInjection(w, binder_work, kPackageInfo, "PackageManager.getPackageInfo"));
  }
  for (int64_t t : InjectionTimes(w, 610 * kMs)) {
    f.InjectAt(t + 170 * kMs, GcWaitInjection(w, gc_work));
  }
  s.after = [&w] { CollectInjectedBinder(w, kPackageInfo); };
}

void ScrollDecoys(AndroidWorld& w, const Params& p, Scenario& s) {
  Scroll(w, s);
  (void)p;
  GroundTruth& t = w.truth();
  t.decoys = {"gc in com.google.android.gms (a background process)",
              "slow binder calls from the app's worker thread DefaultDispatch (off the main thread)",
              "com.android.vending's busy InstallQueue thread on the little cores"};
  // 1. A background process collects garbage often and long: not the app, not its frames.
  const int32_t gms_pid = w.NewPid();
  const int32_t gms = w.sim().AddProcess(gms_pid, 10145, "com.google.android.gms", true);
  w.sim().AddThread(gms, gms_pid, "com.google.android.gms", 120);
  const int32_t gms_heap = w.sim().AddThread(gms, gms_pid + 9, "HeapTaskDaemon", 124);
  w.sim().thread(gms_heap).generator = [&w, gms_heap, gms_pid](int64_t) {
    Simulator::Thread& x = w.sim().thread(gms_heap);
    x.program.push_back(Action::Sleep(static_cast<int64_t>(w.rng().Between(220e6, 320e6))));
    x.program.push_back(Action::Print(absl::StrCat("B|", gms_pid, "|young concurrent copying GC")));
    x.program.push_back(Action::Run(static_cast<int64_t>(w.rng().Between(18e6, 35e6))));
    x.program.push_back(Action::Print(absl::StrCat("E|", gms_pid)));
  };
  // 2. The app's worker thread makes slow binder calls: the main thread never waits on them.
  const int32_t worker = w.app_worker;
  w.sim().thread(worker).generator = [&w, worker](int64_t) {
    Simulator::Thread& x = w.sim().thread(worker);
    x.program.push_back(Action::Sleep(static_cast<int64_t>(w.rng().Between(180e6, 260e6))));
    x.program.push_back(AppBegin("FeedPrefetcher.resolveActivities"));
    x.program.push_back(Action::BinderCall(w.ss_proc, static_cast<int64_t>(w.rng().Between(25e6, 40e6)),
                                           kQueryIntents, 19));
    x.program.push_back(Action::Print(AppEnd()));
  };
  // 3. A busy thread of another app on the little cores: the app's threads run on the big ones.
  AddBusyProcess(w, "com.android.vending:installer", "InstallQueue", 1, w.start() + 50 * kMs, w.end(),
                 /*cluster=*/0, /*prio=*/130);
}

void ScrollSubtle(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  w.truth().planted_causes = {"io"};
  // Five frames in a long, otherwise smooth scroll read a cache file on the main thread.
  const int64_t span = w.end() - w.start() - 600 * kMs;
  for (int i = 0; i < 5; ++i) {
    const int64_t t = w.start() + 300 * kMs + span * (2 * i + 1) / 10 +
                      static_cast<int64_t>(w.rng().Below(static_cast<uint32_t>(50 * kMs)));
    f.InjectAt(t, FileReadInjection(w, "FeedCache.readFromDisk", 3,
                                    static_cast<int64_t>(0.6 * p.o.severity * w.period())));
  }
}

void ScrollBadInterval(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  w.truth().planted_causes = {"cpu_runnable"};
  // A smooth scroll but for one stretch when a background app floods the big cores.
  const int64_t dur = w.end() - w.start();
  const int64_t from = w.start() + dur * 62 / 100;
  const int64_t to = from + std::max<int64_t>(1'000 * kMs, dur / 12);
  FloodBigCores(w, f, s, from, to, p.o.severity);
  w.truth().problem_from_ns = from;
  w.truth().problem_to_ns = to;
}

void ScrollThermalContention(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  w.truth().planted_causes = {"cpu_frequency", "cpu_runnable"};
  const int64_t dur = w.end() - w.start();
  // Contention early, then the big cores are capped for the second half.
  FloodBigCores(w, f, s, w.start() + dur * 15 / 100, w.start() + dur * 40 / 100, p.o.severity);
  CapBigCluster(w, f, s, w.start() + dur / 2, p.o.severity);
}

}  // namespace tw::tracegen
