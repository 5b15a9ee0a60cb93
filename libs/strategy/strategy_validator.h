#pragma once
// Checks strategies against the skill library and the engine (`tracewise strategy validate`,
// run in CI): every skill a procedure or phase names exists; every expression parses; `steps.X`
// names an earlier procedure id and `row` is used only in drills that iterate a step; columns
// read from results (`row.share_pct`, `steps.x.rows[0].upid`) exist in the output of the skill
// that produces them (its SQL prepared against an empty trace); parameters are inputs of the
// skill and every required input is given. Messages are `file:line: error: ...`.

#include <string>
#include <vector>

#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"

namespace tw::strategy {

struct StrategyDiagnostic {
  std::string file;
  int line = 0;
  std::string message;
  std::string ToString() const;
};

std::vector<StrategyDiagnostic> ValidateStrategies(const StrategyLibrary& strategies,
                                                   const skills::SkillLibrary& skills);

}  // namespace tw::strategy
