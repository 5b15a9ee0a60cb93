#include "libs/backends/llm_wiring.h"

namespace tw::backends {

std::function<std::shared_ptr<llm::LlmProvider>()> ProviderMaker(const llm::LlmConfig& config) {
  if (!config.configured()) return {};
  return [config]() -> std::shared_ptr<llm::LlmProvider> {
    auto provider = llm::MakeProvider(config);
    if (!provider.ok()) return nullptr;
    return std::shared_ptr<llm::LlmProvider>(std::move(*provider));
  };
}

agent::AgentLoopOptions LoopOptionsFor(const llm::LlmConfig& config) {
  agent::AgentLoopOptions o;
  o.request.timeout_ms = config.request_timeout_ms;
  if (auto price = config.prices.Find(config.model)) {
    o.cost_of = [p = *price](const llm::Usage& u) { return llm::CostUsd(p, u); };
    o.limits.max_cost_usd = config.budget_usd;
  }
  return o;
}

int64_t MicroUsd(const llm::LlmConfig& config, const llm::Usage& usage) {
  auto price = config.prices.Find(config.model);
  return price ? static_cast<int64_t>(llm::CostUsd(*price, usage) * 1e6) : 0;
}

}  // namespace tw::backends
