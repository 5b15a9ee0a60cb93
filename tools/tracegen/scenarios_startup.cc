// App startup scenarios: cold and warm launches, with or without blocking on the main thread.
#include <functional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tools/synth/trace_file.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {

namespace {

// What a startup scenario adds to a plain launch: work inside bindApplication and
// activityStart on the main thread, and something to start when the app process is ready (a
// worker thread's program).
struct StartupExtras {
  std::function<std::vector<Action>()> in_bind_application;
  std::function<std::vector<Action>()> in_activity_start;
  std::function<void()> on_app_ready;
};

// system_server starts the launch on a binder thread, the app runs its launch on the main
// thread, and the launch completes when the first frame is drawn.
void Startup(AndroidWorld& w, const Params& p, Scenario& s, const std::string& type, bool slow_io,
             StartupExtras extras = {}) {
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
  auto app_program = [&w, &f, p, app, slow_io, scale, type, truth, extras]() {
    std::vector<Action> a;
    const std::string e = absl::StrCat("E|", app);
    auto b = [app](const std::string& n) { return Action::Print(absl::StrCat("B|", app, "|", n)); };
    if (type == "cold") {
      a.push_back(Action::Run(2 * kMs));
      a.push_back(Action::BinderCall(w.ss_proc, 2 * kMs, "AIDL::java::IActivityManager::attachApplication::server", 17));
      a.push_back(b("bindApplication"));
      a.push_back(Action::Run(static_cast<int64_t>(25 * kMs * scale)));
      if (extras.in_bind_application) {
        for (Action& x : extras.in_bind_application()) a.push_back(std::move(x));
      }
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
    if (extras.in_activity_start) {
      for (Action& x : extras.in_activity_start()) a.push_back(std::move(x));
    }
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
    w.sim().At(t_app, [&w, app_program, extras](int64_t) {
      w.sim().Deliver(w.zygote_main, {
          Action::Run(1'200'000),
          Action::Call([&w, app_program, extras](int64_t now) {
            w.SpawnApp(now);
            // SIGCHLD | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID, as fork() does.
            w.sim().EmitTaskNewtask(AndroidWorld::kAppPid, 0x01200011);
            std::vector<Action> prog = app_program();
            prog.insert(prog.begin(), Action::Call([&w](int64_t) {
              w.sim().EmitTaskRename(synth::MainThreadComm(AndroidWorld::kPackage));
            }));
            w.sim().Deliver(w.app_main, std::move(prog));
            if (extras.on_app_ready) extras.on_app_ready();
          }),
      });
    });
  } else {
    w.sim().At(t_app, [&w, app_program, extras](int64_t) {
      w.sim().Deliver(w.app_main, app_program());
      if (extras.on_app_ready) extras.on_app_ready();
    });
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

}  // namespace

void StartupCold(AndroidWorld& w, const Params& p, Scenario& s) { Startup(w, p, s, "cold", false); }
void StartupColdSlowIo(AndroidWorld& w, const Params& p, Scenario& s) {
  w.truth().planted_causes = {"io"};
  Startup(w, p, s, "cold", true);
}
void StartupWarm(AndroidWorld& w, const Params& p, Scenario& s) { Startup(w, p, s, "warm", false); }

void StartupColdTwoCauses(AndroidWorld& w, const Params& p, Scenario& s) {
  GroundTruth& t = w.truth();
  t.planted_causes = {"binder", "lock"};
  const int64_t provider_work = static_cast<int64_t>(110 * kMs * p.o.severity);
  const int64_t db_hold = static_cast<int64_t>(260 * kMs * p.o.severity);
  const int32_t lock = w.sim().AddLock("AppDatabase");
  const int32_t app = AndroidWorld::kAppPid;
  StartupExtras extras;
  // bindApplication resolves a content provider in system_server (a slow lookup there).
  extras.in_bind_application = [&w, app, provider_work] {
    return std::vector<Action>{
        Action::Print(absl::StrCat("B|", app, "|ContentProviderHelper.acquireProvider")),
        Action::BinderCall(w.ss_proc, provider_work, "AIDL::java::IActivityManager::getContentProvider::server", 24),
        Action::Print(absl::StrCat("E|", app))};
  };
  // activityStart needs the database a worker is migrating: it waits on the worker's lock.
  extras.in_activity_start = [lock, app] {
    return std::vector<Action>{
        Action::Print(absl::StrCat("B|", app, "|FeedRepository.init")),
        Action::Acquire(lock, "void com.example.feed.data.FeedRepository.<init>(android.content.Context)", "FeedRepository.java:41"),
        Action::Run(500'000), Action::Release(lock), Action::Print(absl::StrCat("E|", app))};
  };
  extras.on_app_ready = [&w, lock, app, db_hold] {
    w.sim().Deliver(w.app_io, {
        Action::Acquire(lock, "void com.example.feed.data.AppDatabase.migrate(int, int)", "AppDatabase.java:133"),
        Action::Print(absl::StrCat("B|", app, "|AppDatabase.migrate")), Action::Run(db_hold),
        Action::Print(absl::StrCat("E|", app)), Action::Release(lock)});
  };
  t.startup_blocking = {{"binder", provider_work}, {"lock", db_hold}};
  Startup(w, p, s, "cold", false, std::move(extras));
  auto previous = std::move(s.after);
  s.after = [&w, previous] {
    if (previous) previous();
    w.truth().monitor_contentions = w.sim().contentions();
  };
}

}  // namespace tw::tracegen
