#pragma once
// An LLM configuration (libs/llm/llm_config.h) wired into a turn: the factory's provider maker,
// and the agent loop's request timeout, price and budget.

#include <functional>
#include <memory>

#include "libs/agent/agent_loop.h"
#include "libs/llm/llm_config.h"

namespace tw::backends {

// A provider per call; empty when `config` is not configured.
std::function<std::shared_ptr<llm::LlmProvider>()> ProviderMaker(const llm::LlmConfig& config);

// Request timeout, and the cost limit from the price table and budget.
agent::AgentLoopOptions LoopOptionsFor(const llm::LlmConfig& config);

// Micro-USD of `usage` by the configured model's price; 0 when the price is unknown.
int64_t MicroUsd(const llm::LlmConfig& config, const llm::Usage& usage);

}  // namespace tw::backends
