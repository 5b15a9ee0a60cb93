#include "tools/eval/eval_runner.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "libs/agent/offline_analyst.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/verify/verifier.h"
#include "tools/tracegen/tracegen.h"

namespace tw::eval {
namespace {

namespace fs = std::filesystem;

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class OfflineDiagnoser : public Diagnoser {
 public:
  OfflineDiagnoser(const strategy::StrategyLibrary& strategies, const skills::SkillLibrary& skills)
      : strategies_(strategies), skills_(skills) {}
  std::string Name() const override { return "offline analyst"; }
  agent::AnalysisReport Diagnose(LoadedTrace& trace, const std::string& path,
                                 const std::string& question) override {
    skills::TraceDatabaseRunner queries(&trace.db());
    agent::LocalSkillRunner runner(skills_, queries);
    verify::LocalVerifierClient verifier;
    return agent::OfflineAnalyst(strategies_, runner, &verifier).Analyze(question, path);
  }

 private:
  const strategy::StrategyLibrary& strategies_;
  const skills::SkillLibrary& skills_;
};

}  // namespace

std::unique_ptr<Diagnoser> MakeOfflineDiagnoser(const strategy::StrategyLibrary& strategies,
                                                const skills::SkillLibrary& skills) {
  return std::make_unique<OfflineDiagnoser>(strategies, skills);
}

EvalResult RunEval(const Suite& suite, Diagnoser& diagnoser,
                   const strategy::StrategyLibrary& strategies, const EvalOptions& options) {
  EvalResult result;
  result.suite = suite.name;
  result.diagnoser = diagnoser.Name();
  auto progress = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  fs::path dir = options.work_dir;
  const bool temporary = dir.empty();
  if (temporary) dir = fs::temp_directory_path() / absl::StrCat("tracewise-eval-", getpid());
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const Case& c : suite.cases) {
    if (!options.case_filter.empty() && c.id.find(options.case_filter) == std::string::npos) continue;
    for (size_t vi = 0; vi < c.variants.size(); ++vi) {
      const Variant& v = c.variants[vi];
      if (options.ci_only && !v.ci) continue;
      tracegen::TracegenOptions o;
      o.scenario = c.scenario;
      o.seed = v.seed;
      o.fps = v.fps;
      o.duration_s = v.duration_s;
      o.little_cpus = v.little_cpus;
      o.big_cpus = v.big_cpus;
      const std::string path =
          (dir / absl::StrCat(c.id, "-", vi, ".pftrace")).string();
      auto truth = tracegen::GenerateTrace(o, path);
      if (!truth.ok()) {
        result.errors.push_back(absl::StrCat(c.id, " (", v.Label(), "): ", truth.status().message()));
        continue;
      }
      const int64_t load_start = NowNs();
      auto trace = LoadTraceFile(path);
      if (!trace.ok()) {
        result.errors.push_back(absl::StrCat(c.id, " (", v.Label(), "): ", trace.status().message()));
        continue;
      }
      result.load_ns += NowNs() - load_start;
      result.trace_bytes += truth->bytes;
      ++result.traces;
      for (const std::string& question : suite.QuestionsFor(c, vi)) {
        DiagnosisRecord r;
        r.case_id = c.id;
        r.scene = c.scene;
        r.scenario = c.scenario;
        r.variant = v.Label();
        r.question = question;
        const int64_t start = NowNs();
        const agent::AnalysisReport report = diagnoser.Diagnose(**trace, path, question);
        r.elapsed_ns = NowNs() - start;
        r.score = ScoreReport(report, c, suite, strategies.questions().Read(question));
        r.answer = report.answer;
        for (size_t i = 0; i < report.findings.size() && i < static_cast<size_t>(suite.top_findings); ++i) {
          r.top_findings.push_back(absl::StrCat(agent::FindingSeverityName(report.findings[i].severity),
                                                " · ", report.findings[i].title));
        }
        progress(absl::StrCat(c.id, " [", v.Label(), "] \"", question, "\": ",
                              r.score.has_problem ? (r.score.detected ? "detected" : "MISSED") : "clean",
                              r.score.false_positive ? ", FALSE POSITIVE" : ""));
        result.diagnoses.push_back(std::move(r));
      }
      if (!options.keep_traces) {
        fs::remove(path, ec);
        fs::remove(path + ".truth.json", ec);
      }
    }
  }
  if (temporary && !options.keep_traces) fs::remove_all(dir, ec);
  return result;
}

}  // namespace tw::eval
