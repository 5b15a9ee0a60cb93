#pragma once
// Rows of Linux perf sampling (PerfSampleData, decoded by the proto importer), as
// trace_processor makes them: a perf_session per sequence that wrote samples; per (session,
// cpu) a counter track for the timebase and one per follower counter (type perf_cpu_counter,
// named as perf names the counter, is_timebase in the track's args), created the first time the
// cpu shows in the session; per sample a counter value on each of them, linked to the sample in
// perf_sample_counter, and a perf_sample row with the thread, cpu, cpu mode, callsite and unwind
// error. Kernel ring-buffer losses and producer guardrail stops become stats.

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"

namespace tw {

struct TraceContext;

class PerfSampleTracker {
 public:
  explicit PerfSampleTracker(TraceContext* ctx) : ctx_(ctx) {}

  void OnEvent(int64_t ts, const PerfSampleData& data);

 private:
  struct CpuTracks {
    uint32_t timebase = 0;
    std::vector<uint32_t> followers;
  };
  struct Session {
    uint32_t id = 0;  // perf_session.id
    absl::flat_hash_map<uint32_t, CpuTracks> cpus;
  };
  Session& SessionFor(uint32_t sequence_id);
  const CpuTracks& TracksFor(Session& session, uint32_t cpu, const PerfSampleData::Stream& stream);
  uint32_t CounterTrack(const Session& session, uint32_t cpu, StringId name, bool is_timebase);
  void AddSample(int64_t ts, const PerfSampleData& data, Session& session, const CpuTracks& tracks);

  // The callsite of a callstack the importer resolved (shared by its samples), keyed by the
  // callstack's address; the entry keeps the callstack alive so the address stays its own.
  std::optional<uint32_t> Callsite(const std::shared_ptr<const std::vector<CallstackFrame>>& frames);

  struct CachedCallsite {
    std::shared_ptr<const std::vector<CallstackFrame>> frames;
    std::optional<uint32_t> callsite;
  };
  TraceContext* ctx_;
  absl::flat_hash_map<uint32_t, Session> sessions_;  // by sequence id
  absl::flat_hash_map<const std::vector<CallstackFrame>*, CachedCallsite> callsites_;
};

}  // namespace tw
