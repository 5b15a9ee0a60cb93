#pragma once
// The user's selection (AskOptions.selection: a time range or a slice) as the scope of a turn, in
// both modes: skills that take a window (`start_ts` / `end_ts` inputs) get it as bound
// parameters, the prompt states it, and the report says "within 1.204–1.530 s" (seconds from the
// trace start, as trace viewers show time).

#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "libs/agent/skill_runner.h"
#include "libs/agent/time_window.h"
#include "libs/skills/skill_executor.h"

namespace tw::agent {

struct TurnSelection {
  std::optional<TimeWindow> time_range;
  std::optional<int64_t> slice_id;
  bool empty() const { return !time_range && !slice_id; }
};

struct SelectionScope {
  TimeWindow window;
  std::string label;        // "within 1.204–1.530 s"
  std::string description;  // for the prompt: what was selected, with absolute ns
};

// Resolves a selection against the trace: a slice becomes its [ts, ts + dur] window. nullopt for
// an empty selection; INVALID_ARGUMENT for an empty or inverted range, NOT_FOUND for a slice id
// the trace does not have.
absl::StatusOr<std::optional<SelectionScope>> ResolveSelection(const TurnSelection& selection,
                                                               skills::SkillQueryRunner& sql);

// "within 1.204–1.530 s": the window in seconds from `trace_start_ns`.
std::string WindowLabel(const TimeWindow& window, int64_t trace_start_ns);

// Adds the window as start_ts / end_ts to `params` when the skill takes both and the caller did
// not set either. Returns whether it did.
bool BindWindow(const TimeWindow& window, const SkillRunner& skills, const std::string& skill,
                std::map<std::string, SqlValue>& params);

}  // namespace tw::agent
