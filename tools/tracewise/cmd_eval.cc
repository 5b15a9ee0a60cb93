// `tracewise eval [SUITE.yaml]`: the diagnosis benchmark. Generates every case's tracegen
// traces, asks their questions, and prints per scene and overall: detection, attribution, false
// positives, grounding, direct answers, routing and time per diagnosis. The offline analyst
// answers by default; with an LLM provider configured (TRACEWISE_LLM_*) and --llm, the LLM agent
// does, so anyone with a model can measure it.

#include <cstdio>
#include <fstream>
#include <string>

#include "libs/agent/schema_provider.h"
#include "libs/agent/turn_runner.h"
#include "libs/backends/llm_wiring.h"
#include "libs/llm/llm_config.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/verify/verifier.h"
#include "tools/eval/eval_report.h"
#include "tools/eval/eval_runner.h"
#include "tools/tracewise/agent_console.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise eval [SUITE.yaml] [--ci] [--cases SUBSTRING] [--format table|json]\n"
    "                      [--out FILE] [--details] [--llm] [--llm-config FILE]\n"
    "                      [--keep-traces DIR] [--require-perfect] [--quiet]\n"
    "  Runs the diagnosis benchmark (default suite: tools/eval/suite.yaml): tracegen scenarios\n"
    "  x variants x questions, scored for detection, attribution, false positives, grounding,\n"
    "  direct answers and time per diagnosis. --ci runs only the variants marked ci (the test\n"
    "  suite's subset). The offline analyst answers unless --llm is given with a configured LLM\n"
    "  provider (TRACEWISE_LLM_*, see `tracewise llm ping`). --require-perfect exits 1 unless\n"
    "  detection and attribution are 100 %, there are no false positives and every stated\n"
    "  number is grounded.\n";

// The LLM agent, one turn per question, through the turn runner with the trace's backends in
// process.
class AgentDiagnoser : public eval::Diagnoser {
 public:
  AgentDiagnoser(const llm::LlmConfig& config, std::unique_ptr<llm::LlmProvider> provider,
                 const strategy::StrategyLibrary& strategies, const skills::SkillLibrary& skills)
      : config_(config), provider_(std::move(provider)), strategies_(strategies), skills_(skills) {}
  std::string Name() const override { return "LLM agent (" + config_.Describe() + ")"; }
  agent::AnalysisReport Diagnose(LoadedTrace& trace, const std::string& path,
                                 const std::string& question) override {
    agent::TurnBackends backends;
    backends.trace.trace_id = path;
    backends.trace.sql = std::make_unique<skills::TraceDatabaseRunner>(&trace.db());
    backends.trace.skills = std::make_unique<agent::LocalSkillRunner>(skills_, *backends.trace.sql);
    backends.trace.schema = std::make_unique<agent::LocalSchemaProvider>(&trace.db());
    backends.verifier = std::make_unique<verify::LocalVerifierClient>();
    backends.llm = provider_;
    agent::TurnRunnerOptions options;
    options.loop = tw::backends::LoopOptionsFor(config_);
    agent::TurnRunner runner(strategies_, &skills_, options);
    agent::TurnSpec spec;
    spec.question = question;
    agent::AgentSession session;
    agent::TurnResult result = runner.Run(spec, backends, session, [](const agent::AgentEvent&) {});
    result.report.trace = path;
    return result.report;
  }

 private:
  llm::LlmConfig config_;
  std::shared_ptr<llm::LlmProvider> provider_;
  const strategy::StrategyLibrary& strategies_;
  const skills::SkillLibrary& skills_;
};

}  // namespace

int RunEval(const Args& args) {
  std::string suite_path, format = "table", out, cases, llm_config_path, keep;
  bool ci = false, details = false, use_llm = false, require_perfect = false, quiet = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "--ci") ci = true;
    else if (a == "--details") details = true;
    else if (a == "--llm") use_llm = true;
    else if (a == "--require-perfect") require_perfect = true;
    else if (a == "--quiet") quiet = true;
    else if (a == "--format") ok = value(format) && (format == "table" || format == "json");
    else if (a == "--out") ok = value(out);
    else if (a == "--cases") ok = value(cases);
    else if (a == "--llm-config") ok = value(llm_config_path);
    else if (a == "--keep-traces") ok = value(keep);
    else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (!a.empty() && a[0] != '-' && suite_path.empty()) suite_path = a;
    else ok = false;
    if (!ok) {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (suite_path.empty()) suite_path = eval::DefaultSuitePath();
  auto suite = eval::LoadSuite(suite_path);
  if (!suite.ok()) {
    std::fprintf(stderr, "tracewise eval: %s\n", std::string(suite.status().message()).c_str());
    return 2;
  }
  std::vector<skills::Diagnostic> diagnostics;
  const skills::SkillLibrary library =
      skills::SkillLibrary::LoadDirectory(skills::DefaultSkillsDir(), &diagnostics);
  auto strategies = strategy::StrategyLibrary::Load(strategy::DefaultStrategiesDir());
  if (!strategies.ok()) {
    std::fprintf(stderr, "tracewise eval: %s\n", std::string(strategies.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<eval::Diagnoser> diagnoser;
  if (use_llm) {
    auto config = llm::LoadLlmConfig(llm_config_path);
    if (!config.ok() || !config->configured()) {
      std::fprintf(stderr, "tracewise eval: --llm needs a configured LLM provider%s%s\n",
                   config.ok() ? "" : ": ", config.ok() ? "" : std::string(config.status().message()).c_str());
      return 2;
    }
    auto provider = llm::MakeProvider(*config);
    if (!provider.ok()) {
      std::fprintf(stderr, "tracewise eval: %s\n", std::string(provider.status().message()).c_str());
      return 2;
    }
    diagnoser = std::make_unique<AgentDiagnoser>(*config, std::move(*provider), *strategies, library);
  } else {
    diagnoser = eval::MakeOfflineDiagnoser(*strategies, library);
  }
  eval::EvalOptions options;
  options.ci_only = ci;
  options.case_filter = cases;
  options.work_dir = keep;
  options.keep_traces = !keep.empty();
  if (!quiet) options.progress = [](const std::string& line) { std::fprintf(stderr, "eval: %s\n", line.c_str()); };
  const eval::EvalResult result = eval::RunEval(*suite, *diagnoser, *strategies, options);
  const std::vector<eval::Row> rows = eval::Summarize(result);
  const std::string text = format == "json" ? eval::RenderJson(result, rows)
                                            : eval::RenderTable(result, rows, details);
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream file(out, std::ios::binary);
    file << text;
    if (!file) {
      std::fprintf(stderr, "tracewise eval: cannot write %s\n", out.c_str());
      return 1;
    }
  }
  if (!result.errors.empty()) return 1;
  if (require_perfect && !eval::Perfect(rows)) return 1;
  return 0;
}

}  // namespace tw::cli
