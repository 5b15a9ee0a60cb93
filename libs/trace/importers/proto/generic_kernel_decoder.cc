#include "libs/trace/importers/proto/generic_kernel_decoder.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "libs/trace/events/generic_kernel_events.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

// An absent or empty comm names nothing.
StringId Comm(ImportContext* ctx, const proto::Field& f) {
  const std::string_view comm = f.as_string();
  return comm.empty() ? kNullStringId : ctx->Intern(comm);
}

// Event::cpu is 16 bits; no machine has more cpus than that, so a larger (or negative) number
// is malformed and saturates rather than aliasing a real cpu.
uint16_t CpuNumber(int64_t cpu) {
  return static_cast<uint16_t>(std::clamp<int64_t>(cpu, 0, UINT16_MAX));
}

}  // namespace

void GenericKernelDecoder::Push(const PacketContext& packet, Event e) {
  ctx_->Push(EventSorter::QueueForSequence(packet.sequence_id), std::move(e));
}

void GenericKernelDecoder::DecodeTaskState(const PacketContext& packet,
                                           const proto::Field& field) {
  namespace f = pf::generic_kernel_task_state_event;
  Event e;
  e.ts = packet.ts;
  e.type = EventType::kGenericTaskState;
  e.generic_task = {.tid = 0, .comm = kNullStringId, .prio = 0, .state = 0};
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    switch (x.id) {
      case f::kCpu: e.cpu = CpuNumber(x.as_int32()); break;
      case f::kComm: e.generic_task.comm = Comm(ctx_, x); break;
      case f::kTid: e.generic_task.tid = x.as_int64(); break;
      case f::kState: e.generic_task.state = x.as_int32(); break;
      case f::kPrio: e.generic_task.prio = x.as_int32(); break;
      default: break;
    }
  }
  Push(packet, e);
}

void GenericKernelDecoder::DecodeTaskRename(const PacketContext& packet,
                                            const proto::Field& field) {
  namespace f = pf::generic_kernel_task_rename_event;
  Event e;
  e.ts = packet.ts;
  e.type = EventType::kGenericTaskRename;
  e.generic_task = {.tid = 0, .comm = kNullStringId, .prio = 0, .state = 0};
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == f::kTid) e.generic_task.tid = x.as_int64();
    if (x.id == f::kComm) e.generic_task.comm = Comm(ctx_, x);
  }
  Push(packet, e);
}

void GenericKernelDecoder::DecodeProcessTree(const PacketContext& packet,
                                             const proto::Field& field) {
  namespace tree = pf::generic_kernel_process_tree;
  namespace proc = pf::generic_kernel_process_tree_process;
  namespace thr = pf::generic_kernel_process_tree_thread;
  GenericProcessTreeData data;
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.type != proto::kLengthDelimited) continue;
    if (x.id == tree::kProcesses) {
      GenericProcessTreeData::Process p;
      bool has_cmdline = false;
      proto::Decoder pd(x);
      proto::Field y;
      while (pd.Next(&y)) {
        if (y.id == proc::kPid) p.pid = y.as_int64();
        if (y.id == proc::kPpid) p.ppid = y.as_int64();
        if (y.id == proc::kCmdline) {
          p.cmdline = std::string(y.as_string());
          has_cmdline = true;
        }
      }
      // A process without a command line tells nothing its threads will not.
      if (has_cmdline) data.processes.push_back(std::move(p));
    } else if (x.id == tree::kThreads) {
      GenericProcessTreeData::Thread t;
      proto::Decoder td(x);
      proto::Field y;
      while (td.Next(&y)) {
        switch (y.id) {
          case thr::kTid: t.tid = y.as_int64(); break;
          case thr::kPid: t.pid = y.as_int64(); break;
          case thr::kComm: t.comm = Comm(ctx_, y); break;
          case thr::kIsMainThread: t.is_main_thread = y.as_bool(); break;
          case thr::kIsIdle: t.is_idle = y.as_bool(); break;
          default: break;
        }
      }
      data.threads.push_back(t);
    }
  }
  Push(packet, Event::WithPayload(packet.ts, EventType::kGenericProcessTree, std::move(data)));
}

void GenericKernelDecoder::DecodeCpuFrequency(const PacketContext& packet,
                                              const proto::Field& field) {
  namespace f = pf::generic_kernel_cpu_frequency_event;
  Event e;
  e.ts = packet.ts;
  e.type = EventType::kCpuFrequency;
  e.cpu_counter = {.cpu = 0, .common_flags = 0, .value = 0};
  proto::Decoder d(field);
  proto::Field x;
  while (d.Next(&x)) {
    if (x.id == f::kCpu) e.cpu_counter.cpu = CpuNumber(x.as_int32());
    // The cpufreq counter is in kHz, as ftrace's cpu_frequency reports it.
    if (x.id == f::kFreqHz) e.cpu_counter.value = static_cast<double>(x.as_int64()) / 1000.0;
  }
  Push(packet, e);
}

}  // namespace tw
