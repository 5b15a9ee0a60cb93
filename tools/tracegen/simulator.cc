#include "tools/tracegen/simulator.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw::tracegen {

using State = Simulator::Thread::State;

namespace {
constexpr int64_t kTimeslice = 4'000'000;  // CFS-like slice before a waiting thread gets a turn
constexpr uint64_t kIdleExit = 4294967295u;  // cpu_idle state meaning "left idle"
// ftrace field numbers of the events the simulation writes beyond sched (binder.proto,
// power.proto, sched.proto); the same numbers as libs/trace/importers/proto/ftrace_descriptors.
namespace binder_txn {
constexpr uint32_t kDebugId = 1, kTargetNode = 2, kToProc = 3, kToThread = 4, kReply = 5,
                   kCode = 6, kFlags = 7;
}
constexpr uint32_t kCpuStateField = 1, kCpuIdField = 2;
namespace task_newtask {
constexpr uint32_t kPid = 1, kComm = 2, kCloneFlags = 3, kOomScoreAdj = 4;
}
namespace task_rename {
constexpr uint32_t kPid = 1, kOldcomm = 2, kNewcomm = 3, kOomScoreAdj = 4;
}
namespace blocked_reason {
constexpr uint32_t kPid = 1, kCaller = 2, kIoWait = 3;
}
}  // namespace

Simulator::Simulator(const Options& options, synth::TraceFile* file)
    : o_(options),
      file_(file),
      rng_(options.seed),
      cpus_(options.device.cpus),
      cluster_cap_(options.device.clusters.size(), 0),
      bundles_(options.device.cpus, options.encoding, options.bundle_events, &comms_, file) {
  threads_.reserve(kMaxThreads);
  for (uint32_t c = 0; c < o_.device.cpus; ++c) {
    swapper_comm_.push_back(Comm(absl::StrCat("swapper/", c)));
    const CpuCluster& cl = o_.device.ClusterOf(c);
    cpus_[c].khz = cl.freqs_khz[cl.freqs_khz.size() * 2 / 3];
  }
}

uint32_t Simulator::Comm(const std::string& name) {
  comms_.push_back(name.substr(0, 15));  // TASK_COMM_LEN - 1
  return static_cast<uint32_t>(comms_.size() - 1);
}

int32_t Simulator::AddProcess(int32_t pid, int32_t uid, const std::string& cmdline,
                              bool in_first_tree) {
  Process p;
  p.pid = pid;
  p.uid = uid;
  p.cmdline = cmdline;
  p.in_first_tree = in_first_tree;
  processes_.push_back(std::move(p));
  return static_cast<int32_t>(processes_.size() - 1);
}

int32_t Simulator::AddThread(int32_t proc, int32_t tid, const std::string& name, int32_t prio) {
  if (threads_.size() >= kMaxThreads) return -1;
  Thread t;
  t.tid = tid;
  t.tgid = processes_[proc].pid;
  t.comm = Comm(tid == t.tgid ? synth::MainThreadComm(name) : name);
  t.prio = prio;
  if (started_) t.state = State::kIdle;  // born during the trace: runs once given work
  threads_.push_back(std::move(t));
  const int32_t id = static_cast<int32_t>(threads_.size() - 1);
  processes_[proc].threads.push_back(id);
  tracked_.push_back(false);
  runnable_since_.push_back(-1);
  runnable_spans_.emplace_back();
  return id;
}

void Simulator::MarkBinderThread(int32_t thread) {
  for (Process& p : processes_) {
    if (p.pid == threads_[thread].tgid) p.binder_threads.push_back(thread);
  }
}

int32_t Simulator::AddLock(const std::string& name) {
  locks_.push_back(Lock{name});
  return static_cast<int32_t>(locks_.size() - 1);
}

void Simulator::TrackRunnable(int32_t thread) { tracked_[thread] = true; }

void Simulator::Schedule(int64_t t, Ev kind, uint32_t id, uint64_t gen) {
  pending_.push(Pending{t, (next_order_++ << 3) | static_cast<uint64_t>(kind), id,
                        static_cast<uint32_t>(gen)});
}

int64_t Simulator::Stamp(int64_t t) {
  last_ts_ = std::max(t, last_ts_ + 1);
  return last_ts_;
}

void Simulator::At(int64_t ts, std::function<void(int64_t)> fn) {
  at_fns_.push_back(std::move(fn));
  Schedule(ts, Ev::kAt, static_cast<uint32_t>(at_fns_.size() - 1));
}

void Simulator::Start() {
  now_ = o_.start_ns;
  started_ = true;
  for (uint32_t c = 0; c < o_.device.cpus; ++c) {
    EmitCpuFrequency(c, cpus_[c].khz);
  }
  for (size_t i = 0; i < threads_.size(); ++i) {
    Thread& t = threads_[i];
    if (t.state != State::kNew) continue;
    if (t.program.empty() && !t.generator) {
      t.state = State::kIdle;
      continue;
    }
    t.state = State::kSleeping;
    Schedule(o_.start_ns + 1000 + rng_.Below(2'000'000), Ev::kTimer, static_cast<uint32_t>(i),
             t.timer_gen);
  }
}

void Simulator::RunUntilEnd() {
  while (!pending_.empty() && pending_.top().t < o_.end_ns) {
    const Pending p = pending_.top();
    pending_.pop();
    now_ = std::max(now_, p.t);
    switch (p.kind()) {
      case Ev::kTick: Tick(p.id, p.gen); break;
      case Ev::kTimer: TimerWake(static_cast<int32_t>(p.id), p.gen); break;
      case Ev::kIdlePick: IdlePick(p.id); break;
      case Ev::kResched: Resched(p.id, p.gen); break;
      case Ev::kAt: {
        auto fn = std::move(at_fns_[p.id]);
        fn(now_);
        break;
      }
    }
  }
  now_ = o_.end_ns;
  // Leave no thread half-switched: every thread switched in is also switched out.
  for (uint32_t c = 0; c < o_.device.cpus; ++c) {
    if (cpus_[c].current >= 0) {
      threads_[cpus_[c].current].state = State::kRunnable;
      SwitchTo(c, 0, -1);
    }
  }
  bundles_.FlushAll();
}

// ---- programs ----

void Simulator::Deliver(int32_t thread, std::vector<Action> actions) {
  Thread& th = threads_[thread];
  for (Action& a : actions) th.program.push_back(std::move(a));
  if (th.state == State::kIdle) MakeRunnable(thread, executing_cpu_);
}

void Simulator::Continue(uint32_t cpu) {
  const int32_t self = cpus_[cpu].current;
  const int32_t saved_cpu = executing_cpu_;
  executing_cpu_ = static_cast<int32_t>(cpu);
  cpus_[cpu].executing = true;
  auto done = [&] {
    cpus_[cpu].executing = false;
    executing_cpu_ = saved_cpu;
  };
  for (;;) {
    Thread* th = &threads_[self];
    if (th->program.empty() && th->generator) th->generator(now_);
    if (th->program.empty()) {
      th->state = State::kIdle;
      done();
      Block(cpu, 1);
      return;
    }
    Action& a = th->program.front();
    switch (a.kind) {
      case Action::kRun:
        if (a.a <= 0) {
          th->program.pop_front();
          continue;
        }
        th->run_left = a.a;
        done();
        StartSegment(cpu);
        return;
      case Action::kPrint:
        EmitPrint(cpu, th->tid, a.ref ? *a.ref : a.text);
        th->program.pop_front();
        continue;
      case Action::kSleep: {
        const int64_t until = now_ + std::max<int64_t>(a.a, 1000);
        th->uninterruptible = a.b == 2;
        th->io_wait = a.t != 0;
        const uint64_t state = static_cast<uint64_t>(a.b);
        th->program.pop_front();
        th->state = State::kSleeping;
        Schedule(until, Ev::kTimer, static_cast<uint32_t>(self), ++th->timer_gen);
        done();
        Block(cpu, state);
        return;
      }
      case Action::kSleepUntil: {
        const int64_t until = a.a;
        th->program.pop_front();
        if (until <= now_) continue;
        th->uninterruptible = false;
        th->io_wait = false;
        th->state = State::kSleeping;
        Schedule(until, Ev::kTimer, static_cast<uint32_t>(self), ++th->timer_gen);
        done();
        Block(cpu, 1);
        return;
      }
      case Action::kWait:
        th->program.pop_front();
        if (th->pending_signals > 0) {
          --th->pending_signals;
          continue;
        }
        th->state = State::kWaiting;
        done();
        Block(cpu, 1);
        return;
      case Action::kSignal: {
        const int32_t target = a.t;
        th->program.pop_front();
        Thread& tt = threads_[target];
        if (tt.state == State::kWaiting) {
          MakeRunnable(target, static_cast<int32_t>(cpu));
        } else {
          ++tt.pending_signals;
        }
        continue;
      }
      case Action::kBinderCall: {
        Action call = std::move(a);
        th->program.pop_front();
        DoBinderCall(cpu, self, call);
        continue;
      }
      case Action::kBinderRecv:
        EmitBinderReceived(cpu, th->tid, a.a);
        th->program.pop_front();
        continue;
      case Action::kBinderReply: {
        BinderRecord& r = binder_[static_cast<size_t>(a.a)];
        const int64_t reply_id = a.b;
        const int32_t client = a.t;
        th->program.pop_front();
        EmitBinderTxn(cpu, th->tid, reply_id, r.client_pid, r.client_tid, true, 0, 0);
        Thread& ct = threads_[client];
        if (ct.state == State::kWaiting) {
          MakeRunnable(client, static_cast<int32_t>(cpu));
        } else {
          ++ct.pending_signals;
        }
        continue;
      }
      case Action::kAcquire:
        if (DoAcquire(cpu, self, a)) continue;
        done();
        Block(cpu, 1);
        return;
      case Action::kRelease: {
        Action rel = std::move(a);
        th->program.pop_front();
        DoRelease(cpu, self, rel);
        continue;
      }
      case Action::kCall: {
        auto fn = std::move(a.fn);
        th->program.pop_front();
        fn(now_);
        continue;
      }
    }
  }
}

void Simulator::DoBinderCall(uint32_t cpu, int32_t self, const Action& a) {
  Thread& th = threads_[self];
  const Process& server = processes_[a.b];
  int32_t st = a.t;
  if (st < 0) {
    for (int32_t b : server.binder_threads) {
      if (threads_[b].state == State::kIdle && threads_[b].program.empty()) {
        st = b;
        break;
      }
    }
    if (st < 0) st = server.binder_threads[rng_.Below(server.binder_threads.size())];
  }
  const bool oneway = a.d != 0;
  const int64_t id = next_debug_id_++;
  BinderRecord r;
  r.client_tid = th.tid;
  r.client_pid = th.tgid;
  r.server_tid = threads_[st].tid;
  r.server_pid = threads_[st].tgid;
  r.ts = Stamp(now_);
  last_ts_ = r.ts - 1;  // the event below takes this very timestamp
  r.oneway = oneway;
  r.aidl = a.text;
  // flags: TF_ACCEPT_FDS (0x10), plus TF_ONE_WAY (0x01) for oneway calls.
  EmitBinderTxn(cpu, th.tid, id, r.server_pid, 0, false, a.c, oneway ? 0x11 : 0x10);
  binder_.push_back(r);
  const int64_t record = static_cast<int64_t>(binder_.size() - 1);
  const std::string spid = std::to_string(r.server_pid);
  std::vector<Action> serve;
  serve.push_back(Action{Action::kBinderRecv, id});
  if (!a.text.empty()) serve.push_back(Action::Print(absl::StrCat("B|", spid, "|", a.text)));
  serve.push_back(Action::Run(a.a));
  if (!a.text.empty()) serve.push_back(Action::Print(absl::StrCat("E|", spid)));
  if (!oneway) {
    const int64_t reply_id = next_debug_id_++;
    Action reply{Action::kBinderReply, record, reply_id};
    reply.t = self;
    serve.push_back(std::move(reply));
    // The client sleeps until the reply wakes it, then sees it arrive.
    th.program.push_front(Action::Call([this, record](int64_t now) {
      binder_[static_cast<size_t>(record)].end_ts = now;
    }));
    th.program.push_front(Action{Action::kBinderRecv, reply_id});
    th.program.push_front(Action::Wait());
  }
  Deliver(st, std::move(serve));
}

bool Simulator::DoAcquire(uint32_t cpu, int32_t self, const Action& a) {
  Lock& l = locks_[a.t];
  Thread& th = threads_[self];
  if (l.owner < 0 || l.owner == self) {
    l.owner = self;
    l.owner_method = a.text;
    l.owner_src = a.text2;
    th.program.pop_front();
    return true;
  }
  ++contentions_;
  // ART's contention slice, written by the blocked thread before it sleeps on the monitor.
  const Thread& owner = threads_[l.owner];
  EmitPrint(cpu, th.tid,
            absl::StrCat("B|", th.tgid, "|monitor contention with owner ", comms_[owner.comm],
                         " (", owner.tid, ") at ", l.owner_method, "(", l.owner_src,
                         ") waiters=", l.waiters.size(), " blocking from ", a.text, "(", a.text2,
                         ")"));
  // Inside it, the wait proper (the slice name older ART releases used on its own).
  EmitPrint(cpu, th.tid,
            absl::StrCat("B|", th.tgid, "|Lock contention on a monitor lock (owner tid: ",
                         owner.tid, ")"));
  l.waiters.push_back(Lock::Waiter{self, a.text, a.text2});
  th.program.pop_front();
  th.program.push_front(Action::Print(absl::StrCat("E|", th.tgid)));
  th.program.push_front(Action::Print(absl::StrCat("E|", th.tgid)));
  th.state = State::kLock;
  return false;
}

void Simulator::DoRelease(uint32_t cpu, int32_t self, const Action& a) {
  Lock& l = locks_[a.t];
  if (l.owner != self) return;
  l.owner = -1;
  if (l.waiters.empty()) return;
  Lock::Waiter w = std::move(l.waiters.front());
  l.waiters.pop_front();
  l.owner = w.thread;
  l.owner_method = std::move(w.method);
  l.owner_src = std::move(w.src);
  MakeRunnable(w.thread, static_cast<int32_t>(cpu));
}

// ---- scheduling ----

int64_t Simulator::WorkToNs(uint32_t cpu, int64_t work) const {
  const CpuCluster& cl = o_.device.ClusterOf(cpu);
  const double speed = cl.capacity * cpus_[cpu].khz / o_.device.clusters.back().max_khz();
  return std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(work) / speed));
}

int64_t Simulator::NsToWork(uint32_t cpu, int64_t ns) const {
  const CpuCluster& cl = o_.device.ClusterOf(cpu);
  const double speed = cl.capacity * cpus_[cpu].khz / o_.device.clusters.back().max_khz();
  return static_cast<int64_t>(static_cast<double>(ns) * speed);
}

void Simulator::StartSegment(uint32_t cpu) {
  Cpu& c = cpus_[cpu];
  Thread& th = threads_[c.current];
  const int64_t dur = WorkToNs(cpu, th.run_left);
  c.seg_start = now_;
  if (dur > kTimeslice) {
    c.seg_end = now_ + kTimeslice;
    c.seg_work = std::min(th.run_left, NsToWork(cpu, kTimeslice));
  } else {
    c.seg_end = now_ + dur;
    c.seg_work = th.run_left;
  }
  Schedule(c.seg_end, Ev::kTick, cpu, c.gen);
}

void Simulator::Tick(uint32_t cpu, uint32_t gen) {
  Cpu& c = cpus_[cpu];
  if (gen != static_cast<uint32_t>(c.gen) || c.current < 0) return;
  Thread& th = threads_[c.current];
  th.run_left -= c.seg_work;
  if (th.run_left <= 0) {
    th.run_left = 0;
    th.program.pop_front();  // the Run is done
    Continue(cpu);
    return;
  }
  if (!c.runqueue.empty()) {
    // Timeslice used up while others wait: back of the queue.
    const int32_t cur = c.current;
    th.state = State::kRunnable;
    RunnableBegin(cur);
    c.runqueue.push_back(cur);
    SwitchTo(cpu, preempt_bit_, PickNext(cpu));
    return;
  }
  StartSegment(cpu);
}

void Simulator::Resched(uint32_t cpu, uint32_t gen) {
  Cpu& c = cpus_[cpu];
  if (gen != static_cast<uint32_t>(c.gen) || c.current < 0 || c.runqueue.empty()) return;
  Thread& th = threads_[c.current];
  if (threads_[c.runqueue.front()].prio >= th.prio) return;
  // Wakeup preemption: account the work done so far, then the higher priority wakee runs.
  const int64_t done = std::min(c.seg_work, NsToWork(cpu, now_ - c.seg_start));
  th.run_left = std::max<int64_t>(1, th.run_left - done);
  const int32_t cur = c.current;
  th.state = State::kRunnable;
  RunnableBegin(cur);
  const int32_t next = c.runqueue.front();
  c.runqueue.pop_front();
  c.runqueue.push_front(cur);
  SwitchTo(cpu, preempt_bit_, next);
}

bool Simulator::Allowed(int32_t thread, uint32_t cpu) const {
  const Thread& th = threads_[thread];
  if (th.little_only) return !o_.device.IsBig(cpu);
  return !th.big_only || o_.device.IsBig(cpu);
}

int32_t Simulator::SelectCpu(int32_t thread) {
  const Thread& th = threads_[thread];
  auto idle = [&](uint32_t c) {
    return cpus_[c].current < 0 && cpus_[c].runqueue.empty() && !cpus_[c].pick_pending;
  };
  const CpuCluster& pref = o_.device.clusters[th.prefer_big || th.big_only ? 1 : 0];
  if (th.last_cpu >= 0 && pref.Has(static_cast<uint32_t>(th.last_cpu)) &&
      idle(static_cast<uint32_t>(th.last_cpu))) {
    return th.last_cpu;
  }
  const uint32_t n = o_.device.cpus;
  const uint32_t start = rng_.Below(n);
  for (uint32_t i = 0; i < pref.cpu_count; ++i) {
    const uint32_t c = pref.first_cpu + (start + i) % pref.cpu_count;
    if (idle(c)) return static_cast<int32_t>(c);
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t c = (start + i) % n;
    if (Allowed(thread, c) && idle(c)) return static_cast<int32_t>(c);
  }
  int32_t best = -1;
  size_t best_load = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t c = (start + i) % n;
    if (!Allowed(thread, c)) continue;
    const size_t load = cpus_[c].runqueue.size() + (cpus_[c].current >= 0 ? 1 : 0) +
                        (pref.Has(c) ? 0 : 1);
    if (best < 0 || load < best_load) {
      best = static_cast<int32_t>(c);
      best_load = load;
    }
  }
  return best;
}

void Simulator::MakeRunnable(int32_t thread, int32_t waker_cpu) {
  Thread& th = threads_[thread];
  const bool was_d = th.state == State::kSleeping && th.uninterruptible;
  th.state = State::kRunnable;
  RunnableBegin(thread);
  const int32_t target = SelectCpu(thread);
  // The waker: the running thread of the waking cpu, or an interrupt (a timer, a device) on
  // the target cpu. An interrupt is recorded by whatever task it interrupted (the idle task
  // when the cpu was idle), with the hardirq flag that marks it as no task's doing.
  const bool from_interrupt = waker_cpu < 0;
  const uint32_t on = static_cast<uint32_t>(from_interrupt ? target : waker_cpu);
  const int32_t waker = cpus_[on].current;
  const uint32_t flags =
      from_interrupt ? (synth::kFlagIrqsOff | synth::kFlagHardirq) : synth::kFlagIrqsOff;
  if (was_d) EmitBlockedReason(on, th.tid, th.io_wait);
  bundles_.Waking(on, Stamp(now_), waker < 0 ? 0 : threads_[waker].tid, flags,
                  synth::SchedSide{th.tid, th.prio, th.comm}, static_cast<uint32_t>(target));
  ++sched_events_;
  ++ftrace_events_;
  Cpu& c = cpus_[target];
  if (c.current < 0) {
    c.runqueue.push_back(thread);
    if (!c.pick_pending) {
      c.pick_pending = true;
      Schedule(now_ + 3'000 + rng_.Below(27'000), Ev::kIdlePick, static_cast<uint32_t>(target));
    }
  } else if (th.prio < threads_[c.current].prio && !c.executing) {
    c.runqueue.push_front(thread);
    Schedule(now_ + 2'000 + rng_.Below(8'000), Ev::kResched, static_cast<uint32_t>(target),
             c.gen);
  } else {
    c.runqueue.push_back(thread);
  }
}

void Simulator::TimerWake(int32_t thread, uint32_t gen) {
  Thread& th = threads_[thread];
  if (gen != static_cast<uint32_t>(th.timer_gen) || th.state != State::kSleeping) return;
  MakeRunnable(thread, -1);
}

int32_t Simulator::PickNext(uint32_t cpu) {
  Cpu& c = cpus_[cpu];
  if (!c.runqueue.empty()) {
    const int32_t t = c.runqueue.front();
    c.runqueue.pop_front();
    return t;
  }
  // Newidle balance: pull the last queued thread of the busiest cpu that may run here.
  int32_t from = -1;
  size_t longest = 0;
  for (uint32_t o = 0; o < o_.device.cpus; ++o) {
    const auto& q = cpus_[o].runqueue;
    if (o == cpu || q.empty() || cpus_[o].current < 0) continue;
    if (q.size() > longest && Allowed(q.back(), cpu)) {
      longest = q.size();
      from = static_cast<int32_t>(o);
    }
  }
  if (from < 0) return -1;
  const int32_t t = cpus_[from].runqueue.back();
  cpus_[from].runqueue.pop_back();
  return t;
}

void Simulator::IdlePick(uint32_t cpu) {
  Cpu& c = cpus_[cpu];
  c.pick_pending = false;
  if (c.current >= 0) return;
  const int32_t next = PickNext(cpu);
  if (next < 0) return;
  EmitCpuIdle(cpu, static_cast<uint32_t>(kIdleExit));
  SwitchTo(cpu, 0, next);
}

void Simulator::Block(uint32_t cpu, uint64_t prev_state) {
  SwitchTo(cpu, prev_state, PickNext(cpu));
}

void Simulator::SwitchTo(uint32_t cpu, uint64_t prev_state, int32_t next) {
  Cpu& c = cpus_[cpu];
  const int32_t prev = c.current;
  if (prev >= 0) {
    threads_[prev].cpu = -1;
    threads_[prev].last_cpu = static_cast<int32_t>(cpu);
  }
  bundles_.Switch(cpu, Stamp(now_), Side(cpu, prev), prev < 0 ? 0 : prev_state, Side(cpu, next));
  ++sched_events_;
  ++ftrace_events_;
  c.current = next;
  ++c.gen;
  if (next < 0) {
    EmitCpuIdle(cpu, rng_.Chance(0.7) ? 1 : 0);
    return;
  }
  Thread& th = threads_[next];
  th.state = State::kRunning;
  th.cpu = static_cast<int32_t>(cpu);
  RunnableEnd(next);
  if (th.run_left > 0) {
    StartSegment(cpu);  // resuming a preempted Run
  } else {
    Continue(cpu);
  }
}

void Simulator::RunnableBegin(int32_t thread) {
  if (tracked_[thread]) runnable_since_[thread] = now_;
}

void Simulator::RunnableEnd(int32_t thread) {
  if (!tracked_[thread] || runnable_since_[thread] < 0) return;
  runnable_spans_[thread].emplace_back(runnable_since_[thread], now_);
  runnable_since_[thread] = -1;
}

int64_t Simulator::RunnableNs(int32_t thread, int64_t from, int64_t to) const {
  int64_t sum = 0;
  for (const auto& [b, e] : runnable_spans_[thread]) {
    sum += std::max<int64_t>(0, std::min(e, to) - std::max(b, from));
  }
  return sum;
}

// ---- device ----

void Simulator::SetClusterFrequency(uint32_t cluster, uint32_t khz) {
  const CpuCluster& cl = o_.device.clusters[cluster];
  if (cluster_cap_[cluster] > 0) khz = std::min(khz, cluster_cap_[cluster]);
  for (uint32_t c = cl.first_cpu; c < cl.first_cpu + cl.cpu_count; ++c) {
    if (cpus_[c].khz == khz) continue;
    // A running segment keeps its end; the new speed applies from the next one (the error is
    // at most one 4 ms slice).
    cpus_[c].khz = khz;
    EmitCpuFrequency(c, khz);
  }
}

void Simulator::SetClusterCap(uint32_t cluster, uint32_t cap_khz) {
  cluster_cap_[cluster] = cap_khz;
  const CpuCluster& cl = o_.device.clusters[cluster];
  SetClusterFrequency(cluster, std::min(cpus_[cl.first_cpu].khz, cap_khz));
}

// ---- emission ----

synth::SchedSide Simulator::Side(uint32_t cpu, int32_t thread) const {
  if (thread < 0) return synth::SchedSide{0, 120, swapper_comm_[cpu]};
  const Thread& t = threads_[thread];
  return synth::SchedSide{t.tid, t.prio, t.comm};
}

void Simulator::EmitPrint(uint32_t cpu, int32_t tid, const std::string& text) {
  payload_.Clear();
  payload_.Varint(pf::print_ftrace_event::kIp, 0xffffffc0101a2b3cull);  // tracing_mark_write
  // The kernel's print event keeps the newline atrace writes.
  line_.assign(text);
  line_.push_back('\n');
  payload_.String(pf::print_ftrace_event::kBuf, line_);
  bundles_.Plain(cpu, Stamp(now_), tid, std::nullopt, pf::ftrace_event::kPrint, payload_);
  ++ftrace_events_;
}

void Simulator::EmitBinderTxn(uint32_t cpu, int32_t tid, int64_t debug_id, int32_t to_proc,
                              int32_t to_thread, bool reply, uint32_t code, uint32_t flags) {
  namespace bt = binder_txn;
  payload_.Clear();
  payload_.Int(bt::kDebugId, debug_id);
  payload_.Int(bt::kTargetNode, reply ? 0 : 1000 + to_proc % 1000);
  payload_.Int(bt::kToProc, to_proc);
  payload_.Int(bt::kToThread, to_thread);
  payload_.Int(bt::kReply, reply ? 1 : 0);
  payload_.Varint(bt::kCode, code);
  payload_.Varint(bt::kFlags, flags);
  bundles_.Plain(cpu, Stamp(now_), tid, std::nullopt, pf::ftrace_event::kBinderTransaction,
                 payload_);
  ++ftrace_events_;
}

void Simulator::EmitBinderReceived(uint32_t cpu, int32_t tid, int64_t debug_id) {
  payload_.Clear();
  payload_.Int(binder_txn::kDebugId, debug_id);
  bundles_.Plain(cpu, Stamp(now_), tid, std::nullopt,
                 pf::ftrace_event::kBinderTransactionReceived, payload_);
  ++ftrace_events_;
}

void Simulator::EmitCpuIdle(uint32_t cpu, uint32_t state) {
  payload_.Clear();
  payload_.Varint(kCpuStateField, state);
  payload_.Varint(kCpuIdField, cpu);
  bundles_.Plain(cpu, Stamp(now_), 0, std::nullopt, pf::ftrace_event::kCpuIdle, payload_);
  ++ftrace_events_;
}

void Simulator::EmitCpuFrequency(uint32_t cpu, uint32_t khz) {
  payload_.Clear();
  payload_.Varint(kCpuStateField, khz);
  payload_.Varint(kCpuIdField, cpu);
  bundles_.Plain(cpu, Stamp(now_), 0, std::nullopt, pf::ftrace_event::kCpuFrequency, payload_);
  ++ftrace_events_;
}

void Simulator::EmitTaskNewtask(int32_t child_tid, uint64_t clone_flags) {
  if (executing_cpu_ < 0) return;
  const uint32_t cpu = static_cast<uint32_t>(executing_cpu_);
  const Thread& parent = threads_[cpus_[cpu].current];
  payload_.Clear();
  payload_.Int(task_newtask::kPid, child_tid);
  payload_.String(task_newtask::kComm, comms_[parent.comm]);
  payload_.Varint(task_newtask::kCloneFlags, clone_flags);
  payload_.Int(task_newtask::kOomScoreAdj, -1000);
  bundles_.Plain(cpu, Stamp(now_), parent.tid, std::nullopt, pf::ftrace_event::kTaskNewtask,
                 payload_);
  ++ftrace_events_;
}

void Simulator::EmitFtrace(uint32_t cpu, int32_t tid, uint32_t event_id,
                           const proto::Writer& payload) {
  bundles_.Plain(cpu, Stamp(now_), tid, std::nullopt, event_id, payload);
  ++ftrace_events_;
}

void Simulator::EmitFtraceFromRunning(uint32_t event_id, const proto::Writer& payload) {
  if (executing_cpu_ < 0) return;
  const uint32_t cpu = static_cast<uint32_t>(executing_cpu_);
  EmitFtrace(cpu, threads_[cpus_[cpu].current].tid, event_id, payload);
}

int32_t Simulator::RunningTid() const {
  if (executing_cpu_ < 0) return 0;
  return threads_[cpus_[static_cast<uint32_t>(executing_cpu_)].current].tid;
}

void Simulator::EmitTaskRename(const std::string& new_comm) {
  if (executing_cpu_ < 0) return;
  const uint32_t cpu = static_cast<uint32_t>(executing_cpu_);
  Thread& self = threads_[cpus_[cpu].current];
  payload_.Clear();
  payload_.Int(task_rename::kPid, self.tid);
  payload_.String(task_rename::kOldcomm, comms_[self.comm]);
  self.comm = Comm(new_comm);
  payload_.String(task_rename::kNewcomm, comms_[self.comm]);
  payload_.Int(task_rename::kOomScoreAdj, 0);
  bundles_.Plain(cpu, Stamp(now_), self.tid, std::nullopt, pf::ftrace_event::kTaskRename,
                 payload_);
  ++ftrace_events_;
}

void Simulator::EmitBlockedReason(uint32_t cpu, int32_t tid, bool io_wait) {
  namespace br = blocked_reason;
  payload_.Clear();
  payload_.Int(br::kPid, tid);
  payload_.Varint(br::kCaller, io_wait ? 0xffffffc0102f4e10ull : 0xffffffc0101c9a40ull);
  payload_.Varint(br::kIoWait, io_wait ? 1 : 0);
  bundles_.Plain(cpu, Stamp(now_), 0, std::nullopt, pf::ftrace_event::kSchedBlockedReason,
                 payload_);
  ++ftrace_events_;
}

}  // namespace tw::tracegen
