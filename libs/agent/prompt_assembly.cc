#include "libs/agent/prompt_assembly.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tw::agent {

int EstimateTokens(std::string_view text) {
  size_t ascii = 0, other = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++ascii;
    } else if ((c & 0xC0) != 0x80) {  // a UTF-8 lead byte starts one code point
      ++other;
    }
  }
  return static_cast<int>((ascii + 3) / 4 + other);
}

AssembledPrompt AssemblePrompt(std::vector<PromptSection> sections, int token_budget) {
  std::stable_sort(sections.begin(), sections.end(),
                   [](const PromptSection& a, const PromptSection& b) { return a.tier < b.tier; });
  std::vector<bool> keep(sections.size(), true);
  auto section_tokens = [&](size_t i) {
    return EstimateTokens(sections[i].text) + EstimateTokens(sections[i].name) + 2;
  };
  int total = 0;
  for (size_t i = 0; i < sections.size(); ++i) total += section_tokens(i);

  // Drop optional sections, lowest drop_order first (later tiers first on ties: the most
  // volatile context goes before the stable one), until the prompt fits.
  std::vector<size_t> droppable;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (sections[i].optional) droppable.push_back(i);
  }
  std::stable_sort(droppable.begin(), droppable.end(), [&](size_t a, size_t b) {
    if (sections[a].drop_order != sections[b].drop_order) {
      return sections[a].drop_order < sections[b].drop_order;
    }
    return sections[a].tier > sections[b].tier;
  });
  AssembledPrompt out;
  for (size_t i : droppable) {
    if (total <= token_budget) break;
    keep[i] = false;
    total -= section_tokens(i);
    out.dropped.push_back(sections[i].name);
  }
  out.over_budget = total > token_budget;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (!keep[i]) continue;
    absl::StrAppend(&out.text, "## ", sections[i].name, "\n\n", sections[i].text, "\n\n");
    if (sections[i].tier <= PromptTier::kTrace) out.cacheable_prefix_chars = out.text.size();
    out.included.push_back(sections[i].name);
  }
  out.estimated_tokens = EstimateTokens(out.text);
  return out;
}

}  // namespace tw::agent
