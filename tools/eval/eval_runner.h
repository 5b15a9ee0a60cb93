#pragma once
// Runs a suite: for each case and variant it generates the scenario's trace (tracegen, into a
// work directory), loads it once, asks each of the variant's questions through a Diagnoser —
// the offline analyst by default, the LLM agent when a provider is configured — and scores
// every diagnosis against the case's expectations (scoring.h).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libs/agent/analysis_report.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/eval/scoring.h"
#include "tools/eval/suite.h"

namespace tw::eval {

// Answers one question about one loaded trace.
class Diagnoser {
 public:
  virtual ~Diagnoser() = default;
  virtual std::string Name() const = 0;  // "offline", "llm openai/gpt-...", ...
  virtual agent::AnalysisReport Diagnose(LoadedTrace& trace, const std::string& path,
                                         const std::string& question) = 0;
};

// The deterministic offline analyst with the shipped (or given) strategies and skills.
std::unique_ptr<Diagnoser> MakeOfflineDiagnoser(const strategy::StrategyLibrary& strategies,
                                                const skills::SkillLibrary& skills);

struct DiagnosisRecord {
  std::string case_id, scene, scenario, variant, question;
  Score score;
  int64_t elapsed_ns = 0;  // the diagnosis, the trace already loaded
  std::string answer;
  std::vector<std::string> top_findings;  // "severity · title"
};

struct EvalResult {
  std::string suite;
  std::string diagnoser;
  std::vector<DiagnosisRecord> diagnoses;
  int traces = 0;
  int64_t trace_bytes = 0;
  int64_t load_ns = 0;  // all trace loads
  std::vector<std::string> errors;  // traces that could not be generated or loaded
};

struct EvalOptions {
  bool ci_only = false;       // only the variants marked `ci: true`
  std::string case_filter;    // only cases whose id contains this
  std::string work_dir;       // where traces are written (a temporary directory if empty)
  bool keep_traces = false;
  std::function<void(const std::string&)> progress;  // may be empty
};

EvalResult RunEval(const Suite& suite, Diagnoser& diagnoser,
                   const strategy::StrategyLibrary& strategies, const EvalOptions& options);

}  // namespace tw::eval
