#pragma once
// Builds the `state` table: tracks whose value is a string that holds until the next value
// (TrackEvent TYPE_STATE). Each value becomes a row lasting until the track changes value; an
// event without a value ends the current state. A repeated value extends the current row.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"
#include "libs/trace/trackers/args_tracker.h"

namespace tw {

class StateTracker {
 public:
  StateTracker(TraceStorage* storage, ArgsTracker* args) : storage_(storage), args_(args) {}

  // `track` has `value` (kNullStringId: no state) from `ts`. Returns the row now current.
  std::optional<uint32_t> Update(int64_t ts, uint32_t track, StringId value, StringId category,
                                 const std::vector<Arg>& args);

 private:
  struct Active {
    uint32_t row;
    StringId value;
    std::vector<Arg> args;
  };
  TraceStorage* storage_;
  ArgsTracker* args_;
  absl::flat_hash_map<uint32_t, Active> active_;
};

}  // namespace tw
