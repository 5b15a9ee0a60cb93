#pragma once
// A turn's report as a document to keep or share: a self-contained HTML page (inline CSS, no
// script, no external resource; every text from the trace or the model escaped), Markdown, or
// JSON. Each carries its provenance: trace sha256 and name, session and turn, question, scene
// and strategy digest, skill versions, model, verifier result, when it was generated.
// Inputs are the stored report JSON (with number links, number_links.h) and a provenance object
// the caller assembles.

#include <nlohmann/json.hpp>
#include <string>

namespace tw::gateway {

std::string RenderReportHtml(const nlohmann::json& report, const nlohmann::json& provenance);
std::string RenderReportMarkdown(const nlohmann::json& report, const nlohmann::json& provenance);
// {"provenance": ..., "report": ...}
std::string RenderReportJson(const nlohmann::json& report, const nlohmann::json& provenance);

// Cell display shared by both: durations in ms/s, percent with "%", bytes with units.
std::string FormatCell(const nlohmann::json& value, const std::string& column_type);
std::string HtmlEscape(const std::string& text);

}  // namespace tw::gateway
