#include "tools/synth/sched_trace_writer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>
#include <queue>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_writer.h"
#include "tools/synth/rng.h"
#include "tools/synth/trace_file.h"

namespace tw::synth {
namespace {

using proto::Writer;

// ---- the system being simulated: processes, threads, their names ----

constexpr const char* kProcessNames[] = {
    "system_server", "/system/bin/surfaceflinger", "com.android.systemui",
    "com.google.android.apps.nexuslauncher", "com.android.chrome",
    "com.google.android.gms.persistent", "/system/bin/audioserver", "com.example.benchmark",
    "com.google.android.youtube", "/system/bin/logd", "com.android.phone",
    "/system/bin/cameraserver", "com.google.android.apps.maps",
    "/vendor/bin/hw/android.hardware.graphics.composer@2.4-service", "com.android.bluetooth",
    "/apex/com.android.art/bin/dex2oat64"};
constexpr const char* kThreadNames[] = {
    "RenderThread",    "HeapTaskDaemon", "binder:%d_1",     "binder:%d_2",  "Jit thread pool",
    "FinalizerDaemon", "ReferenceQueueD", "hwuiTask0",      "hwuiTask1",    "AsyncTask #1",
    "Signal Catcher",  "binder:%d_3",     "OkHttp Dispatch", "mali-cmar-backe"};
constexpr const char* kSliceNames[] = {
    "Choreographer#doFrame", "traversal", "measure", "layout", "draw", "RV Scroll",
    "inflate", "binder transaction", "dequeueBuffer", "queueBuffer", "Lock contention",
    "DrawFrame"};
constexpr const char* kCounterNames[] = {"aq:pending", "HWC release", "BufferTX", "fps",
                                         "GPU completion", "mem.rss"};
constexpr uint32_t kFrequenciesKhz[] = {300000, 576000, 768000, 1017600, 1248000, 1497600,
                                        1804800, 2016000, 2419200};
struct SimThread {
  int32_t tid = 0;
  int32_t tgid = 0;
  uint32_t comm = 0;        // index into comms
  int32_t prio = 120;
  double mean_sleep_ns = 0;
  int32_t last_cpu = -1;
  int64_t remaining_ns = 0;  // work left of the current burst after a preemption point
  bool blocked_report = false;  // its D sleep is reported by sched_blocked_reason on wake-up
};

struct SimProcess {
  int32_t pid = 0;
  int32_t uid = 0;
  std::string cmdline;
};

// Per-thread sleep is base * weight: a few threads are busy, most wake rarely. Solve for the base
// that makes the offered load (sum of run fractions) equal `load` CPUs.
double SolveBaseSleep(const std::vector<double>& weights, double slice, double load_cpus) {
  auto offered = [&](double base) {
    double sum = 0;
    for (double w : weights) sum += slice / (slice + base * w);
    return sum;
  };
  if (offered(0) <= load_cpus) return 0;
  double lo = 0, hi = slice;
  while (offered(hi) > load_cpus) hi *= 2;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (offered(mid) > load_cpus ? lo : hi) = mid;
  }
  return hi;
}

class Generator {
 public:
  Generator(const SchedTraceOptions& o, TraceFile* file, SchedTraceSummary* summary)
      : o_(o), file_(file), sum_(summary), rng_(o.seed), cpus_(o.cpus),
        bundles_(o.cpus, o.encoding, o.bundle_events, &comms_, file) {
    preempt_bit_ = PreemptBit(o.kernel_release);
    sum_->switches_per_cpu.assign(o.cpus, 0);
  }

  void Run() {
    BuildSystem();
    WriteHeaderPackets();
    StartState();
    const int64_t end = o_.start_ns + o_.duration_ns;
    while (!pending_.empty() && pending_.top().t < end) {
      const Pending p = pending_.top();
      pending_.pop();
      switch (p.kind) {
        case Kind::kSliceEnd: if (p.gen == cpus_[p.id].gen) SliceEnd(p.id, p.t); break;
        case Kind::kWake: Wake(p.id, p.t); break;
        case Kind::kIdlePick: IdlePick(p.id, p.t); break;
        case Kind::kPrintBegin: if (p.gen == cpus_[p.id].gen) PrintBegin(p.id, p.t, p.arg); break;
        case Kind::kPrintEnd: if (p.gen == cpus_[p.id].gen) PrintEnd(p.id, p.t); break;
        case Kind::kCounter: if (p.gen == cpus_[p.id].gen) CounterMark(p.id, p.t, p.arg); break;
        case Kind::kFrequency: Frequency(p.id, p.t); break;
      }
    }
    // Leave no thread half-switched: close open markers and switch every CPU to idle, so every
    // thread switched in is also switched out (only the idle slices stay open).
    for (uint32_t c = 0; c < o_.cpus; ++c) {
      if (cpus_[c].print_open) PrintEnd(c, end);
      if (cpus_[c].current >= 0) SwitchTo(c, end, /*prev_state=*/1, -1);
    }
    bundles_.FlushAll();
  }

 private:
  enum class Kind : uint8_t {
    kSliceEnd, kWake, kIdlePick, kPrintBegin, kPrintEnd, kCounter, kFrequency
  };
  struct Pending {
    int64_t t;
    uint64_t order;  // FIFO among equal times, so the run does not depend on heap internals
    Kind kind;
    uint32_t id;     // cpu, or thread for kWake
    uint64_t gen;    // cpu generation the event belongs to (stale after the cpu switched)
    uint32_t arg;
    bool operator>(const Pending& b) const { return t != b.t ? t > b.t : order > b.order; }
  };
  struct SimCpu {
    int32_t current = -1;  // thread index, -1 idle (the swapper)
    std::deque<uint32_t> runqueue;
    uint64_t gen = 0;
    bool pick_pending = false;
    bool print_open = false;
  };

  static uint32_t PreemptBit(const std::string& release) {
    // TASK_REPORT_MAX moved twice; without a release, importers assume the pre-4.8 layout.
    int major = 0, minor = 0;
    if (std::sscanf(release.c_str(), "%d.%d", &major, &minor) == 2) {
      if (major > 4 || (major == 4 && minor >= 14)) return 0x100;
      if (major == 4 && minor >= 8) return 0x1000;
    }
    return 0x800;
  }

  void Schedule(int64_t t, Kind kind, uint32_t id, uint64_t gen = 0, uint32_t arg = 0) {
    pending_.push(Pending{t, next_order_++, kind, id, gen, arg});
  }
  // Every emitted event gets a distinct, increasing timestamp: causality holds across CPUs and
  // the sorter never has to break ties, so plain and compact import identically.
  int64_t Stamp(int64_t t) {
    last_ts_ = std::max(t, last_ts_ + 1);
    if (!sum_->first_ts) sum_->first_ts = last_ts_;
    sum_->last_ts = last_ts_;
    return last_ts_;
  }
  int64_t SliceLength() {
    const double mean = static_cast<double>(o_.mean_slice_ns);
    return static_cast<int64_t>(std::clamp(rng_.Exponential(mean), 5'000.0, 20 * mean));
  }

  void BuildSystem() {
    for (uint32_t p = 0; p < o_.processes; ++p) {
      SimProcess proc;
      proc.pid = 1000 + 100 * static_cast<int32_t>(p);
      proc.cmdline = p < std::size(kProcessNames) ? kProcessNames[p]
                                                  : absl::StrFormat("com.example.app%d", p);
      proc.uid = proc.cmdline[0] == '/' || p == 0 ? 1000 : 10000 + static_cast<int32_t>(p);
      processes_.push_back(proc);
    }
    // Threads per process: one main thread each, the rest skewed towards the first processes
    // (system_server and friends have many threads), at most 99 per process.
    std::vector<uint32_t> count(o_.processes, 1);
    double total_weight = 0;
    for (uint32_t p = 0; p < o_.processes; ++p) total_weight += 1.0 / (p + 1);
    for (uint32_t i = o_.processes; i < o_.threads; ++i) {
      double r = rng_.Uniform() * total_weight;
      uint32_t p = 0;
      while (p + 1 < o_.processes && r >= 1.0 / (p + 1)) r -= 1.0 / (p++ + 1);
      while (count[p] >= 99) p = (p + 1) % o_.processes;
      ++count[p];
    }
    // A few threads are busy (short sleeps), most wake rarely.
    std::vector<double> weights;
    for (uint32_t p = 0; p < o_.processes; ++p) {
      const SimProcess& proc = processes_[p];
      for (uint32_t k = 0; k < count[p]; ++k) {
        SimThread t;
        t.tid = proc.pid + static_cast<int32_t>(k);
        t.tgid = proc.pid;
        std::string name;
        if (k == 0) {
          name = MainThreadComm(proc.cmdline);
        } else if (k - 1 < std::size(kThreadNames)) {
          name = kThreadNames[k - 1];
          if (name.find("%d") != std::string::npos) {
            name = absl::StrFormat("binder:%d_%d", proc.pid, name.back() - '0');
          }
        } else {
          name = absl::StrFormat("Thread-%d", k);
        }
        t.comm = AddComm(name.substr(0, 15));  // TASK_COMM_LEN - 1
        if (proc.cmdline == "/system/bin/surfaceflinger" && k == 0) {
          t.prio = 98;  // SCHED_FIFO
        } else if ((k == 0 && proc.uid >= 10000) || name == "RenderThread") {
          t.prio = 110;  // UI threads run at nice -10
        } else if (name == "HeapTaskDaemon") {
          t.prio = 124;
        }
        const double u = rng_.Uniform();
        weights.push_back(u < 0.1 ? 0.2 : u < 0.6 ? 1.0 : 6.0);
        threads_.push_back(t);
      }
    }
    const double base = SolveBaseSleep(weights, static_cast<double>(o_.mean_slice_ns),
                                       o_.load * o_.cpus);
    for (size_t i = 0; i < threads_.size(); ++i) threads_[i].mean_sleep_ns = base * weights[i];
    for (uint32_t c = 0; c < o_.cpus; ++c) {
      swapper_comm_.push_back(AddComm(absl::StrFormat("swapper/%d", c)));
    }
  }
  uint32_t AddComm(std::string s) {
    comms_.push_back(std::move(s));
    return static_cast<uint32_t>(comms_.size() - 1);
  }

  void WriteHeaderPackets() {
    namespace tp = pf::trace_packet;
    const int64_t ts = o_.start_ns - 1000;  // just before the first ftrace event
    {
      namespace cs = pf::clock_snapshot;
      namespace cc = pf::clock_snapshot_clock;
      Writer snapshot;
      const std::pair<uint32_t, int64_t> clocks[] = {
          {pf::builtin_clock::kBoottime, ts},
          {pf::builtin_clock::kMonotonic, ts - 2'000'000'000},  // 2 s spent suspended
          {pf::builtin_clock::kRealtime, 1'700'000'000'000'000'000 + ts}};
      for (const auto& [id, value] : clocks) {
        Writer c;
        c.Varint(cc::kClockId, id);
        c.Varint(cc::kTimestamp, static_cast<uint64_t>(value));
        snapshot.Message(cs::kClocks, c);
      }
      snapshot.Varint(cs::kPrimaryTraceClock, pf::builtin_clock::kBoottime);
      Writer packet;
      packet.Varint(tp::kTimestamp, static_cast<uint64_t>(ts));
      packet.Message(tp::kClockSnapshot, snapshot);
      packet.Varint(tp::kTrustedPacketSequenceId, 1);
      file_->Write(packet);
    }
    if (!o_.kernel_release.empty()) {
      Writer uts, info, packet;
      uts.String(pf::utsname::kSysname, "Linux");
      uts.String(pf::utsname::kRelease, o_.kernel_release);
      uts.String(pf::utsname::kMachine, "aarch64");
      info.Message(pf::system_info::kUtsname, uts);
      info.Varint(pf::system_info::kNumCpus, o_.cpus);
      packet.Message(tp::kSystemInfo, info);
      packet.Varint(tp::kTrustedPacketSequenceId, 1);
      file_->Write(packet);
    }
    {
      namespace pt = pf::process_tree;
      namespace pp = pf::process_tree_process;
      namespace pth = pf::process_tree_thread;
      Writer tree;
      for (const SimProcess& p : processes_) {
        Writer w;
        w.Varint(pp::kPid, static_cast<uint64_t>(p.pid));
        w.Varint(pp::kPpid, 1);
        w.String(pp::kCmdline, p.cmdline);
        w.Varint(pp::kUid, static_cast<uint64_t>(p.uid));
        tree.Message(pt::kProcesses, w);
      }
      for (const SimThread& t : threads_) {
        Writer w;
        w.Varint(pth::kTid, static_cast<uint64_t>(t.tid));
        w.String(pth::kName, comms_[t.comm]);
        w.Varint(pth::kTgid, static_cast<uint64_t>(t.tgid));
        tree.Message(pt::kThreads, w);
      }
      Writer packet;
      packet.Varint(tp::kTimestamp, static_cast<uint64_t>(ts));
      packet.Message(tp::kProcessTree, tree);
      packet.Varint(tp::kTrustedPacketSequenceId, 1);
      file_->Write(packet);
    }
  }

  // Threads already running, queued or asleep when tracing starts: no events for them yet.
  void StartState() {
    std::vector<uint32_t> order(threads_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    for (uint32_t i = static_cast<uint32_t>(order.size()); i > 1; --i) {
      std::swap(order[i - 1], order[rng_.Below(i)]);
    }
    size_t next = 0;
    for (uint32_t c = 0; c < o_.cpus && next < order.size(); ++c) {
      const uint32_t t = order[next++];
      cpus_[c].current = static_cast<int32_t>(t);
      threads_[t].last_cpu = static_cast<int32_t>(c);
      Schedule(o_.start_ns + SliceLength(), Kind::kSliceEnd, c, cpus_[c].gen);
    }
    for (uint32_t c = 0; c < o_.cpus && next < order.size(); ++c) {
      cpus_[c].runqueue.push_back(order[next++]);
    }
    for (; next < order.size(); ++next) {
      const uint32_t t = order[next];
      Schedule(o_.start_ns + static_cast<int64_t>(rng_.Exponential(threads_[t].mean_sleep_ns)),
               Kind::kWake, t);
    }
    if (o_.frequency_rate_hz > 0) {
      for (uint32_t c = 0; c < o_.cpus; ++c) Frequency(c, o_.start_ns);
    }
  }

  // ---- scheduling decisions ----

  void SliceEnd(uint32_t c, int64_t now) {
    SimCpu& cpu = cpus_[c];
    const uint32_t cur = static_cast<uint32_t>(cpu.current);
    SimThread& th = threads_[cur];
    uint32_t prev_state;
    if (th.remaining_ns > 0) {
      if (cpu.runqueue.empty()) {
        // Its timeslice is up but nobody waits: it just keeps the cpu.
        Schedule(now + std::exchange(th.remaining_ns, 0), Kind::kSliceEnd, c, cpu.gen);
        return;
      }
      // Preempted with work left: back of the queue, runnable ("R+" when a wakeup preempted).
      prev_state = rng_.Chance(0.6) ? preempt_bit_ : 0;
      cpu.runqueue.push_back(cur);
    } else {
      prev_state = rng_.Chance(0.85) ? 1 /* S */ : 2 /* D */;
      th.blocked_report = o_.blocked_reason_fraction > 0 && prev_state == 2 &&
                         rng_.Chance(o_.blocked_reason_fraction);
      const double sleep = std::max(2'000.0, rng_.Exponential(th.mean_sleep_ns));
      Schedule(now + static_cast<int64_t>(sleep), Kind::kWake, cur);
    }
    SwitchTo(c, now, prev_state, PickNext(c));
  }

  // The head of the cpu's runqueue, else (newidle balancing) one pulled from the longest queue.
  int32_t PickNext(uint32_t c) {
    SimCpu& cpu = cpus_[c];
    uint32_t from = c;
    if (cpu.runqueue.empty()) {
      size_t longest = 0;
      for (uint32_t o = 0; o < o_.cpus; ++o) {
        if (cpus_[o].runqueue.size() > longest) {
          longest = cpus_[o].runqueue.size();
          from = o;
        }
      }
      if (longest == 0) return -1;
    }
    const uint32_t t = cpus_[from].runqueue.front();
    cpus_[from].runqueue.pop_front();
    return static_cast<int32_t>(t);
  }

  void Wake(uint32_t t, int64_t now) {
    // The waker is whatever runs on some cpu: usually a busy one (a thread signalling another),
    // sometimes an idle one (an interrupt; the swapper is "running" there).
    uint32_t waker_cpu = rng_.Below(o_.cpus);
    if (rng_.Chance(0.75)) {
      const uint32_t start = rng_.Below(o_.cpus);
      for (uint32_t i = 0; i < o_.cpus; ++i) {
        const uint32_t c = (start + i) % o_.cpus;
        if (cpus_[c].current >= 0) {
          waker_cpu = c;
          break;
        }
      }
    }
    const int32_t target = SelectTargetCpu(t);
    SimThread& th = threads_[t];
    if (th.blocked_report) {
      // try_to_wake_up reports why a D sleeper slept, on the waker's cpu, before sched_waking.
      th.blocked_report = false;
      EmitBlockedReason(waker_cpu, Stamp(now), cpus_[waker_cpu].current, th.tid);
    }
    const int64_t ts = Stamp(now);
    EmitWaking(waker_cpu, ts, cpus_[waker_cpu].current, th, static_cast<uint32_t>(target));
    SimCpu& cpu = cpus_[target];
    cpu.runqueue.push_back(t);
    if (cpu.current < 0 && !cpu.pick_pending) {
      cpu.pick_pending = true;
      Schedule(ts + 3'000 + rng_.Below(27'000), Kind::kIdlePick, static_cast<uint32_t>(target));
    }
  }

  // Like select_idle_sibling: the previous cpu if idle, else any idle cpu, else the shortest
  // runqueue.
  int32_t SelectTargetCpu(uint32_t t) {
    auto idle = [&](uint32_t c) {
      return cpus_[c].current < 0 && cpus_[c].runqueue.empty() && !cpus_[c].pick_pending;
    };
    const int32_t last = threads_[t].last_cpu;
    if (last >= 0 && idle(static_cast<uint32_t>(last))) return last;
    const uint32_t start = rng_.Below(o_.cpus);
    int32_t best = -1;
    for (uint32_t i = 0; i < o_.cpus; ++i) {
      const uint32_t c = (start + i) % o_.cpus;
      if (idle(c)) return static_cast<int32_t>(c);
      if (best < 0 || cpus_[c].runqueue.size() < cpus_[best].runqueue.size()) {
        best = static_cast<int32_t>(c);
      }
    }
    return best;
  }

  void IdlePick(uint32_t c, int64_t now) {
    SimCpu& cpu = cpus_[c];
    cpu.pick_pending = false;
    if (cpu.current >= 0 || cpu.runqueue.empty()) return;  // work was pulled elsewhere
    const int32_t next = static_cast<int32_t>(cpu.runqueue.front());
    cpu.runqueue.pop_front();
    SwitchTo(c, now, /*prev_state=*/0, next);
  }

  void SwitchTo(uint32_t c, int64_t now, uint32_t prev_state, int32_t next) {
    SimCpu& cpu = cpus_[c];
    // cpuidle: the cpu leaves its idle state before switching to a thread, and enters one
    // right after switching to the idle task.
    if (o_.cpu_idle && cpu.current < 0 && next >= 0) EmitCpuIdle(c, Stamp(now), 0xffffffffu);
    const int64_t ts = Stamp(now);
    EmitSwitch(c, ts, cpu.current, prev_state, next);
    const bool enters_idle = cpu.current >= 0 && next < 0;
    cpu.current = next;
    ++cpu.gen;
    if (o_.cpu_idle && enters_idle) EmitCpuIdle(c, Stamp(now), rng_.Chance(0.7) ? 0 : 1);
    if (next < 0) return;
    // A burst of work (until the thread blocks) may be cut into two slices: the thread is
    // preempted in between if others wait. Work is conserved, so `load` stays what was asked.
    SimThread& th = threads_[next];
    th.last_cpu = static_cast<int32_t>(c);
    const int64_t burst = th.remaining_ns > 0 ? th.remaining_ns : SliceLength();
    int64_t slice = burst;
    th.remaining_ns = 0;
    if (burst >= 20'000 && rng_.Chance(0.3)) {
      slice = static_cast<int64_t>(static_cast<double>(burst) * (0.2 + 0.6 * rng_.Uniform()));
      th.remaining_ns = burst - slice;
    }
    Schedule(ts + slice, Kind::kSliceEnd, c, cpu.gen);
    if (o_.print_rate_hz > 0 && slice >= 20'000 &&
        rng_.Chance(std::min(1.0, o_.print_rate_hz * static_cast<double>(slice) * 1e-9))) {
      const uint32_t name = rng_.Below(static_cast<uint32_t>(std::size(kSliceNames)));
      Schedule(ts + slice / 10, Kind::kPrintBegin, c, cpu.gen, name);
      Schedule(ts + slice - slice / 10, Kind::kPrintEnd, c, cpu.gen);
    }
    if (o_.counter_rate_hz > 0 && slice >= 10'000 &&
        rng_.Chance(std::min(1.0, o_.counter_rate_hz * static_cast<double>(slice) * 1e-9))) {
      const uint32_t name = rng_.Below(static_cast<uint32_t>(std::size(kCounterNames)));
      Schedule(ts + slice / 2, Kind::kCounter, c, cpu.gen, name);
    }
  }

  void CounterMark(uint32_t c, int64_t now, uint32_t name) {
    const SimThread& th = threads_[cpus_[c].current];
    EmitPrint(c, Stamp(now), th.tid,
              absl::StrFormat("C|%d|%s|%d\n", th.tgid, kCounterNames[name], rng_.Below(64)));
  }

  // A DVFS change on cpu c, and the next one.
  void Frequency(uint32_t c, int64_t now) {
    const uint32_t khz = kFrequenciesKhz[rng_.Below(static_cast<uint32_t>(std::size(kFrequenciesKhz)))];
    EmitCpuCounter(c, Stamp(now), Pid(cpus_[c].current), pf::ftrace_event::kCpuFrequency, khz);
    ++sum_->cpu_frequency;
    Schedule(now + 1 + static_cast<int64_t>(rng_.Exponential(1e9 / o_.frequency_rate_hz)),
             Kind::kFrequency, c);
  }

  void PrintBegin(uint32_t c, int64_t now, uint32_t name) {
    const SimThread& th = threads_[cpus_[c].current];
    EmitPrint(c, Stamp(now), th.tid, absl::StrFormat("B|%d|%s\n", th.tgid, kSliceNames[name]));
    cpus_[c].print_open = true;
  }
  void PrintEnd(uint32_t c, int64_t now) {
    if (!cpus_[c].print_open) return;
    const SimThread& th = threads_[cpus_[c].current];
    EmitPrint(c, Stamp(now), th.tid, absl::StrFormat("E|%d\n", th.tgid));
    cpus_[c].print_open = false;
  }

  // ---- encoding ----

  int32_t Pid(int32_t thread) const { return thread < 0 ? 0 : threads_[thread].tid; }
  int32_t Prio(int32_t thread) const { return thread < 0 ? 120 : threads_[thread].prio; }
  uint32_t Comm(uint32_t c, int32_t thread) const {
    return thread < 0 ? swapper_comm_[c] : threads_[thread].comm;
  }

  SchedSide Side(uint32_t c, int32_t thread) const {
    return SchedSide{Pid(thread), Prio(thread), Comm(c, thread)};
  }

  void EmitSwitch(uint32_t c, int64_t ts, int32_t prev, uint32_t prev_state, int32_t next) {
    ++sum_->sched_switch;
    ++sum_->switches_per_cpu[c];
    bundles_.Switch(c, ts, Side(c, prev), prev_state, Side(c, next));
  }

  void EmitWaking(uint32_t c, int64_t ts, int32_t waker, const SimThread& wakee,
                  uint32_t target) {
    ++sum_->sched_waking;
    const uint32_t flags = waker < 0 ? (kFlagIrqsOff | kFlagHardirq) : kFlagIrqsOff;
    bundles_.Waking(c, ts, Pid(waker), flags, SchedSide{wakee.tid, wakee.prio, wakee.comm},
                    target);
  }

  void EmitPrint(uint32_t c, int64_t ts, int32_t tid, const std::string& text) {
    ++sum_->print;
    payload_.Clear();
    payload_.Varint(pf::print_ftrace_event::kIp, 0xffffffc0101a2b3cull);  // tracing_mark_write
    payload_.String(pf::print_ftrace_event::kBuf, text);
    bundles_.Plain(c, ts, tid, std::nullopt, pf::ftrace_event::kPrint, payload_);
  }

  // cpu_idle / cpu_frequency: (state, cpu_id), recorded on the cpu concerned.
  void EmitCpuCounter(uint32_t c, int64_t ts, int32_t pid, uint32_t event_field, uint32_t state) {
    payload_.Clear();
    payload_.Varint(1, state);
    payload_.Varint(2, c);
    bundles_.Plain(c, ts, pid, std::nullopt, event_field, payload_);
  }
  void EmitCpuIdle(uint32_t c, int64_t ts, uint32_t state) {
    ++sum_->cpu_idle;
    EmitCpuCounter(c, ts, 0, pf::ftrace_event::kCpuIdle, state);
  }

  // sched_blocked_reason: pid 1, caller 2, io_wait 3.
  void EmitBlockedReason(uint32_t c, int64_t ts, int32_t waker, int32_t tid) {
    ++sum_->blocked_reason;
    payload_.Clear();
    payload_.Varint(1, static_cast<uint64_t>(tid));
    payload_.Varint(2, 0xffffffc0100a0000ull + 0x40 * rng_.Below(16));
    payload_.Varint(3, rng_.Chance(0.5) ? 1 : 0);
    bundles_.Plain(c, ts, Pid(waker), std::nullopt, pf::ftrace_event::kSchedBlockedReason,
                   payload_);
  }

  const SchedTraceOptions& o_;
  TraceFile* file_;
  SchedTraceSummary* sum_;
  Rng rng_;
  uint32_t preempt_bit_ = 0x800;
  std::vector<SimProcess> processes_;
  std::vector<SimThread> threads_;
  std::vector<std::string> comms_;
  std::vector<uint32_t> swapper_comm_;  // by cpu
  std::vector<SimCpu> cpus_;
  FtraceCpuBundles bundles_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  uint64_t next_order_ = 0;
  int64_t last_ts_ = 0;
  Writer payload_;
};

absl::Status Validate(const SchedTraceOptions& o) {
  if (o.cpus < 1 || o.cpus > 1024) return absl::InvalidArgumentError("cpus must be 1..1024");
  if (o.duration_ns <= 0) return absl::InvalidArgumentError("duration_ns must be positive");
  if (o.processes < 1 || o.threads < o.processes || o.threads > 99ull * o.processes) {
    return absl::InvalidArgumentError(
        "need 1 <= processes <= threads <= 99 * processes (tids are pid + 0..98)");
  }
  if (o.processes > 9'000'000) return absl::InvalidArgumentError("too many processes");
  if (o.mean_slice_ns < 10'000) return absl::InvalidArgumentError("mean_slice_ns must be >= 10us");
  if (!(o.load > 0)) return absl::InvalidArgumentError("load must be positive");
  if (o.bundle_events < 1) return absl::InvalidArgumentError("bundle_events must be >= 1");
  if (o.print_rate_hz < 0) return absl::InvalidArgumentError("print_rate_hz must be >= 0");
  if (o.frequency_rate_hz < 0 || o.counter_rate_hz < 0) {
    return absl::InvalidArgumentError("frequency_rate_hz and counter_rate_hz must be >= 0");
  }
  if (o.blocked_reason_fraction < 0 || o.blocked_reason_fraction > 1) {
    return absl::InvalidArgumentError("blocked_reason_fraction must be in [0, 1]");
  }
  if (o.start_ns < 1'000'000) return absl::InvalidArgumentError("start_ns must be >= 1 ms");
  return absl::OkStatus();
}

}  // namespace

const char* SchedEncodingName(SchedEncoding e) {
  return e == SchedEncoding::kCompact ? "compact" : "plain";
}

absl::Status WriteSyntheticSchedTrace(const SchedTraceOptions& options, const std::string& path,
                                      SchedTraceSummary* summary) {
  if (absl::Status s = Validate(options); !s.ok()) return s;
  SchedTraceSummary local;
  SchedTraceSummary* sum = summary ? summary : &local;
  *sum = SchedTraceSummary();
  TraceFile file;
  if (absl::Status s = file.Open(path); !s.ok()) return s;
  Generator(options, &file, sum).Run();
  sum->packets = file.packets();
  sum->bytes = file.bytes();
  return file.Close();
}

}  // namespace tw::synth
