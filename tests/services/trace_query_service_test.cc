// The trace-query service as a real process on a loopback port, driven through the gRPC client
// (GrpcQueryBackend) and raw stubs: upload, load, streamed queries, schema, listing, every error
// status, and a bad trace or a slow query leaving other traces untouched.
#include <grpcpp/grpcpp.h>
#include "grpc/health/v1/health.grpc.pb.h"
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "libs/rpc/grpc_query_backend.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw {
namespace {

namespace fs = std::filesystem;

class TraceQueryServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tw_tq_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    server_ = std::make_unique<testing::ServiceProcess>(
        TW_TRACE_QUERY_BINARY, std::vector<std::string>{"--data-dir", (dir_ / "data").string(),
                                                        "--max-upload-mb", "8"});
    ASSERT_TRUE(server_->ok()) << "the service did not start";
    channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
    backend_ = std::make_unique<rpc::GrpcQueryBackend>(channel_);
    stub_ = tracewise::v1::TraceQuery::NewStub(channel_);
  }
  void TearDown() override {
    backend_.reset();
    stub_.reset();
    channel_.reset();
    // Open channels would hold the server's graceful shutdown until its deadline.
    if (server_) {
      EXPECT_EQ(server_->Stop(), 0);  // clean shutdown on SIGTERM
    }
    fs::remove_all(dir_);
  }

  std::string Synth(uint64_t seed) {
    synth::SchedTraceOptions options;
    options.cpus = 2;
    options.duration_ns = 500'000'000;
    options.processes = 4;
    options.threads = 12;
    options.seed = seed;
    const std::string path = (dir_ / ("synth" + std::to_string(seed) + ".pftrace")).string();
    EXPECT_TRUE(synth::WriteSyntheticSchedTrace(options, path).ok());
    return path;
  }

  std::string Upload(const std::string& path) {
    auto id = backend_->UploadFile(path);
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? *id : "";
  }

  fs::path dir_;
  std::unique_ptr<testing::ServiceProcess> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<rpc::GrpcQueryBackend> backend_;
  std::unique_ptr<tracewise::v1::TraceQuery::Stub> stub_;
};

TEST_F(TraceQueryServiceTest, UploadLoadQueryStreamAndSchema) {
  const std::string id = Upload(Synth(1));
  ASSERT_EQ(id.size(), 64u);
  EXPECT_EQ(Upload(Synth(1)), id);  // idempotent

  grpc::ClientContext load_context;
  tracewise::v1::LoadTraceRequest load;
  load.set_trace_id(id);
  tracewise::v1::TraceInfo info;
  ASSERT_TRUE(stub_->LoadTrace(&load_context, load, &info).ok());
  EXPECT_EQ(info.state(), tracewise::v1::TRACE_STATE_LOADED);
  EXPECT_EQ(info.format(), "perfetto_proto");
  EXPECT_GT(info.memory_bytes(), 0);

  BackendQuery count{id, "SELECT COUNT(*) AS n FROM sched WHERE cpu = :cpu"};
  count.params = {{"cpu", SqlValue::Int(0)}};
  auto n = backend_->Query(count);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(n->columns, std::vector<std::string>{"n"});
  const int64_t rows_cpu0 = n->rows[0][0].int_value;
  EXPECT_GT(rows_cpu0, 0);

  RowStream stream;
  stream.batch_rows = 100;
  int64_t streamed = 0;
  int batches = 0;
  std::vector<std::string> columns;
  stream.on_columns = [&](const std::vector<std::string>& c) {
    columns = c;
    return true;
  };
  stream.on_rows = [&](std::vector<std::vector<SqlValue>>&& rows) {
    streamed += static_cast<int64_t>(rows.size());
    ++batches;
    return true;
  };
  BackendQuery all{id, "SELECT ts, dur FROM sched WHERE cpu = 0"};
  all.stream = &stream;
  ASSERT_TRUE(backend_->Query(all).ok());
  EXPECT_EQ(columns, (std::vector<std::string>{"ts", "dur"}));
  EXPECT_EQ(streamed, rows_cpu0);
  EXPECT_GE(batches, static_cast<int>(rows_cpu0 / 100));

  BackendQuery capped{id, "SELECT ts FROM sched"};
  capped.max_rows = 7;
  auto seven = backend_->Query(capped);
  ASSERT_TRUE(seven.ok());
  EXPECT_EQ(seven->rows.size(), 7u);
  EXPECT_TRUE(seven->truncated);

  auto schema = backend_->GetSchema(id);
  ASSERT_TRUE(schema.ok());
  bool thread_state = false;
  for (const auto& t : *schema) thread_state |= t.name == "thread_state";
  EXPECT_TRUE(thread_state);

  grpc::ClientContext list_context;
  tracewise::v1::ListTracesResponse listed;
  ASSERT_TRUE(stub_->ListTraces(&list_context, {}, &listed).ok());
  ASSERT_EQ(listed.traces_size(), 1);
  EXPECT_EQ(listed.traces(0).name(), "synth1.pftrace");
  EXPECT_GT(listed.memory_used_bytes(), 0);

  grpc::health::v1::HealthCheckResponse health;
  grpc::ClientContext health_context;
  auto health_stub = grpc::health::v1::Health::NewStub(channel_);
  ASSERT_TRUE(health_stub->Check(&health_context, {}, &health).ok());
  EXPECT_EQ(health.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

TEST_F(TraceQueryServiceTest, ErrorsArePreciseAndLeaveOtherTracesUntouched) {
  const std::string id = Upload(Synth(1));
  auto code = [&](BackendQuery q) { return backend_->Query(q).status().code(); };
  EXPECT_EQ(code({std::string(64, 'a'), "SELECT 1"}), absl::StatusCode::kNotFound);
  EXPECT_EQ(code({"not-an-id", "SELECT 1"}), absl::StatusCode::kInvalidArgument);
  auto sql_error = backend_->Query({id, "SELECT nope FROM sched"});
  EXPECT_EQ(sql_error.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(sql_error.status().message()).find("no such column: nope"), std::string::npos);
  EXPECT_EQ(code({id, "DROP TABLE thread"}), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(code({id, "UPDATE thread SET name = 'x'"}), absl::StatusCode::kPermissionDenied);
  BackendQuery slow{id, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"};
  slow.timeout = absl::Milliseconds(100);
  EXPECT_EQ(code(slow), absl::StatusCode::kDeadlineExceeded);

  // Oversized and non-trace uploads are refused and stored nowhere.
  const std::string big = (dir_ / "big.bin").string();
  std::ofstream(big) << std::string(9 << 20, 'x');
  EXPECT_EQ(backend_->UploadFile(big).status().code(), absl::StatusCode::kResourceExhausted);
  const std::string text = (dir_ / "notes.txt").string();
  std::ofstream(text) << "\x01\x02\x03 definitely not a trace \xff\xfe";
  EXPECT_EQ(backend_->UploadFile(text).status().code(), absl::StatusCode::kInvalidArgument);
  // The engine reads 0 bytes as an empty trace; the service refuses such an upload itself.
  const std::string empty = (dir_ / "empty.pftrace").string();
  std::ofstream(empty).close();
  auto empty_upload = backend_->UploadFile(empty);
  EXPECT_EQ(empty_upload.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(empty_upload.status().message()).find("the upload is empty"),
            std::string::npos)
      << empty_upload.status();

  // The good trace still answers, and the store holds only it.
  EXPECT_TRUE(backend_->Query({id, "SELECT COUNT(*) FROM thread"}).ok());
  grpc::ClientContext list_context;
  tracewise::v1::ListTracesResponse listed;
  ASSERT_TRUE(stub_->ListTraces(&list_context, {}, &listed).ok());
  EXPECT_EQ(listed.traces_size(), 1);
}

TEST_F(TraceQueryServiceTest, ASlowQueryDoesNotBlockAnotherTraceAndCancels) {
  const std::string a = Upload(Synth(1)), b = Upload(Synth(2));
  ASSERT_TRUE(backend_->Query({a, "SELECT 1"}).ok());
  ASSERT_TRUE(backend_->Query({b, "SELECT 1"}).ok());
  std::atomic<bool> cancel{false};
  absl::Status slow_status;
  std::thread slow([&] {
    rpc::GrpcQueryBackend own(channel_);
    BackendQuery q{a, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"};
    q.timeout = absl::Seconds(30);
    q.cancelled = &cancel;
    slow_status = own.Query(q).status();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(backend_->Query({b, "SELECT COUNT(*) FROM sched"}).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  const auto cancel_at = std::chrono::steady_clock::now();
  cancel = true;
  slow.join();
  EXPECT_EQ(slow_status.code(), absl::StatusCode::kCancelled) << slow_status;
  EXPECT_LT(std::chrono::steady_clock::now() - cancel_at, std::chrono::seconds(2));
  // The server stopped the query too: the trace answers at once.
  const auto after = std::chrono::steady_clock::now();
  EXPECT_TRUE(backend_->Query({a, "SELECT 1"}).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - after, std::chrono::seconds(2));
}

}  // namespace
}  // namespace tw
