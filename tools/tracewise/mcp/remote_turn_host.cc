#include "tools/tracewise/mcp/remote_turn_host.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "libs/agent/report_render.h"
#include "libs/agent/turn_runner.h"

namespace tw::mcp {

RemoteTurnHost::RemoteTurnHost(std::string orchestrator)
    : address_(std::move(orchestrator)), client_(address_) {}

std::string RemoteTurnHost::Describe() const {
  return absl::StrCat("analyze on the orchestrator at ", address_, " (its sessions, its model)");
}

absl::StatusOr<TurnOutcome> RemoteTurnHost::Run(const TurnRequest& request, const agent::AgentEventSink& emit,
                                                const std::atomic<bool>* cancelled) {
  TurnOutcome outcome;
  outcome.session_id = request.session_id;
  if (outcome.session_id.empty()) {
    auto created = client_.CreateSession(
        request.trace_id, request.question.empty() ? agent::kOverviewQuestion : request.question);
    if (!created.ok()) {
      return absl::Status(created.status().code(),
                          absl::StrCat("trace ", request.trace_id, " on the orchestrator: ",
                                       created.status().message(), " (load_trace gives trace ids)"));
    }
    outcome.session_id = *created;
  }
  rpc::RemoteQuestion question;
  question.question = request.question;
  question.mode = request.mode.empty() ? "auto" : request.mode;
  question.scene = request.scene;

  // A cancelled call becomes CancelTurn; the orchestrator ends the turn and the stream.
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  bool cancel_sent = false;
  std::thread watcher([&] {
    std::unique_lock<std::mutex> lock(mu);
    while (!finished) {
      if (cancelled != nullptr && cancelled->load() && !cancel_sent) {
        cancel_sent = true;
        lock.unlock();
        (void)client_.CancelTurn(outcome.session_id);  // FAILED_PRECONDITION: it already ended
        lock.lock();
        continue;
      }
      cv.wait_for(lock, std::chrono::milliseconds(20));
    }
  });
  bool offline = false;
  const absl::Status asked = client_.Ask(outcome.session_id, question, [&](const agent::AgentEvent& e) {
    if (e.kind == agent::AgentEventKind::kProgress && e.data.value("stage", "") == "offline") offline = true;
    if (emit) emit(e);
  });
  {
    std::lock_guard<std::mutex> lock(mu);
    finished = true;
  }
  cv.notify_all();
  watcher.join();
  const bool was_cancelled = cancelled != nullptr && cancelled->load();
  if (!asked.ok() && !was_cancelled) {
    if (asked.code() == absl::StatusCode::kNotFound && !request.session_id.empty()) {
      return absl::NotFoundError(absl::StrCat("unknown session \"", request.session_id,
                                              "\" (analyze opens one; list_sessions lists them)"));
    }
    return asked;
  }
  auto turn = client_.LastTurn(outcome.session_id);
  if (!turn.ok()) return turn.status();
  outcome.turn = turn->index;
  outcome.status = was_cancelled && turn->status != agent::kTurnDone ? agent::kTurnCancelled : turn->status;
  outcome.deterministic = offline;
  if (!turn->report_json.empty()) {
    auto report = agent::ParseReportJson(turn->report_json);
    if (report.ok()) outcome.report = std::move(*report);
  }
  outcome.trace_id = turn->trace_id.empty() ? request.trace_id : turn->trace_id;
  outcome.report.trace = outcome.trace_id;
  if (!asked.ok()) outcome.error = std::string(asked.message());
  return outcome;
}

absl::StatusOr<std::vector<SessionSummary>> RemoteTurnHost::Sessions(const std::string& trace_id, int limit) {
  auto sessions = client_.ListSessions(trace_id.empty() ? limit : 1000);
  if (!sessions.ok()) return sessions.status();
  std::vector<SessionSummary> out;
  for (rpc::RemoteSession& s : *sessions) {
    if (!trace_id.empty() && s.info.trace_id != trace_id) continue;
    if (static_cast<int>(out.size()) >= limit) break;
    out.push_back({std::move(s.info), std::move(s.turns)});
  }
  return out;
}

}  // namespace tw::mcp
