#include "libs/trace/importers/proto/perf_event_names.h"

#include <cinttypes>
#include <cstdio>
#include <optional>

#include "libs/trace/importers/proto/perfetto_fields.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/repeated_varints.h"

namespace tw {

const PerfEventFieldNumbers kPerfTimebaseFields = {
    pf::perf_events_timebase::kCounter, pf::perf_events_timebase::kTracepoint,
    pf::perf_events_timebase::kRawEvent, pf::perf_events_timebase::kName,
    pf::perf_events_timebase::kModifiers};
const PerfEventFieldNumbers kPerfFollowerFields = {
    pf::perf_follower_event::kCounter, pf::perf_follower_event::kTracepoint,
    pf::perf_follower_event::kRawEvent, pf::perf_follower_event::kName,
    pf::perf_follower_event::kModifiers};

std::string_view PerfCounterName(uint64_t counter) {
  // PerfEvents.Counter values (perf_events.proto), named as `perf list` names them.
  switch (counter) {
    case 1: return "cpu-clock";          // SW_CPU_CLOCK
    case 2: return "page-faults";        // SW_PAGE_FAULTS
    case 3: return "task-clock";         // SW_TASK_CLOCK
    case 4: return "context-switches";   // SW_CONTEXT_SWITCHES
    case 5: return "cpu-migrations";     // SW_CPU_MIGRATIONS
    case 6: return "minor-faults";       // SW_PAGE_FAULTS_MIN
    case 7: return "major-faults";       // SW_PAGE_FAULTS_MAJ
    case 8: return "alignment-faults";   // SW_ALIGNMENT_FAULTS
    case 9: return "emulation-faults";   // SW_EMULATION_FAULTS
    case 20: return "dummy";             // SW_DUMMY
    case 10: return "cpu-cycles";        // HW_CPU_CYCLES
    case 11: return "instructions";      // HW_INSTRUCTIONS
    case 12: return "cache-references";  // HW_CACHE_REFERENCES
    case 13: return "cache-misses";      // HW_CACHE_MISSES
    case 14: return "branch-instructions";      // HW_BRANCH_INSTRUCTIONS
    case 15: return "branch-misses";            // HW_BRANCH_MISSES
    case 16: return "bus-cycles";               // HW_BUS_CYCLES
    case 17: return "stalled-cycles-frontend";  // HW_STALLED_CYCLES_FRONTEND
    case 18: return "stalled-cycles-backend";   // HW_STALLED_CYCLES_BACKEND
    case 19: return "ref-cycles";               // HW_REF_CPU_CYCLES
    default: return "unknown";
  }
}

namespace {

std::string TracepointName(const proto::Field& tracepoint) {
  proto::Decoder d(tracepoint);
  proto::Field f;
  std::string name;
  while (d.Next(&f)) {
    if (f.id == pf::perf_events_tracepoint::kName) name = std::string(f.as_string());
  }
  return name;
}

std::string RawEventName(const proto::Field& raw) {
  namespace r = pf::perf_events_raw_event;
  uint64_t type = 0, config = 0, config1 = 0, config2 = 0;
  proto::Decoder d(raw);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == r::kType) type = f.as_uint32();
    if (f.id == r::kConfig) config = f.as_uint64();
    if (f.id == r::kConfig1) config1 = f.as_uint64();
    if (f.id == r::kConfig2) config2 = f.as_uint64();
  }
  char buf[96];
  std::snprintf(buf, sizeof(buf), "raw.0x%" PRIx64 ".0x%" PRIx64 ".0x%" PRIx64 ".0x%" PRIx64,
                type, config, config1, config2);
  return buf;
}

}  // namespace

std::string PerfEventName(std::string_view message, const PerfEventFieldNumbers& fields) {
  std::string explicit_name;
  std::optional<uint64_t> counter;
  std::optional<proto::Field> tracepoint, raw_event;
  std::string modifiers;
  proto::Decoder d(message);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == fields.name) explicit_name = std::string(f.as_string());
    if (f.id == fields.counter) counter = f.as_uint64();
    if (f.id == fields.tracepoint && f.type == proto::kLengthDelimited) tracepoint = f;
    if (f.id == fields.raw_event && f.type == proto::kLengthDelimited) raw_event = f;
    if (f.id == fields.modifiers) {
      // EventModifier: 1 user space, 2 kernel, 3 hypervisor (perf's u / k / h).
      proto::ForEachVarint(f, [&](uint64_t m) {
        if (m >= 1 && m <= 3) modifiers += "ukh"[m - 1];
      });
    }
  }
  if (d.error()) return "unknown";
  // The config's own name wins; otherwise the event it selects, as a oneof read in this order.
  std::string name;
  if (!explicit_name.empty()) {
    name = explicit_name;
  } else if (counter) {
    name = PerfCounterName(*counter);
  } else if (tracepoint) {
    name = TracepointName(*tracepoint);
  } else if (raw_event) {
    name = RawEventName(*raw_event);
  } else {
    name = "unknown";
  }
  if (!modifiers.empty()) name += ":" + modifiers;
  return name;
}

}  // namespace tw
