// `tracewise analyze TRACE ["question"]`: the main job. Classifies the question into a scene and
// produces a verified, evidence-backed diagnosis. With an LLM configured (TRACEWISE_LLM_*) the
// agent investigates and its answer streams to the terminal; without one (or with --offline) the
// offline analyst answers deterministically. With --reference OTHER the agent gets the
// comparison tools and the offline analyst appends the scene's key numbers on both traces. The
// turn runs in process, through the services or on an orchestrator (turn_target.h); the report
// is the same. Progress goes to stderr, the report to stdout or --out.

#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "libs/agent/report_render.h"
#include "tools/tracewise/agent_console.h"
#include "tools/tracewise/commands.h"
#include "tools/tracewise/turn_target.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise analyze TRACE [\"question\"] [--format md|json] [--out FILE]\n"
    "                         [--scene SCENE] [--mode quick|full|auto] [--quiet]\n"
    "                         [--reference TRACE2] [--selection START_NS,END_NS | --slice ID]\n"
    "                         [--services TQ,SE[,V] | --orchestrator HOST:PORT]\n"
    "                         [--skills DIR] [--strategies DIR] [--llm-config FILE] [--offline]\n"
    "  Diagnoses TRACE. Without a question it gives a general analysis. --scene forces a\n"
    "  scene (scrolling, startup, anr, interaction, memory, cpu, power, general).\n"
    "  With TRACEWISE_LLM_* set (see `tracewise llm ping`) the LLM agent investigates;\n"
    "  --offline forces the deterministic offline analyst.\n"
    "  --reference compares with a second trace: the agent gets the comparison tools; the offline\n"
    "  analyst adds the scene's key numbers on both traces.\n"
    "  --selection / --slice bound the analysis to a time range (trace ns) or a slice's span.\n";

struct AnalyzeArgs {
  std::string trace;
  std::string question;
  std::string format = "md";
  std::string out;
  std::string scene;
  bool quiet = false;
  std::string mode = "auto";
  std::string reference;  // a second trace to compare with
  agent::TurnSelection selection;
  TargetFlags target;
};

bool ParseSelection(const std::string& text, agent::TurnSelection& selection) {
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  int64_t start = 0, end = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &start) || !absl::SimpleAtoi(parts[1], &end)) {
    return false;
  }
  selection.time_range = agent::TimeWindow{start, end};
  return end > start;
}

bool Parse(const Args& args, AnalyzeArgs& out) {
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    std::string error, text;
    if (ParseTargetFlag(args, i, out.target, &error)) {
      if (!error.empty()) {
        std::fprintf(stderr, "tracewise analyze: %s\n", error.c_str());
        return false;
      }
    } else if (a == "--format") {
      if (!value(out.format)) return false;
    } else if (a == "--out") {
      if (!value(out.out)) return false;
    } else if (a == "--scene") {
      if (!value(out.scene)) return false;
    } else if (a == "--quiet") {
      out.quiet = true;
    } else if (a == "--mode") {
      if (!value(out.mode)) return false;
    } else if (a == "--reference") {
      if (!value(out.reference)) return false;
    } else if (a == "--selection") {
      if (!value(text) || !ParseSelection(text, out.selection)) return false;
    } else if (a == "--slice") {
      int64_t id = 0;
      if (!value(text) || !absl::SimpleAtoi(text, &id)) return false;
      out.selection.slice_id = id;
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
  if (!out.target.orchestrator.empty() && (!out.target.services.empty() || out.target.offline)) {
    std::fprintf(stderr, "tracewise analyze: --orchestrator runs the turn on the deployment (its own "
                         "services and LLM); it takes neither --services nor --offline\n");
    return false;
  }
  return (out.format == "md" || out.format == "json") &&
         (out.mode == "auto" || out.mode == "quick" || out.mode == "full");
}

int Fail(const std::string& message, int code = 1) {
  std::fprintf(stderr, "tracewise analyze: %s\n", message.c_str());
  return code;
}

int Write(const AnalyzeArgs& a, const agent::AnalysisReport& report,
          const std::function<void(const std::string&)>& progress) {
  const std::string text = a.format == "json" ? agent::RenderJson(report) : agent::RenderMarkdown(report);
  if (a.out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  std::ofstream file(a.out, std::ios::binary);
  file << text;
  if (!file) return Fail("cannot write " + a.out);
  progress("report written to " + a.out);
  return 0;
}

// On a deployment: upload through the orchestrator, ask there, render the report it stored.
int AnalyzeOnOrchestrator(const AnalyzeArgs& a, const std::function<void(const std::string&)>& progress,
                          ConsoleOptions console) {
  RemoteTurns remote(a.target.orchestrator);
  progress("uploading " + a.trace + " through the orchestrator at " + a.target.orchestrator);
  auto id = remote.AddTrace(a.trace);
  if (!id.ok()) return Fail(std::string(id.status().message()));
  rpc::RemoteQuestion q;
  q.question = a.question.empty() ? agent::kOverviewQuestion : a.question;
  q.mode = a.mode;
  q.scene = a.scene;
  q.selection = a.selection;
  if (!a.reference.empty()) {
    progress("uploading the reference " + a.reference);
    auto reference = remote.AddTrace(a.reference);
    if (!reference.ok()) return Fail(std::string(reference.status().message()));
    q.reference_trace_id = *reference;
  }
  auto report = remote.Ask(*id, q, console);
  if (!report.ok()) return Fail(std::string(report.status().message()));
  if (report->deterministic) {
    progress(OfflineSummary(*report));
  } else if (console.stream_text) {
    std::fputs("\n", stdout);
    return 0;  // the answer already went to stdout as it streamed
  }
  return Write(a, *report, progress);
}

}  // namespace

int RunAnalyze(const Args& args) {
  AnalyzeArgs a;
  if (!Parse(args, a)) {
    std::fputs(kUsage, stderr);
    std::fputs(kTargetUsage, stderr);
    return 2;
  }
  auto progress = [&](const std::string& line) {
    if (!a.quiet) std::fprintf(stderr, "analyze: %s\n", line.c_str());
  };
  ConsoleOptions console;
  console.quiet = a.quiet;
  console.stream_text = a.format == "md" && a.out.empty();
  if (!a.target.orchestrator.empty()) return AnalyzeOnOrchestrator(a, progress, console);

  auto turns = LocalTurns::Create(a.target);
  if (!turns.ok()) return Fail(std::string(turns.status().message()), 2);
  if (!a.scene.empty() && !(*turns)->strategies().Find(a.scene)) {
    return Fail("unknown scene '" + a.scene + "'", 2);
  }
  progress((a.target.services.empty() ? "loading " : "uploading ") + a.trace);
  auto id = (*turns)->AddTrace(a.trace);
  if (!id.ok()) return Fail(std::string(id.status().message()));
  std::string reference_id;
  if (!a.reference.empty()) {
    progress("loading the reference " + a.reference);
    auto reference = (*turns)->AddTrace(a.reference);
    if (!reference.ok()) return Fail(std::string(reference.status().message()));
    reference_id = *reference;
  }
  if ((*turns)->has_llm()) progress("LLM: " + (*turns)->llm().Describe());

  agent::TurnSpec spec;
  spec.question = a.question;
  spec.mode = a.mode;
  spec.scene = a.scene;
  spec.selection = a.selection;
  agent::AgentSession session;
  const agent::TurnResult result = (*turns)->Run(spec, *id, reference_id, session, console);
  if (result.status == agent::kTurnError && result.answer.empty() && result.report.steps.empty() &&
      result.report.findings.empty()) {
    return Fail(std::string(result.error.message()));
  }
  if (result.offline) {
    progress(OfflineSummary(result.report));
  } else {
    if (console.stream_text) std::fputs("\n", stdout);
    progress(TurnSummary(result, (*turns)->llm()));
    if (console.stream_text) return 0;  // the answer already went to stdout as it streamed
  }
  return Write(a, result.report, progress);
}

}  // namespace tw::cli
