#pragma once
// A turn on a terminal, shared by `analyze` and `chat` in every mode (in process, through the
// services, through an orchestrator): prints the turn's events as they stream — the model's text
// to stdout, tool calls, client-tool requests, offline analysis steps, plan and verifier verdicts
// as short lines on stderr — and one line saying how the turn ended.

#include <map>
#include <string>

#include "libs/agent/agent_events.h"
#include "libs/agent/analysis_report.h"
#include "libs/agent/turn_runner.h"
#include "libs/llm/llm_config.h"

namespace tw::cli {

struct ConsoleOptions {
  bool stream_text = true;  // model text to stdout as it arrives
  bool quiet = false;       // no progress lines on stderr
};

// Prints one event. Stateless apart from the options.
void PrintAgentEvent(const agent::AgentEvent& event, const ConsoleOptions& options);

// One line describing how an LLM turn ended, e.g. "verified, 7 model calls, 24000 in / 960 out
// tokens (16384 cached), $0.07".
std::string TurnSummary(const agent::TurnResult& result, const llm::LlmConfig& config);
// One line for an offline report: scene, findings, verification, time.
std::string OfflineSummary(const agent::AnalysisReport& report);

// Names the traces by the files the user gave: a report made remotely calls them by their ids.
void RelabelTraces(agent::AnalysisReport& report, const std::map<std::string, std::string>& names);

}  // namespace tw::cli
