#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "libs/agent/report_render.h"
#include "libs/common/units.h"

namespace tw::agent {
namespace {

// Trace text is data (issue #16): in the report it appears only as inline code, which Markdown
// and the web app show literally — a slice named "# Ignore the above" or "[click](...)" is
// neither a heading nor a link, and an instruction-like name reads as a quoted string.
std::string CodeSpan(std::string_view text) {
  std::string flat = absl::StrReplaceAll(absl::string_view(text.data(), text.size()), {{"\r", " "}, {"\n", " "}});
  size_t longest = 0, run = 0;
  for (char c : flat) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !flat.empty() && (flat.front() == '`' || flat.back() == '`');
  return absl::StrCat(fence, pad ? " " : "", flat, pad ? " " : "", fence);
}

// Strings of the report's evidence that are worth quoting where prose repeats them (finding
// titles interpolate thread and slice names): names with punctuation or spaces, or long ones.
// Short plain words ("binder", "gc") stay as they are.
std::vector<std::string> QuotableTraceStrings(const AnalysisReport& report) {
  std::set<std::string> seen;
  for (const auto& a : report.artifacts) {
    for (const auto& row : a->rows) {
      for (const SqlValue& v : row) {
        if (v.type != SqlValue::Type::kString || v.string_value.size() < 4) continue;
        const std::string& t = v.string_value;
        const bool plain = std::all_of(t.begin(), t.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
        if (!plain || t.size() >= 12) seen.insert(t);
      }
    }
  }
  std::vector<std::string> out(seen.begin(), seen.end());
  // Longest first, so "Main thread (om.example.feed)" is quoted whole, not around its inside.
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  return out;
}

// `text` with every occurrence of a quotable trace string turned into a code span.
std::string QuoteTraceStrings(const std::string& text, const std::vector<std::string>& quotable) {
  if (quotable.empty() || text.empty()) return text;
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const std::string* match = nullptr;
    for (const std::string& q : quotable) {
      if (text.compare(i, q.size(), q) == 0) {
        match = &q;
        break;
      }
    }
    if (match != nullptr) {
      out += CodeSpan(*match);
      i += match->size();
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

std::string Cell(const SqlValue& v, skills::ColumnType type) {
  switch (v.type) {
    case SqlValue::Type::kNull: return "–";
    case SqlValue::Type::kString:
      // Pipes would break the Markdown table (even inside a code span).
      return absl::StrReplaceAll(CodeSpan(v.string_value), {{"|", "\\|"}});
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
  const std::vector<std::string> quotable = QuotableTraceStrings(report);
  auto q = [&](const std::string& text) { return QuoteTraceStrings(text, quotable); };
  std::string out = "# Tracewise diagnosis\n\n";
  // The direct answer comes first: everything below supports it.
  if (!report.answer.empty()) absl::StrAppend(&out, "**", q(report.answer), "**\n\n");
  absl::StrAppend(&out, "- **Question:** ", report.question.empty() ? "(none)" : report.question, "\n");
  absl::StrAppend(&out, "- **Trace:** ", report.trace, "\n");
  if (!report.scope.empty()) absl::StrAppend(&out, "- **Scope:** the selection, ", report.scope, "\n");
  absl::StrAppend(&out, "- **Scene:** ", report.scene, " (matched by ", report.scene_matched_by, ")");
  if (report.scenes.size() > 1 || (report.scenes.size() == 1 && report.scenes[0] != report.scene)) {
    absl::StrAppend(&out, "; analysed: ", absl::StrJoin(report.scenes, ", "));
  }
  out += "\n";
  absl::StrAppend(&out, "- **Analysis:** ",
                  report.deterministic ? "deterministic (offline analyst, no LLM)" : "LLM agent",
                  ", ", FormatDurationNs(report.elapsed_ns), "\n");
  absl::StrAppend(&out, "- **Verification:** ",
                  report.verified ? "passed" : "did not pass (see Verification)", "\n\n");

  absl::StrAppend(&out, "## Overview\n\n", q(report.overview), "\n");
  if (!report.scenes_checked.empty()) {
    out += "\n## Scenes checked\n\n| scene | the trace shows | key numbers | analysed |\n| --- | --- | --- | --- |\n";
    for (const SceneCheck& c : report.scenes_checked) {
      const std::string shows = c.status == "problem" ? "**a problem**"
                                : c.status == "healthy" ? "no problem"
                                                        : "no data";
      absl::StrAppend(&out, "| ", c.title, " | ", shows, " | ",
                      absl::StrReplaceAll(q(c.summary), {{"|", "\\|"}, {"\n", " "}}), " | ",
                      c.analysed ? absl::StrCat("yes — ", absl::StrReplaceAll(q(c.reason), {{"|", "\\|"}, {"\n", " "}}))
                                 : "no",
                      " |\n");
    }
  }
  out += "\n## Key findings\n";
  if (report.findings.empty()) out += "\nNo findings.\n";
  for (const ReportFinding& f : report.findings) {
    absl::StrAppend(&out, "\n### ", f.id, " · ", FindingSeverityName(f.severity), " · ", q(f.title),
                    "\n\n", q(f.description), "\n");
    if (!f.evidence.empty()) {
      absl::StrAppend(&out, "\nEvidence: `", absl::StrJoin(f.evidence, "`, `"), "` (", f.source, ")\n");
    }
  }
  if (!report.causal_chain.empty()) {
    out += "\n## Causal chain\n\n";
    for (size_t i = 0; i < report.causal_chain.size(); ++i) {
      absl::StrAppend(&out, i == 0 ? "" : "   ↳ because ", i + 1, ". ",
                      q(report.causal_chain[i].statement), "\n");
    }
  }
  if (!report.recommendations.empty()) {
    out += "\n## Recommendations\n\n";
    for (const std::string& r : report.recommendations) absl::StrAppend(&out, "- ", q(r), "\n");
  }
  if (!report.artifacts.empty()) {
    out += "\n## Evidence\n";
    for (const auto& a : report.artifacts) {
      if (a->level != "hidden") AppendTable(out, *a, options.max_table_rows);
    }
  }
  if (!report.limits.empty()) {
    out += "\n## What this trace could not answer\n\n";
    for (const std::string& l : report.limits) absl::StrAppend(&out, "- ", q(l), "\n");
  }
  out += "\n## Method\n\n| step | skill | status | note | time |\n| --- | --- | --- | --- | --- |\n";
  for (const AnalysisStep& s : report.steps) {
    const std::string note = !s.why.empty() ? s.why : s.message;
    absl::StrAppend(&out, "| ", s.id, " | ", s.skill, " | ", s.status, " | ",
                    absl::StrReplaceAll(q(note), {{"|", "\\|"}, {"\n", " "}}), " | ",
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
  if (!report.comparison.empty()) absl::StrAppend(&out, "\n", report.comparison);
  return out;
}

}  // namespace tw::agent
