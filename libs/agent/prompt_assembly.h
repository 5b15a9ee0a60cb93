#pragma once
// Builds the system prompt from sections in stability order — static (role, output format) →
// per trace (context probes) → per query (methodology, scene strategy) → per interaction
// (selection, notes, prior findings, plan history) — so the stable prefix stays byte-identical
// across turns and providers can cache it. Over the token budget, whole optional sections are
// dropped in a fixed priority order (never cut mid-section, never a required one).

#include <string>
#include <string_view>
#include <vector>

namespace tw::agent {

enum class PromptTier { kStatic = 0, kTrace = 1, kQuery = 2, kInteraction = 3 };

struct PromptSection {
  std::string name;
  PromptTier tier = PromptTier::kStatic;
  std::string text;
  bool optional = false;
  int drop_order = 0;  // optional sections with a lower value are dropped first
};

struct AssembledPrompt {
  std::string text;
  size_t cacheable_prefix_chars = 0;  // static + trace tiers: identical across turns
  int estimated_tokens = 0;
  bool over_budget = false;           // required sections alone exceed the budget
  std::vector<std::string> included;
  std::vector<std::string> dropped;
};

// A provider-independent estimate: ~4 characters per token for ASCII text, one token per
// non-ASCII code point (CJK text is dense). Errs high, which is the safe side for a budget.
int EstimateTokens(std::string_view text);

AssembledPrompt AssemblePrompt(std::vector<PromptSection> sections, int token_budget);

}  // namespace tw::agent
