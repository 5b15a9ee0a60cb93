#pragma once
// The LLM agent on a terminal, shared by `analyze` and `chat`: runs a turn with the trace's
// tools and prints its events as they stream — the model's text to stdout, tool calls, plan,
// hypotheses and verifier verdicts as short lines on stderr.

#include <memory>
#include <string>
#include <vector>

#include "libs/agent/agent_loop.h"
#include "libs/llm/llm_config.h"

namespace tw::cli {

struct ConsoleOptions {
  bool stream_text = true;  // model text to stdout as it arrives
  bool quiet = false;       // no progress lines on stderr
};

// Prints one event. Stateless apart from the options.
void PrintAgentEvent(const agent::AgentEvent& event, const ConsoleOptions& options);

// Loop options from the LLM config: request timeout, cost limit from the price table.
agent::AgentLoopOptions LoopOptionsFor(const llm::LlmConfig& config);

// One line describing how a turn ended, e.g. "verified, 7 model calls, 24000 in / 960 out
// tokens (16384 cached), $0.07".
std::string TurnSummary(const agent::TurnOutcome& outcome, const llm::LlmConfig& config);

}  // namespace tw::cli
