#pragma once
// What the tokens of a session cost: a price table (USD per million tokens, per model) and an
// accumulator the orchestrator consults to enforce a budget. Prices change: the built-in table
// is a convenience dated in cost_tracker.cc; the config file overrides or extends it.

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "libs/llm/llm_provider.h"

namespace tw::llm {

struct ModelPrice {
  double input_per_million = 0;         // uncached prompt tokens
  double output_per_million = 0;
  double cached_input_per_million = 0;  // prompt tokens read from the cache
  // Prompt tokens written to the cache (Anthropic); nullopt = same as input.
  std::optional<double> cache_write_per_million;
};

class PriceTable {
 public:
  // The built-in prices of well-known models.
  static PriceTable Defaults();
  PriceTable() = default;

  void Set(const std::string& model, const ModelPrice& price) { prices_[model] = price; }
  // The price of `model`: an exact entry, else the longest entry that prefixes it
  // ("gpt-4o-2024-08-06" is priced as "gpt-4o", "claude-sonnet-4-5-20250929" as
  // "claude-sonnet-4-5"). nullopt = unknown (the cost is then unknown, not zero).
  std::optional<ModelPrice> Find(const std::string& model) const;
  const std::map<std::string, ModelPrice>& entries() const { return prices_; }

 private:
  std::map<std::string, ModelPrice> prices_;
};

// USD for `usage` at `price`. Usage counts cached and cache-written tokens inside input_tokens.
double CostUsd(const ModelPrice& price, const Usage& usage);

// Accumulates usage and cost over a session. Thread-safe.
class CostTracker {
 public:
  explicit CostTracker(PriceTable prices = PriceTable::Defaults()) : prices_(std::move(prices)) {}

  // Adds one response's usage; returns its cost (nullopt when the model has no price).
  std::optional<double> Add(const std::string& model, const Usage& usage);

  Usage total_usage() const;
  double total_cost_usd() const;   // of the priced models only
  bool has_unpriced_usage() const; // some usage came from a model without a price
  int64_t requests() const;
  std::map<std::string, Usage> usage_by_model() const;
  // True once the priced cost reaches `budget_usd` (a budget <= 0 means none).
  bool OverBudget(double budget_usd) const;

  const PriceTable& prices() const { return prices_; }

 private:
  const PriceTable prices_;
  mutable std::mutex mu_;
  Usage total_;
  double cost_usd_ = 0;
  bool unpriced_ = false;
  int64_t requests_ = 0;
  std::map<std::string, Usage> by_model_;
};

}  // namespace tw::llm
