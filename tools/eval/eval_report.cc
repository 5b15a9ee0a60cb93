#include "tools/eval/eval_report.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"

namespace tw::eval {
namespace {

double Pct(int part, int whole) { return whole == 0 ? 100.0 : 100.0 * part / whole; }

int64_t Percentile(std::vector<int64_t> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

void Add(Row& row, const DiagnosisRecord& d) {
  ++row.diagnoses;
  if (d.score.has_problem) {
    ++row.with_problem;
    row.detected += d.score.detected;
    row.attributed += d.score.attributed;
  }
  row.false_positives += d.score.false_positive;
  row.stated_numbers += d.score.stated_numbers;
  row.grounded_numbers += d.score.grounded_numbers;
  row.answered += d.score.answered;
  row.routed += d.score.routed;
}

std::string Ms(int64_t ns) { return absl::StrFormat("%.0f", static_cast<double>(ns) / 1e6); }
std::string P(double pct) { return absl::StrFormat("%.1f %%", pct); }
std::string Cell(std::string s) { return absl::StrReplaceAll(s, {{"|", "\\|"}, {"\n", " "}}); }

}  // namespace

double Row::DetectionPct() const { return Pct(detected, with_problem); }
double Row::AttributionPct() const { return Pct(attributed, with_problem); }
double Row::GroundingPct() const { return Pct(grounded_numbers, stated_numbers); }

std::vector<Row> Summarize(const EvalResult& result) {
  std::vector<Row> rows;
  std::map<std::string, std::vector<int64_t>> times;
  Row overall;
  overall.scene = "overall";
  for (const DiagnosisRecord& d : result.diagnoses) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.scene == d.scene; });
    if (it == rows.end()) {
      rows.push_back(Row{});
      rows.back().scene = d.scene;
      it = rows.end() - 1;
    }
    Add(*it, d);
    Add(overall, d);
    times[d.scene].push_back(d.elapsed_ns);
    times["overall"].push_back(d.elapsed_ns);
  }
  rows.push_back(overall);
  for (Row& r : rows) {
    const auto& t = times[r.scene];
    r.p50_ns = Percentile(t, 0.5);
    r.p95_ns = Percentile(t, 0.95);
    r.max_ns = t.empty() ? 0 : *std::max_element(t.begin(), t.end());
  }
  return rows;
}

bool Perfect(const std::vector<Row>& rows) {
  const Row& o = rows.back();
  return o.detected == o.with_problem && o.attributed == o.with_problem && o.false_positives == 0 &&
         o.grounded_numbers == o.stated_numbers;
}

std::string RenderTable(const EvalResult& result, const std::vector<Row>& rows, bool details) {
  std::string out = absl::StrCat("Suite ", result.suite, " — ", result.diagnoser, ": ",
                                 result.diagnoses.size(), " diagnoses of ", result.traces,
                                 " generated traces (", absl::StrFormat("%.1f", result.trace_bytes / 1e6),
                                 " MB, loaded in ", Ms(result.load_ns), " ms in all)\n\n");
  out += "| scene | diagnoses | detection | attribution | false positives | grounding | direct answer | routed | time p50 / p95 (ms) |\n";
  out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const Row& r : rows) {
    absl::StrAppend(&out, "| ", r.scene == "overall" ? "**overall**" : r.scene, " | ", r.diagnoses, " | ",
                    r.with_problem ? absl::StrCat(P(r.DetectionPct()), " (", r.detected, "/", r.with_problem, ")") : "–",
                    " | ",
                    r.with_problem ? absl::StrCat(P(r.AttributionPct()), " (", r.attributed, "/", r.with_problem, ")") : "–",
                    " | ", r.false_positives, " | ",
                    P(r.GroundingPct()), " (", r.grounded_numbers, "/", r.stated_numbers, ")", " | ",
                    P(Pct(r.answered, r.diagnoses)), " | ", P(Pct(r.routed, r.diagnoses)), " | ",
                    Ms(r.p50_ns), " / ", Ms(r.p95_ns), " |\n");
  }
  for (const std::string& e : result.errors) absl::StrAppend(&out, "\nerror: ", e, "\n");
  bool header = false;
  for (const DiagnosisRecord& d : result.diagnoses) {
    const bool failed = (d.score.has_problem && (!d.score.detected || !d.score.attributed)) ||
                        d.score.false_positive || d.score.grounded_numbers != d.score.stated_numbers ||
                        !d.score.answered || !d.score.routed;
    if (!details && !failed) continue;
    if (!header) {
      out += details ? "\n### Diagnoses\n" : "\n### Misses\n";
      header = true;
    }
    absl::StrAppend(&out, "\n- **", d.case_id, "** (", d.scenario, ", ", d.variant, ") \"", Cell(d.question),
                    "\" — ", Ms(d.elapsed_ns), " ms\n  - answer: ", Cell(d.answer), "\n");
    for (const std::string& f : d.top_findings) absl::StrAppend(&out, "  - ", Cell(f), "\n");
    for (const std::string& n : d.score.notes) absl::StrAppend(&out, "  - **", Cell(n), "**\n");
  }
  return out;
}

std::string RenderJson(const EvalResult& result, const std::vector<Row>& rows) {
  using nlohmann::json;
  json j;
  j["suite"] = result.suite;
  j["diagnoser"] = result.diagnoser;
  j["traces"] = result.traces;
  j["trace_bytes"] = result.trace_bytes;
  j["load_ns"] = result.load_ns;
  j["errors"] = result.errors;
  j["scenes"] = json::array();
  for (const Row& r : rows) {
    j["scenes"].push_back({{"scene", r.scene},
                           {"diagnoses", r.diagnoses},
                           {"with_problem", r.with_problem},
                           {"detected", r.detected},
                           {"detection_pct", r.DetectionPct()},
                           {"attributed", r.attributed},
                           {"attribution_pct", r.AttributionPct()},
                           {"false_positives", r.false_positives},
                           {"stated_numbers", r.stated_numbers},
                           {"grounded_numbers", r.grounded_numbers},
                           {"grounding_pct", r.GroundingPct()},
                           {"answered", r.answered},
                           {"routed", r.routed},
                           {"time_p50_ns", r.p50_ns},
                           {"time_p95_ns", r.p95_ns},
                           {"time_max_ns", r.max_ns}});
  }
  j["diagnoses"] = json::array();
  for (const DiagnosisRecord& d : result.diagnoses) {
    j["diagnoses"].push_back({{"case", d.case_id},
                              {"scene", d.scene},
                              {"scenario", d.scenario},
                              {"variant", d.variant},
                              {"question", d.question},
                              {"answer", d.answer},
                              {"top_findings", d.top_findings},
                              {"has_problem", d.score.has_problem},
                              {"detected", d.score.detected},
                              {"attributed", d.score.attributed},
                              {"false_positive", d.score.false_positive},
                              {"stated_numbers", d.score.stated_numbers},
                              {"grounded_numbers", d.score.grounded_numbers},
                              {"answered", d.score.answered},
                              {"routed", d.score.routed},
                              {"notes", d.score.notes},
                              {"elapsed_ns", d.elapsed_ns}});
  }
  return j.dump(2) + "\n";
}

}  // namespace tw::eval
