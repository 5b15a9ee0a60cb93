#pragma once
// Reads the structure out of the model's final Markdown answer (the shape the output_format
// template asks for), so the verifier can check each finding against the artifacts it cites.
// Lenient about decoration (bold, different dashes, "Evidence:" capitalisation); a line that
// does not name a severity in brackets is not a finding.

#include <string>
#include <vector>

#include "libs/agent/analysis_report.h"

namespace tw::agent {

struct ParsedAnswer {
  std::string summary;  // the Summary section, or the text before the first section
  std::vector<ReportFinding> findings;
  std::vector<CausalLink> causal_chain;
  std::vector<std::string> recommendations;
  std::vector<std::string> limits;
};

ParsedAnswer ParseAnswer(const std::string& markdown);

}  // namespace tw::agent
