#include "libs/trace/trackers/state_tracker.h"

#include "libs/trace/trackers/arg_merge.h"

namespace tw {

std::optional<uint32_t> StateTracker::Update(int64_t ts, uint32_t track, StringId value,
                                             StringId category, const std::vector<Arg>& args) {
  StateTable& states = storage_->state;
  auto it = active_.find(track);
  if (it != active_.end()) {
    Active& active = it->second;
    if (active.value == value) {
      // Same value again: one row, whose args accumulate.
      if (!args.empty()) {
        ArgSetBuilder merged(std::move(active.args));
        merged.Merge(args);
        active.args = std::move(merged).Take();
        if (auto set = args_->AddArgSet(active.args)) states.arg_set_id.Set(active.row, *set);
      }
      return active.row;
    }
    states.dur.Set(active.row, ts - states.ts[active.row]);
    active_.erase(it);
  }
  storage_->ExtendBounds(ts);
  if (value == kNullStringId) return std::nullopt;
  const uint32_t row =
      states.Insert({.ts = ts, .dur = -1, .track_id = track, .category = category, .value = value});
  ArgSetBuilder built;
  built.Merge(args);
  Active active{row, value, std::move(built).Take()};
  if (auto set = args_->AddArgSet(active.args)) states.arg_set_id.Set(row, *set);
  active_.emplace(track, std::move(active));
  return row;
}

}  // namespace tw
