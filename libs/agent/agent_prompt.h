#pragma once
// The system prompt of one model call, in the stability order of prompt_assembly: role and
// output format (static) → trace context (per trace) → methodology with the scene's strategy, or
// the quick-mode instructions (per query) → selection, notes, uncertainties, prior findings and
// the plan/hypothesis state (per interaction). Rebuilt before every call, so the model always
// sees the current plan, while the static + trace prefix stays byte-identical (cacheable).

#include <string>

#include "libs/agent/agent_session.h"
#include "libs/agent/prompt_assembly.h"
#include "libs/llm/llm_provider.h"
#include "libs/strategy/strategy_library.h"

namespace tw::agent {

struct TurnContext {
  std::string trace_context;   // context probes: data completeness, focus app, refresh rate...
  std::string selection;       // the UI selection, described; empty = none
  std::string prior_findings;  // earlier turns' findings (multi-turn follow-ups)
  // A comparison turn: the reference trace's id. The per-interaction tier then carries the
  // comparison instructions (templates/comparison.md).
  std::string reference_trace_id;
};

struct TurnPrompt {
  llm::SystemPrompt system;
  AssembledPrompt assembled;
};

// Fails only when a template needed for the mode is missing or cannot be rendered.
absl::StatusOr<TurnPrompt> BuildTurnPrompt(const strategy::StrategyLibrary& strategies,
                                          const AgentSession& session, const TurnContext& context,
                                          int token_budget);

}  // namespace tw::agent
