#pragma once
// Chrome JSON's legacy V8 CPU profiles: 'P' events named "Profile" (args.data.startTime, µs)
// open a profile identified by (id, pid); "ProfileChunk" events add callsite nodes
// (args.data.cpuProfile.nodes: id, parent or children, callFrame.functionName / url) and
// samples (args.data.cpuProfile.samples, node ids, with args.data.timeDeltas, µs since the
// previous sample). As trace_processor's tokenizer does, this side checks each node against
// the profile's tree so far and turns deltas into sample times; it emits V8CpuProfileData for
// the tracker, which makes the rows.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// One 'P' event's "args", as read.
struct V8ProfileArgs {
  struct Node {
    uint32_t id = 0;
    std::optional<uint32_t> parent;
    std::vector<uint32_t> children;
    std::string function_name;
    std::optional<std::string> url;  // absent or empty: none
  };
  std::optional<int64_t> start_time_us;
  std::vector<Node> nodes;
  std::vector<uint32_t> samples;
  std::vector<int64_t> time_deltas_us;
};

// Reads {"data": {...}}; an error when `args` is not a JSON object.
absl::StatusOr<V8ProfileArgs> ParseV8ProfileArgs(std::string_view args);

// The profiles seen so far, in file order.
class V8ProfileSessions {
 public:
  // Opens (or restarts the clock of) profile (id, pid) at `start_ns`; true when it is new.
  bool Start(uint64_t id, uint32_t pid, int64_t start_ns);

  // Checks one node and appends what the tracker must do to `out` (nothing when rejected
  // before its frame would be made). An error says why the node is invalid.
  absl::Status AddNode(uint64_t id, uint32_t pid, const V8ProfileArgs::Node& node,
                       TraceStorage* storage, std::vector<V8CpuProfileData::Node>* out);

  // The time of the next sample of (id, pid), `delta_ns` after the previous one.
  absl::StatusOr<int64_t> NextSampleTime(uint64_t id, uint32_t pid, int64_t delta_ns);

 private:
  struct Profile {
    int64_t ts = 0;
    absl::flat_hash_map<uint32_t, uint32_t> depth_of;         // node → depth
    absl::flat_hash_map<uint32_t, uint32_t> inferred_parent;  // child → parent (from children)
  };
  absl::flat_hash_map<std::pair<uint64_t, uint32_t>, Profile> profiles_;
};

}  // namespace tw
