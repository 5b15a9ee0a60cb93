// The PostgreSQL session store against a real server started for this test binary (one server,
// a fresh database per test): the store's contract, and what sharing it between replicas needs —
// two store instances (two orchestrator processes' worth of connections) appending to one
// session at once get gapless, unique sequence numbers; a turn started on one is seen by the
// other; a waiter on one wakes when the other appends (LISTEN/NOTIFY). Skips, saying why, when
// the PostgreSQL server binaries are not installed.
#include "libs/agent/postgres_session_store.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "tests/agent/session_store_contract.h"
#include "tests/common/postgres_server.h"

namespace tw::agent {
namespace {

testing::PostgresServer* server = nullptr;

class PostgresSessionStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!server->ok()) GTEST_SKIP() << server->skip_reason();
    static int next = 0;
    const std::string db = "t" + std::to_string(++next);
    PGconn* c = PQconnectdb(server->url().c_str());
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PQclear(PQexec(c, ("CREATE DATABASE " + db).c_str()));
    PQfinish(c);
    url_ = server->url();
    url_.replace(url_.find("/postgres?"), 10, "/" + db + "?");
  }
  std::unique_ptr<PostgresSessionStore> Open() {
    auto store = PostgresSessionStore::Open(url_);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? std::move(*store) : nullptr;
  }
  std::string url_;
};

TEST_F(PostgresSessionStoreTest, SessionsTurnsEventsArtifactsNotesUsage) {
  auto store = Open();
  ASSERT_TRUE(store);
  auto s = store->CreateSession("trace-1", "scrolling");
  ASSERT_TRUE(s.ok()) << s.status();
  auto turn = store->StartTurn(s->id, "why jank?", "full", "scrolling", "trace-2");
  ASSERT_TRUE(turn.ok()) << turn.status();
  EXPECT_EQ(*turn, 1);
  for (int i = 1; i <= 3; ++i) {
    auto seq = store->AppendEvent(s->id, 1, "progress", std::string("{\"n\":") + std::to_string(i) + "}");
    ASSERT_TRUE(seq.ok()) << seq.status();
    EXPECT_EQ(*seq, i);
  }
  // Payloads are opaque bytes.
  const std::string binary("a\0b\xff", 4);
  EXPECT_EQ(*store->AppendEvent(s->id, 1, "blob", binary), 4);
  auto events = store->EventsAfter(s->id, 1, 10);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 3u);
  EXPECT_EQ((*events)[0].seq, 2);
  EXPECT_EQ((*events)[2].payload, binary);
  EXPECT_TRUE(store->EventsAfter(s->id, 4, 10)->empty());
  ASSERT_TRUE(store->FinishTurn(s->id, 1, "done", "{\"ok\":1}").ok());
  auto turns = store->Turns(s->id);
  ASSERT_EQ(turns->size(), 1u);
  EXPECT_EQ((*turns)[0].status, "done");
  EXPECT_EQ((*turns)[0].report_json, "{\"ok\":1}");
  EXPECT_EQ((*turns)[0].reference_trace_id, "trace-2");
  EXPECT_EQ(*store->StartTurn(s->id, "and now?", "quick", ""), 2);

  ASSERT_TRUE(store->SaveArtifact(s->id, "a1", "{\"x\":1}").ok());
  ASSERT_TRUE(store->SaveArtifact(s->id, "a1", "{\"x\":2}").ok());
  EXPECT_EQ(*store->LoadArtifact(s->id, "a1"), "{\"x\":2}");
  EXPECT_EQ(store->LoadArtifact(s->id, "a2").status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(store->Notes(s->id)->empty());
  ASSERT_TRUE(store->AddNote(s->id, "first").ok());
  ASSERT_TRUE(store->AddNote(s->id, "").ok());
  EXPECT_EQ(*store->Notes(s->id), (std::vector<std::string>{"first", ""}));
  ASSERT_TRUE(store->AddUsage(s->id, {10, 20, 5, 7}).ok());
  ASSERT_TRUE(store->AddUsage(s->id, {1, 2, 0, 3}).ok());
  auto info = store->GetSession(s->id);
  EXPECT_EQ(info->input_tokens, 11);
  EXPECT_EQ(info->output_tokens, 22);
  EXPECT_EQ(info->cached_tokens, 5);
  EXPECT_EQ(info->cost_micro_usd, 10);
  EXPECT_EQ(info->turns, 2);
  EXPECT_EQ(info->last_seq, 4);
  EXPECT_EQ(info->trace_id, "trace-1");

  auto other = store->CreateSession("trace-9", "");
  auto listed = store->ListSessions(10);
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ(store->ListSessions(1)->size(), 1u);

  ASSERT_TRUE(store->DeleteSession(s->id).ok());
  const std::string gone = s->id;
  EXPECT_EQ(store->GetSession(gone).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->DeleteSession(gone).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->AppendEvent(gone, 1, "x", "{}").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->StartTurn(gone, "q", "auto", "").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->FinishTurn(gone, 1, "done", "").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->Turns(gone).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->EventsAfter(gone, 0, 1).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->SaveArtifact(gone, "a", "{}").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->AddNote(gone, "n").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->Notes(gone).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store->AddUsage(gone, {}).code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(store->GetSession(other->id).ok());
}

TEST_F(PostgresSessionStoreTest, ReplicasAppendingAtOnceGetGaplessUniqueSequences) {
  // Two stores = two orchestrator processes' connection pools on one database.
  auto a = Open(), b = Open();
  ASSERT_TRUE(a && b);
  auto s = a->CreateSession("trace", "");
  ASSERT_TRUE(b->StartTurn(s->id, "q", "auto", "").ok());
  constexpr int kThreads = 8, kEach = 40;
  std::vector<std::thread> threads;
  std::mutex mu;
  std::vector<int64_t> seqs;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      PostgresSessionStore& store = t % 2 ? *a : *b;
      for (int i = 0; i < kEach; ++i) {
        auto seq = store.AppendEvent(s->id, 1, "progress", "{\"t\":" + std::to_string(t) + "}");
        ASSERT_TRUE(seq.ok()) << seq.status();
        std::lock_guard<std::mutex> lock(mu);
        seqs.push_back(*seq);
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<int64_t> unique(seqs.begin(), seqs.end());
  ASSERT_EQ(unique.size(), seqs.size()) << "a sequence number was handed out twice";
  EXPECT_EQ(*unique.begin(), 1);
  EXPECT_EQ(*unique.rbegin(), kThreads * kEach) << "gaps in the sequence";
  auto events = a->EventsAfter(s->id, 0, 100000);
  ASSERT_EQ(events->size(), static_cast<size_t>(kThreads * kEach));
  for (size_t i = 0; i < events->size(); ++i) EXPECT_EQ((*events)[i].seq, static_cast<int64_t>(i + 1));
  EXPECT_EQ(b->GetSession(s->id)->last_seq, kThreads * kEach);

  // Turns asked for at once on one session from both replicas: exactly one starts, the others
  // are told a turn is running (one turn at a time per session, across replicas).
  ASSERT_TRUE(a->FinishTurn(s->id, 1, "done", "").ok());
  std::atomic<int> started{0}, refused{0};
  threads.clear();
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      auto turn = (t % 2 ? *a : *b).StartTurn(s->id, "q" + std::to_string(t), "auto", "");
      if (turn.ok()) {
        EXPECT_EQ(*turn, 2);
        ++started;
      } else {
        EXPECT_EQ(turn.status().code(), absl::StatusCode::kFailedPrecondition) << turn.status();
        ++refused;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(started.load(), 1);
  EXPECT_EQ(refused.load(), 5);
}

TEST_F(PostgresSessionStoreTest, AnExpiredLeaseIsTakenOverByExactlyOneReplica) {
  auto a = Open(), b = Open();
  ASSERT_TRUE(a && b);
  auto s = a->CreateSession("trace", "");
  ASSERT_EQ(*a->StartTurn(s->id, "q", "auto", ""), 1);
  const int64_t now = 1'000'000'000'000'000'000;  // a fixed "now", far past any real lease
  ASSERT_TRUE(a->RenewTurnLease(s->id, 1, "replica-a", now + 5'000'000'000).ok());
  EXPECT_TRUE(b->ClaimExpiredTurns("replica-b", now, now + 5'000'000'000)->empty()) << "still leased";
  // Replica a stops renewing; later, b and c race for the turn: one gets it.
  auto c = Open();
  std::vector<std::pair<std::string, int>> got_b, got_c;
  std::thread tb([&] { got_b = *b->ClaimExpiredTurns("replica-b", now + 6'000'000'000, now + 20'000'000'000); });
  std::thread tc([&] { got_c = *c->ClaimExpiredTurns("replica-c", now + 6'000'000'000, now + 20'000'000'000); });
  tb.join();
  tc.join();
  EXPECT_EQ(got_b.size() + got_c.size(), 1u);
  const auto& claimed = got_b.empty() ? got_c : got_b;
  ASSERT_EQ(claimed.size(), 1u);
  EXPECT_EQ(claimed[0], std::make_pair(s->id, 1));
  // The replica that lost its lease cannot renew it any more; a finished turn is never claimed.
  EXPECT_EQ(a->RenewTurnLease(s->id, 1, "replica-a", now + 30'000'000'000).code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(b->FinishTurn(s->id, 1, "interrupted", "{}").ok());
  EXPECT_TRUE(b->ClaimExpiredTurns("replica-b", now + 100'000'000'000, now + 200'000'000'000)->empty());
  EXPECT_EQ(*a->StartTurn(s->id, "again", "auto", ""), 2);
}

TEST_F(PostgresSessionStoreTest, AWaiterOnOneReplicaWakesWhenAnotherAppends) {
  auto a = Open(), b = Open();
  ASSERT_TRUE(a && b);
  auto s = a->CreateSession("trace", "");
  // Nothing new: the wait times out with the current last sequence.
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(*a->WaitForEvents(s->id, 0, 200), 0);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(190));
  // Appended on b while a waits: a wakes well before its timeout.
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_TRUE(b->AppendEvent(s->id, 0, "progress", "{}").ok());
  });
  start = std::chrono::steady_clock::now();
  auto seq = a->WaitForEvents(s->id, 0, 10'000);
  const auto waited = std::chrono::steady_clock::now() - start;
  writer.join();
  ASSERT_TRUE(seq.ok());
  EXPECT_EQ(*seq, 1);
  EXPECT_LT(waited, std::chrono::seconds(2));
  EXPECT_EQ(a->WaitForEvents("s-nope", 0, 10).status().code(), absl::StatusCode::kNotFound);
}

// The SessionStore contract (tests/agent/session_store_contract.h) on a fresh database per test;
// `reopen` is a second store instance on it, as a second orchestrator replica holds.
std::string* contract_url = nullptr;

std::unique_ptr<SessionStore> OpenContract() {
  auto store = PostgresSessionStore::Open(*contract_url);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return nullptr;
  return std::move(*store);
}

store_contract::SessionStoreFactory PostgresFactory() {
  return {"postgres",
          [] {
            static int next = 0;
            const std::string db = "contract" + std::to_string(++next);
            PGconn* c = PQconnectdb(server->url().c_str());
            PQclear(PQexec(c, ("CREATE DATABASE " + db).c_str()));
            PQfinish(c);
            static std::string url;
            url = server->url();
            url.replace(url.find("/postgres?"), 10, "/" + db + "?");
            contract_url = &url;
            return OpenContract();
          },
          [] { return OpenContract(); },
          [] { return server->ok() ? std::string() : server->skip_reason(); }};
}

}  // namespace

namespace store_contract {
INSTANTIATE_TEST_SUITE_P(Postgres, SessionStoreContract, ::testing::Values(PostgresFactory()),
                         SessionStoreFactoryName);
}  // namespace store_contract

namespace {

TEST_F(PostgresSessionStoreTest, AnUnreachableServerIsUnavailable) {
  auto store = PostgresSessionStore::Open("postgresql:///postgres?host=/nonexistent&port=1");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace tw::agent

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  tw::testing::PostgresServer pg;  // one server for every test of this binary
  tw::agent::server = &pg;
  if (!pg.ok()) std::printf("PostgreSQL tests skipped: %s\n", pg.skip_reason().c_str());
  return RUN_ALL_TESTS();
}
