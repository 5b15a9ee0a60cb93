// Both services as real processes on ephemeral loopback ports: trace-query holds the trace,
// skill-engine runs skills against it over gRPC (--trace-query). A skill run through the two
// hops gives the same envelopes (rows, artifact ids) as the same skill run in process, and
// errors keep their codes across both hops.

#include <grpcpp/grpcpp.h>

#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/rpc/grpc_query_backend.h"
#include "libs/skills/skill_executor.h"
#include "libs/skills/skill_library.h"
#include "libs/skills/trace_database_runner.h"
#include "libs/trace/trace_loader.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/skill_engine.grpc.pb.h"
#include "tests/common/process_temp_dir.h"

namespace tw::skills {
namespace {

namespace pb = tracewise::v1;

class SkillEngineProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::tw::testing::ProcessTempDir() + "/skill_engine_process_test";
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    synth::SchedTraceOptions o;
    o.cpus = 4;
    o.duration_ns = 400'000'000;
    o.processes = 6;
    o.threads = 30;
    trace_path_ = dir_ + "/sched.pftrace";
    ASSERT_TRUE(synth::WriteSyntheticSchedTrace(o, trace_path_).ok());

    trace_query_ = std::make_unique<testing::ServiceProcess>(
        TW_TRACE_QUERY_BINARY, std::vector<std::string>{"--data-dir", dir_ + "/store"});
    ASSERT_TRUE(trace_query_->ok()) << "trace-query did not start";
    skill_engine_ = std::make_unique<testing::ServiceProcess>(
        TW_SKILL_ENGINE_BINARY,
        std::vector<std::string>{"--trace-query", trace_query_->address(), "--skills",
                                 TW_SOURCE_DIR "/skills"});
    ASSERT_TRUE(skill_engine_->ok()) << "skill-engine did not start";

    rpc::GrpcQueryBackend uploader(trace_query_->address());
    auto id = uploader.UploadFile(trace_path_);
    ASSERT_TRUE(id.ok()) << id.status();
    trace_id_ = *id;
    stub_ = pb::SkillEngine::NewStub(
        grpc::CreateChannel(skill_engine_->address(), grpc::InsecureChannelCredentials()));
  }

  grpc::Status Invoke(const std::string& trace, const std::string& skill,
                      const std::map<std::string, std::string>& params,
                      std::vector<pb::SkillEvent>* events) {
    pb::InvokeSkillRequest req;
    req.set_trace_id(trace);
    req.set_skill(skill);
    for (const auto& [k, v] : params) (*req.mutable_params())[k] = v;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    auto reader = stub_->InvokeSkill(&ctx, req);
    pb::SkillEvent e;
    while (reader->Read(&e)) events->push_back(e);
    return reader->Finish();
  }

  std::string dir_;
  std::string trace_path_;
  std::string trace_id_;
  std::unique_ptr<testing::ServiceProcess> trace_query_;
  std::unique_ptr<testing::ServiceProcess> skill_engine_;
  std::unique_ptr<pb::SkillEngine::Stub> stub_;
};

TEST_F(SkillEngineProcessTest, SameResultsThroughBothServicesAsInProcess) {
  // In process.
  std::vector<Diagnostic> diags;
  SkillLibrary library = SkillLibrary::LoadDirectory(TW_SOURCE_DIR "/skills", &diags);
  auto trace = LoadTraceFile(trace_path_);
  ASSERT_TRUE(trace.ok()) << trace.status();
  TraceDatabaseRunner runner(&(*trace)->db());
  SkillExecutor executor(library, runner);

  for (const char* skill : {"cpu_top_threads", "runnable_latency", "trace_overview"}) {
    SCOPED_TRACE(skill);
    SkillRunResult local = executor.Run(*library.Find(skill), {});
    ASSERT_EQ(local.outcome, SkillOutcome::kOk) << local.message;

    std::vector<pb::SkillEvent> events;
    grpc::Status s = Invoke(trace_id_, skill, {}, &events);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.back().outcome(), "ok");
    size_t compared = 0;
    for (const auto& e : events) {
      if (e.kind() != pb::SkillEvent::STEP_COMPLETED || e.depth() != 0) continue;
      const StepResult* mine = nullptr;
      for (const auto& st : local.steps) {
        if (st->step == e.step()) mine = st.get();
      }
      ASSERT_NE(mine, nullptr) << e.step();
      EXPECT_EQ(e.envelope().artifact_id(), mine->artifact_id);
      ASSERT_EQ(static_cast<size_t>(e.envelope().rows_size()), mine->rows.size());
      for (size_t r = 0; r < mine->rows.size(); ++r) {
        for (size_t c = 0; c < mine->rows[r].size(); ++c) {
          const auto& v = e.envelope().rows(static_cast<int>(r)).values(static_cast<int>(c));
          const SqlValue& want = mine->rows[r][c];
          switch (want.type) {
            case SqlValue::Type::kInt:
              EXPECT_EQ(v.int_value(), want.int_value);
              break;
            case SqlValue::Type::kString:
              EXPECT_EQ(v.string_value(), want.string_value);
              break;
            case SqlValue::Type::kDouble:
              EXPECT_DOUBLE_EQ(v.double_value(), want.double_value);
              break;
            case SqlValue::Type::kNull:
              EXPECT_EQ(v.kind_case(), pb::Value::KIND_NOT_SET);
              break;
          }
        }
      }
      ++compared;
    }
    EXPECT_GT(compared, 0u);
  }
}

TEST_F(SkillEngineProcessTest, ErrorsKeepTheirCodesAcrossBothHops) {
  std::vector<pb::SkillEvent> events;
  EXPECT_EQ(Invoke(std::string(64, 'a'), "cpu_top_threads", {}, &events).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Invoke(trace_id_, "cpu_top_threads", {{"limit", "x"}}, &events).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(events.empty());
  ASSERT_TRUE(Invoke(trace_id_, "janky_frames", {}, &events).ok());
  EXPECT_EQ(events.back().outcome(), "not_supported");
  EXPECT_EQ(events.back().message(),
            "not supported by this trace: skill 'janky_frames' needs data in "
            "actual_frame_timeline_slice, which is empty in this trace");
}

}  // namespace
}  // namespace tw::skills
