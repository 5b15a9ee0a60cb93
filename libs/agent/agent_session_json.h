#pragma once
// JSON forms of what a paused turn must keep (its continuation, libs/agent/turn_runner.h): the
// agent's session (plan, hypotheses, artifacts with every row, skill findings, notes, tool-call
// log, counters), the conversation, and the pieces they are made of. Each To* has a From* that
// restores exactly what it wrote; int64 values (ns timestamps) stay exact.

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "libs/agent/agent_session.h"
#include "libs/llm/llm_provider.h"
#include "libs/strategy/strategy_library.h"

namespace tw::agent {

nlohmann::json StepResultToJson(const skills::StepResult& result);
absl::StatusOr<std::shared_ptr<const skills::StepResult>> StepResultFromJson(const nlohmann::json& j);

nlohmann::json MessagesToJson(const std::vector<llm::Message>& messages);
absl::StatusOr<std::vector<llm::Message>> MessagesFromJson(const nlohmann::json& j);

nlohmann::json UsageToJson(const llm::Usage& usage);
llm::Usage UsageFromJson(const nlohmann::json& j);

nlohmann::json AgentSessionToJson(const AgentSession& session);
// The scene strategy is looked up by name in `strategies` (null when it is gone).
absl::StatusOr<AgentSession> AgentSessionFromJson(const nlohmann::json& j,
                                                  const strategy::StrategyLibrary& strategies);

}  // namespace tw::agent
