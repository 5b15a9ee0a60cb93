#pragma once
// What an LLM agent turn produced, in the two shapes others read: the verifier's AnalysisRecord
// (the session's real plan, tool calls, hypotheses and artifacts, plus the findings parsed from
// the answer) and the AnalysisReport the renderers and clients share with the offline analyst.

#include <string>

#include "libs/agent/agent_session.h"
#include "libs/agent/analysis_report.h"
#include "libs/agent/answer_parser.h"
#include "libs/verify/analysis_record.h"

namespace tw::agent {

verify::AnalysisRecord AgentAnalysisRecord(const AgentSession& session, const ParsedAnswer& answer,
                                           const std::string& answer_text);

// The report of the turn: findings, chain, recommendations and limits from the answer; the
// artifacts the findings cite; the tool calls as steps. Verification fields are left to the
// caller.
AnalysisReport AgentReport(const AgentSession& session, const std::string& question,
                           const ParsedAnswer& answer);

}  // namespace tw::agent
