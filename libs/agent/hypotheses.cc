#include "libs/agent/hypotheses.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tw::agent {

std::string HypothesisBoard::Submit(const std::string& statement) {
  AgentHypothesis h;
  h.id = absl::StrCat("H", hypotheses_.size() + 1);
  h.statement = statement;
  hypotheses_.push_back(h);
  return h.id;
}

std::string HypothesisBoard::Resolve(const std::string& id, const std::string& status,
                                     const std::vector<std::string>& evidence,
                                     const std::string& resolution,
                                     const std::function<bool(const std::string&)>& artifact_exists) {
  if (status != "confirmed" && status != "rejected") {
    return absl::StrCat("status must be 'confirmed' or 'rejected', not '", status, "'");
  }
  for (AgentHypothesis& h : hypotheses_) {
    if (h.id != id) continue;
    if (evidence.empty()) return "cite at least one artifact id as evidence";
    for (const std::string& a : evidence) {
      if (!artifact_exists(a)) return absl::StrCat("unknown artifact '", a, "'");
    }
    h.status = status;
    h.evidence = evidence;
    h.resolution = resolution;
    return "";
  }
  return absl::StrCat("unknown hypothesis '", id, "'");
}

int HypothesisBoard::open_count() const {
  int n = 0;
  for (const AgentHypothesis& h : hypotheses_) n += h.status == "open";
  return n;
}

std::string HypothesisBoard::Describe() const {
  std::string out;
  for (const AgentHypothesis& h : hypotheses_) {
    absl::StrAppend(&out, "- ", h.id, " [", h.status, "] ", h.statement,
                    h.evidence.empty() ? "" : absl::StrCat(" (evidence: ", absl::StrJoin(h.evidence, ", "), ")"),
                    "\n");
  }
  return out;
}

}  // namespace tw::agent
