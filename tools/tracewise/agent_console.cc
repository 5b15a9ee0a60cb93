#include "tools/tracewise/agent_console.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "libs/common/units.h"
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
    case AgentEventKind::kProgress: {
      const std::string stage = d.value("stage", "");
      if (stage == "scene") {
        line(absl::StrCat("scene ", d.value("scene", ""), " (", d.value("matched_by", ""), "), ",
                          d.value("mode", ""), " mode"));
      } else if (stage == "verifying") {
        line("verifying the answer");
      } else if (stage == "skill") {  // the offline analyst's steps
        std::fprintf(stderr, "  · %s (%s): %s, %s\n", d.value("id", "").c_str(), d.value("skill", "").c_str(),
                     d.value("status", "").c_str(), FormatDurationNs(d.value("elapsed_ns", int64_t{0})).c_str());
      } else if (stage == "comparison") {
        std::fprintf(stderr, "  · comparing %s\n", d.value("skill", "").c_str());
      }
      break;
    }
    case AgentEventKind::kToolCall:
      line(absl::StrCat("→ ", d.value("tool", ""), " ", Utf8Prefix(d.value("arguments", ""), 160)));
      break;
    case AgentEventKind::kToolResult:
      line(absl::StrCat(d.value("ok", false) ? "← ok: " : "← refused: ",
                        Utf8Prefix(d.value("summary", ""), 160)));
      break;
    case AgentEventKind::kClientToolRequest:
      line(absl::StrCat("⇢ client tool ", d.value("tool", ""), " ", d["arguments"].dump()));
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

std::string TurnSummary(const agent::TurnResult& r, const llm::LlmConfig& config) {
  std::string s = absl::StrCat(r.report.verified ? "verified" : "NOT verified", ", ",
                               r.model_calls, " model calls, ", r.usage.input_tokens, " in / ",
                               r.usage.output_tokens, " out tokens (", r.usage.cached_input_tokens,
                               " cached)");
  if (auto price = config.prices.Find(config.model)) {
    absl::StrAppend(&s, absl::StrFormat(", $%.4f", llm::CostUsd(*price, r.usage)));
  }
  if (r.partial) absl::StrAppend(&s, "; stopped: ", r.stop_reason);
  return s;
}

std::string OfflineSummary(const agent::AnalysisReport& report) {
  return absl::StrCat("scene ", report.scene, ", ", report.findings.size(), " findings, verification ",
                      report.verified ? "passed" : "did not pass", ", ", FormatDurationNs(report.elapsed_ns));
}

void RelabelTraces(agent::AnalysisReport& report, const std::map<std::string, std::string>& names) {
  for (const auto& [id, name] : names) {
    if (id == name) continue;
    if (report.trace == id) report.trace = name;
    report.comparison = absl::StrReplaceAll(report.comparison, {{id, name}});
  }
}

}  // namespace tw::cli
