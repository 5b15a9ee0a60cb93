#include "services/gateway/report_export.h"

#include <cstdio>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "libs/common/units.h"

namespace tw::gateway {
namespace {

using nlohmann::json;

constexpr size_t kMaxRows = 200;  // per evidence table in a document

std::string Str(const json& j, const char* key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string AnchorId(const std::string& artifact, int64_t row) {
  std::string out = "row-";
  for (char c : artifact) out += (isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return absl::StrCat(out, "-", row);
}

// Text with its linked numbers as anchors to the evidence rows (offsets are UTF-16 units).
std::string LinkedHtml(const std::string& text, const json& links) {
  if (!links.is_array() || links.empty()) return HtmlEscape(text);
  // UTF-16 offset → byte offset.
  std::vector<size_t> byte_at;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;
    byte_at.push_back(i);
    if (c >= 0xF0) byte_at.push_back(i);
  }
  byte_at.push_back(text.size());
  std::string out;
  size_t at = 0;
  for (const json& l : links) {
    const size_t s16 = l.value("start", size_t{0});
    const size_t e16 = l.value("end", size_t{0});
    if (e16 >= byte_at.size() || s16 >= e16) continue;
    const size_t s = byte_at[s16];
    const size_t e = byte_at[e16];
    if (s < at) continue;
    out += HtmlEscape(text.substr(at, s - at));
    const int64_t row = l.value("row", int64_t{-1});
    const std::string artifact = Str(l, "artifact_id");
    out += absl::StrCat("<a href=\"#", row >= 0 ? AnchorId(artifact, row) : AnchorId(artifact, 0),
                        "\" title=\"", HtmlEscape(artifact),
                        row >= 0 ? absl::StrCat(", row ", row + 1) : "", "\">",
                        HtmlEscape(text.substr(s, e - s)), "</a>");
    at = e;
  }
  out += HtmlEscape(text.substr(at));
  return out;
}

// Text from the trace in a Markdown table cell: an inline code span, so it reads as data and
// nothing in it (markup, links, a would-be instruction) renders as the report's own words. The
// fence is longer than any backtick run inside; pipes stay escaped for the table.
std::string MdCode(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  std::string body;
  for (char c : text) {
    if (c == '|') {
      body += "\\|";
    } else if (c == '\n' || c == '\r') {
      body += ' ';
    } else {
      body += c;
    }
  }
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`' || body.front() == ' ');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string MdEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '|':
        out += "\\|";
        break;
      case '\n':
        out += ' ';
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::map<std::string, const json*> ArtifactsById(const json& report) {
  std::map<std::string, const json*> out;
  if (report.contains("artifacts") && report["artifacts"].is_array()) {
    for (const json& a : report["artifacts"]) out[Str(a, "id")] = &a;
  }
  return out;
}

// Evidence first cited by the findings, then the rest of the report's artifacts.
std::vector<const json*> EvidenceOrder(const json& report) {
  const auto by_id = ArtifactsById(report);
  std::vector<const json*> out;
  std::set<std::string> seen;
  if (report.contains("findings")) {
    for (const json& f : report["findings"]) {
      if (!f.contains("evidence")) continue;
      for (const json& id : f["evidence"]) {
        const std::string s = id.is_string() ? id.get<std::string>() : "";
        auto it = by_id.find(s);
        if (it != by_id.end() && seen.insert(s).second) out.push_back(it->second);
      }
    }
  }
  if (report.contains("artifacts")) {
    for (const json& a : report["artifacts"]) {
      if (seen.insert(Str(a, "id")).second) out.push_back(&a);
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ProvenanceRows(const json& p) {
  std::vector<std::pair<std::string, std::string>> rows;
  auto add = [&](const std::string& k, const std::string& v) {
    if (!v.empty()) rows.emplace_back(k, v);
  };
  const json trace = p.value("trace", json::object());
  add("Trace", Str(trace, "name"));
  add("Trace sha256", Str(trace, "sha256"));
  add("Trace format", Str(trace, "format"));
  if (trace.contains("size_bytes"))
    add("Trace size", FormatBytes(trace.value("size_bytes", int64_t{0})));
  const json session = p.value("session", json::object());
  add("Session", Str(session, "id"));
  const json turn = p.value("turn", json::object());
  add("Turn", Str(turn, "index"));
  add("Question", Str(turn, "question"));
  add("Mode", Str(turn, "mode"));
  add("Status", Str(turn, "status"));
  add("Reference trace", Str(turn, "reference_trace_id"));
  const json strategy = p.value("strategy", json::object());
  std::string s = Str(strategy, "scene");
  if (!Str(strategy, "sha256").empty())
    absl::StrAppend(&s, " (", Str(strategy, "file"), ", sha256 ", Str(strategy, "sha256"), ")");
  add("Scene strategy", s);
  std::string skills;
  if (p.contains("skills")) {
    for (const json& k : p["skills"]) {
      absl::StrAppend(&skills, skills.empty() ? "" : ", ", Str(k, "name"),
                      Str(k, "version").empty() ? "" : " v" + Str(k, "version"));
    }
  }
  add("Skills", skills);
  add("Model", Str(p, "model"));
  const json verifier = p.value("verifier", json::object());
  add("Verifier", verifier.value("verified", false) ? "passed" : "not passed");
  add("Generated", Str(p, "generated_at"));
  add("Generator", Str(p, "generator"));
  return rows;
}

}  // namespace

std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string FormatCell(const json& v, const std::string& type) {
  if (v.is_null()) return "—";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (!v.is_number()) return v.dump();
  const double d = v.get<double>();
  if (type == "duration_ns") return FormatDurationNs(static_cast<int64_t>(d));
  if (type == "bytes") return FormatBytes(static_cast<int64_t>(d));
  char buf[64];
  if (v.is_number_integer()) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v.get<int64_t>()));
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", d);
  }
  return type == "percent" ? std::string(buf) + " %" : std::string(buf);
}

std::string RenderReportHtml(const json& report, const json& provenance) {
  std::string h;
  const std::string question = Str(report, "question");
  absl::StrAppend(
      &h, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">",
      "<title>Tracewise report — ", HtmlEscape(question), "</title><style>",
      "body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:24px auto;padding:0 "
      "16px;color:#1f2328}",
      "table{border-collapse:collapse;margin:6px 0 14px;font-size:13px}",
      "td,th{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}",
      ".prov "
      "th{background:#f6f8fa;width:160px}.sev{font-weight:700;text-transform:uppercase;font-size:"
      "11px;padding:1px 5px;border-radius:3px;background:#eee}",
      ".critical{background:#fee4e2;color:#b42318}.high{background:#feecdc;color:#b93815}",
      ".medium{background:#fef7c3;color:#854a0e}.low{background:#e8f0fe;color:#174ea6}",
      ".finding{border-left:4px solid #d0d7de;padding:4px 10px;margin:8px 0;background:#f6f8fa}",
      ".ok{color:#067647}.bad{color:#93370d}.pre{white-space:pre-wrap}td.n{text-align:right}",
      ":target{background:#fff4c2}</style></head><body>\n");
  absl::StrAppend(&h, "<h1>Tracewise report</h1>\n<p><strong>Question:</strong> ",
                  HtmlEscape(question), "</p>\n");
  absl::StrAppend(&h, "<h2>Provenance</h2>\n<table class=\"prov\">");
  for (const auto& [k, v] : ProvenanceRows(provenance)) {
    absl::StrAppend(&h, "<tr><th>", HtmlEscape(k), "</th><td>", HtmlEscape(v), "</td></tr>");
  }
  absl::StrAppend(&h, "</table>\n");
  const bool verified = report.value("verified", false);
  absl::StrAppend(&h, "<p class=\"", verified ? "ok" : "bad",
                  "\"><strong>Verifier: ", verified ? "passed" : "not passed", "</strong></p>\n");
  if (report.contains("verifier_issues") && !report["verifier_issues"].empty()) {
    absl::StrAppend(&h, "<ul>");
    for (const json& i : report["verifier_issues"]) {
      absl::StrAppend(&h, "<li>[", HtmlEscape(Str(i, "severity")), "] ", HtmlEscape(Str(i, "kind")),
                      ": ", HtmlEscape(Str(i, "message")), "</li>");
    }
    absl::StrAppend(&h, "</ul>\n");
  }
  if (!Str(report, "overview").empty()) {
    absl::StrAppend(&h, "<h2>Summary</h2>\n<div class=\"pre\">",
                    HtmlEscape(Str(report, "overview")), "</div>\n");
  }
  if (report.contains("findings") && !report["findings"].empty()) {
    absl::StrAppend(&h, "<h2>Findings</h2>\n");
    for (const json& f : report["findings"]) {
      const std::string sev = Str(f, "severity");
      absl::StrAppend(&h, "<div class=\"finding\"><span class=\"sev ", HtmlEscape(sev), "\">",
                      HtmlEscape(sev), "</span> <strong>",
                      LinkedHtml(Str(f, "title"), f.value("title_links", json::array())),
                      "</strong><div>",
                      LinkedHtml(Str(f, "description"), f.value("links", json::array())), "</div>");
      if (f.contains("evidence") && !f["evidence"].empty()) {
        std::string ids;
        for (const json& id : f["evidence"])
          absl::StrAppend(&ids, ids.empty() ? "" : ", ",
                          id.is_string() ? id.get<std::string>() : "");
        absl::StrAppend(&h, "<div><small>evidence: ", HtmlEscape(ids), "</small></div>");
      }
      if (f.contains("suggestions") && !f["suggestions"].empty()) {
        absl::StrAppend(&h, "<ul>");
        for (const json& s : f["suggestions"])
          absl::StrAppend(&h, "<li>", HtmlEscape(s.is_string() ? s.get<std::string>() : ""),
                          "</li>");
        absl::StrAppend(&h, "</ul>");
      }
      absl::StrAppend(&h, "</div>\n");
    }
  }
  auto list = [&](const char* key, const char* title, bool ordered) {
    if (!report.contains(key) || report[key].empty()) return;
    absl::StrAppend(&h, "<h2>", title, "</h2>\n", ordered ? "<ol>" : "<ul>");
    for (const json& item : report[key]) {
      if (item.is_string()) {
        absl::StrAppend(&h, "<li>", HtmlEscape(item.get<std::string>()), "</li>");
      } else {
        std::string ev;
        if (item.contains("evidence")) {
          for (const json& id : item["evidence"])
            absl::StrAppend(&ev, ev.empty() ? "" : ", ",
                            id.is_string() ? id.get<std::string>() : "");
        }
        absl::StrAppend(&h, "<li>", HtmlEscape(Str(item, "statement")),
                        ev.empty() ? "" : " <small>(" + HtmlEscape(ev) + ")</small>", "</li>");
      }
    }
    absl::StrAppend(&h, ordered ? "</ol>\n" : "</ul>\n");
  };
  list("causal_chain", "Causal chain", true);
  list("recommendations", "Recommendations", false);
  list("limits", "What the trace could not answer", false);
  const auto evidence = EvidenceOrder(report);
  if (!evidence.empty()) absl::StrAppend(&h, "<h2>Evidence</h2>\n");
  for (const json* a : evidence) {
    const std::string id = Str(*a, "id");
    absl::StrAppend(&h, "<h3 id=\"", AnchorId(id, -1), "\">", HtmlEscape(id), " — ",
                    HtmlEscape(Str(*a, "title")), "</h3>");
    if (!Str(*a, "skill").empty()) {
      absl::StrAppend(&h, "<p><small>skill ", HtmlEscape(Str(*a, "skill")), " / step ",
                      HtmlEscape(Str(*a, "step")), "</small></p>");
    }
    std::vector<std::string> types;
    absl::StrAppend(&h, "<table><tr>");
    for (const json& c : a->value("columns", json::array())) {
      types.push_back(Str(c, "type"));
      absl::StrAppend(&h, "<th>", HtmlEscape(Str(c, "name")), "</th>");
    }
    absl::StrAppend(&h, "</tr>");
    const json rows = a->value("rows", json::array());
    for (size_t r = 0; r < rows.size() && r < kMaxRows; ++r) {
      absl::StrAppend(&h, "<tr id=\"", AnchorId(id, static_cast<int64_t>(r)), "\">");
      for (size_t c = 0; c < rows[r].size(); ++c) {
        const json& v = rows[r][c];
        absl::StrAppend(&h, v.is_number() ? "<td class=\"n\">" : "<td>",
                        HtmlEscape(FormatCell(v, c < types.size() ? types[c] : "")), "</td>");
      }
      absl::StrAppend(&h, "</tr>");
    }
    absl::StrAppend(&h, "</table>");
    if (rows.size() > kMaxRows)
      absl::StrAppend(&h, "<p><small>", kMaxRows, " of ", rows.size(), " rows shown</small></p>");
    if (!Str(*a, "sql").empty()) {
      absl::StrAppend(&h, "<details><summary>SQL</summary><pre>", HtmlEscape(Str(*a, "sql")),
                      "</pre></details>\n");
    }
  }
  if (report.contains("steps") && !report["steps"].empty()) {
    absl::StrAppend(&h,
                    "<h2>Method</h2>\n<table><tr><th>step</th><th>skill</th><th>status</"
                    "th><th>time</th><th>note</th></tr>");
    for (const json& s : report["steps"]) {
      absl::StrAppend(
          &h, "<tr><td>", HtmlEscape(Str(s, "id")), "</td><td>", HtmlEscape(Str(s, "skill")),
          "</td><td>", HtmlEscape(Str(s, "status")), "</td><td class=\"n\">",
          HtmlEscape(FormatDurationNs(s.value("elapsed_ns", int64_t{0}))), "</td><td>",
          HtmlEscape(Str(s, "why").empty() ? Str(s, "message") : Str(s, "why")), "</td></tr>");
    }
    absl::StrAppend(&h, "</table>\n");
  }
  absl::StrAppend(&h, "</body></html>\n");
  return h;
}

std::string RenderReportMarkdown(const json& report, const json& provenance) {
  std::string m = absl::StrCat("# Tracewise report\n\n**Question:** ",
                               MdEscape(Str(report, "question")), "\n\n");
  absl::StrAppend(&m, "## Provenance\n\n| | |\n|---|---|\n");
  for (const auto& [k, v] : ProvenanceRows(provenance))
    absl::StrAppend(&m, "| ", k, " | ", MdEscape(v), " |\n");
  absl::StrAppend(&m, "\n**Verifier:** ", report.value("verified", false) ? "passed" : "not passed",
                  "\n");
  if (report.contains("verifier_issues")) {
    for (const json& i : report["verifier_issues"]) {
      absl::StrAppend(&m, "- [", Str(i, "severity"), "] ", Str(i, "kind"), ": ",
                      MdEscape(Str(i, "message")), "\n");
    }
  }
  if (!Str(report, "overview").empty())
    absl::StrAppend(&m, "\n## Summary\n\n", MdEscape(Str(report, "overview")), "\n");
  if (report.contains("findings") && !report["findings"].empty()) {
    absl::StrAppend(&m, "\n## Findings\n\n");
    for (const json& f : report["findings"]) {
      std::string ids;
      for (const json& id : f.value("evidence", json::array()))
        absl::StrAppend(&ids, ids.empty() ? "" : ", ", id.is_string() ? id.get<std::string>() : "");
      absl::StrAppend(&m, "- **[", Str(f, "severity"), "] ", MdEscape(Str(f, "title")), "** — ",
                      MdEscape(Str(f, "description")),
                      ids.empty() ? "" : " (evidence: " + ids + ")", "\n");
    }
  }
  if (report.contains("causal_chain") && !report["causal_chain"].empty()) {
    absl::StrAppend(&m, "\n## Causal chain\n\n");
    int i = 0;
    for (const json& l : report["causal_chain"])
      absl::StrAppend(&m, ++i, ". ", MdEscape(Str(l, "statement")), "\n");
  }
  if (report.contains("recommendations") && !report["recommendations"].empty()) {
    absl::StrAppend(&m, "\n## Recommendations\n\n");
    for (const json& r : report["recommendations"])
      absl::StrAppend(&m, "- ", MdEscape(r.is_string() ? r.get<std::string>() : ""), "\n");
  }
  const auto evidence = EvidenceOrder(report);
  if (!evidence.empty()) absl::StrAppend(&m, "\n## Evidence\n");
  for (const json* a : evidence) {
    absl::StrAppend(&m, "\n### ", MdEscape(Str(*a, "id")), " — ", MdEscape(Str(*a, "title")),
                    "\n\n|");
    std::vector<std::string> types;
    for (const json& c : a->value("columns", json::array())) {
      types.push_back(Str(c, "type"));
      absl::StrAppend(&m, " ", MdEscape(Str(c, "name")), " |");
    }
    absl::StrAppend(&m, "\n|");
    for (size_t i = 0; i < types.size(); ++i) absl::StrAppend(&m, "---|");
    absl::StrAppend(&m, "\n");
    const json rows = a->value("rows", json::array());
    for (size_t r = 0; r < rows.size() && r < kMaxRows; ++r) {
      absl::StrAppend(&m, "|");
      for (size_t c = 0; c < rows[r].size(); ++c) {
        const std::string cell = FormatCell(rows[r][c], c < types.size() ? types[c] : "");
        absl::StrAppend(&m, " ", rows[r][c].is_string() && !cell.empty() ? MdCode(cell) : MdEscape(cell),
                        " |");
      }
      absl::StrAppend(&m, "\n");
    }
  }
  return m;
}

std::string RenderReportJson(const json& report, const json& provenance) {
  return json{{"provenance", provenance}, {"report", report}}.dump(2, ' ', false,
                                                                   json::error_handler_t::replace);
}

}  // namespace tw::gateway
