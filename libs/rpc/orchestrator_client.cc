#include "libs/rpc/orchestrator_client.h"

#include <grpcpp/grpcpp.h>

#include <chrono>

#include "absl/strings/str_cat.h"
#include "libs/rpc/status_convert.h"
#include "libs/rpc/trace_upload.h"
#include "tracewise/v1/orchestrator.grpc.pb.h"

namespace tw::rpc {

namespace pb = tracewise::v1;

struct OrchestratorClient::Stub {
  std::unique_ptr<pb::Orchestrator::Stub> stub;
};

std::optional<agent::AgentEventKind> AgentEventKindFromName(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(agent::AgentEventKind::kDone); ++k) {
    const auto kind = static_cast<agent::AgentEventKind>(k);
    if (name == agent::AgentEventKindName(kind)) return kind;
  }
  return std::nullopt;
}

OrchestratorClient::OrchestratorClient(const std::string& target)
    : stub_(std::make_unique<Stub>(Stub{pb::Orchestrator::NewStub(
          grpc::CreateChannel(target, grpc::InsecureChannelCredentials()))})) {}

OrchestratorClient::~OrchestratorClient() = default;

absl::StatusOr<std::string> OrchestratorClient::UploadFile(const std::string& path) {
  return UploadFileThrough(path, [this](grpc::ClientContext* context, pb::UploadTraceResponse* response) {
    return stub_->stub->UploadTrace(context, response);
  });
}

absl::StatusOr<std::string> OrchestratorClient::CreateSession(const std::string& trace_id,
                                                              const std::string& title) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  pb::CreateSessionRequest request;
  request.set_trace_id(trace_id);
  request.set_title(title);
  pb::Session session;
  const grpc::Status status = stub_->stub->CreateSession(&context, request, &session);
  if (!status.ok()) return FromGrpc(status);
  return session.id();
}

absl::Status OrchestratorClient::Ask(const std::string& session, const RemoteQuestion& q,
                                     const std::function<void(const agent::AgentEvent&)>& on_event) {
  grpc::ClientContext context;
  pb::AskRequest request;
  request.set_session_id(session);
  request.set_question(q.question);
  request.set_trace_id(q.trace_id);
  pb::AskOptions* o = request.mutable_options();
  o->set_mode(q.mode);
  o->set_scene(q.scene);
  o->set_reference_trace_id(q.reference_trace_id);
  for (const std::string& tool : q.client_tools) o->add_client_tools(tool);
  if (q.selection.time_range) {
    o->mutable_selection()->mutable_time_range()->set_start_ns(q.selection.time_range->start_ns);
    o->mutable_selection()->mutable_time_range()->set_end_ns(q.selection.time_range->end_ns);
  } else if (q.selection.slice_id) {
    o->mutable_selection()->set_slice_id(*q.selection.slice_id);
  }
  auto reader = stub_->stub->Ask(&context, request);
  pb::AnalysisEvent event;
  while (reader->Read(&event)) {
    const auto kind = AgentEventKindFromName(event.kind());
    if (!kind) continue;  // a newer server's event kind
    nlohmann::json payload = nlohmann::json::parse(event.payload_json(), nullptr, false);
    if (payload.is_discarded()) payload = nlohmann::json::object();
    if (on_event) on_event({*kind, std::move(payload)});
  }
  return FromGrpc(reader->Finish());
}

absl::Status OrchestratorClient::SubmitToolResult(const std::string& session,
                                                  const std::string& request_id,
                                                  const agent::ClientToolAnswer& answer) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  pb::SubmitToolResultRequest request;
  request.set_session_id(session);
  request.set_request_id(request_id);
  if (!answer.error.empty()) {
    request.set_error(answer.error);
  } else if (!answer.image.empty()) {
    request.mutable_image()->set_data(answer.image);
    request.mutable_image()->set_mime_type(answer.image_mime);
  } else {
    request.set_result_json(answer.result_json);
  }
  pb::SubmitToolResultResponse response;
  return FromGrpc(stub_->stub->SubmitToolResult(&context, request, &response));
}

absl::StatusOr<RemoteTurn> OrchestratorClient::LastTurn(const std::string& session) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  pb::GetSessionRequest request;
  request.set_session_id(session);
  pb::Session s;
  const grpc::Status status = stub_->stub->GetSession(&context, request, &s);
  if (!status.ok()) return FromGrpc(status);
  if (s.turns_size() == 0) return absl::NotFoundError(absl::StrCat("session ", session, " has no turn"));
  const pb::Turn& t = s.turns(s.turns_size() - 1);
  RemoteTurn out;
  out.index = t.index();
  out.status = t.status();
  out.report_json = t.report_json();
  out.trace_id = s.trace_id();
  out.input_tokens = s.input_tokens();
  out.output_tokens = s.output_tokens();
  out.cached_tokens = s.cached_tokens();
  return out;
}

namespace {

RemoteSession FromProto(const pb::Session& s) {
  RemoteSession out;
  out.info.id = s.id();
  out.info.trace_id = s.trace_id();
  out.info.title = s.title();
  out.info.created_ns = s.created_unix_ns();
  out.info.updated_ns = s.updated_unix_ns();
  out.info.turns = s.turns_size();
  out.info.last_seq = s.last_seq();
  out.info.input_tokens = s.input_tokens();
  out.info.output_tokens = s.output_tokens();
  out.info.cached_tokens = s.cached_tokens();
  out.info.cost_micro_usd = s.cost_micro_usd();
  for (const pb::Turn& t : s.turns()) {
    agent::TurnInfo turn;
    turn.index = t.index();
    turn.question = t.question();
    turn.mode = t.mode();
    turn.scene = t.scene();
    turn.status = t.status();
    turn.started_ns = t.started_unix_ns();
    turn.finished_ns = t.finished_unix_ns();
    out.turns.push_back(std::move(turn));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<RemoteSession>> OrchestratorClient::ListSessions(int limit) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  pb::ListSessionsRequest request;
  request.set_limit(limit);
  pb::ListSessionsResponse response;
  const grpc::Status status = stub_->stub->ListSessions(&context, request, &response);
  if (!status.ok()) return FromGrpc(status);
  std::vector<RemoteSession> out;
  for (const pb::Session& s : response.sessions()) {
    if (s.turns_size() == 0 && !s.id().empty()) {
      // A listing may leave the turns out; the session itself has them.
      grpc::ClientContext one;
      one.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
      pb::GetSessionRequest get;
      get.set_session_id(s.id());
      pb::Session full;
      if (stub_->stub->GetSession(&one, get, &full).ok()) {
        out.push_back(FromProto(full));
        continue;
      }
    }
    out.push_back(FromProto(s));
  }
  return out;
}

absl::Status OrchestratorClient::CancelTurn(const std::string& session) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  pb::CancelTurnRequest request;
  request.set_session_id(session);
  pb::CancelTurnResponse response;
  return FromGrpc(stub_->stub->CancelTurn(&context, request, &response));
}

}  // namespace tw::rpc
