#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "libs/agent/report_render.h"
#include "libs/common/units.h"

namespace tw::agent {
namespace {

std::string Cell(const SqlValue& v, skills::ColumnType type) {
  switch (v.type) {
    case SqlValue::Type::kNull: return "–";
    case SqlValue::Type::kString:
      // Pipes would break the Markdown table.
      return absl::StrReplaceAll(v.string_value, {{"|", "\\|"}, {"\n", " "}});
    case SqlValue::Type::kDouble: {
      char buf[32];
      std::snprintf(buf, sizeof buf, type == skills::ColumnType::kPercent ? "%.1f %%" : "%.2f",
                    v.double_value);
      return buf;
    }
    case SqlValue::Type::kInt:
      switch (type) {
        case skills::ColumnType::kDurationNs: return FormatDurationNs(v.int_value);
        case skills::ColumnType::kBytes: return FormatBytes(v.int_value);
        case skills::ColumnType::kPercent: return absl::StrCat(v.int_value, " %");
        default: return absl::StrCat(v.int_value);
      }
  }
  return "";
}

void AppendTable(std::string& out, const skills::StepResult& r, size_t max_rows) {
  absl::StrAppend(&out, "\n#### ", r.title.empty() ? absl::StrCat(r.skill, " / ", r.step) : r.title,
                  " (`", r.artifact_id, "`)\n\n");
  if (r.columns.empty()) return;
  std::vector<std::string> header;
  for (const auto& c : r.columns) header.push_back(c.unit.empty() ? c.name : absl::StrCat(c.name, " (", c.unit, ")"));
  absl::StrAppend(&out, "| ", absl::StrJoin(header, " | "), " |\n|");
  for (size_t i = 0; i < r.columns.size(); ++i) out += " --- |";
  out += "\n";
  for (size_t i = 0; i < r.rows.size() && i < max_rows; ++i) {
    std::vector<std::string> cells;
    for (size_t c = 0; c < r.rows[i].size(); ++c) {
      cells.push_back(Cell(r.rows[i][c], c < r.columns.size() ? r.columns[c].type
                                                               : skills::ColumnType::kString));
    }
    absl::StrAppend(&out, "| ", absl::StrJoin(cells, " | "), " |\n");
  }
  if (r.rows.size() > max_rows) {
    absl::StrAppend(&out, "\n_", r.rows.size() - max_rows, " more rows in the JSON report._\n");
  }
  if (r.rows.empty()) out += "\n_No rows._\n";
}

}  // namespace

std::string RenderMarkdown(const AnalysisReport& report, const MarkdownOptions& options) {
  std::string out = "# Tracewise diagnosis\n\n";
  absl::StrAppend(&out, "- **Question:** ", report.question.empty() ? "(none)" : report.question, "\n");
  absl::StrAppend(&out, "- **Trace:** ", report.trace, "\n");
  absl::StrAppend(&out, "- **Scene:** ", report.scene, " (matched by ", report.scene_matched_by, ")\n");
  absl::StrAppend(&out, "- **Analysis:** ",
                  report.deterministic ? "deterministic (offline analyst, no LLM)" : "LLM agent",
                  ", ", FormatDurationNs(report.elapsed_ns), "\n");
  absl::StrAppend(&out, "- **Verification:** ",
                  report.verified ? "passed" : "did not pass (see Verification)", "\n\n");

  absl::StrAppend(&out, "## Overview\n\n", report.overview, "\n\n## Key findings\n");
  if (report.findings.empty()) out += "\nNo findings.\n";
  for (const ReportFinding& f : report.findings) {
    absl::StrAppend(&out, "\n### ", f.id, " · ", FindingSeverityName(f.severity), " · ", f.title,
                    "\n\n", f.description, "\n");
    if (!f.evidence.empty()) {
      absl::StrAppend(&out, "\nEvidence: `", absl::StrJoin(f.evidence, "`, `"), "` (", f.source, ")\n");
    }
  }
  if (!report.causal_chain.empty()) {
    out += "\n## Causal chain\n\n";
    for (size_t i = 0; i < report.causal_chain.size(); ++i) {
      absl::StrAppend(&out, i == 0 ? "" : "   ↳ because ", i + 1, ". ",
                      report.causal_chain[i].statement, "\n");
    }
  }
  if (!report.recommendations.empty()) {
    out += "\n## Recommendations\n\n";
    for (const std::string& r : report.recommendations) absl::StrAppend(&out, "- ", r, "\n");
  }
  if (!report.artifacts.empty()) {
    out += "\n## Evidence\n";
    for (const auto& a : report.artifacts) {
      if (a->level != "hidden") AppendTable(out, *a, options.max_table_rows);
    }
  }
  if (!report.limits.empty()) {
    out += "\n## What this trace could not answer\n\n";
    for (const std::string& l : report.limits) absl::StrAppend(&out, "- ", l, "\n");
  }
  out += "\n## Method\n\n| step | skill | status | note | time |\n| --- | --- | --- | --- | --- |\n";
  for (const AnalysisStep& s : report.steps) {
    const std::string note = !s.why.empty() ? s.why : s.message;
    absl::StrAppend(&out, "| ", s.id, " | ", s.skill, " | ", s.status, " | ",
                    absl::StrReplaceAll(note, {{"|", "\\|"}, {"\n", " "}}), " | ",
                    FormatDurationNs(s.elapsed_ns), " |\n");
  }
  out += "\n## Verification\n\n";
  if (report.verifier_issues.empty()) {
    out += report.verified ? "The verifier found no issues.\n" : "Not verified.\n";
  }
  for (const verify::VerifyIssue& issue : report.verifier_issues) {
    absl::StrAppend(&out, "- ", issue.severity == verify::IssueSeverity::kError ? "error" : "warning",
                    " `", issue.kind, "`: ", issue.message, "\n");
  }
  return out;
}

}  // namespace tw::agent
