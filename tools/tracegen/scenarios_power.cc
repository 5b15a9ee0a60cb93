// Power scenarios: an idle screen (no scroll, no input) while a sync service keeps the CPUs
// awake — a timer thread wakes every 2 ms for a few tens of µs (each wakeup pulls a CPU out of
// idle, so no CPU reaches its deep idle state for long) and a notifier floods system_server
// with oneway binder calls, and its database thread syncs its journal to disk (f2fs fsync) every
// 100 ms — and the clean twin where the device just idles.
#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tools/tracegen/kernel_events.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {

namespace {

constexpr const char* kSyncProcess = "com.example.sync";
constexpr const char* kTimerThread = "SyncTimer";
constexpr const char* kNotifierThread = "SyncNotifier";
constexpr const char* kDbThread = "SyncDb";
constexpr const char* kOnewayAidl = "AIDL::java::IContentService::notifyChange::server";

void FsyncLoop(AndroidWorld& w, int32_t thread, int64_t period, int64_t wait, int64_t to);

}  // namespace

void IdleWakeups(AndroidWorld& w, const Params& p, Scenario& s) {
  (void)s;
  GroundTruth& t = w.truth();
  t.planted_causes = {"power_wakeups", "binder_flood"};
  Simulator& sim = w.sim();
  const int32_t pid = w.NewPid();
  const int32_t proc = sim.AddProcess(pid, 10177, kSyncProcess, true);
  sim.AddThread(proc, pid, kSyncProcess, 120);
  t.wakeup_process = kSyncProcess;
  t.wakeup_thread = kTimerThread;
  t.oneway_method = kOnewayAidl;
  // Shorter periods with `severity` > 1: more wakeups and calls a second.
  const int64_t timer_period = static_cast<int64_t>(2'000'000 / p.o.severity);
  const int64_t notify_period = static_cast<int64_t>(4'000'000 / p.o.severity);
  const int64_t from = w.start() + 50 * kMs, to = w.end() - 50 * kMs;

  const int32_t timer = sim.AddThread(proc, pid + 1, kTimerThread, 120);
  sim.thread(timer).program.push_back(Action::SleepUntil(from));
  sim.thread(timer).generator = [&w, timer, timer_period, to](int64_t now) {
    if (now >= to) return;
    Simulator::Thread& x = w.sim().thread(timer);
    x.program.push_back(Action::Call([&w](int64_t) { ++w.truth().wakeups_planted; }));
    x.program.push_back(Action::Run(static_cast<int64_t>(w.sim().rng().Between(30e3, 60e3))));
    x.program.push_back(Action::Sleep(timer_period));
  };

  const int32_t notifier = sim.AddThread(proc, pid + 2, kNotifierThread, 120);
  const int32_t ss = w.ss_proc;
  sim.thread(notifier).program.push_back(Action::SleepUntil(from + 1'000'000));
  sim.thread(notifier).generator = [&w, notifier, notify_period, to, ss](int64_t now) {
    if (now >= to) return;
    Simulator::Thread& x = w.sim().thread(notifier);
    x.program.push_back(Action::Run(20'000));
    x.program.push_back(Action::BinderCall(ss, 40'000, kOnewayAidl, 7, /*oneway=*/true));
    x.program.push_back(Action::Call([&w](int64_t) { ++w.truth().oneway_calls; }));
    x.program.push_back(Action::Sleep(notify_period));
  };

  const int32_t db = sim.AddThread(proc, pid + 3, kDbThread, 120);
  t.fsync_thread = kDbThread;
  sim.thread(db).program.push_back(Action::SleepUntil(from + 7'000'000));
  FsyncLoop(w, db, 100 * kMs, 4 * kMs, to);
}

namespace {

// `thread` syncs a file every `period` until `to`: f2fs_sync_file_enter, an uninterruptible I/O
// wait of `wait`, f2fs_sync_file_exit.
void FsyncLoop(AndroidWorld& w, int32_t thread, int64_t period, int64_t wait, int64_t to) {
  namespace ke = kernel_events;
  w.sim().thread(thread).generator = [&w, thread, period, wait, to](int64_t now) {
    if (now >= to) return;
    Simulator::Thread& x = w.sim().thread(thread);
    x.program.push_back(Action::Run(100'000));
    x.program.push_back(Action::Call([&w](int64_t) {
      proto::Writer enter;
      enter.Varint(ke::f2fs_sync_file_enter::kDev, 0x10300000);
      enter.Varint(ke::f2fs_sync_file_enter::kIno, 262'155);
      enter.Varint(ke::f2fs_sync_file_enter::kPino, 262'150);
      enter.Varint(ke::f2fs_sync_file_enter::kMode, 0100660);
      enter.Varint(ke::f2fs_sync_file_enter::kSize, 53'248);
      enter.Varint(ke::f2fs_sync_file_enter::kNlink, 1);
      enter.Varint(ke::f2fs_sync_file_enter::kBlocks, 104);
      w.sim().EmitFtraceFromRunning(ke::kF2fsSyncFileEnter, enter);
    }));
    x.program.push_back(Action::Sleep(wait, /*uninterruptible=*/true, /*io_wait=*/true));
    x.program.push_back(Action::Call([&w, wait](int64_t) {
      proto::Writer exit;
      exit.Varint(ke::f2fs_sync_file_exit::kDev, 0x10300000);
      exit.Varint(ke::f2fs_sync_file_exit::kIno, 262'155);
      exit.Varint(ke::f2fs_sync_file_exit::kDatasync, 1);
      exit.Int(ke::f2fs_sync_file_exit::kRet, 0);
      w.sim().EmitFtraceFromRunning(ke::kF2fsSyncFileExit, exit);
      ++w.truth().fsyncs;
    }));
    x.program.push_back(Action::Sleep(period));
  };
}

}  // namespace

void IdleQuiet(AndroidWorld& w, const Params& p, Scenario& s) {
  (void)w;
  (void)p;
  (void)s;
}

}  // namespace tw::tracegen
