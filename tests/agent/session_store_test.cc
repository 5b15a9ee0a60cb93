#include "libs/agent/session_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>

namespace tw::agent {
namespace {

namespace fs = std::filesystem;

class SessionStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() / ("tw_sessions_" + std::to_string(getpid()) + ".db")).string();
    Remove();
  }
  void TearDown() override { Remove(); }
  void Remove() {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path_ + suffix);
  }
  std::unique_ptr<SqliteSessionStore> Open() {
    auto store = SqliteSessionStore::Open(path_);
    EXPECT_TRUE(store.ok()) << store.status();
    return std::move(*store);
  }
  std::string path_;
};

TEST_F(SessionStoreTest, SurvivesARestart) {
  std::string id;
  {
    auto store = Open();
    auto session = store->CreateSession("trace-abc", "scrolling");
    ASSERT_TRUE(session.ok());
    id = session->id;
    auto turn = store->StartTurn(id, "why jank?", "full", "scrolling");
    ASSERT_TRUE(turn.ok());
    EXPECT_EQ(*turn, 1);
    EXPECT_EQ(*store->AppendEvent(id, 1, "progress", "loading"), 1);
    EXPECT_EQ(*store->AppendEvent(id, 1, "answer_delta", std::string("a\0b", 3)), 2);
    ASSERT_TRUE(store->SaveArtifact(id, "sql-1", R"({"rows":[]})").ok());
    ASSERT_TRUE(store->AddNote(id, "binder suspected").ok());
    ASSERT_TRUE(store->AddUsage(id, {100, 20, 80, 5}).ok());
  }
  auto store = Open();  // a restarted orchestrator
  auto info = store->GetSession(id);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->trace_id, "trace-abc");
  EXPECT_EQ(info->turns, 1);
  EXPECT_EQ(info->last_seq, 2);
  EXPECT_EQ(info->input_tokens, 100);
  EXPECT_EQ(info->cost_micro_usd, 5);
  auto events = store->EventsAfter(id, 0, 100);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1].payload, std::string("a\0b", 3));  // payloads are bytes
  EXPECT_EQ(*store->AppendEvent(id, 1, "done", ""), 3);   // numbering continues
  EXPECT_EQ(*store->LoadArtifact(id, "sql-1"), R"({"rows":[]})");
  EXPECT_EQ(store->Notes(id)->size(), 1u);
  ASSERT_TRUE(store->FinishTurn(id, 1, "done", "{}").ok());
  EXPECT_EQ((*store->Turns(id))[0].status, "done");
}

TEST_F(SessionStoreTest, ResumeReturnsOnlyMissedEventsInOrder) {
  auto store = Open();
  const std::string id = store->CreateSession("t", "")->id;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(store->AppendEvent(id, 1, "e", std::to_string(i)).ok());
  auto missed = store->EventsAfter(id, 7, 100);
  ASSERT_EQ(missed->size(), 3u);
  EXPECT_EQ((*missed)[0].seq, 8);
  EXPECT_EQ((*missed)[2].payload, "9");
  EXPECT_EQ(store->EventsAfter(id, 0, 4)->size(), 4u);
}

TEST_F(SessionStoreTest, ConcurrentAppendsGetUniqueGaplessSequences) {
  auto store = Open();
  const std::string id = store->CreateSession("t", "")->id;
  std::vector<std::thread> threads;
  std::mutex mu;
  std::set<int64_t> seqs;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto seq = store->AppendEvent(id, 1, "e", "x");
        ASSERT_TRUE(seq.ok()) << seq.status();
        std::lock_guard<std::mutex> lock(mu);
        seqs.insert(*seq);
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(seqs.size(), 100u);
  EXPECT_EQ(*seqs.begin(), 1);
  EXPECT_EQ(*seqs.rbegin(), 100);
}

TEST_F(SessionStoreTest, UnknownSessionsAreNotFoundAndOthersUntouched) {
  auto store = Open();
  const std::string keep = store->CreateSession("t1", "")->id;
  const std::string drop = store->CreateSession("t2", "")->id;
  ASSERT_TRUE(store->AppendEvent(drop, 1, "e", "x").ok());
  ASSERT_TRUE(store->AppendEvent(keep, 1, "e", "y").ok());
  ASSERT_TRUE(store->DeleteSession(drop).ok());
  for (const std::string& id : {drop, std::string("s-nope")}) {
    EXPECT_EQ(store->GetSession(id).status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store->AppendEvent(id, 1, "e", "x").status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store->EventsAfter(id, 0, 10).status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store->StartTurn(id, "q", "full", "x").status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store->DeleteSession(id).code(), absl::StatusCode::kNotFound);
  }
  EXPECT_EQ(store->EventsAfter(keep, 0, 10)->size(), 1u);
  EXPECT_EQ(store->ListSessions(10)->size(), 1u);
  EXPECT_NE(store->CreateSession("t", "")->id, store->CreateSession("t", "")->id);
}

}  // namespace
}  // namespace tw::agent
