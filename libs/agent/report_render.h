#pragma once
// Renderings of an AnalysisReport: Markdown for terminals and people, JSON for machines (every
// field, artifacts with typed columns and all their rows).

#include <cstddef>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "libs/agent/analysis_report.h"

namespace tw::agent {

struct MarkdownOptions {
  size_t max_table_rows = 10;  // rows shown per evidence table (the JSON keeps them all)
};

std::string RenderMarkdown(const AnalysisReport& report, const MarkdownOptions& options = {});
std::string RenderJson(const AnalysisReport& report);
// The report RenderJson wrote (a remote orchestrator's Turn.report_json), for rendering here.
absl::StatusOr<AnalysisReport> ParseReportJson(const std::string& json);

// One evidence table as JSON (id, skill, step, title, typed columns, rows, provenance);
// `max_rows` caps the rows included (total_rows tells how many there are).
nlohmann::json ArtifactJson(const skills::StepResult& result,
                            size_t max_rows = std::numeric_limits<size_t>::max());

}  // namespace tw::agent
