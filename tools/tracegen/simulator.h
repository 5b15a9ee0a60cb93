#pragma once
// A small discrete-event simulation of an Android device, written out as the ftrace a real
// device records. Threads run programs (sequences of Actions: run some work, write an atrace
// marker, sleep, wait for a signal, make a binder call, take a lock, ...); the scheduler puts
// runnable threads on CPUs (idle CPU of the preferred cluster first, else the shortest
// runqueue; 4 ms timeslices; wakeup preemption by a higher priority), and how long work takes
// depends on the cluster and its current frequency. Every state change is emitted as it happens
// (sched_switch / sched_waking, print, binder_transaction(_received), cpu_frequency, cpu_idle),
// so timing is consistent across threads by construction: a binder client sleeps while the
// server thread runs, a thread waits runnable while others hold the CPUs.

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tools/synth/ftrace_cpu_bundles.h"
#include "tools/synth/rng.h"
#include "tools/synth/trace_file.h"
#include "tools/tracegen/device_model.h"

namespace tw::tracegen {

struct Action {
  enum Kind : uint8_t {
    kRun,          // a: work (ns at the big cluster's top frequency)
    kPrint,        // text: atrace marker written to trace_marker ("B|pid|name", "E|pid", ...)
    kSleep,        // a: duration; b: prev_state (1 S, 2 D); t: io_wait for D
    kSleepUntil,   // a: absolute time (S)
    kWait,         // sleep (S) until Signal()ed; returns at once if a signal is pending
    kSignal,       // t: thread to signal
    kBinderCall,   // t: server thread (-1: an idle binder thread of process b); a: work;
                   // text: AIDL slice name; c: code; oneway when d != 0
    kAcquire,      // t: lock id; text: holder's method; text2: holder's source
    kRelease,      // t: lock id
    kCall,         // fn(now): bookkeeping at this point of the program
    kBinderRecv,   // a: debug id (binder_transaction_received on this thread)
    kBinderReply,  // a: binder record index: send the reply and wake the client
  };
  Kind kind;
  int64_t a = 0;
  int64_t b = 0;
  int32_t t = 0;
  uint32_t c = 0;
  int32_t d = 0;
  std::string text;
  std::string text2;
  std::function<void(int64_t)> fn;
  const std::string* ref = nullptr;  // kPrint: a marker kept alive by the caller, not copied

  static Action Run(int64_t work) { return Action{kRun, work}; }
  static Action Print(std::string s) {
    Action x{kPrint};
    x.text = std::move(s);
    return x;
  }
  // A marker text owned by the caller for the whole simulation (hot paths: no copy).
  static Action PrintRef(const std::string* s) {
    Action x{kPrint};
    x.ref = s;
    return x;
  }
  static Action Sleep(int64_t dur, bool uninterruptible = false, bool io_wait = false) {
    Action x{kSleep, dur, uninterruptible ? 2 : 1};
    x.t = io_wait ? 1 : 0;
    return x;
  }
  static Action SleepUntil(int64_t ts) { return Action{kSleepUntil, ts}; }
  static Action Wait() { return Action{kWait}; }
  static Action Signal(int32_t thread) {
    Action x{kSignal};
    x.t = thread;
    return x;
  }
  // A call to process `server_proc` (simulator index) served by one of its binder threads
  // (or by `server_thread` when >= 0), whose reply slice spans `aidl` running `work`.
  static Action BinderCall(int32_t server_proc, int64_t work, std::string aidl, uint32_t code,
                           bool oneway = false, int32_t server_thread = -1) {
    Action x{kBinderCall, work, server_proc};
    x.t = server_thread;
    x.c = code;
    x.d = oneway ? 1 : 0;
    x.text = std::move(aidl);
    return x;
  }
  // Takes monitor `lock` in `method` (e.g. "void com.example.Repo.save()") at `src`
  // ("Repo.java:42"); blocks (and writes ART's contention slice) while another thread holds it.
  static Action Acquire(int32_t lock, std::string method, std::string src) {
    Action x{kAcquire};
    x.t = lock;
    x.text = std::move(method);
    x.text2 = std::move(src);
    return x;
  }
  static Action Release(int32_t lock) {
    Action x{kRelease};
    x.t = lock;
    return x;
  }
  static Action Call(std::function<void(int64_t)> f) {
    Action x{kCall};
    x.fn = std::move(f);
    return x;
  }
};

// One binder transaction as the simulation made it (for the ground truth).
struct BinderRecord {
  int32_t client_tid = 0, client_pid = 0, server_tid = 0, server_pid = 0;
  int64_t ts = 0, end_ts = 0;  // client side: transaction sent, reply received
  bool oneway = false;
  std::string aidl;
};

class Simulator {
 public:
  struct Process {
    int32_t pid = 0;
    int32_t uid = 0;
    std::string cmdline;
    std::vector<int32_t> threads;  // thread ids (simulator indices)
    std::vector<int32_t> binder_threads;
    bool in_first_tree = true;  // listed in the process_tree at trace start
  };
  struct Thread {
    int32_t tid = 0;
    int32_t tgid = 0;
    uint32_t comm = 0;
    int32_t prio = 120;
    bool prefer_big = false;
    bool big_only = false;
    bool little_only = false;
    std::deque<Action> program;
    // Refills the program when it runs out; a thread without one (or that adds nothing)
    // sleeps until something is delivered to it.
    std::function<void(int64_t now)> generator;
    enum class State : uint8_t { kNew, kRunning, kRunnable, kSleeping, kWaiting, kIdle, kLock };
    State state = State::kNew;
    int32_t cpu = -1;
    int32_t last_cpu = -1;
    int32_t pending_signals = 0;
    int64_t run_left = 0;  // work left of the Run at the front of the program
    uint64_t timer_gen = 0;
    bool io_wait = false;   // the current D sleep waits on I/O
    bool uninterruptible = false;  // the current sleep is D
    int32_t reply_record = -1;  // binder record this thread waits the reply of
  };

  struct Options {
    DeviceModel device;
    synth::SchedEncoding encoding = synth::SchedEncoding::kCompact;
    uint64_t seed = 1;
    int64_t start_ns = 0;
    int64_t end_ns = 0;
    uint32_t bundle_events = 2000;
  };

  static constexpr size_t kMaxThreads = 16384;
  Simulator(const Options& options, synth::TraceFile* file);

  // ---- building the world ----
  int32_t AddProcess(int32_t pid, int32_t uid, const std::string& cmdline, bool in_first_tree);
  // Adds thread `tid` (== pid for the main thread) named `name` to process `proc`; at most
  // kMaxThreads in all (-1 beyond).
  int32_t AddThread(int32_t proc, int32_t tid, const std::string& name, int32_t prio);
  void MarkBinderThread(int32_t thread);
  Thread& thread(int32_t i) { return threads_[i]; }
  const Process& process(int32_t i) const { return processes_[i]; }
  const std::vector<Process>& processes() const { return processes_; }
  const std::vector<Thread>& threads() const { return threads_; }
  const std::vector<std::string>& comms() const { return comms_; }
  int32_t AddLock(const std::string& name);
  synth::Rng& rng() { return rng_; }
  const DeviceModel& device() const { return o_.device; }
  int64_t now() const { return now_; }
  // The timestamp of the last event written (events take distinct, increasing timestamps, so
  // a kCall right after a kPrint reads the exact time of that marker here).
  int64_t last_stamp() const { return last_ts_; }
  bool CpuBusy(uint32_t cpu) const { return cpus_[cpu].current >= 0; }
  uint32_t CpuKhz(uint32_t cpu) const { return cpus_[cpu].khz; }
  int64_t end() const { return o_.end_ns; }

  // ---- driving it ----
  // Threads whose program is not empty (or that have a generator) start runnable at the
  // trace start; all others start idle.
  void Start();
  // Runs fn at `ts` (outside any thread: device-level changes, scenario bookkeeping).
  void At(int64_t ts, std::function<void(int64_t)> fn);
  // Appends `actions` to the thread's program and wakes it if it was idle.
  void Deliver(int32_t thread, std::vector<Action> actions);
  // Sets the frequency of every CPU of `cluster` (0 little, 1 big), with cpu_frequency events;
  // `cap_khz` > 0 caps it from now on (thermal throttling).
  void SetClusterFrequency(uint32_t cluster, uint32_t khz);
  void SetClusterCap(uint32_t cluster, uint32_t cap_khz);
  // From inside a kCall: the running thread forks `child_tid` (task_newtask, which carries the
  // parent's comm), or renames itself (task_rename, as prctl(PR_SET_NAME) does).
  void EmitTaskNewtask(int32_t child_tid, uint64_t clone_flags);
  void EmitTaskRename(const std::string& new_comm);
  // Any other kernel event (kernel_events.h): `event_id` is its FtraceEvent field, `payload` its
  // serialised fields, recorded on `cpu` for task `tid` now.
  void EmitFtrace(uint32_t cpu, int32_t tid, uint32_t event_id, const proto::Writer& payload);
  // From inside a kCall: the same on the CPU the calling thread runs on, for that thread.
  void EmitFtraceFromRunning(uint32_t event_id, const proto::Writer& payload);
  // The tid of the thread whose kCall is running (0 outside one).
  int32_t RunningTid() const;
  void RunUntilEnd();

  const std::vector<BinderRecord>& binder_records() const { return binder_; }
  int64_t sched_events() const { return sched_events_; }
  // Times a thread found a monitor held and blocked on it.
  int64_t contentions() const { return contentions_; }
  int64_t ftrace_events() const { return ftrace_events_; }
  // Total time thread `i` spent runnable (waiting for a CPU) in [from, to).
  int64_t RunnableNs(int32_t thread, int64_t from, int64_t to) const;
  // Records runnable intervals of this thread (off by default: only the threads ground truth
  // needs them for).
  void TrackRunnable(int32_t thread);

 private:
  enum class Ev : uint8_t { kTick, kTimer, kIdlePick, kAt, kResched };
  // 24 bytes: the queue holds every sleeping thread's timer and every cpu's next tick, and
  // moving these around is most of the simulation's cost.
  struct Pending {
    int64_t t;
    uint64_t order_kind;  // FIFO order among equal times << 3 | Ev
    uint32_t id;
    uint32_t gen;  // low bits of the cpu/thread generation the event belongs to
    Ev kind() const { return static_cast<Ev>(order_kind & 7); }
    bool operator>(const Pending& b) const {
      return t != b.t ? t > b.t : order_kind > b.order_kind;
    }
  };
  struct Cpu {
    int32_t current = -1;
    std::deque<int32_t> runqueue;
    uint64_t gen = 0;
    bool pick_pending = false;
    bool executing = false;   // a thread's program is being run on it right now
    uint32_t khz = 0;
    int64_t seg_start = 0;    // when the current run segment started
    int64_t seg_work = 0;     // work the segment will complete
    int64_t seg_end = 0;
  };
  struct Lock {
    std::string name;
    int32_t owner = -1;
    std::string owner_method, owner_src;
    struct Waiter {
      int32_t thread;
      std::string method, src;
    };
    std::deque<Waiter> waiters;
  };

  void Schedule(int64_t t, Ev kind, uint32_t id, uint64_t gen = 0);
  int64_t Stamp(int64_t t);
  // Runs the program of the thread on `cpu` from `now` until it needs time or blocks.
  void Continue(uint32_t cpu);
  void StartSegment(uint32_t cpu);
  void Tick(uint32_t cpu, uint32_t gen);
  void MakeRunnable(int32_t thread, int32_t waker_cpu);
  int32_t SelectCpu(int32_t thread);
  void Block(uint32_t cpu, uint64_t prev_state);
  void SwitchTo(uint32_t cpu, uint64_t prev_state, int32_t next);
  int32_t PickNext(uint32_t cpu);
  void IdlePick(uint32_t cpu);
  void TimerWake(int32_t thread, uint32_t gen);
  int64_t WorkToNs(uint32_t cpu, int64_t work) const;
  int64_t NsToWork(uint32_t cpu, int64_t ns) const;
  bool Allowed(int32_t thread, uint32_t cpu) const;
  void DoBinderCall(uint32_t cpu, int32_t self, const Action& a);
  bool DoAcquire(uint32_t cpu, int32_t self, const Action& a);
  void DoRelease(uint32_t cpu, int32_t self, const Action& a);
  void Resched(uint32_t cpu, uint32_t gen);
  void RunnableBegin(int32_t thread);
  void RunnableEnd(int32_t thread);

  // Emission.
  synth::SchedSide Side(uint32_t cpu, int32_t thread) const;
  void EmitPrint(uint32_t cpu, int32_t tid, const std::string& text);
  void EmitBinderTxn(uint32_t cpu, int32_t tid, int64_t debug_id, int32_t to_proc,
                     int32_t to_thread, bool reply, uint32_t code, uint32_t flags);
  void EmitBinderReceived(uint32_t cpu, int32_t tid, int64_t debug_id);
  void EmitCpuIdle(uint32_t cpu, uint32_t state);
  void EmitCpuFrequency(uint32_t cpu, uint32_t khz);
  void EmitBlockedReason(uint32_t cpu, int32_t tid, bool io_wait);
  uint32_t Comm(const std::string& name);

  Options o_;
  synth::TraceFile* file_;
  synth::Rng rng_;
  std::vector<std::string> comms_;
  std::vector<uint32_t> swapper_comm_;
  std::vector<Process> processes_;
  // Reserved up front (kMaxThreads) so references stay valid while threads are added.
  std::vector<Thread> threads_;
  std::vector<Cpu> cpus_;
  std::vector<Lock> locks_;
  std::vector<uint32_t> cluster_cap_;
  synth::FtraceCpuBundles bundles_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  std::vector<std::function<void(int64_t)>> at_fns_;
  std::vector<BinderRecord> binder_;
  uint64_t next_order_ = 0;
  int64_t now_ = 0;
  int64_t last_ts_ = 0;
  int64_t next_debug_id_ = 4'000'000;
  bool started_ = false;
  int64_t contentions_ = 0;
  int64_t sched_events_ = 0;
  int64_t ftrace_events_ = 0;
  uint32_t preempt_bit_ = 0x100;  // "R+" on kernels >= 4.14
  proto::Writer payload_;
  std::string line_;
  // thread -> [(runnable since, running at)], for tracked threads only
  std::vector<std::vector<std::pair<int64_t, int64_t>>> runnable_spans_;
  std::vector<int64_t> runnable_since_;
  std::vector<bool> tracked_;
  int32_t executing_cpu_ = -1;  // the cpu whose thread's program is running, -1 outside
};

}  // namespace tw::tracegen
