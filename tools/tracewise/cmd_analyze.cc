// `tracewise analyze TRACE ["question"]`: the main job. Loads the trace, classifies the question
// into a scene and produces a verified, evidence-backed diagnosis. With no LLM configured this
// is the offline analyst (deterministic); progress goes to stderr, the report to stdout or --out.

#include <cstdio>
#include <fstream>
#include <string>

#include "libs/agent/offline_analyst.h"
#include "libs/agent/report_render.h"
#include "libs/common/units.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise analyze TRACE [\"question\"] [--format md|json] [--out FILE]\n"
    "                         [--scene SCENE] [--skills DIR] [--strategies DIR] [--quiet]\n"
    "  Diagnoses TRACE. Without a question it gives a general analysis. --scene forces a\n"
    "  scene (scrolling, startup, anr, interaction, memory, cpu, power, general).\n";

struct AnalyzeArgs {
  std::string trace;
  std::string question;
  std::string format = "md";
  std::string out;
  std::string scene;
  std::string skills_dir;
  std::string strategies_dir;
  bool quiet = false;
};

bool Parse(const Args& args, AnalyzeArgs& out) {
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    if (a == "--format") {
      if (!value(out.format)) return false;
    } else if (a == "--out") {
      if (!value(out.out)) return false;
    } else if (a == "--scene") {
      if (!value(out.scene)) return false;
    } else if (a == "--skills") {
      if (!value(out.skills_dir)) return false;
    } else if (a == "--strategies") {
      if (!value(out.strategies_dir)) return false;
    } else if (a == "--quiet") {
      out.quiet = true;
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "tracewise analyze: unknown option %s\n", a.c_str());
      return false;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.empty() || positional.size() > 2) return false;
  out.trace = positional[0];
  if (positional.size() == 2) out.question = positional[1];
  return out.format == "md" || out.format == "json";
}

}  // namespace

int RunAnalyze(const Args& args) {
  AnalyzeArgs a;
  if (!Parse(args, a)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto progress = [&](const std::string& line) {
    if (!a.quiet) std::fprintf(stderr, "analyze: %s\n", line.c_str());
  };

  std::vector<skills::Diagnostic> diagnostics;
  const std::string skills_dir = a.skills_dir.empty() ? skills::DefaultSkillsDir() : a.skills_dir;
  skills::SkillLibrary library = skills::SkillLibrary::LoadDirectory(skills_dir, &diagnostics);
  for (const auto& d : diagnostics) {
    if (!d.warning) std::fprintf(stderr, "%s\n", d.ToString().c_str());
  }
  auto strategies = strategy::StrategyLibrary::Load(
      a.strategies_dir.empty() ? strategy::DefaultStrategiesDir() : a.strategies_dir);
  if (!strategies.ok()) {
    std::fprintf(stderr, "tracewise analyze: %s\n", std::string(strategies.status().message()).c_str());
    return 1;
  }
  if (!a.scene.empty() && !strategies->Find(a.scene)) {
    std::fprintf(stderr, "tracewise analyze: unknown scene '%s'\n", a.scene.c_str());
    return 2;
  }

  progress("loading " + a.trace);
  auto loaded = LoadTraceFile(a.trace);
  if (!loaded.ok()) {
    std::fprintf(stderr, "tracewise analyze: cannot load %s: %s\n", a.trace.c_str(),
                 std::string(loaded.status().message()).c_str());
    return 1;
  }
  progress("loaded in " + FormatDurationNs((*loaded)->info().load_ns) + ", " +
           std::to_string(library.size()) + " skills");

  skills::TraceDatabaseRunner queries(&(*loaded)->db());
  agent::LocalSkillRunner runner(library, queries);
  verify::LocalVerifierClient verifier;
  agent::OfflineAnalyst analyst(*strategies, runner, &verifier);
  agent::OfflineAnalystOptions options;
  options.scene = a.scene;
  options.on_step = [&](const agent::AnalysisStep& step) {
    progress(step.id + " (" + step.skill + "): " + step.status + ", " +
             FormatDurationNs(step.elapsed_ns));
  };
  const agent::AnalysisReport report = analyst.Analyze(a.question, a.trace, options);
  progress("scene " + report.scene + ", " + std::to_string(report.findings.size()) +
           " findings, verification " + (report.verified ? "passed" : "did not pass") + ", " +
           FormatDurationNs(report.elapsed_ns));

  const std::string text =
      a.format == "json" ? agent::RenderJson(report) : agent::RenderMarkdown(report);
  if (a.out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    std::ofstream file(a.out, std::ios::binary);
    file << text;
    if (!file) {
      std::fprintf(stderr, "tracewise analyze: cannot write %s\n", a.out.c_str());
      return 1;
    }
    progress("report written to " + a.out);
  }
  return 0;
}

}  // namespace tw::cli
