#include "libs/agent/analysis_mode.h"

#include "absl/strings/ascii.h"

namespace tw::agent {
namespace {

bool ContainsAny(const std::string& text, std::initializer_list<const char*> needles) {
  for (const char* n : needles) {
    if (text.find(n) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

const char* AnalysisModeName(AnalysisMode mode) {
  return mode == AnalysisMode::kQuick ? "quick" : "full";
}

ModeChoice ChooseMode(const std::string& requested, const std::string& question,
                      bool has_selection, const std::string& scene) {
  if (requested == "quick") return {AnalysisMode::kQuick, "requested"};
  if (requested == "full") return {AnalysisMode::kFull, "requested"};
  if (has_selection) return {AnalysisMode::kQuick, "a selection asks about one part of the trace"};
  const std::string q = " " + absl::AsciiStrToLower(question) + " ";
  if (ContainsAny(q, {" why", "root cause", "diagnos", "what causes", "what caused", "reason for",
                      "为什么", "原因", "根因", "怎么回事"})) {
    return {AnalysisMode::kFull, "the question asks for a cause"};
  }
  if (ContainsAny(q, {"how many", "how much", "what is the", "which ", " list ", " count ",
                      "show me", "多少", "哪些", "是什么", "列出"})) {
    return {AnalysisMode::kQuick, "a factual question"};
  }
  if (!scene.empty() && scene != "general") {
    return {AnalysisMode::kFull, "a performance scene needs a diagnosis"};
  }
  return {AnalysisMode::kQuick, "a general question"};
}

}  // namespace tw::agent
