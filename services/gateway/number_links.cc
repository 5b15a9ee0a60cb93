#include "services/gateway/number_links.h"

#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "libs/verify/analysis_record.h"
#include "libs/verify/grounding.h"
#include "libs/verify/stated_numbers.h"

namespace tw::gateway {
namespace {

using nlohmann::json;

verify::ColumnUnit UnitOf(const std::string& type) {
  if (type == "duration_ns") return verify::ColumnUnit::kDurationNs;
  if (type == "timestamp_ns") return verify::ColumnUnit::kTimestampNs;
  if (type == "percent") return verify::ColumnUnit::kPercent;
  if (type == "bytes") return verify::ColumnUnit::kBytes;
  if (type == "number") return verify::ColumnUnit::kNumber;
  return verify::ColumnUnit::kUnknown;
}

verify::Cell CellOf(const json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) return v.get<std::string>();
  return std::monostate{};
}

verify::Artifact ArtifactOf(const json& a) {
  verify::Artifact out;
  out.id = a.value("id", "");
  if (a.contains("columns") && a["columns"].is_array()) {
    for (const json& c : a["columns"]) {
      out.columns.push_back({c.value("name", ""), UnitOf(c.value("type", ""))});
    }
  }
  if (a.contains("rows") && a["rows"].is_array()) {
    for (const json& r : a["rows"]) {
      std::vector<verify::Cell> row;
      if (r.is_array()) {
        for (const json& v : r) row.push_back(CellOf(v));
      }
      out.rows.push_back(std::move(row));
    }
  }
  if (a.contains("parameters") && a["parameters"].is_object()) {
    for (const auto& [name, v] : a["parameters"].items()) out.parameters.push_back(CellOf(v));
  }
  return out;
}

// UTF-16 code units in the first `bytes` bytes of UTF-8 text.
size_t Utf16Offset(const std::string& text, size_t bytes) {
  size_t units = 0;
  for (size_t i = 0; i < bytes && i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    units += c >= 0xF0 ? 2 : 1;
  }
  return units;
}

json Links(const std::string& text, const std::vector<const verify::Artifact*>& cited) {
  json links = json::array();
  for (const verify::StatedNumber& n : verify::FindStatedNumbers(text)) {
    const auto site = verify::LocateGrounding(n, cited);
    if (!site) continue;
    // The linked text is the number itself (without its unit), found where it was stated.
    size_t start = n.offset;
    size_t end = n.offset;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
            text[end] == ',' || (end == start && text[end] == '-'))) {
      ++end;
    }
    if (end == start) end = start + n.text.size();
    links.push_back({{"start", Utf16Offset(text, start)},
                     {"end", Utf16Offset(text, end)},
                     {"text", text.substr(start, end - start)},
                     {"artifact_id", cited[site->artifact]->id},
                     {"row", site->row},
                     {"column", site->column}});
  }
  return links;
}

}  // namespace

void AddNumberLinks(json& report) {
  if (!report.is_object() || !report.contains("findings") || !report["findings"].is_array()) return;
  std::map<std::string, verify::Artifact> artifacts;
  if (report.contains("artifacts") && report["artifacts"].is_array()) {
    for (const json& a : report["artifacts"]) {
      verify::Artifact artifact = ArtifactOf(a);
      artifacts.emplace(artifact.id, std::move(artifact));
    }
  }
  for (json& f : report["findings"]) {
    std::vector<const verify::Artifact*> cited;
    if (f.contains("evidence") && f["evidence"].is_array()) {
      for (const json& id : f["evidence"]) {
        if (!id.is_string()) continue;
        auto it = artifacts.find(id.get<std::string>());
        if (it != artifacts.end()) cited.push_back(&it->second);
      }
    }
    f["links"] = Links(f.value("description", ""), cited);
    f["title_links"] = Links(f.value("title", ""), cited);
  }
}

}  // namespace tw::gateway
