// The trace-query router against three real trace-query processes sharing one trace store:
// uploads go to the trace's owner by rendezvous hashing and are loaded there, ListTraces merges
// every replica, a killed owner's traces are served by the next-ranked replica (loaded from the
// shared store), a streamed upload without a checksum lands anywhere and is loaded by the owner,
// and a DNS target whose name resolves to a dead address as well as a live one still answers.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "libs/rpc/trace_query_router.h"
#include "tests/services/service_process.h"
#include "tools/synth/sched_trace_writer.h"
#include "tracewise/v1/trace_query.grpc.pb.h"

namespace tw {
namespace {

namespace fs = std::filesystem;
namespace pb = tracewise::v1;

class TraceQueryRouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tw_router_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // One store directory for all: the shared (ReadWriteMany) volume of a deployment.
    for (int i = 0; i < 3; ++i) {
      replicas_.push_back(std::make_unique<testing::ServiceProcess>(
          TW_TRACE_QUERY_BINARY, std::vector<std::string>{"--data-dir", (dir_ / "store").string(),
                                                          "--memory-budget-mb", "512"}));
      ASSERT_TRUE(replicas_.back()->ok()) << "replica " << i << " did not start";
      spec_ += (i ? "," : "") + replicas_.back()->address();
    }
    auto router = rpc::TraceQueryRouter::Create(spec_);
    ASSERT_TRUE(router.ok()) << router.status();
    router_ = std::move(*router);
  }
  void TearDown() override {
    router_.reset();
    for (auto& r : replicas_) r->Stop();
    fs::remove_all(dir_);
  }

  std::string Synth(uint64_t seed, double seconds = 0.3) {
    synth::SchedTraceOptions options;
    options.cpus = 2;
    options.duration_ns = static_cast<int64_t>(seconds * 1e9);
    options.processes = 3;
    options.threads = 8;
    options.seed = seed;
    const std::string path = (dir_ / ("synth" + std::to_string(seed) + ".pftrace")).string();
    EXPECT_TRUE(synth::WriteSyntheticSchedTrace(options, path).ok());
    return path;
  }

  // The traces one replica reports loaded, asked directly (not through the router).
  std::set<std::string> LoadedOn(const std::string& endpoint) {
    auto stub = pb::TraceQuery::NewStub(grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    pb::ListTracesResponse listed;
    EXPECT_TRUE(stub->ListTraces(&context, {}, &listed).ok());
    std::set<std::string> out;
    for (const auto& t : listed.traces()) {
      if (t.state() == pb::TRACE_STATE_LOADED) out.insert(t.trace_id());
    }
    return out;
  }

  testing::ServiceProcess* ProcessAt(const std::string& endpoint) {
    for (auto& r : replicas_) {
      if (r->address() == endpoint) return r.get();
    }
    return nullptr;
  }

  fs::path dir_;
  std::vector<std::unique_ptr<testing::ServiceProcess>> replicas_;
  std::string spec_;
  std::unique_ptr<rpc::TraceQueryRouter> router_;
};

TEST_F(TraceQueryRouterTest, UploadsAreLoadedByTheirOwnersAndListsMerge) {
  std::map<std::string, std::set<std::string>> expected;  // owner -> traces
  std::vector<std::string> ids;
  for (uint64_t seed = 1; seed <= 9; ++seed) {
    auto uploaded = router_->UploadFile(Synth(seed));
    ASSERT_TRUE(uploaded.ok()) << uploaded.status();
    ASSERT_TRUE(uploaded->load_status.ok()) << uploaded->load_status;
    const std::string owner = router_->OwnerOf(uploaded->trace_id);
    EXPECT_EQ(uploaded->owner, owner);
    EXPECT_EQ(uploaded->stored_by, owner) << "a known checksum goes straight to the owner";
    expected[owner].insert(uploaded->trace_id);
    ids.push_back(uploaded->trace_id);
  }
  EXPECT_GE(expected.size(), 2u) << "nine traces all hashed to one of three replicas";
  for (const auto& r : replicas_) EXPECT_EQ(LoadedOn(r->address()), expected[r->address()]);

  // Queries go to the owner: nothing loads anywhere else.
  for (const std::string& id : ids) {
    auto r = router_->Query({id, "SELECT COUNT(*) FROM sched"});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_GT(r->rows[0][0].int_value, 0);
  }
  for (const auto& r : replicas_) EXPECT_EQ(LoadedOn(r->address()), expected[r->address()]);

  pb::ListTracesResponse merged;
  ASSERT_TRUE(router_->ListTraces(&merged).ok());
  ASSERT_EQ(merged.traces_size(), 9);
  ASSERT_EQ(merged.replicas_size(), 3);
  int loaded_total = 0;
  for (const auto& rs : merged.replicas()) {
    EXPECT_TRUE(rs.reachable());
    EXPECT_EQ(rs.memory_budget_bytes(), int64_t{512} << 20);
    loaded_total += rs.loaded_traces();
  }
  EXPECT_EQ(loaded_total, 9);
  EXPECT_EQ(merged.memory_budget_bytes(), int64_t{3 * 512} << 20);
  for (const auto& t : merged.traces()) {
    EXPECT_EQ(t.state(), pb::TRACE_STATE_LOADED);
    EXPECT_EQ(t.replica(), t.owner());
    EXPECT_EQ(t.owner(), router_->OwnerOf(t.trace_id()));
  }

  // Unload reaches every replica.
  ASSERT_TRUE(router_->UnloadTrace(ids[0]).ok());
  for (const auto& r : replicas_) EXPECT_EQ(LoadedOn(r->address()).count(ids[0]), 0u);
  EXPECT_EQ(router_->Query({std::string(64, 'e'), "SELECT 1"}).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(router_->Query({ids[1], "SELECT nope"}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TraceQueryRouterTest, AKilledOwnersTracesAreServedByTheNextRanked) {
  auto uploaded = router_->UploadFile(Synth(7, 1.0));
  ASSERT_TRUE(uploaded.ok()) << uploaded.status();
  const std::string id = uploaded->trace_id;
  const std::vector<std::string> rank = router_->Rank(id);
  ASSERT_EQ(rank.size(), 3u);
  auto before = router_->Query({id, "SELECT COUNT(*) FROM sched"});
  ASSERT_TRUE(before.ok());

  ProcessAt(rank[0])->Kill();  // kill -9 of the owner
  const auto start = std::chrono::steady_clock::now();
  auto after = router_->Query({id, "SELECT COUNT(*) FROM sched"});
  const auto failover = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->rows[0][0].int_value, before->rows[0][0].int_value);
  EXPECT_LT(failover, std::chrono::seconds(3));
  EXPECT_EQ(LoadedOn(rank[1]).count(id), 1u) << "the next-ranked replica loaded it from the store";
  // The dead replica is now ranked last, so the next call does not try it first.
  EXPECT_EQ(router_->Rank(id).back(), rank[0]);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(router_->Query({id, "SELECT 1"}).ok());

  // Lists still answer, naming the replica that is down.
  pb::ListTracesResponse merged;
  ASSERT_TRUE(router_->ListTraces(&merged).ok());
  int unreachable = 0;
  for (const auto& rs : merged.replicas()) unreachable += rs.reachable() ? 0 : 1;
  EXPECT_EQ(unreachable, 1);
  ASSERT_EQ(merged.traces_size(), 1);
  EXPECT_EQ(merged.traces(0).replica(), rank[1]);

  // Uploads still land (on a survivor when the owner is the dead one).
  auto again = router_->UploadFile(Synth(8));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->load_status.ok());
  EXPECT_NE(again->owner, rank[0]);
}

TEST_F(TraceQueryRouterTest, StreamedUploadsLandAnywhereAndTheOwnerLoads) {
  const std::string path = Synth(11);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto upload = router_->BeginUpload("streamed.pftrace", static_cast<int64_t>(bytes.size()));
  ASSERT_TRUE(upload.ok()) << upload.status();
  for (size_t at = 0; at < bytes.size(); at += 4096) {
    ASSERT_TRUE((*upload)->Write(std::string_view(bytes).substr(at, 4096)).ok());
  }
  auto result = (*upload)->Finish();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->load_status.ok());
  EXPECT_EQ(result->owner, router_->OwnerOf(result->trace_id));
  EXPECT_EQ(LoadedOn(result->owner).count(result->trace_id), 1u);

  // A bad upload fails with the replica's status, and a dropped one leaves nothing behind.
  auto junk = router_->BeginUpload("junk.txt", 10);
  ASSERT_TRUE(junk.ok());
  ASSERT_TRUE((*junk)->Write("not a trace at all").ok());
  EXPECT_EQ((*junk)->Finish().status().code(), absl::StatusCode::kInvalidArgument);
  {
    auto dropped = router_->BeginUpload("dropped.pftrace", static_cast<int64_t>(bytes.size()));
    ASSERT_TRUE(dropped.ok());
    ASSERT_TRUE((*dropped)->Write(std::string_view(bytes).substr(0, 100)).ok());
  }
  pb::ListTracesResponse merged;
  ASSERT_TRUE(router_->ListTraces(&merged).ok());
  EXPECT_EQ(merged.traces_size(), 1);
}

TEST_F(TraceQueryRouterTest, ADnsTargetSkipsAddressesThatDoNotAnswer) {
  // localhost may resolve to ::1 as well, where nothing listens: the router must still answer.
  const std::string address = replicas_[0]->address();
  const std::string port = address.substr(address.rfind(':') + 1);
  auto router = rpc::TraceQueryRouter::Create("dns:///localhost:" + port);
  ASSERT_TRUE(router.ok()) << router.status();
  ASSERT_FALSE((*router)->Endpoints().empty());
  auto uploaded = (*router)->UploadFile(Synth(3));
  ASSERT_TRUE(uploaded.ok()) << uploaded.status();
  auto r = (*router)->Query({uploaded->trace_id, "SELECT COUNT(*) FROM thread"});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->rows[0][0].int_value, 0);
  auto nowhere = rpc::TraceQueryRouter::Create("dns:///no-such-host.invalid:7001");
  ASSERT_TRUE(nowhere.ok());
  EXPECT_EQ((*nowhere)->Query({uploaded->trace_id, "SELECT 1"}).status().code(),
            absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace tw
