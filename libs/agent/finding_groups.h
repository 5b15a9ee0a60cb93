#pragma once
// One finding per cause, ranked by impact. Skills state causes in pieces — the share of janky
// frames a cause explains, each slow binder call, the worst frame's blocked call — and tag them
// with the cause they are evidence of (a rule's `cause`). Findings of one cause become one
// finding: the one that says how much of the problem the cause explains leads (its severity is
// the group's: severity follows impact), the others follow as its evidence, every artifact they
// cite is cited. Then causes are ranked by severity and by what they explain.

#include <vector>

#include "libs/agent/analysis_report.h"

namespace tw::agent {

// At most this many supporting statements are quoted in a grouped finding.
inline constexpr size_t kMaxSupportingStatements = 4;

std::vector<ReportFinding> GroupFindings(const std::vector<ReportFinding>& findings);

}  // namespace tw::agent
