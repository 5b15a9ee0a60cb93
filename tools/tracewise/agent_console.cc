#include "tools/tracewise/agent_console.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/utf8.h"

namespace tw::cli {

void PrintAgentEvent(const agent::AgentEvent& event, const ConsoleOptions& options) {
  using agent::AgentEventKind;
  const nlohmann::json& d = event.data;
  if (event.kind == AgentEventKind::kTextDelta) {
    if (options.stream_text) {
      const std::string text = d.value("text", "");
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    }
    return;
  }
  if (options.quiet) return;
  auto line = [](const std::string& s) { std::fprintf(stderr, "\n  · %s\n", s.c_str()); };
  switch (event.kind) {
    case AgentEventKind::kProgress:
      if (d.value("stage", "") == "scene") {
        line(absl::StrCat("scene ", d.value("scene", ""), " (", d.value("matched_by", ""), "), ",
                          d.value("mode", ""), " mode"));
      } else if (d.value("stage", "") == "verifying") {
        line("verifying the answer");
      }
      break;
    case AgentEventKind::kToolCall:
      line(absl::StrCat("→ ", d.value("tool", ""), " ", Utf8Prefix(d.value("arguments", ""), 160)));
      break;
    case AgentEventKind::kToolResult:
      line(absl::StrCat(d.value("ok", false) ? "← ok: " : "← refused: ",
                        Utf8Prefix(d.value("summary", ""), 160)));
      break;
    case AgentEventKind::kVerifierIssues:
      line(absl::StrCat("verifier: ", d.value("passed", false) ? "passed" : "errors",
                        " (", d["issues"].size(), " issues)"));
      break;
    case AgentEventKind::kCorrection:
      line("the verifier sent the answer back for correction");
      break;
    case AgentEventKind::kError:
      std::fprintf(stderr, "\nerror: %s: %s\n", d.value("code", "").c_str(),
                   d.value("message", "").c_str());
      break;
    default:
      break;
  }
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

std::string TurnSummary(const agent::TurnOutcome& o, const llm::LlmConfig& config) {
  std::string s = absl::StrCat(o.report.verified ? "verified" : "NOT verified", ", ",
                               o.model_calls, " model calls, ", o.usage.input_tokens, " in / ",
                               o.usage.output_tokens, " out tokens (", o.usage.cached_input_tokens,
                               " cached)");
  if (auto price = config.prices.Find(config.model)) {
    absl::StrAppend(&s, absl::StrFormat(", $%.4f", llm::CostUsd(*price, o.usage)));
  }
  if (o.partial) absl::StrAppend(&s, "; stopped: ", o.stop_reason);
  return s;
}

}  // namespace tw::cli
