#include "libs/trace/importers/systrace/ftrace_text_decoder.h"

#include <algorithm>

#include "libs/trace/importers/common/atrace_parser.h"
#include "libs/trace/events/task_state.h"

namespace tw {
namespace {

// As the protobuf decoder: events of cpus beyond this are dropped as corrupt.
constexpr uint32_t kMaxCpus = 1024;
// What trace_processor records for prev_state letters it cannot read.
constexpr int64_t kUnreadableTaskState = 0xffff;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::optional<int32_t> ToPid(std::optional<int64_t> v) {
  if (!v || *v < 0 || *v > 0x7fffffff) return std::nullopt;
  return static_cast<int32_t>(*v);
}

// Counter values: ftrace prints them as unsigned (cpu_idle's "exit" is 4294967295) or signed.
std::optional<double> ToCounterValue(std::optional<std::string_view> text) {
  if (!text) return std::nullopt;
  if (auto u = ParseTextUint(*text, false)) return static_cast<double>(*u);
  if (auto i = ParseTextInt(*text)) return static_cast<double>(*i);
  return std::nullopt;
}

// Where the kernel's printed format names a field differently from the FtraceEvent proto the
// trackers read. cpu_frequency_limits prints "min=... max=... cpu_id=..." (newer kernels
// "min_freq=... max_freq=..."), while the proto fields are min_freq / max_freq.
std::string_view ProtoFieldName(std::string_view event, std::string_view key) {
  if (event == "cpu_frequency_limits") {
    if (key == "min") return "min_freq";
    if (key == "max") return "max_freq";
  }
  return key;
}

}  // namespace

FtraceTextDecoder::FtraceTextDecoder(TraceStorage* storage, EventSorter* sorter)
    : storage_(storage),
      sorter_(sorter),
      print_(storage->Intern("print")),
      buf_(storage->Intern("buf")) {}

void FtraceTextDecoder::Push(uint32_t cpu, Event e) {
  latest_ts_ = std::max(latest_ts_, e.ts);
  sorter_->Push(EventSorter::QueueForCpu(cpu), std::move(e));
}

Event FtraceTextDecoder::Base(const FtraceTextLine& line, EventType type) const {
  Event e;
  e.ts = line.ts;
  e.type = type;
  e.pid = static_cast<int32_t>(line.pid);
  e.cpu = static_cast<uint16_t>(line.cpu);
  return e;
}

StringId FtraceTextDecoder::InternComm(std::optional<std::string_view> comm) {
  return comm && !comm->empty() ? Intern(*comm) : kNullStringId;
}

void FtraceTextDecoder::NoteRunningTask(const FtraceTextLine& line) {
  const int64_t pid = line.pid;
  auto [it, first_sight] = threads_.try_emplace(pid);
  ThreadFacts& facts = it->second;
  // Naming is sent when the thread is new to us (so it exists from its first line on, as in
  // trace_processor) or when the line calls it something else than the trackers last heard.
  // The idle task (pid 0) keeps its constant name "swapper" whatever ftrace calls it
  // ("<idle>", "swapper/3"), so only its first line matters.
  const bool known_name = line.task != "<...>" && !line.task.empty() && pid != 0;
  const bool renamed =
      known_name && (facts.name == kNullStringId || storage_->Str(facts.name) != line.task);
  if (first_sight || renamed) {
    // "This pid's thread, named by ftrace": the router finds or creates the thread and names
    // it at ftrace priority.
    Event e = Base(line, EventType::kThreadName);
    e.task = TaskData{static_cast<int32_t>(line.pid), -1,
                      known_name ? Intern(line.task) : kNullStringId, 0};
    if (known_name) facts.name = e.task.comm;
    Push(line.cpu, e);
  }
  if (line.tgid && static_cast<int64_t>(*line.tgid) != facts.tgid) {
    ProcessTreeData tree;
    tree.threads.push_back(
        {static_cast<int32_t>(line.pid), static_cast<int32_t>(*line.tgid), std::nullopt});
    Event e = Event::WithPayload(line.ts, EventType::kProcessTree, std::move(tree));
    e.cpu = static_cast<uint16_t>(line.cpu);
    facts.tgid = *line.tgid;
    Push(line.cpu, std::move(e));
  }
}

bool FtraceTextDecoder::Decode(const FtraceTextLine& line) {
  if (line.cpu >= kMaxCpus || line.pid > 0x7fffffff) return false;
  NoteRunningTask(line);
  const std::string_view event = line.event;
  // The print event shows up under its caller's name: "tracing_mark_write" from userspace,
  // "0" on old kernels.
  if (event == "tracing_mark_write" || event == "print" || event == "0") {
    DecodePrint(line);
    return true;
  }
  const FtraceTextArgs args(line.args);
  if (event == "sched_switch") return DecodeSchedSwitch(line, args);
  if (event == "sched_waking") return DecodeWaking(line, args);
  // sched_wakeup(_new) lines change nothing: only sched_waking makes a thread runnable.
  PushRaw(line, Intern(event), args);
  if (event == "task_newtask") return DecodeTask(line, args, EventType::kTaskNewtask);
  if (event == "task_rename") return DecodeTask(line, args, EventType::kTaskRename);
  if (event == "sched_process_exit") return DecodeTask(line, args, EventType::kProcessExit);
  if (event == "sched_process_free") return DecodeTask(line, args, EventType::kProcessFree);
  if (event == "sched_blocked_reason") return DecodeBlockedReason(line, args);
  if (event == "cpu_frequency") return DecodeCpuCounter(line, args, EventType::kCpuFrequency);
  if (event == "cpu_idle") return DecodeCpuCounter(line, args, EventType::kCpuIdle);
  if (event == "sys_enter") return DecodeSyscall(line, EventType::kSysEnter);
  if (event == "sys_exit") return DecodeSyscall(line, EventType::kSysExit);
  return true;
}

bool FtraceTextDecoder::DecodeSchedSwitch(const FtraceTextLine& line, const FtraceTextArgs& args) {
  const std::optional<int32_t> prev_pid = ToPid(args.FindInt("prev_pid"));
  const std::optional<int32_t> next_pid = ToPid(args.FindInt("next_pid"));
  const std::optional<int64_t> prev_prio = args.FindInt("prev_prio");
  const std::optional<int64_t> next_prio = args.FindInt("next_prio");
  if (!prev_pid || !next_pid || !prev_prio || !next_prio) return false;
  const std::optional<std::string_view> letters = args.Find("prev_state");
  const std::optional<int64_t> state = letters ? TaskStateFromLetters(*letters) : std::nullopt;
  Event e = Base(line, EventType::kSchedSwitch);
  e.sched_switch = SchedSwitchData{*prev_pid,
                                   *next_pid,
                                   static_cast<int16_t>(*prev_prio),
                                   static_cast<int16_t>(*next_prio),
                                   InternComm(args.Find("prev_comm")),
                                   InternComm(args.Find("next_comm")),
                                   static_cast<int32_t>(state.value_or(kUnreadableTaskState))};
  // The sched tracker names both threads.
  NoteName(*prev_pid, e.sched_switch.prev_comm);
  NoteName(*next_pid, e.sched_switch.next_comm);
  Push(line.cpu, e);
  return true;
}

bool FtraceTextDecoder::DecodeWaking(const FtraceTextLine& line, const FtraceTextArgs& args) {
  const std::optional<int32_t> pid = ToPid(args.FindInt("pid"));
  if (!pid) return false;
  Event e = Base(line, EventType::kSchedWaking);
  e.sched_waking = SchedWakingData{*pid,
                                   static_cast<int32_t>(args.FindInt("target_cpu").value_or(0)),
                                   static_cast<int32_t>(args.FindInt("prio").value_or(0)),
                                   InternComm(args.Find("comm")),
                                   0,
                                   0,
                                   0};  // text carries no raw common_flags
  NoteName(*pid, e.sched_waking.comm);
  Push(line.cpu, e);
  return true;
}

bool FtraceTextDecoder::DecodeTask(const FtraceTextLine& line, const FtraceTextArgs& args,
                                   EventType type) {
  const std::optional<int32_t> pid = ToPid(args.FindInt("pid"));
  if (!pid) return false;
  Event e = Base(line, type);
  e.task = TaskData{*pid, -1, kNullStringId, 0};
  switch (type) {
    case EventType::kTaskNewtask:
      e.task.comm = InternComm(args.Find("comm"));
      // Printed as bare hex ("clone_flags=3d0f00").
      e.task.clone_flags = static_cast<uint32_t>(args.FindUint("clone_flags", true).value_or(0));
      // A new thread (or process) starts under this pid: what we sent before was about the
      // old one.
      if (*pid != 0) threads_[*pid] = ThreadFacts{e.task.comm, -1};
      break;
    case EventType::kTaskRename:
      e.task.comm = InternComm(args.Find("newcomm"));
      NoteName(*pid, e.task.comm);
      break;
    case EventType::kProcessExit:
      e.task.comm = InternComm(args.Find("comm"));
      NoteName(*pid, e.task.comm);
      break;
    default:  // sched_process_free: the thread ends; its pid may come back as another thread
      threads_.erase(*pid);
      break;
  }
  Push(line.cpu, e);
  return true;
}

bool FtraceTextDecoder::DecodeBlockedReason(const FtraceTextLine& line,
                                            const FtraceTextArgs& args) {
  const std::optional<int32_t> pid = ToPid(args.FindInt("pid"));
  const std::optional<int64_t> io_wait = args.FindInt("iowait");
  if (!pid || !io_wait) return false;
  Event e = Base(line, EventType::kSchedBlockedReason);
  // Text has the caller symbolised ("worker_thread+0x534/0x820"), so keep it.
  e.blocked = BlockedReasonData{*pid, *io_wait ? 1 : 0, InternComm(args.Find("caller"))};
  Push(line.cpu, e);
  return true;
}

bool FtraceTextDecoder::DecodeCpuCounter(const FtraceTextLine& line, const FtraceTextArgs& args,
                                         EventType type) {
  const std::optional<uint64_t> cpu = args.FindUint("cpu_id");
  const std::optional<double> value = ToCounterValue(args.Find("state"));
  if (!cpu || *cpu >= kMaxCpus || !value) return false;
  Event e = Base(line, type);
  e.cpu_counter = CpuCounterData{.cpu = static_cast<uint32_t>(*cpu), .common_flags = 0, .value = *value};
  Push(line.cpu, e);
  return true;
}

bool FtraceTextDecoder::DecodeSyscall(const FtraceTextLine& line, EventType type) {
  // "NR 64 (3, 7ffd..., 10, ...)" and "NR 64 = 10".
  if (!StartsWith(line.args, "NR ")) return false;
  std::string_view number = line.args.substr(3);
  number = number.substr(0, number.find(' '));
  const std::optional<int64_t> nr = ParseTextInt(number);
  if (!nr) return false;
  Event e = Base(line, type);
  e.syscall = SyscallData{*nr};
  Push(line.cpu, e);
  return true;
}

void FtraceTextDecoder::DecodePrint(const FtraceTextLine& line) {
  const std::string_view text = line.args;
  // systrace writes its own clock-sync marker (often at time 0): not part of the trace.
  if (StartsWith(text, "trace_event_clock_sync:")) return;
  {
    FtraceRawData raw;
    raw.cpu = line.cpu;
    raw.pid = static_cast<int32_t>(line.pid);
    raw.common_flags = 0;
    raw.in_table = false;
    raw.name = print_;
    raw.args.push_back(Arg{buf_, buf_, ArgValue::String(Intern(text))});
    Event e = Event::WithPayload(line.ts, EventType::kFtraceRaw, std::move(raw));
    e.pid = static_cast<int32_t>(line.pid);
    e.cpu = static_cast<uint16_t>(line.cpu);
    Push(line.cpu, std::move(e));
  }
  AtraceMarker m;
  switch (ParseAtraceMarker(text, &m)) {
    case AtraceParseResult::kFailure:
      storage_->IncrementStat("systrace_parse_failure");
      return;
    case AtraceParseResult::kUnsupported:
      return;
    case AtraceParseResult::kSuccess:
      break;
  }
  AtraceData a;
  a.kind = m.phase;
  a.tid = static_cast<int32_t>(line.pid);
  a.tgid = static_cast<int32_t>(m.tgid);
  a.name = m.name.empty() ? kNullStringId : Intern(m.name);
  a.track_name = m.track_name.empty() ? kNullStringId : Intern(m.track_name);
  a.cookie = m.value;
  a.value = static_cast<double>(m.value);
  Event e = Event::WithPayload(line.ts, EventType::kAtrace, std::move(a));
  e.pid = static_cast<int32_t>(line.pid);
  e.cpu = static_cast<uint16_t>(line.cpu);
  Push(line.cpu, std::move(e));
}

void FtraceTextDecoder::PushRaw(const FtraceTextLine& line, StringId name,
                                const FtraceTextArgs& args) {
  FtraceRawData raw;
  raw.cpu = line.cpu;
  raw.pid = static_cast<int32_t>(line.pid);
  raw.common_flags = 0;  // text shows flags as letters whose bits vary by kernel
  // trace_processor keeps only sched_switch lines in ftrace_event (the sched tracker writes
  // those); the others are read by the trackers that care about them.
  raw.in_table = false;
  raw.name = name;
  raw.args.reserve(args.pairs().size());
  const std::string_view event = storage_->Str(name);
  for (const auto& [key, value] : args.pairs()) {
    const StringId k = Intern(ProtoFieldName(event, key));
    const std::optional<int64_t> number = ParseTextInt(value);
    raw.args.push_back(
        Arg{k, k, number ? ArgValue::Int(*number) : ArgValue::String(Intern(value))});
  }
  Event e = Event::WithPayload(line.ts, EventType::kFtraceRaw, std::move(raw));
  e.pid = static_cast<int32_t>(line.pid);
  e.cpu = static_cast<uint16_t>(line.cpu);
  Push(line.cpu, std::move(e));
}

void FtraceTextDecoder::PushProcessTree(ProcessTreeData tree) {
  Event e = Event::WithPayload(latest_ts_, EventType::kProcessTree, std::move(tree));
  latest_ts_ = std::max(latest_ts_, e.ts);
  sorter_->Push(EventSorter::QueueForSequence(0), std::move(e));
}

}  // namespace tw
