#pragma once
// Per-CPU ftrace bundles as traced_probes writes them: each CPU has its own packet sequence and
// flushes an FtraceEventBundle every `bundle_events` events. sched_switch / sched_waking go out
// either as plain FtraceEvents or as compact_sched columns (with a per-bundle comm intern
// table); any other event is a plain FtraceEvent whose payload the caller serialises.
//
// Comms are integers indexing a table the caller owns (it may grow while writing).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libs/trace/importers/proto/proto_writer.h"
#include "tools/synth/trace_file.h"

namespace tw::synth {

enum class SchedEncoding { kPlain, kCompact };

// The kernel's common_flags bits that matter to thread_state.irq_context.
inline constexpr uint32_t kFlagIrqsOff = 0x01;
inline constexpr uint32_t kFlagHardirq = 0x08;

struct SchedSide {
  int32_t pid = 0;
  int32_t prio = 120;
  uint32_t comm = 0;
};

class FtraceCpuBundles {
 public:
  // `first_sequence_id` is the packet sequence of cpu 0; cpu c writes on first + c.
  FtraceCpuBundles(uint32_t cpus, SchedEncoding encoding, uint32_t bundle_events,
                   const std::vector<std::string>* comms, TraceFile* file,
                   uint32_t first_sequence_id = 2);

  void Switch(uint32_t cpu, int64_t ts, const SchedSide& prev, uint64_t prev_state,
              const SchedSide& next);
  // `waker_pid` is the task running on `cpu` (0 in an interrupt on an idle cpu).
  void Waking(uint32_t cpu, int64_t ts, int32_t waker_pid, uint32_t flags, const SchedSide& wakee,
              uint32_t target_cpu);
  // A plain event: `payload` is the serialised XxxFtraceEvent for FtraceEvent field
  // `event_field`, recorded on `cpu` by task `pid`.
  void Plain(uint32_t cpu, int64_t ts, int32_t pid, std::optional<uint32_t> flags,
             uint32_t event_field, const proto::Writer& payload);

  void Flush(uint32_t cpu);
  void FlushAll();
  SchedEncoding encoding() const { return encoding_; }

 private:
  struct Bundle {
    proto::Writer events;  // repeated FtraceEvent (field 2) of FtraceEventBundle
    uint32_t count = 0;
    std::vector<uint64_t> sw_ts, sw_state, sw_pid, sw_prio, sw_comm;
    std::vector<uint64_t> wk_ts, wk_pid, wk_cpu, wk_prio, wk_comm, wk_flags;
    int64_t last_sw_ts = 0, last_wk_ts = 0;
    std::vector<uint32_t> intern_index;  // comm -> 1 + index in this bundle's table; 0 absent
    std::vector<uint32_t> interned;      // comms in table order
    uint32_t Intern(uint32_t comm);
    void Reset();
  };
  void Counted(uint32_t cpu);

  SchedEncoding encoding_;
  uint32_t bundle_events_;
  const std::vector<std::string>* comms_;
  TraceFile* file_;
  uint32_t first_sequence_id_;
  std::vector<Bundle> bundles_;
  proto::Writer payload_, event_;
  // Flush's scratch buffers, kept to avoid reallocating per bundle.
  proto::Writer head_, compact_, tail_, packed_;
};

}  // namespace tw::synth
