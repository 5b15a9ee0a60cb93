// Memory scenarios: a scroll while the system runs short of memory — kswapd reclaims for long
// stretches, the app's main thread has to reclaim memory itself on some frames, lmkd kills
// cached apps, and the app's RSS grows — and its clean twin with steady memory.
#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tools/tracegen/kernel_events.h"
#include "tools/tracegen/scenario_kit.h"

namespace tw::tracegen {
namespace {

namespace ke = kernel_events;

// A cached app, idle in the background: what lmkd kills first.
int32_t CachedApp(AndroidWorld& w, const std::string& name) {
  const int32_t pid = w.NewPid();
  const int32_t p = w.sim().AddProcess(pid, 10200 + pid % 97, name, true);
  w.sim().AddThread(p, pid, name, 120);
  return pid;
}

// The app's main thread reclaims memory itself inside a frame (an allocation found no free
// pages): the reclaim runs on its CPU between the two vmscan events.
FrameInjection DirectReclaimInjection(AndroidWorld& w, int64_t work) {
  FrameInjection inj;
  inj.cause = "reclaim";
  inj.main_in_frame.push_back(Action::Call([&w](int64_t) {
    proto::Writer begin;
    begin.Int(ke::direct_reclaim_begin::kOrder, 0);
    begin.Int(ke::direct_reclaim_begin::kMayWritepage, 1);
    begin.Varint(ke::direct_reclaim_begin::kGfpFlags, 0x100cca);  // GFP_HIGHUSER_MOVABLE
    w.sim().EmitFtraceFromRunning(ke::kMmVmscanDirectReclaimBegin, begin);
  }));
  inj.main_in_frame.push_back(Action::Run(work));
  inj.main_in_frame.push_back(Action::Call([&w, work](int64_t) {
    proto::Writer end;
    end.Varint(ke::direct_reclaim_end::kNrReclaimed, 32 + w.rng().Below(64));
    w.sim().EmitFtraceFromRunning(ke::kMmVmscanDirectReclaimEnd, end);
    ++w.truth().direct_reclaims;
    w.truth().direct_reclaim_ns += work;
  }));
  return inj;
}

}  // namespace

void MemoryPressure(AndroidWorld& w, const Params& p, Scenario& s) {
  FramePipeline& f = Scroll(w, s);
  GroundTruth& t = w.truth();
  t.planted_causes = {"lmk", "reclaim"};
  // lmkd and the cached apps it will kill.
  const int32_t lmkd_pid = w.NewPid();
  const int32_t lmkd_proc = w.sim().AddProcess(lmkd_pid, 1069, "/system/bin/lmkd", true);
  const int32_t lmkd = w.sim().AddThread(lmkd_proc, lmkd_pid, "lmkd", 100);
  const std::vector<std::string> victims = {"com.example.cached.news", "com.example.cached.maps",
                                            "com.example.cached.music"};
  std::vector<int32_t> victim_pids;
  for (const std::string& v : victims) victim_pids.push_back(CachedApp(w, v));
  const int64_t dur = w.end() - w.start();
  for (size_t i = 0; i < victims.size(); ++i) {
    const int64_t at = w.start() + dur * static_cast<int64_t>(25 + 20 * i) / 100;
    const int32_t victim = victim_pids[i];
    // lmkd traces each kill: kill_one_process counter, an "lmk,<pid>,<reason>,<oom_adj>,..."
    // slice, the counter back to 0.
    w.sim().At(at, [&w, lmkd, lmkd_pid, victim](int64_t now) {
      w.sim().Deliver(lmkd, {
          Action::Run(600'000),
          Action::Print(absl::StrCat("C|", lmkd_pid, "|kill_one_process|", victim)),
          Action::Print(absl::StrCat("B|", lmkd_pid, "|lmk,", victim, ",2,950,900,0")),
          Action::Run(1'500'000),
          Action::Print(absl::StrCat("E|", lmkd_pid)),
          Action::Print(absl::StrCat("C|", lmkd_pid, "|kill_one_process|0")),
      });
      w.MarkKilled(victim, now + 2 * kMs);
    });
    t.lmk_victims.push_back(victims[i]);
    w.Log(at + 3 * kMs, lmkd_pid, lmkd_pid, kLogInfo, "lowmemorykiller",
          absl::StrCat("Kill '", victims[i], "' (", victim, "), uid ", 10200 + victim % 97,
                       ", oom_score_adj 950 to free 95MB rss; reason: low watermark is breached"));
  }
  // kswapd reclaims in long bursts for most of the trace.
  const int32_t kswapd = w.KernelThread("kswapd0");
  if (kswapd >= 0) {
    const int64_t from = w.start() + dur / 5, to = w.end() - dur / 10;
    w.sim().At(from, [&w, kswapd, to](int64_t) {
      w.sim().thread(kswapd).generator = [&w, kswapd, to](int64_t now) {
        Simulator::Thread& x = w.sim().thread(kswapd);
        if (now >= to) {
          x.program.push_back(Action::Sleep(8 * kMs));
          return;
        }
        x.program.push_back(Action::Call([&w](int64_t) {
          proto::Writer wake;
          wake.Int(ke::kswapd_wake::kNid, 0);
          wake.Int(ke::kswapd_wake::kOrder, 0);
          wake.Int(ke::kswapd_wake::kZid, 1);
          w.sim().EmitFtraceFromRunning(ke::kMmVmscanKswapdWake, wake);
        }));
        x.program.push_back(Action::Run(static_cast<int64_t>(w.rng().Between(6e6, 11e6))));
        x.program.push_back(Action::Call([&w](int64_t) {
          proto::Writer sleep;
          sleep.Int(ke::kswapd_sleep::kNid, 0);
          w.sim().EmitFtraceFromRunning(ke::kMmVmscanKswapdSleep, sleep);
        }));
        x.program.push_back(Action::Sleep(static_cast<int64_t>(w.rng().Between(8e6, 14e6))));
      };
    });
  }
  // Now and then the main thread reclaims memory itself in a frame.
  const int64_t reclaim = static_cast<int64_t>(2.5 * kMs * p.o.severity);
  for (int64_t at : InjectionTimes(w, 380 * kMs)) f.InjectAt(at, DirectReclaimInjection(w, reclaim));
  // The app's anonymous memory grows through the trace (its feed cache), polled every 100 ms.
  const int64_t start = w.start();
  s.after = [&w, start, dur] {
    w.WriteMemoryPolls(100 * kMs, [start, dur](int64_t ts) {
      return 150'000 + 90'000 * (ts - start) / std::max<int64_t>(1, dur);
    });
  };
}

void MemorySteady(AndroidWorld& w, const Params& p, Scenario& s) {
  (void)p;
  Scroll(w, s);
  // Memory polled every 100 ms, every process at a steady size.
  s.after = [&w] { w.WriteMemoryPolls(100 * kMs, nullptr); };
}

}  // namespace tw::tracegen
