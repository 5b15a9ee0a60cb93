#pragma once
// Building blocks of tracegen's scenarios (internal to tools/tracegen): the options a scenario
// is built with, what it adds to the world, and the helpers scenarios share — a scroll over the
// trace, injection times, atrace markers of the app, input events through InputDispatcher, the
// injected binder calls for the ground truth. Each scenarios_*.cc file defines a family of
// scenarios; tracegen.cc lists them.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tools/tracegen/android_world.h"
#include "tools/tracegen/frame_pipeline.h"
#include "tools/tracegen/tracegen.h"

namespace tw::tracegen {

inline constexpr int64_t kMs = 1'000'000;
// AndroidLogPriority values.
inline constexpr uint32_t kLogInfo = 4, kLogWarn = 5, kLogError = 6;

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

// atrace markers of the app process: "B|pid|name" / "E|pid".
std::string AppPrefix();
std::string AppEnd();
Action AppBegin(const std::string& name);

// A scroll over (almost) the whole trace at the device's refresh rate.
FramePipeline& Scroll(AndroidWorld& w, Scenario& s);
// Times in the scroll at which to inject, every `every` from 300 ms on.
std::vector<int64_t> InjectionTimes(AndroidWorld& w, int64_t every);
// The app's calls of `aidl` as the simulation made them, into the ground truth.
void CollectInjectedBinder(AndroidWorld& w, const std::string& aidl);
// One MotionEvent delivered to the app's window at `ts` (see scenario_kit.cc).
void DeliverMotion(AndroidWorld& w, int64_t ts, uint32_t seq, uint32_t event_id,
                   const std::string& action, std::vector<Action> handling);

// Background threads of another app flood the big cores in [from, to) (more with `severity`);
// frames overlapping the window get the cause "cpu_contention" in the ground truth.
void FloodBigCores(AndroidWorld& w, FramePipeline& f, Scenario& s, int64_t from, int64_t to,
                   double severity);
// Thermal mitigation caps the big cluster from `cap_ts` (harder with `severity` >= 1): the cap,
// ThermalManagerService's log line, and thermal zones polled every 100 ms that heat up to it.
// Frames overlapping the cap get the cause "thermal_throttling" in the ground truth.
void CapBigCluster(AndroidWorld& w, FramePipeline& f, Scenario& s, int64_t cap_ts, double severity);
// A GC the main thread waits for inside a frame: the frame's allocation requests a young
// concurrent copying GC of `gc_work` on the app's HeapTaskDaemon and the main thread blocks in
// WaitForGcToComplete until it is done.
FrameInjection GcWaitInjection(AndroidWorld& w, int64_t gc_work);
// The main thread calls `aidl` on system_server inside a frame (its Java slice `java_slice`
// around the call); a binder thread works `work` for it.
FrameInjection BinderInjection(AndroidWorld& w, int64_t work, const std::string& aidl,
                               const std::string& java_slice);
// The main thread reads a file inside a frame: `java_slice` around `reads` uninterruptible
// I/O waits of `each` (D, io_wait), with the block requests and page-cache fills they cause.
FrameInjection FileReadInjection(AndroidWorld& w, const std::string& java_slice, int reads,
                                 int64_t each);
// A new process whose `threads` keep CPUs busy from `from` to `to` (long runs, short sleeps);
// `cluster` 0 keeps them on little cores, 1 on big cores, -1 anywhere. Returns the process.
int32_t AddBusyProcess(AndroidWorld& w, const std::string& cmdline, const std::string& thread_prefix,
                       int threads, int64_t from, int64_t to, int cluster, int32_t prio);

// The scenarios, by family.
void ScrollSmooth(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollBinderJank(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollRenderThreadGpu(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollCpuContention(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollGcPressure(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollLockContention(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollThermal(AndroidWorld& w, const Params& p, Scenario& s);
void Large(AndroidWorld& w, const Params& p, Scenario& s);
void StartupCold(AndroidWorld& w, const Params& p, Scenario& s);
void StartupColdSlowIo(AndroidWorld& w, const Params& p, Scenario& s);
void StartupWarm(AndroidWorld& w, const Params& p, Scenario& s);
void AnrMainThreadBlocked(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollBinderGc(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollDecoys(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollSubtle(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollBadInterval(AndroidWorld& w, const Params& p, Scenario& s);
void ScrollThermalContention(AndroidWorld& w, const Params& p, Scenario& s);
void StartupColdTwoCauses(AndroidWorld& w, const Params& p, Scenario& s);
void AnrBinder(AndroidWorld& w, const Params& p, Scenario& s);
void InputSlow(AndroidWorld& w, const Params& p, Scenario& s);
void InputFast(AndroidWorld& w, const Params& p, Scenario& s);
void MemoryPressure(AndroidWorld& w, const Params& p, Scenario& s);
void MemorySteady(AndroidWorld& w, const Params& p, Scenario& s);
void IdleWakeups(AndroidWorld& w, const Params& p, Scenario& s);
void IdleQuiet(AndroidWorld& w, const Params& p, Scenario& s);

}  // namespace tw::tracegen
