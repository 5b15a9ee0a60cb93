#include "libs/llm/cost_tracker.h"

#include <algorithm>

namespace tw::llm {

PriceTable PriceTable::Defaults() {
  // USD per million tokens: input, output, cached input, cache write. Published list prices as
  // of late 2025; override them in the config file (llm.prices) when they change.
  PriceTable t;
  t.Set("gpt-4o", {2.50, 10.00, 1.25, std::nullopt});
  t.Set("gpt-4o-mini", {0.15, 0.60, 0.075, std::nullopt});
  t.Set("gpt-4.1", {2.00, 8.00, 0.50, std::nullopt});
  t.Set("gpt-4.1-mini", {0.40, 1.60, 0.10, std::nullopt});
  t.Set("gpt-4.1-nano", {0.10, 0.40, 0.025, std::nullopt});
  t.Set("gpt-5", {1.25, 10.00, 0.125, std::nullopt});
  t.Set("gpt-5-mini", {0.25, 2.00, 0.025, std::nullopt});
  t.Set("gpt-5-nano", {0.05, 0.40, 0.005, std::nullopt});
  t.Set("o3", {2.00, 8.00, 0.50, std::nullopt});
  t.Set("o4-mini", {1.10, 4.40, 0.275, std::nullopt});
  t.Set("claude-opus-4", {15.00, 75.00, 1.50, 18.75});
  t.Set("claude-opus-4-5", {5.00, 25.00, 0.50, 6.25});
  t.Set("claude-sonnet-4", {3.00, 15.00, 0.30, 3.75});
  t.Set("claude-3-7-sonnet", {3.00, 15.00, 0.30, 3.75});
  t.Set("claude-haiku-4-5", {1.00, 5.00, 0.10, 1.25});
  t.Set("claude-3-5-haiku", {0.80, 4.00, 0.08, 1.00});
  t.Set("deepseek-chat", {0.28, 0.42, 0.028, std::nullopt});
  t.Set("deepseek-reasoner", {0.28, 0.42, 0.028, std::nullopt});
  return t;
}

std::optional<ModelPrice> PriceTable::Find(const std::string& model) const {
  if (auto it = prices_.find(model); it != prices_.end()) return it->second;
  const ModelPrice* best = nullptr;
  size_t best_len = 0;
  for (const auto& [name, price] : prices_) {
    if (name.size() > best_len && model.compare(0, name.size(), name) == 0) {
      best = &price;
      best_len = name.size();
    }
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

double CostUsd(const ModelPrice& price, const Usage& usage) {
  const int64_t uncached = std::max<int64_t>(
      0, usage.input_tokens - usage.cached_input_tokens - usage.cache_creation_tokens);
  const double write_price = price.cache_write_per_million.value_or(price.input_per_million);
  return (static_cast<double>(uncached) * price.input_per_million +
          static_cast<double>(usage.cached_input_tokens) * price.cached_input_per_million +
          static_cast<double>(usage.cache_creation_tokens) * write_price +
          static_cast<double>(usage.output_tokens) * price.output_per_million) /
         1e6;
}

std::optional<double> CostTracker::Add(const std::string& model, const Usage& usage) {
  std::optional<ModelPrice> price = prices_.Find(model);
  std::optional<double> cost;
  if (price) cost = CostUsd(*price, usage);
  std::lock_guard<std::mutex> lock(mu_);
  total_ += usage;
  by_model_[model] += usage;
  ++requests_;
  if (cost) {
    cost_usd_ += *cost;
  } else {
    unpriced_ = true;
  }
  return cost;
}

Usage CostTracker::total_usage() const {
  std::lock_guard<std::mutex> lock(mu_);
  return total_;
}

double CostTracker::total_cost_usd() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cost_usd_;
}

bool CostTracker::has_unpriced_usage() const {
  std::lock_guard<std::mutex> lock(mu_);
  return unpriced_;
}

int64_t CostTracker::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

std::map<std::string, Usage> CostTracker::usage_by_model() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_model_;
}

bool CostTracker::OverBudget(double budget_usd) const {
  if (budget_usd <= 0) return false;
  std::lock_guard<std::mutex> lock(mu_);
  return cost_usd_ >= budget_usd;
}

}  // namespace tw::llm
