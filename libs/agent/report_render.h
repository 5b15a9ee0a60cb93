#pragma once
// Renderings of an AnalysisReport: Markdown for terminals and people, JSON for machines (every
// field, artifacts with typed columns and all their rows).

#include <string>

#include "libs/agent/analysis_report.h"

namespace tw::agent {

struct MarkdownOptions {
  size_t max_table_rows = 10;  // rows shown per evidence table (the JSON keeps them all)
};

std::string RenderMarkdown(const AnalysisReport& report, const MarkdownOptions& options = {});
std::string RenderJson(const AnalysisReport& report);

}  // namespace tw::agent
