#include "libs/agent/finding_groups.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw::agent {
namespace {

struct Member {
  const ReportFinding* finding;
  size_t order;
};

// Explanations (with an impact) lead, the larger first; then severity; then the order found.
bool Leads(const Member& a, const Member& b) {
  const bool ia = a.finding->impact >= 0, ib = b.finding->impact >= 0;
  if (ia != ib) return ia;
  if (ia && a.finding->impact != b.finding->impact) return a.finding->impact > b.finding->impact;
  if (a.finding->severity != b.finding->severity) return a.finding->severity < b.finding->severity;
  return a.order < b.order;
}

template <typename T>
void AppendUnique(std::vector<T>& into, const std::vector<T>& from) {
  for (const T& x : from) {
    if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
  }
}

ReportFinding Merge(std::vector<Member> members) {
  std::stable_sort(members.begin(), members.end(), Leads);
  ReportFinding out = *members.front().finding;
  if (members.size() == 1) return out;
  // The leading explanation sets the severity; without any explanation the most severe does.
  if (out.impact < 0) {
    for (const Member& m : members) out.severity = std::min(out.severity, m.finding->severity);
  }
  std::vector<std::string> supporting;
  std::vector<std::string> sources = {out.source};
  for (size_t i = 1; i < members.size(); ++i) {
    const ReportFinding& f = *members[i].finding;
    AppendUnique(out.evidence, f.evidence);
    AppendUnique(out.suggestions, f.suggestions);
    AppendUnique(sources, {f.source});
    out.impact = std::max(out.impact, f.impact);
    if (f.title != out.title &&
        std::find(supporting.begin(), supporting.end(), f.title) == supporting.end()) {
      supporting.push_back(f.title);
    }
  }
  if (!supporting.empty()) {
    const size_t shown = std::min(supporting.size(), kMaxSupportingStatements);
    std::string evidence = absl::StrJoin(supporting.begin(), supporting.begin() + shown, "; ");
    if (supporting.size() > shown) absl::StrAppend(&evidence, "; and ", supporting.size() - shown, " more");
    if (!out.description.empty() && out.description.back() != '.') out.description += '.';
    absl::StrAppend(&out.description, out.description.empty() ? "" : " ", "Evidence: ", evidence, ".");
  }
  out.source = absl::StrJoin(sources, ", ");
  return out;
}

}  // namespace

std::vector<ReportFinding> GroupFindings(const std::vector<ReportFinding>& findings) {
  std::vector<std::vector<Member>> groups;
  std::map<std::string, size_t> group_of_cause;
  for (size_t i = 0; i < findings.size(); ++i) {
    const ReportFinding& f = findings[i];
    if (f.cause.empty()) {
      groups.push_back({{&f, i}});
      continue;
    }
    auto [it, added] = group_of_cause.emplace(f.cause, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back({&f, i});
  }
  struct Ranked {
    ReportFinding finding;
    size_t order;
  };
  std::vector<Ranked> ranked;
  for (auto& g : groups) {
    const size_t order = g.front().order;
    ranked.push_back({Merge(std::move(g)), order});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.finding.severity != b.finding.severity) return a.finding.severity < b.finding.severity;
    if (a.finding.impact != b.finding.impact) return a.finding.impact > b.finding.impact;
    return a.order < b.order;
  });
  std::vector<ReportFinding> out;
  for (Ranked& r : ranked) out.push_back(std::move(r.finding));
  return out;
}

}  // namespace tw::agent
