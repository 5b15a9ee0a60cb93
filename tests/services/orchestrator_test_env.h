#pragma once
// The four services as real processes on loopback ports (trace-query, skill-engine, verifier,
// orchestrator) with a synthetic trace uploaded, plus helpers to drive the orchestrator's
// streams. Shared by the orchestrator's integration and end-to-end tests.

#include <grpcpp/grpcpp.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "libs/rpc/channel_security.h"
#include "libs/rpc/grpc_query_backend.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/orchestrator.grpc.pb.h"
#include "tests/common/process_temp_dir.h"

namespace tw::testing {

namespace pb = tracewise::v1;

struct CollectedEvents {
  std::vector<pb::AnalysisEvent> events;
  grpc::Status status;
  std::vector<std::string> Kinds() const {
    std::vector<std::string> k;
    for (const auto& e : events) k.push_back(e.kind());
    return k;
  }
  int Count(const std::string& kind) const {
    int n = 0;
    for (const auto& e : events) n += e.kind() == kind;
    return n;
  }
  nlohmann::json Payload(const std::string& kind) const {  // the last event of that kind
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if (it->kind() == kind) return nlohmann::json::parse(it->payload_json());
    }
    return nullptr;
  }
};

// Security for the whole env (issue #16): flags every service gets (--auth-config, --tls-*),
// and how this test process reaches them — mTLS with the client certificate and a bearer token
// on every call.
struct OrchestratorEnvSecurity {
  std::vector<std::string> flags;
  std::string ca, cert, key;
  std::string token;  // the bearer token itself (no "Bearer ")
};

class OrchestratorEnv {
 public:
  // `llm_env`: environment assignments for the orchestrator process (e.g. TRACEWISE_LLM_*).
  explicit OrchestratorEnv(const std::string& name, std::vector<std::string> llm_env = {})
      : dir_(::tw::testing::ProcessTempDir() + "/" + name), llm_env_(std::move(llm_env)) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }

  // Before StartBackends: every process with auth and mTLS, and this process's own calls (stubs
  // and GrpcQueryBackend, through libs/rpc's client security) with the certificate and token.
  void set_security(OrchestratorEnvSecurity security) {
    security_ = std::move(security);
    rpc::ClientSecurity client;
    client.tls = {security_.cert, security_.key, security_.ca, ""};
    client.authorization = "Bearer " + security_.token;
    ASSERT_TRUE(rpc::SetClientSecurity(client).ok());
  }
  bool secured() const { return !security_.flags.empty(); }

  // Starts the three backend services and uploads a small synthetic trace.
  void StartBackends() {
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 600'000'000;
    o.processes = 6;
    o.threads = 30;
    o.print_rate_hz = 100;
    const std::string trace = dir_ + "/sched.pftrace";
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, trace).ok());
    trace_query_ = std::make_unique<ServiceProcess>(TW_TRACE_QUERY_BINARY,
                                                    Secured({"--data-dir", dir_ + "/traces"}));
    ASSERT_TRUE(trace_query_->ok());
    skill_engine_ = std::make_unique<ServiceProcess>(
        TW_SKILL_ENGINE_BINARY,
        Secured({"--trace-query", trace_query_->address(), "--skills", TW_SOURCE_DIR "/skills"}));
    ASSERT_TRUE(skill_engine_->ok());
    verifier_ = std::make_unique<ServiceProcess>(TW_VERIFIER_BINARY, Secured({}));
    ASSERT_TRUE(verifier_->ok());
    rpc::GrpcQueryBackend uploader(trace_query_->address());
    auto id = uploader.UploadFile(trace);
    ASSERT_TRUE(id.ok()) << id.status();
    trace_id_ = *id;
  }

  // Flags added to every orchestrator this env starts (e.g. --client-tool-timeout-s 1).
  void set_orchestrator_args(std::vector<std::string> args) { orchestrator_args_ = std::move(args); }

  std::vector<std::string> OrchestratorArgs() const {
    std::vector<std::string> args = {"--trace-query", trace_query_->address(),
                                     "--skill-engine", skill_engine_->address(),
                                     "--verifier", verifier_->address(),
                                     "--data-dir", dir_ + "/orchestrator",
                                     "--strategies", TW_SOURCE_DIR "/strategies",
                                     "--skills", TW_SOURCE_DIR "/skills"};
    args.insert(args.end(), orchestrator_args_.begin(), orchestrator_args_.end());
    return Secured(args);
  }

  // A channel to one of the env's services, as this test process reaches it.
  std::shared_ptr<grpc::Channel> Channel(const std::string& address) const {
    if (!secured()) return grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadPem(security_.ca);
    ssl.pem_cert_chain = ReadPem(security_.cert);
    ssl.pem_private_key = ReadPem(security_.key);
    return grpc::CreateChannel(
        address, grpc::CompositeChannelCredentials(grpc::SslCredentials(ssl),
                                                   grpc::AccessTokenCredentials(security_.token)));
  }

  void StartOrchestrator() {
    stub_.reset();
    orchestrator_ = std::make_unique<ServiceProcess>(TW_ORCHESTRATOR_BINARY, OrchestratorArgs(), llm_env_);
    ASSERT_TRUE(orchestrator_->ok()) << "orchestrator did not start";
    stub_ = pb::Orchestrator::NewStub(Channel(orchestrator_->address()));
  }

  // A second orchestrator process on the same session store (another replica).
  void StartSecondOrchestrator() {
    second_stub_.reset();
    second_ = std::make_unique<ServiceProcess>(TW_ORCHESTRATOR_BINARY, OrchestratorArgs(), llm_env_);
    ASSERT_TRUE(second_->ok()) << "second orchestrator did not start";
    second_stub_ = pb::Orchestrator::NewStub(Channel(second_->address()));
  }
  pb::Orchestrator::Stub& second_stub() { return *second_stub_; }

  // Uploads a trace file to trace-query; returns its id.
  std::string Upload(const std::string& path) {
    rpc::GrpcQueryBackend uploader(trace_query_->address());
    auto id = uploader.UploadFile(path);
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : "";
  }
  const std::string& dir() const { return dir_; }
  const std::string& orchestrator_address() const { return orchestrator_->address(); }

  void KillOrchestrator() {
    stub_.reset();
    orchestrator_->Kill();
  }

  pb::Orchestrator::Stub& stub() { return *stub_; }
  const std::string& trace_id() const { return trace_id_; }
  const std::string& trace_query_address() const { return trace_query_->address(); }
  const std::string& skill_engine_address() const { return skill_engine_->address(); }
  const std::string& verifier_address() const { return verifier_->address(); }

  std::string CreateSession() {
    grpc::ClientContext ctx;
    pb::CreateSessionRequest req;
    req.set_trace_id(trace_id_);
    req.set_title("test");
    pb::Session session;
    const grpc::Status status = stub_->CreateSession(&ctx, req, &session);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return session.id();
  }

  // Reads the whole stream; stops early after `max_events` (then cancels the call).
  static CollectedEvents Read(grpc::ClientReader<pb::AnalysisEvent>* reader,
                              grpc::ClientContext* ctx, size_t max_events) {
    CollectedEvents out;
    pb::AnalysisEvent e;
    while (out.events.size() < max_events && reader->Read(&e)) out.events.push_back(e);
    if (out.events.size() >= max_events) ctx->TryCancel();
    out.status = reader->Finish();
    return out;
  }

  CollectedEvents Ask(const std::string& session, const std::string& question,
                      const std::string& mode = "auto", size_t max_events = SIZE_MAX) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    pb::AskRequest req;
    req.set_session_id(session);
    req.set_question(question);
    req.mutable_options()->set_mode(mode);
    auto reader = stub_->Ask(&ctx, req);
    return Read(reader.get(), &ctx, max_events);
  }

  CollectedEvents Resume(const std::string& session, int64_t from_seq) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    pb::ResumeRequest req;
    req.set_session_id(session);
    req.set_from_seq(from_seq);
    auto reader = stub_->Resume(&ctx, req);
    return Read(reader.get(), &ctx, SIZE_MAX);
  }

  pb::Session GetSession(const std::string& session, grpc::Status* status = nullptr) {
    grpc::ClientContext ctx;
    pb::GetSessionRequest req;
    req.set_session_id(session);
    pb::Session out;
    const grpc::Status s = stub_->GetSession(&ctx, req, &out);
    if (status) *status = s;
    return out;
  }

  ~OrchestratorEnv() {
    if (secured()) (void)rpc::SetClientSecurity({});  // back to plaintext for the next env
    second_stub_.reset();
    second_.reset();
    stub_.reset();
    orchestrator_.reset();
    verifier_.reset();
    skill_engine_.reset();
    trace_query_.reset();
  }

 private:
  std::vector<std::string> Secured(std::vector<std::string> args) const {
    args.insert(args.end(), security_.flags.begin(), security_.flags.end());
    return args;
  }
  static std::string ReadPem(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  OrchestratorEnvSecurity security_;
  std::string dir_;
  std::vector<std::string> llm_env_;
  std::vector<std::string> orchestrator_args_;
  std::unique_ptr<ServiceProcess> second_;
  std::unique_ptr<pb::Orchestrator::Stub> second_stub_;
  std::string trace_id_;
  std::unique_ptr<ServiceProcess> trace_query_;
  std::unique_ptr<ServiceProcess> skill_engine_;
  std::unique_ptr<ServiceProcess> verifier_;
  std::unique_ptr<ServiceProcess> orchestrator_;
  std::unique_ptr<pb::Orchestrator::Stub> stub_;
};

// Sequence numbers of a session's events start at 1 and have no gaps.
inline void ExpectGapless(const std::vector<pb::AnalysisEvent>& events, int64_t first) {
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].seq(), first + static_cast<int64_t>(i)) << "event " << i;
  }
}

}  // namespace tw::testing
