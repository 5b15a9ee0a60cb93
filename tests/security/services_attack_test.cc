// Issue #16's attack suite, part 1: trace-query, skill-engine and verifier as real processes
// with authentication and mTLS on. Tokens missing, forged, expired; another tenant's ids; the
// same bytes uploaded by two tenants; roles; plaintext and foreign-CA clients; hostile upload
// names; the storage quota; and every RPC of each service refusing an anonymous caller.

#include <google/protobuf/descriptor.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "tests/security/security_env.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"
#include "tracewise/v1/trace_query.grpc.pb.h"
#include "tracewise/v1/verifier.grpc.pb.h"

namespace tw {
namespace {

namespace pb = tracewise::v1;
namespace fs = std::filesystem;

class ServicesAttackTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    env_ = new testing::SecurityEnv("tw-attack");
    ASSERT_TRUE(env_->ok()) << "openssl could not make the test certificates";
    auto* tq = env_->Start(TW_TRACE_QUERY_BINARY,
                           {"--data-dir", env_->dir() + "/traces", "--max-upload-mb", "16"});
    ASSERT_NE(tq, nullptr) << "trace-query did not start";
    tq_ = new std::string(tq->address());
    auto* se = env_->Start(TW_SKILL_ENGINE_BINARY,
                           {"--trace-query", *tq_, "--skills", std::string(TW_SOURCE_DIR) + "/skills"});
    ASSERT_NE(se, nullptr) << "skill-engine did not start";
    se_ = new std::string(se->address());
    auto* v = env_->Start(TW_VERIFIER_BINARY, {});
    ASSERT_NE(v, nullptr) << "verifier did not start";
    verifier_ = new std::string(v->address());
    trace_path_ = new std::string(Synth(env_->dir() + "/a.pftrace", 1));
    other_path_ = new std::string(Synth(env_->dir() + "/b.pftrace", 2));
  }
  static void TearDownTestSuite() {
    delete env_;
    env_ = nullptr;
  }

  static std::string Synth(const std::string& path, uint64_t seed) {
    synth::SchedTraceOptions options;
    options.cpus = 2;
    options.duration_ns = 200'000'000;
    options.processes = 3;
    options.threads = 6;
    options.seed = seed;
    EXPECT_TRUE(synth::WriteSyntheticSchedTrace(options, path).ok());
    return path;
  }

  std::unique_ptr<pb::TraceQuery::Stub> Tq() { return pb::TraceQuery::NewStub(env_->Channel(*tq_)); }

  static void Authorize(grpc::ClientContext& context, const std::string& bearer) {
    if (!bearer.empty()) context.AddMetadata("authorization", bearer);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  }

  struct UploadResult {
    grpc::Status status;
    pb::UploadTraceResponse response;
    std::multimap<grpc::string_ref, grpc::string_ref> trailers;
    std::string retry_after;
  };
  UploadResult Upload(const std::string& bearer, const std::string& path,
                      const std::string& name = "") {
    UploadResult out;
    grpc::ClientContext context;
    Authorize(context, bearer);
    auto writer = Tq()->UploadTrace(&context, &out.response);
    pb::UploadTraceRequest request;
    request.mutable_metadata()->set_name(name.empty() ? fs::path(path).filename().string() : name);
    request.mutable_metadata()->set_size_bytes(static_cast<int64_t>(fs::file_size(path)));
    bool ok = writer->Write(request);
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    for (size_t at = 0; ok && at < bytes.size(); at += 64 * 1024) {
      request.Clear();
      request.set_chunk(bytes.substr(at, 64 * 1024));
      ok = writer->Write(request);
    }
    writer->WritesDone();
    out.status = writer->Finish();
    for (const auto& [k, v] : context.GetServerTrailingMetadata()) {
      if (k == "retry-after") out.retry_after = std::string(v.data(), v.size());
    }
    return out;
  }
  std::string UploadOk(const std::string& bearer, const std::string& path) {
    UploadResult r = Upload(bearer, path);
    EXPECT_TRUE(r.status.ok()) << r.status.error_message();
    return r.response.trace_id();
  }

  grpc::Status QueryAs(const std::string& bearer, const std::string& trace_id,
                       const std::string& sql = "SELECT count(*) FROM sched") {
    grpc::ClientContext context;
    Authorize(context, bearer);
    pb::QueryRequest request;
    request.set_trace_id(trace_id);
    request.set_sql(sql);
    auto reader = Tq()->Query(&context, request);
    pb::QueryResponse response;
    while (reader->Read(&response)) {
    }
    return reader->Finish();
  }
  std::vector<std::string> ListAs(const std::string& bearer) {
    grpc::ClientContext context;
    Authorize(context, bearer);
    pb::ListTracesResponse response;
    grpc::Status s = Tq()->ListTraces(&context, {}, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    std::vector<std::string> ids;
    for (const auto& t : response.traces()) ids.push_back(t.trace_id());
    return ids;
  }
  grpc::Status DeleteAs(const std::string& bearer, const std::string& id) {
    grpc::ClientContext context;
    Authorize(context, bearer);
    pb::DeleteTraceRequest request;
    request.set_trace_id(id);
    pb::DeleteTraceResponse response;
    return Tq()->DeleteTrace(&context, request, &response);
  }

  static testing::SecurityEnv* env_;
  static std::string* tq_;
  static std::string* se_;
  static std::string* verifier_;
  static std::string* trace_path_;
  static std::string* other_path_;
};
testing::SecurityEnv* ServicesAttackTest::env_ = nullptr;
std::string* ServicesAttackTest::tq_ = nullptr;
std::string* ServicesAttackTest::se_ = nullptr;
std::string* ServicesAttackTest::verifier_ = nullptr;
std::string* ServicesAttackTest::trace_path_ = nullptr;
std::string* ServicesAttackTest::other_path_ = nullptr;

TEST_F(ServicesAttackTest, NoForgedOrExpiredTokenIsUnauthenticated) {
  const std::string id = UploadOk(env_->Bearer("alpha", "uploader"), *trace_path_);
  ASSERT_FALSE(id.empty());
  const std::vector<std::string> bad = {
      "",                                            // none
      "Bearer twk_not-a-key-anyone-issued",          // unknown API key
      env_->Bearer("alpha", "admin") + "x",          // a real key, altered
      env_->ForgedJwt("alpha", "admin"),             // signed with a made-up secret
      env_->Jwt("alpha", "admin", -120),             // expired (HS256)
      env_->Jwt("alpha", "admin", -120, true),       // expired (RS256)
      "Basic YWxwaGE6YWRtaW4=",                      // not a bearer token
  };
  for (const std::string& bearer : bad) {
    EXPECT_EQ(QueryAs(bearer, id).error_code(), grpc::StatusCode::UNAUTHENTICATED) << bearer;
    EXPECT_EQ(Upload(bearer, *trace_path_).status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << bearer;
  }
  // Valid JWTs of both algorithms work.
  EXPECT_TRUE(QueryAs(env_->Jwt("alpha", "viewer", 600), id).ok());
  EXPECT_TRUE(QueryAs(env_->Jwt("alpha", "viewer", 600, true), id).ok());
}

TEST_F(ServicesAttackTest, EveryRpcRefusesAnAnonymousCaller) {
  // Each method of each service, called with an empty request and no token: UNAUTHENTICATED
  // (methods are listed from the service descriptors, so a new RPC cannot be forgotten).
  struct Target {
    const google::protobuf::ServiceDescriptor* service;
    std::string address;
  };
  const std::vector<Target> targets = {
      {pb::QueryRequest::descriptor()->file()->FindServiceByName("TraceQuery"), *tq_},
      {pb::InvokeSkillRequest::descriptor()->file()->FindServiceByName("SkillEngine"), *se_},
      {pb::VerifyRequest::descriptor()->file()->FindServiceByName("Verifier"), *verifier_}};
  for (const Target& t : targets) {
    ASSERT_NE(t.service, nullptr);
    auto channel = env_->Channel(t.address);
    grpc::GenericStub generic(channel);
    for (int m = 0; m < t.service->method_count(); ++m) {
      const auto* method = t.service->method(m);
      const std::string path = "/" + t.service->full_name() + "/" + method->name();
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
      grpc::CompletionQueue cq;
      auto call = generic.PrepareCall(&context, path, &cq);
      call->StartCall(reinterpret_cast<void*>(1));
      void* tag;
      bool ok;
      cq.Next(&tag, &ok);
      grpc::Slice nothing("");  // an empty message of any type
      grpc::ByteBuffer empty(&nothing, 1);
      call->Write(empty, grpc::WriteOptions().set_last_message(), reinterpret_cast<void*>(2));
      cq.Next(&tag, &ok);
      grpc::Status status;
      call->Finish(&status, reinterpret_cast<void*>(3));
      while (cq.Next(&tag, &ok) && tag != reinterpret_cast<void*>(3)) {
      }
      EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
          << path << ": " << status.error_message();
      cq.Shutdown();
      while (cq.Next(&tag, &ok)) {
      }
    }
  }
}

TEST_F(ServicesAttackTest, AnotherTenantsTraceIsNotFoundLikeAnUnknownOne) {
  const std::string id = UploadOk(env_->Bearer("alpha", "uploader"), *trace_path_);
  const std::string beta = env_->Bearer("beta", "admin");
  const std::string unknown(64, 'e');
  const grpc::Status stolen = QueryAs(beta, id);
  const grpc::Status missing = QueryAs(beta, unknown);
  EXPECT_EQ(stolen.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::NOT_FOUND);
  // Same wording apart from the id: nothing hints that the trace exists.
  std::string a = stolen.error_message(), b = missing.error_message();
  a.replace(a.find(id), id.size(), "ID");
  b.replace(b.find(unknown), unknown.size(), "ID");
  EXPECT_EQ(a, b);

  grpc::ClientContext load;
  Authorize(load, beta);
  pb::LoadTraceRequest load_request;
  load_request.set_trace_id(id);
  pb::TraceInfo info;
  EXPECT_EQ(Tq()->LoadTrace(&load, load_request, &info).error_code(), grpc::StatusCode::NOT_FOUND);
  grpc::ClientContext schema;
  Authorize(schema, beta);
  pb::GetSchemaRequest schema_request;
  schema_request.set_trace_id(id);
  pb::GetSchemaResponse schema_response;
  EXPECT_EQ(Tq()->GetSchema(&schema, schema_request, &schema_response).error_code(),
            grpc::StatusCode::NOT_FOUND);
  grpc::ClientContext unload;
  Authorize(unload, beta);
  pb::UnloadTraceRequest unload_request;
  unload_request.set_trace_id(id);
  pb::UnloadTraceResponse unload_response;
  EXPECT_EQ(Tq()->UnloadTrace(&unload, unload_request, &unload_response).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(DeleteAs(beta, id).error_code(), grpc::StatusCode::NOT_FOUND);
  // Through the skill engine (which forwards beta's token to trace-query).
  auto se = pb::SkillEngine::NewStub(env_->Channel(*se_));
  grpc::ClientContext invoke;
  Authorize(invoke, beta);
  pb::InvokeSkillRequest skill;
  skill.set_skill("cpu_top_threads");
  skill.set_trace_id(id);
  auto reader = se->InvokeSkill(&invoke, skill);
  pb::SkillEvent event;
  int events = 0;
  while (reader->Read(&event)) ++events;
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(events, 0);
  // The owner still has it.
  EXPECT_TRUE(QueryAs(env_->Bearer("alpha", "viewer"), id).ok());
}

TEST_F(ServicesAttackTest, SameBytesTwoTenantsShareNothing) {
  const UploadResult a = Upload(env_->Bearer("alpha", "uploader"), *other_path_);
  ASSERT_TRUE(a.status.ok()) << a.status.error_message();
  const UploadResult b = Upload(env_->Bearer("beta", "uploader"), *other_path_);
  ASSERT_TRUE(b.status.ok()) << b.status.error_message();
  EXPECT_NE(a.response.trace_id(), b.response.trace_id());
  EXPECT_FALSE(b.response.already_stored());  // nothing says alpha had these bytes
  const UploadResult again = Upload(env_->Bearer("beta", "uploader"), *other_path_);
  EXPECT_TRUE(again.response.already_stored());  // beta's own re-upload is idempotent
  EXPECT_EQ(again.response.trace_id(), b.response.trace_id());

  const std::vector<std::string> beta_list = ListAs(env_->Bearer("beta", "viewer"));
  EXPECT_NE(std::find(beta_list.begin(), beta_list.end(), b.response.trace_id()), beta_list.end());
  for (const std::string& id : ListAs(env_->Bearer("alpha", "viewer"))) {
    EXPECT_EQ(std::find(beta_list.begin(), beta_list.end(), id), beta_list.end()) << id;
  }
  EXPECT_EQ(QueryAs(env_->Bearer("beta", "viewer"), a.response.trace_id()).error_code(),
            grpc::StatusCode::NOT_FOUND);
  // beta deleting its copy leaves alpha's untouched (the shared bytes stay while alpha has them).
  EXPECT_TRUE(DeleteAs(env_->Bearer("beta", "admin"), b.response.trace_id()).ok());
  EXPECT_EQ(QueryAs(env_->Bearer("beta", "admin"), b.response.trace_id()).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(QueryAs(env_->Bearer("alpha", "viewer"), a.response.trace_id()).ok());
}

TEST_F(ServicesAttackTest, RolesViewerCannotUploadOrDeleteUploaderCannotDelete) {
  const std::string id = UploadOk(env_->Bearer("alpha", "uploader"), *trace_path_);
  EXPECT_EQ(Upload(env_->Bearer("alpha", "viewer"), *trace_path_).status.error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(DeleteAs(env_->Bearer("alpha", "viewer"), id).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(DeleteAs(env_->Bearer("alpha", "uploader"), id).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(DeleteAs(env_->Jwt("alpha", "viewer", 600), id).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(QueryAs(env_->Bearer("alpha", "viewer"), id).ok());
}

TEST_F(ServicesAttackTest, PlaintextAndForeignCertificatesAreRefused) {
  for (const auto& address : {*tq_, *se_, *verifier_}) {
    for (auto channel : {testing::SecurityEnv::Plaintext(address), env_->ChannelWithoutClientCert(address),
                         env_->RogueChannel(address)}) {
      auto stub = pb::TraceQuery::NewStub(channel);
      grpc::ClientContext context;
      Authorize(context, env_->Bearer("alpha", "admin"));
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(3));
      pb::ListTracesResponse response;
      const grpc::Status s = stub->ListTraces(&context, {}, &response);
      EXPECT_FALSE(s.ok()) << address;
      EXPECT_NE(s.error_code(), grpc::StatusCode::UNIMPLEMENTED) << address;  // never reached a handler
    }
  }
}

TEST_F(ServicesAttackTest, HostileUploadNamesAreStoredSafely) {
  const std::string evil = std::string("../../../../etc/cron.d/evil\0.pftrace", 36);
  const std::string fresh = Synth(env_->dir() + "/names.pftrace", 21);
  UploadResult r = Upload(env_->Bearer("alpha", "uploader"), fresh, evil);
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  r = Upload(env_->Bearer("beta", "uploader"), fresh, "..\\..\\windows\\x\n<script>.pftrace");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  grpc::ClientContext context;
  Authorize(context, env_->Bearer("alpha", "viewer"));
  pb::ListTracesResponse list;
  ASSERT_TRUE(Tq()->ListTraces(&context, {}, &list).ok());
  std::set<std::string> names;
  for (const auto& t : list.traces()) names.insert(t.name());
  for (const std::string& name : names) {
    EXPECT_EQ(name.find('/'), std::string::npos) << name;
    EXPECT_EQ(name.find('\0'), std::string::npos) << name;
    EXPECT_EQ(name.find(".."), std::string::npos) << name;
  }
  EXPECT_TRUE(names.count("evil.pftrace")) << "names seen: " << names.size();
  grpc::ClientContext beta_context;
  Authorize(beta_context, env_->Bearer("beta", "viewer"));
  pb::ListTracesResponse beta_list;
  ASSERT_TRUE(Tq()->ListTraces(&beta_context, {}, &beta_list).ok());
  bool windows_name = false;
  for (const auto& t : beta_list.traces()) windows_name |= t.name() == "x<script>.pftrace";
  EXPECT_TRUE(windows_name);
  // Nothing was written outside the data directory.
  EXPECT_FALSE(fs::exists(env_->dir() + "/etc"));
  for (const auto& entry : fs::recursive_directory_iterator(env_->dir() + "/traces")) {
    const std::string file = entry.path().filename().string();
    EXPECT_EQ(file.find("evil"), std::string::npos) << entry.path();
  }
}

TEST_F(ServicesAttackTest, StorageQuotaRefusesWithRetryAfterThenAllowsAfterDelete) {
  const std::string uploader = env_->Bearer("small", "uploader");
  // Two ~190 KB traces fit under the 300 KB quota one at a time, not together.
  const std::string first = Synth(env_->dir() + "/q1.pftrace", 11);
  const std::string second = Synth(env_->dir() + "/q2.pftrace", 12);
  ASSERT_LT(fs::file_size(first), static_cast<uintmax_t>(testing::SecurityEnv::kSmallTenantBytes));
  ASSERT_GT(fs::file_size(first) + fs::file_size(second),
            static_cast<uintmax_t>(testing::SecurityEnv::kSmallTenantBytes));
  const UploadResult a = Upload(uploader, first);
  ASSERT_TRUE(a.status.ok()) << a.status.error_message();
  const UploadResult refused = Upload(uploader, second);
  EXPECT_EQ(refused.status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_FALSE(refused.retry_after.empty());
  // Another tenant is not affected.
  EXPECT_TRUE(Upload(env_->Bearer("beta", "uploader"), second).status.ok());
  // Room made: the next upload is allowed.
  ASSERT_TRUE(DeleteAs(env_->Bearer("small", "admin"), a.response.trace_id()).ok());
  EXPECT_TRUE(Upload(uploader, second).status.ok());
}

TEST_F(ServicesAttackTest, SkillParametersOfTheWrongTypeAreInvalidArgument) {
  const std::string id = UploadOk(env_->Bearer("alpha", "uploader"), *trace_path_);
  auto se = pb::SkillEngine::NewStub(env_->Channel(*se_));
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"upid", "'; DROP TABLE slice; --"}, {"upid", "1.5e999"}, {"upid", "twelve"}}) {
    grpc::ClientContext context;
    Authorize(context, env_->Bearer("alpha", "viewer"));
    pb::InvokeSkillRequest request;
    request.set_skill("frame_overview");
    request.set_trace_id(id);
    (*request.mutable_params())[name] = value;
    auto reader = se->InvokeSkill(&context, request);
    pb::SkillEvent event;
    while (reader->Read(&event)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT) << value;
  }
  // A correct call through the same path still runs (the token travelled to trace-query).
  grpc::ClientContext context;
  Authorize(context, env_->Bearer("alpha", "viewer"));
  pb::InvokeSkillRequest request;
  request.set_skill("cpu_top_threads");
  request.set_trace_id(id);
  auto reader = se->InvokeSkill(&context, request);
  pb::SkillEvent event;
  int events = 0;
  while (reader->Read(&event)) ++events;
  EXPECT_TRUE(reader->Finish().ok());
  EXPECT_GT(events, 0);
}

TEST_F(ServicesAttackTest, AuditLogRecordsUploadsAndDeletes) {
  const std::string id = UploadOk(env_->Bearer("alpha", "uploader"), *other_path_);
  EXPECT_EQ(DeleteAs(env_->Bearer("alpha", "viewer"), id).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(DeleteAs(env_->Bearer("alpha", "admin"), id).ok());
  const std::string log = testing::ReadText(env_->dir() + "/audit.jsonl");
  bool upload = false, refused = false, deleted = false;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || j.value("object", "") != "trace/" + id) continue;
    upload |= j["action"] == "upload" && j["subject"] == "alpha-uploader" && j["tenant"] == "alpha";
    refused |= j["action"] == "delete" && j["outcome"] == "PERMISSION_DENIED" && j["subject"] == "alpha-viewer";
    deleted |= j["action"] == "delete" && j["outcome"] == "ok" && j["subject"] == "alpha-admin";
  }
  EXPECT_TRUE(upload && refused && deleted) << log;
}

}  // namespace
}  // namespace tw
