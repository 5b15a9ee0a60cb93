#pragma once
// One turn, whichever entry point asks (DESIGN.md §1): `tracewise analyze` (in process or through
// the services), `tracewise chat`, the orchestrator. Given a turn (question, mode, scene,
// selection, the client tools the caller can run) and one bundle of backends (query, skills,
// schema, verifier, an LLM provider or none, and the reference trace's backends for a
// comparison), the runner decides offline vs LLM, states the selection's scope, runs the turn —
// the agent loop, or the offline analyst plus, for a comparison, the scene procedure compared on
// both traces — and emits the events. The bundle is made by one factory (libs/backends) in
// process or from service addresses; nothing here knows which.
//
// A turn whose model calls client-side tools pauses: the runner hands its continuation (a string
// to persist) and the requests to the caller's PauseSink and returns `waiting_for_client`;
// Resume() carries it on, in any process, from that string and the client's answers.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "libs/agent/agent_loop.h"
#include "libs/agent/agent_session.h"
#include "libs/agent/schema_provider.h"
#include "libs/agent/selection_scope.h"
#include "libs/agent/session_store.h"
#include "libs/agent/skill_runner.h"
#include "libs/llm/llm_provider.h"
#include "libs/skills/skill_library.h"
#include "libs/strategy/strategy_library.h"
#include "libs/verify/verifier.h"

namespace tw::agent {

// What a turn reaches one trace through.
struct TraceBackends {
  std::string trace_id;  // how the turn names the trace: a path in process, an id remotely
  std::unique_ptr<skills::SkillQueryRunner> sql;
  std::unique_ptr<SkillRunner> skills;
  std::unique_ptr<SchemaProvider> schema;
  // The trace's context probes, described (cached per trace by the factory); empty = the
  // runner probes when the LLM needs them.
  std::string context;
  // What the runners reach the trace through (a loaded trace, a channel), kept alive with them.
  std::shared_ptr<void> keep_alive;
};

// Everything one turn runs on.
struct TurnBackends {
  TraceBackends trace;
  std::optional<TraceBackends> reference;           // a comparison's second trace
  std::unique_ptr<verify::VerifierClient> verifier;  // null: the report says it was not verified
  std::shared_ptr<llm::LlmProvider> llm;            // null: the offline analyst answers
};

struct TurnSpec {
  std::string question;       // empty: a general overview
  std::string mode = "auto";  // quick | full | auto
  std::string scene;          // forced scene; empty = classify the question
  TurnSelection selection;
  std::vector<std::string> client_tools;  // what the caller can run (client_tools.h)
  std::vector<llm::Message> history;      // earlier questions and answers of the session
};

// Turn statuses as the session store keeps them.
inline constexpr char kTurnDone[] = "done";
inline constexpr char kTurnError[] = "error";
inline constexpr char kTurnCancelled[] = "cancelled";

struct TurnResult {
  std::string status;     // done | error | cancelled | waiting_for_client
  AnalysisReport report;  // not for waiting_for_client
  std::string answer;     // Markdown: the model's answer, or the offline report rendered
  bool offline = false;
  llm::Usage usage;
  int model_calls = 0;
  bool partial = false;
  std::string stop_reason;
  absl::Status error;  // the provider's error, CANCELLED, a bad selection, ...
  // The question and the final answer, for the next turn's history (empty when none).
  std::vector<llm::Message> exchange;
  std::vector<ClientToolRequest> client_requests;  // waiting_for_client: what went out
  int64_t overhead_ns = 0;  // LLM turns: time outside the model calls
};

// Persists a paused turn (the orchestrator: SessionStore::SaveContinuation). OK = paused.
using PauseSink = std::function<absl::Status(const std::string& continuation,
                                             const std::vector<ClientToolRequest>& requests)>;

struct TurnRunnerOptions {
  // Limits, request options and costs of the agent loop. Its client_tools.timeout_ms is the wait
  // for a client; client_tools.run_now answers client tools in process (the CLI).
  AgentLoopOptions loop;
};

class TurnRunner {
 public:
  // `skill_library` (for list_skills) may be null.
  TurnRunner(const strategy::StrategyLibrary& strategies, const skills::SkillLibrary* skill_library,
             TurnRunnerOptions options = {});

  // What can be refused before a turn exists: the mode, the scene, the selection's range and the
  // client tools (INVALID_ARGUMENT, naming what is wrong).
  absl::Status Validate(const TurnSpec& spec) const;

  // Runs a turn. `session` keeps the agent's state across the turns of a session; it is reset
  // when the turn ends in an error or is cancelled, or when `backends` reach another trace than
  // the session's (DESIGN.md §5 state reset). `pause` may be empty: client tools then fail
  // unless options.loop.client_tools.run_now answers them.
  TurnResult Run(const TurnSpec& spec, TurnBackends& backends, AgentSession& session,
                 const AgentEventSink& emit, const std::function<bool()>& cancelled = {},
                 const PauseSink& pause = {});

  // Carries on a paused turn from its continuation with the client's answers (requests without
  // an answer count as cancelled; with `cancelled` set the turn ends at once with its partial
  // report). `session` is replaced by the paused turn's.
  TurnResult Resume(const std::string& continuation, const std::vector<ClientToolSlot>& answers,
                    TurnBackends& backends, AgentSession& session, const AgentEventSink& emit,
                    const std::function<bool()>& cancelled = {}, const PauseSink& pause = {});

 private:
  TurnResult RunOffline(const TurnSpec& spec, const std::optional<SelectionScope>& scope,
                        TurnBackends& backends, const AgentEventSink& emit,
                        const std::function<bool()>& cancelled);
  AgentLoop MakeLoop(TurnBackends& backends, const PauseSink& pause) const;
  TurnResult FromOutcome(TurnOutcome outcome, const std::string& question, TurnBackends& backends,
                         AgentSession& session) const;

  const strategy::StrategyLibrary& strategies_;
  const skills::SkillLibrary* skill_library_;
  TurnRunnerOptions options_;
};

// The question a turn without one asks.
inline constexpr char kOverviewQuestion[] = "Give me an overview of this trace: what stands out?";

}  // namespace tw::agent
