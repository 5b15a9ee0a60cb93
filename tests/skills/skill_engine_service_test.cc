// The skill-engine service over gRPC on an ephemeral loopback port, with traces held by a real
// trace store + trace manager in this process (LocalQueryBackend): list, describe, validate, and
// invoke with streamed events whose envelopes match independent SQL; precise statuses for an
// unknown skill, an unknown trace and bad parameters.

#include <grpcpp/grpcpp.h>

#include <filesystem>
#include <memory>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/trace/store/trace_manager.h"
#include "libs/trace/store/trace_store.h"
#include "services/skill_engine/skill_engine_service.h"
#include "tools/synth/sched_trace_writer.h"
#include "tests/common/process_temp_dir.h"

namespace tw::services {
namespace {

namespace pb = tracewise::v1;
using ::testing::HasSubstr;

class SkillEngineServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::tw::testing::ProcessTempDir() + "/skill_engine_service_test";
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 300'000'000;
    o.processes = 5;
    o.threads = 20;
    const std::string trace = dir_ + "/sched.pftrace";
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, trace).ok());
    auto store = TraceStore::Open(dir_ + "/store", int64_t{1} << 30);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = std::move(*store);
    auto added = store_->AddFile(trace);
    ASSERT_TRUE(added.ok()) << added.status();
    trace_id_ = added->id;
    manager_ = std::make_unique<TraceManager>(store_.get(), TraceManagerOptions{});
    backend_ = std::make_unique<LocalQueryBackend>(manager_.get());
    service_ = std::make_unique<SkillEngineService>(
        SkillEngineOptions{TW_SOURCE_DIR "/skills", absl::Seconds(30)}, backend_.get());

    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_GT(port, 0);
    stub_ = pb::SkillEngine::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  // Invokes and collects the stream.
  grpc::Status Invoke(const std::string& trace, const std::string& skill,
                      const std::map<std::string, std::string>& params,
                      std::vector<pb::SkillEvent>* events) {
    pb::InvokeSkillRequest req;
    req.set_trace_id(trace);
    req.set_skill(skill);
    for (const auto& [k, v] : params) (*req.mutable_params())[k] = v;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    auto reader = stub_->InvokeSkill(&ctx, req);
    pb::SkillEvent e;
    while (reader->Read(&e)) events->push_back(e);
    return reader->Finish();
  }

  int64_t Scalar(const std::string& sql) {
    BackendQuery q;
    q.trace_id = trace_id_;
    q.sql = sql;
    auto r = backend_->Query(q);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? r->rows[0][0].int_value : -1;
  }

  std::string dir_;
  std::unique_ptr<TraceStore> store_;
  std::string trace_id_;
  std::unique_ptr<TraceManager> manager_;
  std::unique_ptr<LocalQueryBackend> backend_;
  std::unique_ptr<SkillEngineService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<pb::SkillEngine::Stub> stub_;
};

TEST_F(SkillEngineServiceTest, ListDescribeValidate) {
  grpc::ClientContext c1;
  pb::ListSkillsRequest list_req;
  pb::ListSkillsResponse list;
  ASSERT_TRUE(stub_->ListSkills(&c1, list_req, &list).ok());
  EXPECT_EQ(static_cast<size_t>(list.skills_size()), service_->library().size());
  EXPECT_GT(list.skills_size(), 20);

  grpc::ClientContext c2;
  list_req.set_category("cpu");
  pb::ListSkillsResponse cpu;
  ASSERT_TRUE(stub_->ListSkills(&c2, list_req, &cpu).ok());
  for (const auto& s : cpu.skills()) EXPECT_EQ(s.category(), "cpu");
  EXPECT_GT(cpu.skills_size(), 3);

  grpc::ClientContext c3;
  pb::DescribeSkillRequest d;
  d.set_name("cpu_top_threads");
  pb::SkillDescription desc;
  ASSERT_TRUE(stub_->DescribeSkill(&c3, d, &desc).ok());
  EXPECT_EQ(desc.summary().name(), "cpu_top_threads");
  EXPECT_THAT(desc.required_tables(), ::testing::ElementsAre("sched"));
  bool has_limit = false;
  for (const auto& in : desc.inputs()) {
    if (in.name() == "limit") {
      has_limit = true;
      EXPECT_EQ(in.type(), "int");
      EXPECT_EQ(in.default_value(), "20");
    }
  }
  EXPECT_TRUE(has_limit);

  grpc::ClientContext c4;
  d.set_name("no_such_skill");
  EXPECT_EQ(stub_->DescribeSkill(&c4, d, &desc).error_code(), grpc::StatusCode::NOT_FOUND);

  grpc::ClientContext c5;
  pb::ValidateSkillsResponse v;
  ASSERT_TRUE(stub_->ValidateSkills(&c5, pb::ValidateSkillsRequest(), &v).ok());
  EXPECT_EQ(v.errors(), 0);
  EXPECT_EQ(static_cast<size_t>(v.skills()), service_->library().size());
}

TEST_F(SkillEngineServiceTest, InvokeStreamsEventsWithEnvelopes) {
  std::vector<pb::SkillEvent> events;
  grpc::Status s = Invoke(trace_id_, "cpu_top_threads", {{"limit", "3"}}, &events);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_GE(events.size(), 4u);
  EXPECT_EQ(events.front().kind(), pb::SkillEvent::SKILL_STARTED);
  EXPECT_EQ(events.back().kind(), pb::SkillEvent::SKILL_COMPLETED);
  EXPECT_EQ(events.back().outcome(), "ok");
  const pb::SkillEvent* top = nullptr;
  for (const auto& e : events) {
    if (e.kind() == pb::SkillEvent::STEP_COMPLETED && e.step() == "top") top = &e;
  }
  ASSERT_NE(top, nullptr);
  const pb::DataEnvelope& env = top->envelope();
  EXPECT_EQ(env.rows_size(), 3);
  EXPECT_FALSE(env.artifact_id().empty());
  EXPECT_EQ(env.provenance().trace_id(), trace_id_);
  EXPECT_EQ(env.provenance().skill(), "cpu_top_threads");
  EXPECT_THAT(env.provenance().sql(), HasSubstr("FROM sched"));
  int cpu_col = -1;
  for (int i = 0; i < env.columns_size(); ++i) {
    if (env.columns(i).name() == "cpu_time_ns") {
      cpu_col = i;
      EXPECT_EQ(env.columns(i).type(), pb::COLUMN_TYPE_DURATION_NS);
    }
  }
  ASSERT_GE(cpu_col, 0);
  const int64_t utid = env.rows(0).values(0).int_value();
  EXPECT_EQ(env.rows(0).values(cpu_col).int_value(),
            Scalar("SELECT SUM(dur) FROM sched WHERE dur > 0 AND utid = " + std::to_string(utid)));
}

TEST_F(SkillEngineServiceTest, NotSupportedAndErrors) {
  std::vector<pb::SkillEvent> events;
  ASSERT_TRUE(Invoke(trace_id_, "frame_overview", {}, &events).ok());
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().kind(), pb::SkillEvent::SKILL_COMPLETED);
  EXPECT_EQ(events.back().outcome(), "not_supported");
  EXPECT_THAT(events.back().message(), HasSubstr("needs data in actual_frame_timeline_slice"));

  events.clear();
  EXPECT_EQ(Invoke(trace_id_, "no_such_skill", {}, &events).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Invoke(std::string(64, '0'), "cpu_top_threads", {}, &events).error_code(),
            grpc::StatusCode::NOT_FOUND);
  grpc::Status bad = Invoke(trace_id_, "cpu_top_threads", {{"limit", "many"}, {"colour", "red"}}, &events);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad.error_message(), HasSubstr("unknown input 'colour'"));
  EXPECT_THAT(bad.error_message(), HasSubstr("'many' is not an integer"));
  EXPECT_TRUE(events.empty()) << "nothing streams before a bad request is refused";
}

}  // namespace
}  // namespace tw::services
