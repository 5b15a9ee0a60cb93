// `tracewise analyze TRACE ["question"]`: the main job. Loads the trace, classifies the question
// into a scene and produces a verified, evidence-backed diagnosis. With an LLM configured
// (TRACEWISE_LLM_*) the agent investigates and its answer streams to the terminal; without one
// (or with --offline) the offline analyst answers deterministically. With --reference OTHER the
// second trace is loaded too: the agent gets the comparison tools, the offline analyst appends
// the scene's key numbers on both traces. Progress goes to stderr, the report to stdout or --out.

#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/str_split.h"
#include "libs/agent/agent_loop.h"
#include "libs/agent/context_probes.h"
#include "libs/agent/offline_analyst.h"
#include "libs/agent/procedure_comparison.h"
#include "libs/agent/report_render.h"
#include "libs/agent/schema_provider.h"
#include "libs/common/units.h"
#include "libs/llm/llm_config.h"
#include "libs/rpc/trace_query_router.h"
#include "libs/rpc/grpc_skill_runner.h"
#include "libs/rpc/grpc_verifier_client.h"
#include "libs/skills/backend_runner.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/strategy/strategy_library.h"
#include "libs/trace/trace_loader.h"
#include "tools/tracewise/agent_console.h"
#include "tools/tracewise/commands.h"

namespace tw::cli {
namespace {

constexpr char kUsage[] =
    "usage: tracewise analyze TRACE [\"question\"] [--format md|json] [--out FILE]\n"
    "                         [--scene SCENE] [--skills DIR] [--strategies DIR] [--quiet]\n"
    "                         [--services TRACE_QUERY,SKILL_ENGINE[,VERIFIER]]\n"
    "                         [--offline] [--mode quick|full|auto] [--llm-config FILE]\n"
    "                         [--reference TRACE2]\n"
    "  Diagnoses TRACE. Without a question it gives a general analysis. --scene forces a\n"
    "  scene (scrolling, startup, anr, interaction, memory, cpu, power, general).\n"
    "  --services runs it through the services (HOST:PORT each): the trace is uploaded to\n"
    "  trace-query, skills run on the skill-engine, the verifier checks the report.\n"
    "  With TRACEWISE_LLM_* set (see `tracewise llm ping`) the LLM agent investigates;\n"
    "  --offline forces the deterministic offline analyst.\n"
    "  --reference compares with a second trace (embedded mode): the agent gets the comparison\n"
    "  tools; the offline analyst adds the scene's key numbers on both traces.\n";

struct AnalyzeArgs {
  std::string trace;
  std::string question;
  std::string format = "md";
  std::string out;
  std::string scene;
  std::string skills_dir;
  std::string strategies_dir;
  std::vector<std::string> services;  // trace-query, skill-engine[, verifier]
  bool quiet = false;
  bool offline = false;
  std::string mode = "auto";
  std::string llm_config;
  std::string reference;  // a second trace to compare with
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
    } else if (a == "--services") {
      std::string list;
      if (!value(list)) return false;
      for (absl::string_view part : absl::StrSplit(list, ',', absl::SkipEmpty())) {
        out.services.emplace_back(part);
      }
      if (out.services.size() < 2 || out.services.size() > 3) return false;
    } else if (a == "--quiet") {
      out.quiet = true;
    } else if (a == "--offline") {
      out.offline = true;
    } else if (a == "--mode") {
      if (!value(out.mode)) return false;
    } else if (a == "--llm-config") {
      if (!value(out.llm_config)) return false;
    } else if (a == "--reference") {
      if (!value(out.reference)) return false;
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
  return (out.format == "md" || out.format == "json") &&
         (out.mode == "auto" || out.mode == "quick" || out.mode == "full");
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
  if (!a.reference.empty() && !a.services.empty()) {
    std::fprintf(stderr, "tracewise analyze: --reference works in embedded mode; through the "
                         "services, give Ask a reference_trace_id\n");
    return 2;
  }
  if (!a.scene.empty() && !strategies->Find(a.scene)) {
    std::fprintf(stderr, "tracewise analyze: unknown scene '%s'\n", a.scene.c_str());
    return 2;
  }

  // Embedded: the trace loads here and skills run in this process. With --services: the trace
  // goes to trace-query, skills run on the skill-engine, the verifier service checks the report.
  std::unique_ptr<LoadedTrace> loaded;
  std::unique_ptr<rpc::TraceQueryRouter> trace_query;
  std::unique_ptr<skills::SkillQueryRunner> queries;
  std::unique_ptr<agent::SkillRunner> runner;
  std::unique_ptr<agent::SchemaProvider> schema;
  std::unique_ptr<verify::VerifierClient> verifier;
  if (a.services.empty()) {
    progress("loading " + a.trace);
    auto trace = LoadTraceFile(a.trace);
    if (!trace.ok()) {
      std::fprintf(stderr, "tracewise analyze: cannot load %s: %s\n", a.trace.c_str(),
                   std::string(trace.status().message()).c_str());
      return 1;
    }
    loaded = std::move(*trace);
    progress("loaded in " + FormatDurationNs(loaded->info().load_ns) + ", " +
             std::to_string(library.size()) + " skills");
    queries = std::make_unique<skills::TraceDatabaseRunner>(&loaded->db());
    runner = std::make_unique<agent::LocalSkillRunner>(library, *queries);
    schema = std::make_unique<agent::LocalSchemaProvider>(&loaded->db());
    verifier = std::make_unique<verify::LocalVerifierClient>();
  } else {
    progress("uploading " + a.trace + " to trace-query at " + a.services[0]);
    auto router = rpc::TraceQueryRouter::Create(a.services[0]);
    if (!router.ok()) {
      std::fprintf(stderr, "tracewise analyze: %s\n", std::string(router.status().message()).c_str());
      return 2;
    }
    trace_query = std::move(*router);
    auto uploaded = trace_query->UploadFile(a.trace);
    if (!uploaded.ok()) {
      std::fprintf(stderr, "tracewise analyze: upload to %s failed: %s\n", a.services[0].c_str(),
                   std::string(uploaded.status().message()).c_str());
      return 1;
    }
    const std::string* id = &uploaded->trace_id;
    progress("trace " + id->substr(0, 12) + "…; skills on " + a.services[1]);
    queries = std::make_unique<skills::BackendQueryRunner>(trace_query.get(), *id);
    runner = std::make_unique<rpc::GrpcSkillRunner>(a.services[1], *id);
    schema = std::make_unique<agent::BackendSchemaProvider>(trace_query.get(), *id);
    if (a.services.size() == 3) {
      verifier = std::make_unique<rpc::GrpcVerifierClient>(a.services[2]);
    } else {
      verifier = std::make_unique<verify::LocalVerifierClient>();
    }
  }

  // The reference trace of a comparison, loaded beside the first one.
  std::unique_ptr<LoadedTrace> reference;
  std::unique_ptr<skills::SkillQueryRunner> reference_queries;
  std::unique_ptr<agent::SkillRunner> reference_runner;
  if (!a.reference.empty()) {
    progress("loading the reference " + a.reference);
    auto trace = LoadTraceFile(a.reference);
    if (!trace.ok()) {
      std::fprintf(stderr, "tracewise analyze: cannot load the reference %s: %s\n",
                   a.reference.c_str(), std::string(trace.status().message()).c_str());
      return 1;
    }
    reference = std::move(*trace);
    reference_queries = std::make_unique<skills::TraceDatabaseRunner>(&reference->db());
    reference_runner = std::make_unique<agent::LocalSkillRunner>(library, *reference_queries);
  }

  // The LLM agent when a provider is configured, else the offline analyst.
  llm::LlmConfig llm_config;
  if (!a.offline) {
    auto config = llm::LoadLlmConfig(a.llm_config);
    if (!config.ok()) {
      std::fprintf(stderr, "tracewise analyze: LLM configuration: %s\n",
                   std::string(config.status().message()).c_str());
      return 2;
    }
    llm_config = *config;
  }
  agent::AnalysisReport report;
  std::string comparison_markdown;  // the offline comparison section, after the report
  bool streamed = false;  // the answer already went to stdout as it streamed
  if (llm_config.configured()) {
    auto provider = llm::MakeProvider(llm_config);
    if (!provider.ok()) {
      std::fprintf(stderr, "tracewise analyze: %s\n", std::string(provider.status().message()).c_str());
      return 2;
    }
    progress("LLM: " + llm_config.Describe());
    agent::ToolContext tools;
    tools.skills = runner.get();
    tools.skill_library = &library;
    tools.sql = queries.get();
    tools.schema = schema.get();
    tools.strategies = &*strategies;
    if (reference) tools.reference = {a.reference, reference_runner.get(), reference_queries.get()};
    agent::AgentLoop loop(**provider, *strategies, tools, verifier.get(), LoopOptionsFor(llm_config));
    agent::TurnRequest request;
    request.question = a.question.empty() ? "Give me an overview of this trace: what stands out?"
                                          : a.question;
    request.mode = a.mode;
    request.scene = a.scene;
    if (reference) request.context.reference_trace_id = a.reference;
    if (auto context = agent::ProbeTraceContext(*queries); context.ok()) {
      request.context.trace_context = context->Describe();
    }
    agent::AgentSession session;
    session.trace = a.trace;
    ConsoleOptions console;
    streamed = console.stream_text = a.format == "md" && a.out.empty();
    console.quiet = a.quiet;
    const agent::TurnOutcome outcome = loop.Run(
        request, session, [&](const agent::AgentEvent& e) { PrintAgentEvent(e, console); });
    if (streamed) std::fputs("\n", stdout);
    progress(TurnSummary(outcome, llm_config));
    report = outcome.report;
    report.trace = a.trace;
    if (!outcome.status.ok() && outcome.answer.empty() && report.findings.empty()) return 1;
  } else {
    agent::OfflineAnalyst analyst(*strategies, *runner, verifier.get());
    agent::OfflineAnalystOptions options;
    options.scene = a.scene;
    options.on_step = [&](const agent::AnalysisStep& step) {
      progress(step.id + " (" + step.skill + "): " + step.status + ", " +
               FormatDurationNs(step.elapsed_ns));
    };
    report = analyst.Analyze(a.question, a.trace, options);
    if (reference) {
      if (const strategy::Strategy* scene = strategies->Find(report.scene)) {
        agent::ProcedureComparisonOptions compare;
        compare.context_probes = strategies->context_probes();
        compare.current_label = a.trace;
        compare.reference_label = a.reference;
        compare.on_skill = [&](const std::string& skill) { progress("comparing " + skill); };
        agent::ProcedureComparison comparison =
            agent::CompareProcedure(*scene, *runner, *reference_runner, compare);
        for (const auto& table : comparison.differences) report.artifacts.push_back(table);
        comparison_markdown = std::move(comparison.markdown);
      }
    }
    progress("scene " + report.scene + ", " + std::to_string(report.findings.size()) +
             " findings, verification " + (report.verified ? "passed" : "did not pass") + ", " +
             FormatDurationNs(report.elapsed_ns));
  }
  if (streamed) return 0;

  std::string text = a.format == "json" ? agent::RenderJson(report) : agent::RenderMarkdown(report);
  if (a.format == "md" && !comparison_markdown.empty()) text += "\n" + comparison_markdown;
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
