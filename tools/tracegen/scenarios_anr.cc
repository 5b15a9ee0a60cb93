// ANR scenarios: an input event whose handler cannot finish for seconds.
#include "absl/strings/str_cat.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {

namespace {

// Input dispatch times out 5 s after the event was sent; system_server reports the ANR (its
// ErrorId / Subject counters and ActivityManager's log lines). Returns when.
int64_t ReportInputAnr(AndroidWorld& w, int64_t t_input) {
  const int32_t app = AndroidWorld::kAppPid, ss = AndroidWorld::kSsPid;
  const int64_t t_anr = t_input + 5'000 * kMs + 12 * kMs;
  const std::string error_id = "b1f7c1d2-58a4-4c3e-9d2e-7f0a61c3e5aa";
  // The last binder thread: the others may be serving the call the app is stuck in.
  const int32_t binder = w.ss_binders.back();
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
  return t_anr;
}

}  // namespace

void AnrMainThreadBlocked(AndroidWorld& w, const Params& p, Scenario& s) {
  w.truth().planted_causes = {"lock", "io"};
  const int32_t app = AndroidWorld::kAppPid;
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
  const int64_t t_anr = ReportInputAnr(w, t_input);
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

void AnrBinder(AndroidWorld& w, const Params& p, Scenario& s) {
  (void)p;
  (void)s;
  GroundTruth& t = w.truth();
  t.planted_causes = {"binder"};
  const int32_t app = AndroidWorld::kAppPid;
  const int64_t t_input = w.start() + 230 * kMs;
  // The tap's handler asks system_server for every installed package; the server thread works
  // on it for longer than input dispatch waits.
  const char* aidl = "AIDL::java::IPackageManager::getInstalledPackages::server";
  DeliverMotion(w, w.start() + 60 * kMs, 1, 0x3a10, "DOWN", {Action::Run(400'000)});
  DeliverMotion(w, t_input, 2, 0x3a11, "UP",
                {Action::Run(300'000),
                 Action::Print(absl::StrCat("B|", app, "|AppListFragment.onItemClick")),
                 Action::BinderCall(w.ss_proc, 5'600 * kMs, aidl, 5),
                 Action::Print(absl::StrCat("E|", app)), Action::Run(200'000)});
  const int64_t t_anr = ReportInputAnr(w, t_input);
  t.anr_type = "INPUT_DISPATCHING_TIMEOUT";
  t.anr_ts = t_anr;
  t.anr_blocking_chain = {
      absl::StrCat("main thread ", app, " blocked in deliverInputEvent on a binder call to system_server"),
      "system_server binder thread running IPackageManager.getInstalledPackages for 5.6 s"};
  s.after = [&w, aidl] {
    CollectInjectedBinder(w, aidl);
    if (!w.truth().injected_binder.empty()) {
      w.truth().anr_blocking_tid = w.truth().injected_binder.front().server_tid;
    }
  };
}

}  // namespace tw::tracegen
