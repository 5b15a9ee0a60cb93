#pragma once
// Quick vs full analysis. Quick: three data tools, no plan gate, short budget — for factual
// questions and UI selections. Full: plan, hypotheses, verifier — for diagnoses. `auto` decides
// by rules, in order: a selection → quick; causal words ("why", "root cause", "为什么", "原因")
// → full; factual forms ("how many", "what is", "list", "多少", "哪些") → quick; a specific scene
// → full; otherwise quick.

#include <string>

namespace tw::agent {

enum class AnalysisMode { kQuick, kFull };
const char* AnalysisModeName(AnalysisMode mode);

struct ModeChoice {
  AnalysisMode mode = AnalysisMode::kFull;
  std::string reason;
};

// `requested`: "quick", "full" or "auto" (anything else is treated as auto).
ModeChoice ChooseMode(const std::string& requested, const std::string& question,
                      bool has_selection, const std::string& scene);

}  // namespace tw::agent
