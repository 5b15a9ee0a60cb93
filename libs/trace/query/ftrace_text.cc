#include "libs/trace/query/ftrace_text.h"

#include <cinttypes>
#include <cstdio>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {
namespace {

// ------------------------------------------------------------------------------- gfp flags

struct GfpName {
  uint64_t mask;
  const char* name;
};

// The kernel's gfp bits and the order show_gfp_flags() tries its names in, for the two layouts
// that matter: before 4.14 (the 4.4 layout, also the default when the kernel is unknown) and
// from 4.14 (reclaim bits moved, __GFP_ACCOUNT and the transparent-hugepage masks added).
namespace gfp44 {
constexpr uint64_t kHighmem = 0x02, kMovable = 0x08, kReclaimable = 0x10, kHigh = 0x20,
                   kIo = 0x40, kFs = 0x80, kCold = 0x100, kNowarn = 0x200, kRepeat = 0x400,
                   kNofail = 0x800, kNoretry = 0x1000, kMemalloc = 0x2000, kComp = 0x4000,
                   kZero = 0x8000, kNomemalloc = 0x10000, kHardwall = 0x20000,
                   kThisnode = 0x40000, kAtomic = 0x80000, kNotrack = 0x200000,
                   kDirectReclaim = 0x400000, kOtherNode = 0x800000,
                   kKswapdReclaim = 0x2000000;
constexpr uint64_t kReclaim = kDirectReclaim | kKswapdReclaim;
constexpr uint64_t kKernel = kReclaim | kIo | kFs;
constexpr uint64_t kUser = kKernel | kHardwall;
constexpr uint64_t kHighuser = kUser | kHighmem;
constexpr uint64_t kHighuserMovable = kHighuser | kMovable;
constexpr GfpName kNames[] = {
    {(kHighuserMovable | kComp | kNomemalloc | kNoretry | kNowarn) & ~kKswapdReclaim,
     "GFP_TRANSHUGE"},
    {kHighuserMovable, "GFP_HIGHUSER_MOVABLE"},
    {kHighuser, "GFP_HIGHUSER"},
    {kUser, "GFP_USER"},
    {kKernel | kReclaimable, "GFP_TEMPORARY"},
    {kKernel, "GFP_KERNEL"},
    {kReclaim | kIo, "GFP_NOFS"},
    {kHigh | kAtomic | kKswapdReclaim, "GFP_ATOMIC"},
    {kReclaim, "GFP_NOIO"},
    {kHigh, "GFP_HIGH"},
    {kAtomic, "GFP_ATOMIC"},
    {kIo, "GFP_IO"},
    {kCold, "GFP_COLD"},
    {kNowarn, "GFP_NOWARN"},
    {kRepeat, "GFP_REPEAT"},
    {kNofail, "GFP_NOFAIL"},
    {kNoretry, "GFP_NORETRY"},
    {kComp, "GFP_COMP"},
    {kZero, "GFP_ZERO"},
    {kNomemalloc, "GFP_NOMEMALLOC"},
    {kMemalloc, "GFP_MEMALLOC"},
    {kHardwall, "GFP_HARDWALL"},
    {kThisnode, "GFP_THISNODE"},
    {kReclaimable, "GFP_RECLAIMABLE"},
    {kMovable, "GFP_MOVABLE"},
    {kNotrack, "GFP_NOTRACK"},
    {kDirectReclaim, "GFP_DIRECT_RECLAIM"},
    {kKswapdReclaim, "GFP_KSWAPD_RECLAIM"},
    {kOtherNode, "GFP_OTHER_NODE"},
};
}  // namespace gfp44

namespace gfp414 {
constexpr uint64_t kDma = 0x01, kHighmem = 0x02, kDma32 = 0x04, kMovable = 0x08,
                   kReclaimable = 0x10, kHigh = 0x20, kIo = 0x40, kFs = 0x80, kCold = 0x100,
                   kNowarn = 0x200, kRetryMayfail = 0x400, kNofail = 0x800, kNoretry = 0x1000,
                   kMemalloc = 0x2000, kComp = 0x4000, kZero = 0x8000, kNomemalloc = 0x10000,
                   kHardwall = 0x20000, kThisnode = 0x40000, kAtomic = 0x80000,
                   kAccount = 0x100000, kDirectReclaim = 0x400000, kWrite = 0x800000,
                   kKswapdReclaim = 0x1000000;
constexpr uint64_t kReclaim = kDirectReclaim | kKswapdReclaim;
constexpr uint64_t kKernel = kReclaim | kIo | kFs;
constexpr uint64_t kUser = kKernel | kHardwall;
constexpr uint64_t kHighuserMovable = kUser | kHighmem | kMovable;
constexpr uint64_t kTranshugeLight =
    (kHighuserMovable | kComp | kNomemalloc | kNowarn) & ~kReclaim;
constexpr GfpName kNames[] = {
    {kTranshugeLight | kDirectReclaim, "GFP_TRANSHUGE"},
    {kTranshugeLight, "GFP_TRANSHUGE_LIGHT"},
    {kHighuserMovable, "GFP_HIGHUSER_MOVABLE"},
    {kUser | kHighmem, "GFP_HIGHUSER"},
    {kUser, "GFP_USER"},
    {kKernel | kAccount, "GFP_KERNEL_ACCOUNT"},
    {kKernel, "GFP_KERNEL"},
    {kReclaim | kIo, "GFP_NOFS"},
    {kHigh | kAtomic | kKswapdReclaim, "GFP_ATOMIC"},
    {kReclaim, "GFP_NOIO"},
    {kKswapdReclaim, "GFP_NOWAIT"},
    {kDma, "GFP_DMA"},
    {kHighmem, "GFP_HIGHMEM"},
    {kDma32, "GFP_DMA32"},
    {kHigh, "GFP_HIGH"},
    {kAtomic, "GFP_ATOMIC"},
    {kIo, "GFP_IO"},
    {kFs, "GFP_FS"},
    {kCold, "GFP_COLD"},
    {kNowarn, "GFP_NOWARN"},
    {kRetryMayfail, "GFP_RETRY_MAYFAIL"},
    {kNofail, "GFP_NOFAIL"},
    {kNoretry, "GFP_NORETRY"},
    {kComp, "GFP_COMP"},
    {kZero, "GFP_ZERO"},
    {kNomemalloc, "GFP_NOMEMALLOC"},
    {kMemalloc, "GFP_MEMALLOC"},
    {kHardwall, "GFP_HARDWALL"},
    {kThisnode, "GFP_THISNODE"},
    {kReclaimable, "GFP_RECLAIMABLE"},
    {kMovable, "GFP_MOVABLE"},
    {kAccount, "GFP_ACCOUNT"},
    {kWrite, "GFP_WRITE"},
    {kReclaim, "GFP_RECLAIM"},
    {kDirectReclaim, "GFP_DIRECT_RECLAIM"},
    {kKswapdReclaim, "GFP_KSWAPD_RECLAIM"},
};
}  // namespace gfp414

// ------------------------------------------------------------------------------ arg access

// One event's args, looked up by key.
class EventArgs {
 public:
  EventArgs(const TraceStorage& s, const std::vector<uint32_t>& rows) : s_(s), rows_(rows) {}

  const std::vector<uint32_t>& rows() const { return rows_; }
  std::optional<uint32_t> Find(std::string_view key) const {
    for (uint32_t r : rows_) {
      if (s_.Str(s_.args.key[r]) == key) return r;
    }
    return std::nullopt;
  }
  std::string_view Key(uint32_t r) const { return s_.Str(s_.args.key[r]); }
  std::string_view Type(uint32_t r) const { return s_.Str(s_.args.value_type[r]); }
  int64_t Int(uint32_t r) const { return s_.args.int_value[r]; }
  std::string_view String(uint32_t r) const { return s_.Str(s_.args.string_value[r]); }

  // The value as trace_processor prints it: signed or unsigned decimal by type, text as is.
  std::string Value(uint32_t r) const {
    const ArgTable& a = s_.args;
    const std::string_view type = Type(r);
    if (type == "string" || type == "json") return std::string(String(r));
    if (type == "real") {
      if (a.real_value.IsNull(r)) return "[NULL]";
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%f", a.real_value[r]);
      return buf;
    }
    if (a.int_value.IsNull(r)) {
      return a.string_value[r] != kNullStringId ? std::string(String(r)) : "[NULL]";
    }
    if (type == "uint" || type == "pointer") return absl::StrCat(static_cast<uint64_t>(Int(r)));
    if (type == "bool") return Int(r) ? "true" : "false";
    return absl::StrCat(Int(r));
  }
  std::string Hex(uint32_t r) const {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%" PRIx64, static_cast<uint64_t>(Int(r)));
    return buf;
  }

 private:
  const TraceStorage& s_;
  const std::vector<uint32_t>& rows_;
};

// Builds the fields part of a line.
class FieldWriter {
 public:
  FieldWriter(const EventArgs& args, std::optional<KernelVersion> kernel, std::string* out)
      : args_(args), kernel_(kernel), out_(*out) {}

  using Format = std::string (FieldWriter::*)(uint32_t) const;

  // " key=value" for field `key` (printed as `shown`, when given), if the event has it.
  void Arg(std::string_view key, Format format = &FieldWriter::Plain,
           std::string_view shown = {}) {
    const auto r = args_.Find(key);
    if (!r) return;
    WriteArg(shown.empty() ? key : shown, *r, format);
  }
  // Just the value of field `key`, if the event has it.
  void Value(std::string_view key, Format format = &FieldWriter::Plain) {
    if (const auto r = args_.Find(key)) out_ += (this->*format)(*r);
  }
  void Text(std::string_view s) { out_.append(s); }
  void All() {
    for (uint32_t r : args_.rows()) WriteArg(args_.Key(r), r, &FieldWriter::Plain);
  }

  std::string Plain(uint32_t r) const { return args_.Value(r); }
  std::string Hex(uint32_t r) const { return args_.Hex(r); }
  std::string Uint32(uint32_t r) const {
    return absl::StrCat(static_cast<uint32_t>(args_.Int(r)));
  }
  // A kernel function: its symbol when the trace resolved it, else its address in hex.
  std::string KernelFn(uint32_t r) const {
    return args_.Type(r) == "string" ? std::string(args_.String(r)) : args_.Hex(r);
  }
  std::string Cpu3(uint32_t r) const {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "%03" PRId64, args_.Int(r));
    return buf;
  }
  std::string Char(uint32_t r) const { return std::string(1, static_cast<char>(args_.Int(r))); }
  std::string BeginEnd(uint32_t r) const { return args_.Int(r) ? "B" : "E"; }
  std::string Handled(uint32_t r) const { return args_.Int(r) ? "handled" : "unhandled"; }
  std::string SoftirqAction(uint32_t r) const {
    // The kernel's softirq vector names (include/linux/interrupt.h).
    static constexpr const char* kActions[] = {"HI",    "TIMER",   "NET_TX", "NET_RX",
                                               "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
                                               "HRTIMER", "RCU"};
    const uint64_t v = static_cast<uint64_t>(args_.Int(r));
    return v < std::size(kActions) ? kActions[v] : absl::StrCat(v);
  }
  std::string TaskState(uint32_t r) const {
    // The state letters joined by '|' (D|K), the preemption mark kept on its letter (R+).
    const std::string letters = TaskStateToString(args_.Int(r), kernel_);
    std::string joined;
    for (char c : letters) {
      if (!joined.empty() && c != '+') joined += '|';
      joined += c;
    }
    return joined;
  }
  std::string PrintBuf(uint32_t r) const {
    std::string_view buf = args_.String(r);
    if (!buf.empty() && buf.back() == '\n') buf.remove_suffix(1);
    return std::string(buf);
  }

 private:
  void WriteArg(std::string_view key, uint32_t r, Format format) {
    out_ += ' ';
    out_.append(key);
    out_ += '=';
    if (key == "gfp_flags") {
      out_ += GfpFlagsText(static_cast<uint64_t>(args_.Int(r)), kernel_);
      return;
    }
    out_ += (this->*format)(r);
  }

  const EventArgs& args_;
  std::optional<KernelVersion> kernel_;
  std::string& out_;
};

// The fields of events whose kernel print format trace_processor reproduces; false for the rest
// (printed as key=value pairs).
bool WriteKnownFormat(std::string_view event, FieldWriter& w) {
  using F = FieldWriter;
  if (event == "sched_switch") {
    w.Arg("prev_comm");
    w.Arg("prev_pid");
    w.Arg("prev_prio");
    w.Arg("prev_state", &F::TaskState);
    w.Text(" ==>");
    w.Arg("next_comm");
    w.Arg("next_pid");
    w.Arg("next_prio");
  } else if (event == "sched_wakeup") {
    w.Arg("comm");
    w.Arg("pid");
    w.Arg("prio");
    w.Arg("target_cpu", &F::Cpu3);
  } else if (event == "clock_set_rate") {
    w.Text(" ");
    w.Value("name");
    w.Arg("state");
    w.Arg("cpu_id");
  } else if (event == "clk_set_rate") {
    w.Text(" ");
    w.Value("name");
    w.Text(" ");
    w.Value("rate");
  } else if (event == "clock_enable" || event == "clock_disable") {
    w.Value("name");
    w.Arg("state");
    w.Arg("cpu_id");
  } else if (event == "binder_transaction") {
    w.Text(" transaction=");
    w.Value("debug_id", &F::Uint32);
    w.Text(" dest_node=");
    w.Value("target_node", &F::Uint32);
    w.Text(" dest_proc=");
    w.Value("to_proc");
    w.Text(" dest_thread=");
    w.Value("to_thread");
    w.Text(" reply=");
    w.Value("reply");
    w.Text(" flags=0x");
    w.Value("flags", &F::Hex);
    w.Text(" code=0x");
    w.Value("code", &F::Hex);
  } else if (event == "binder_transaction_alloc_buf") {
    w.Text(" transaction=");
    w.Value("debug_id", &F::Uint32);
    w.Arg("data_size");
    w.Arg("offsets_size");
  } else if (event == "binder_transaction_received") {
    w.Text(" transaction=");
    w.Value("debug_id", &F::Uint32);
  } else if (event == "print") {
    w.Text(" ");
    w.Value("buf", &F::PrintBuf);
  } else if (event == "sched_blocked_reason") {
    w.Arg("pid");
    w.Arg("io_wait", &F::Plain, "iowait");
    w.Arg("caller", &F::KernelFn);
  } else if (event == "workqueue_activate_work" || event == "workqueue_execute_end") {
    w.Text(" work struct ");
    w.Value("work", &F::Hex);
  } else if (event == "workqueue_execute_start") {
    w.Text(" work struct ");
    w.Value("work", &F::Hex);
    w.Text(": function ");
    w.Value("function", &F::KernelFn);
  } else if (event == "workqueue_queue_work") {
    w.Text(" work struct=");
    w.Value("work", &F::Hex);
    w.Arg("function", &F::KernelFn);
    w.Arg("workqueue", &F::Hex);
    w.Value("req_cpu");
    w.Value("cpu");
  } else if (event == "irq_handler_entry") {
    w.Arg("irq");
    w.Arg("name");
  } else if (event == "irq_handler_exit") {
    w.Arg("irq");
    w.Text(" ret=");
    w.Value("ret", &F::Handled);
  } else if (event == "softirq_entry" || event == "softirq_exit") {
    w.Arg("vec");
    w.Text(" [action=");
    w.Value("vec", &F::SoftirqAction);
    w.Text("]");
  } else if (event == "tracing_mark_write") {
    w.Value("trace_begin", &F::BeginEnd);
    w.Text("|");
    w.Value("pid");
    w.Text("|");
    w.Value("trace_name");
  } else if (event == "dpu_tracing_mark_write" || event == "g2d_tracing_mark_write" ||
             event == "panel_write_generic" || event == "samsung_tracing_mark_write") {
    const bool samsung = event == "samsung_tracing_mark_write";
    w.Value(samsung ? "trace_type" : "type", &F::Char);
    w.Text("|");
    w.Value("pid");
    w.Text("|");
    w.Value(samsung ? "trace_name" : "name");
    w.Text("|");
    w.Value("value");
  } else if (event == "cgroup_attach_task") {
    w.Arg("dst_root");
    w.Arg("dst_id");
    w.Arg("cname", &F::Plain, "cgroup");
    w.Arg("dst_level");
    w.Arg("dst_path");
    w.Arg("pid");
    w.Arg("comm");
  } else if (event == "hrtimer_expire_entry") {
    w.Arg("function", &F::KernelFn);
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::string GfpFlagsText(uint64_t flags, std::optional<KernelVersion> kernel) {
  if (flags == 0) return "GFP_NOWAIT";
  const bool v414 = kernel && kernel->AtLeast(4, 14);
  const GfpName* begin = v414 ? std::begin(gfp414::kNames) : std::begin(gfp44::kNames);
  const GfpName* end = v414 ? std::end(gfp414::kNames) : std::end(gfp44::kNames);
  std::string out;
  for (const GfpName* n = begin; n != end; ++n) {
    if (n->mask == 0 || (flags & n->mask) != n->mask) continue;
    flags &= ~n->mask;
    if (!out.empty()) out += '|';
    out += n->name;
  }
  if (flags != 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "0x%" PRIx64, flags);
    if (!out.empty()) out += '|';
    out += buf;
  }
  return out;
}

std::optional<std::string> FtraceEventText(const TraceStorage& s, uint32_t row,
                                           const std::vector<uint32_t>& arg_rows,
                                           std::optional<KernelVersion> kernel) {
  const FtraceEventTable& ev = s.ftrace_event;
  const std::string_view event = s.Str(ev.name[row]);
  if (event.substr(0, 13) == "chrome_event." || event.substr(0, 12) == "track_event.") {
    return std::nullopt;
  }

  // The task: name right-aligned in 16 columns, tid left-aligned in 5, tgid right-aligned in 5.
  const uint32_t utid = ev.utid[row];
  const int64_t tid = utid < s.thread.row_count() ? s.thread.tid[utid] : 0;
  std::string_view name = utid < s.thread.row_count() ? s.Str(s.thread.name[utid]) : "";
  if (tid == 0) {
    name = "<idle>";
  } else if (name.empty()) {
    name = "<unknown>";
  }
  std::string line;
  if (name.size() < 16) line.append(16 - name.size(), ' ');
  for (char c : name) line += c == '-' ? '_' : c;
  const std::string tid_text = absl::StrCat(tid);
  absl::StrAppend(&line, "-", tid_text);
  if (tid_text.size() < 5) line.append(5 - tid_text.size(), ' ');

  std::optional<int64_t> tgid;
  if (utid < s.thread.row_count() && !s.thread.upid.IsNull(utid)) {
    tgid = s.process.pid[s.thread.upid[utid]];
  }
  char buf[96];
  if (tgid && *tgid != 0) {
    std::snprintf(buf, sizeof(buf), " (%5" PRId64 ")", *tgid);
  } else {
    std::snprintf(buf, sizeof(buf), " (-----)");
  }
  line += buf;

  const uint32_t ucpu = ev.ucpu[row];
  const uint32_t cpu = ucpu < s.cpu.row_count() ? s.cpu.cpu.Get(ucpu).value_or(0) : 0;
  const int64_t ts = ev.ts[row];
  const int64_t secs = ts / 1000000000;
  const int64_t micros = (ts - secs * 1000000000) / 1000;
  std::snprintf(buf, sizeof(buf), " [%03u] .... %" PRId64 ".%06" PRId64 ":", cpu, secs, micros);
  line += buf;

  // print and the vendor marker events are shown under the marker's kernel name.
  const bool marker = event == "print" || event == "g2d_tracing_mark_write" ||
                      event == "dpu_tracing_mark_write";
  line += ' ';
  line.append(marker ? std::string_view("tracing_mark_write") : event);
  line += ':';
  if (arg_rows.empty()) return line;

  EventArgs args(s, arg_rows);
  FieldWriter writer(args, kernel, &line);
  if (!WriteKnownFormat(event, writer)) writer.All();
  return line;
}

}  // namespace tw
