#pragma once
// Test helper: generates a tracegen scenario (once per process and options), loads it, and runs
// the offline analyst with the shipped strategies and skills on it, as `tracewise analyze` does.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/agent/offline_analyst.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tests/common/process_temp_dir.h"
#include "tools/tracegen/tracegen.h"

namespace tw::agent::testing {

class ScenarioDiagnosis {
 public:
  ScenarioDiagnosis() {
    std::vector<skills::Diagnostic> diagnostics;
    library_ = std::make_unique<skills::SkillLibrary>(
        skills::SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diagnostics));
    auto strategies = strategy::StrategyLibrary::Load(TW_SOURCE_DIR "/strategies");
    EXPECT_TRUE(strategies.ok()) << strategies.status();
    if (strategies.ok()) strategies_ = std::make_unique<strategy::StrategyLibrary>(std::move(*strategies));
  }

  struct Loaded {
    tracegen::GroundTruth truth;
    std::unique_ptr<LoadedTrace> trace;
    std::string path;
  };

  // Generates and loads `options` (cached by scenario, seed, fps, duration).
  Loaded* Load(const tracegen::TracegenOptions& options) {
    const std::string key = absl::StrCat(options.scenario, "_s", options.seed, "_", options.fps,
                                         "hz_", options.duration_s, "s");
    auto it = loaded_.find(key);
    if (it != loaded_.end()) return &it->second;
    Loaded& l = loaded_[key];
    l.path = (std::filesystem::path(::tw::testing::ProcessTempDir()) / (key + ".pftrace")).string();
    auto truth = tracegen::GenerateTrace(options, l.path);
    EXPECT_TRUE(truth.ok()) << truth.status();
    if (!truth.ok()) return nullptr;
    l.truth = *truth;
    auto trace = LoadTraceFile(l.path);
    EXPECT_TRUE(trace.ok()) << trace.status();
    if (!trace.ok()) return nullptr;
    l.trace = std::move(*trace);
    return &l;
  }

  AnalysisReport Analyze(Loaded& l, const std::string& question) {
    skills::TraceDatabaseRunner queries(&l.trace->db());
    LocalSkillRunner runner(*library_, queries);
    verify::LocalVerifierClient verifier;
    return OfflineAnalyst(*strategies_, runner, &verifier).Analyze(question, l.path);
  }

  AnalysisReport Analyze(const std::string& scenario, const std::string& question,
                         tracegen::GroundTruth* truth = nullptr, uint64_t seed = 11, int fps = 90,
                         double seconds = -1) {
    tracegen::TracegenOptions o;
    o.scenario = scenario;
    o.seed = seed;
    o.fps = fps;
    o.duration_s = seconds >= 0 ? seconds : (scenario.rfind("scroll_", 0) == 0 ? 3 : 0);
    Loaded* l = Load(o);
    if (!l) return {};
    if (truth) *truth = l->truth;
    return Analyze(*l, question);
  }

 private:
  std::unique_ptr<skills::SkillLibrary> library_;
  std::unique_ptr<strategy::StrategyLibrary> strategies_;
  std::map<std::string, Loaded> loaded_;
};

// Findings (the first `top`) as lower-case text.
inline std::string TopFindingsText(const AnalysisReport& report, size_t top) {
  std::string text;
  for (size_t i = 0; i < report.findings.size() && i < top; ++i) {
    text += " " + report.findings[i].title + " — " + report.findings[i].description + "\n";
  }
  return absl::AsciiStrToLower(text);
}

}  // namespace tw::agent::testing
