#pragma once
// The SessionStore contract (libs/agent/session_store.h) as a value-parameterized test suite, so
// every implementation — SQLite here, PostgreSQL for replicas — is held to the same behaviour:
// durable sessions, gapless per-session sequences under concurrency, precise status codes, and
// the client-tool continuations (pause, answer exactly once, time out atomically, claim exactly
// once, also between two handles on the same data as two orchestrator processes would hold).
//
// Use: include this header in ONE test file of an executable and instantiate it with a factory:
//
//   INSTANTIATE_TEST_SUITE_P(Sqlite, SessionStoreContract,
//                            ::testing::Values(SessionStoreFactory{"sqlite", fresh, reopen}),
//                            SessionStoreFactoryName);

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "libs/agent/session_store.h"

namespace tw::agent::store_contract {

struct SessionStoreFactory {
  std::string name;
  // A store over new, empty data.
  std::function<std::unique_ptr<SessionStore>()> fresh;
  // Another handle on the data of the last `fresh` store: a restarted process, or a second
  // orchestrator sharing the store. May be called while other handles are open.
  std::function<std::unique_ptr<SessionStore>()> reopen;
  // Why the implementation cannot be tested here (e.g. no database server); empty = it can.
  std::function<std::string()> skip_reason;
};

// gtest prints a parameter when a test fails.
inline void PrintTo(const SessionStoreFactory& factory, std::ostream* os) { *os << factory.name; }

inline std::string SessionStoreFactoryName(const ::testing::TestParamInfo<SessionStoreFactory>& info) {
  return info.param.name;
}

class SessionStoreContract : public ::testing::TestWithParam<SessionStoreFactory> {
 protected:
  void SetUp() override {
    if (GetParam().skip_reason) {
      if (const std::string why = GetParam().skip_reason(); !why.empty()) GTEST_SKIP() << why;
    }
    store_ = GetParam().fresh();
    ASSERT_NE(store_, nullptr);
  }
  std::unique_ptr<SessionStore> Reopen() {
    auto store = GetParam().reopen();
    EXPECT_NE(store, nullptr);
    return store;
  }
  SessionStore& store() { return *store_; }

  // A session with a running turn 1.
  std::string SessionWithRunningTurn() {
    auto session = store_->CreateSession("trace-a", "t");
    EXPECT_TRUE(session.ok()) << session.status();
    EXPECT_EQ(*store_->StartTurn(session->id, "why?", "full", "cpu"), 1);
    return session->id;
  }
  static ClientToolRequest Request(const std::string& id, const std::string& tool = "select_slice",
                                   int64_t deadline_ns = 4'000'000'000'000'000'000) {
    return {id, tool, R"({"slice_id": 7})", deadline_ns};
  }
  static ClientToolAnswer Json(const std::string& json) { return {json, "", "", ""}; }
  std::string TurnStatus(const std::string& session, int turn = 1) {
    auto turns = store_->Turns(session);
    EXPECT_TRUE(turns.ok()) << turns.status();
    for (const TurnInfo& t : *turns) {
      if (t.index == turn) return t.status;
    }
    return "";
  }

  std::unique_ptr<SessionStore> store_;
};

// ---- sessions, turns, events ----

TEST_P(SessionStoreContract, SurvivesARestart) {
  std::string id;
  {
    auto session = store().CreateSession("trace-abc", "scrolling");
    ASSERT_TRUE(session.ok());
    id = session->id;
    EXPECT_EQ(*store().StartTurn(id, "why jank?", "full", "scrolling", "trace-ref"), 1);
    EXPECT_EQ(*store().AppendEvent(id, 1, "progress", "loading"), 1);
    EXPECT_EQ(*store().AppendEvent(id, 1, "text_delta", std::string("a\0b", 3)), 2);
    ASSERT_TRUE(store().SaveArtifact(id, "sql-1", R"({"rows":[]})").ok());
    ASSERT_TRUE(store().AddNote(id, "binder suspected").ok());
    ASSERT_TRUE(store().AddUsage(id, {100, 20, 80, 5}).ok());
  }
  store_.reset();
  store_ = Reopen();  // a restarted orchestrator
  auto info = store().GetSession(id);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->trace_id, "trace-abc");
  EXPECT_EQ(info->turns, 1);
  EXPECT_EQ(info->last_seq, 2);
  EXPECT_EQ(info->input_tokens, 100);
  EXPECT_EQ(info->cost_micro_usd, 5);
  auto events = store().EventsAfter(id, 0, 100);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 2u);
  EXPECT_EQ((*events)[1].payload, std::string("a\0b", 3));  // payloads are bytes
  EXPECT_EQ(*store().AppendEvent(id, 1, "done", ""), 3);    // numbering continues
  EXPECT_EQ(*store().LoadArtifact(id, "sql-1"), R"({"rows":[]})");
  EXPECT_EQ(store().Notes(id)->size(), 1u);
  ASSERT_TRUE(store().FinishTurn(id, 1, "done", "{}").ok());
  const auto turns = *store().Turns(id);
  EXPECT_EQ(turns[0].status, "done");
  EXPECT_EQ(turns[0].reference_trace_id, "trace-ref");
}

TEST_P(SessionStoreContract, ResumeReturnsOnlyMissedEventsInOrder) {
  const std::string id = store().CreateSession("t", "")->id;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(store().AppendEvent(id, 1, "e", std::to_string(i)).ok());
  auto missed = store().EventsAfter(id, 7, 100);
  ASSERT_EQ(missed->size(), 3u);
  EXPECT_EQ((*missed)[0].seq, 8);
  EXPECT_EQ((*missed)[2].payload, "9");
  EXPECT_EQ(store().EventsAfter(id, 0, 4)->size(), 4u);
}

TEST_P(SessionStoreContract, ConcurrentAppendsFromTwoHandlesGetUniqueGaplessSequences) {
  const std::string id = store().CreateSession("t", "")->id;
  auto other = Reopen();  // a second process appending to the same session
  std::vector<std::thread> threads;
  std::mutex mu;
  std::set<int64_t> seqs;
  for (int t = 0; t < 4; ++t) {
    SessionStore* s = t % 2 == 0 ? store_.get() : other.get();
    threads.emplace_back([&, s] {
      for (int i = 0; i < 25; ++i) {
        auto seq = s->AppendEvent(id, 1, "e", "x");
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

TEST_P(SessionStoreContract, UnknownSessionsAreNotFoundAndOthersUntouched) {
  const std::string keep = store().CreateSession("t1", "")->id;
  const std::string drop = store().CreateSession("t2", "")->id;
  ASSERT_TRUE(store().AppendEvent(drop, 1, "e", "x").ok());
  ASSERT_TRUE(store().AppendEvent(keep, 1, "e", "y").ok());
  ASSERT_TRUE(store().DeleteSession(drop).ok());
  for (const std::string& id : {drop, std::string("s-nope")}) {
    EXPECT_EQ(store().GetSession(id).status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().AppendEvent(id, 1, "e", "x").status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().EventsAfter(id, 0, 10).status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().StartTurn(id, "q", "full", "x").status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().DeleteSession(id).code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().SetSessionTrace(id, "t3").code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().PeekContinuation(id).status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(store().AnswerClientTool(id, "r1", Json("{}")).status().code(),
              absl::StatusCode::kNotFound);
  }
  EXPECT_EQ(store().EventsAfter(keep, 0, 10)->size(), 1u);
  EXPECT_EQ(store().ListSessions(10)->size(), 1u);
  EXPECT_NE(store().CreateSession("t", "")->id, store().CreateSession("t", "")->id);
}

TEST_P(SessionStoreContract, SessionsSwitchTrace) {
  const std::string id = store().CreateSession("trace-a", "")->id;
  ASSERT_TRUE(store().SetSessionTrace(id, "trace-b").ok());
  EXPECT_EQ(store().GetSession(id)->trace_id, "trace-b");
}

// A session remembers its tenant and owner (issue #16); lists filter by them.
TEST_P(SessionStoreContract, SessionsKeepTheirTenantAndOwnerAndListsFilterByThem) {
  const std::string a1 = store().CreateSession("t", "", "acme", "ann")->id;
  const std::string a2 = store().CreateSession("t", "", "acme", "bob")->id;
  const std::string b1 = store().CreateSession("t", "", "globex", "ann")->id;
  const std::string open = store().CreateSession("t", "")->id;  // auth off: no tenant
  auto ids = [&](const SessionFilter& filter) {
    std::set<std::string> out;
    absl::StatusOr<std::vector<SessionInfo>> listed = store().ListSessions(100, filter);
    EXPECT_TRUE(listed.ok()) << listed.status();
    if (!listed.ok()) return out;
    for (const SessionInfo& s : *listed) out.insert(s.id);
    return out;
  };
  EXPECT_EQ(ids({}), (std::set<std::string>{a1, a2, b1, open}));
  EXPECT_EQ(ids({std::string("acme"), std::nullopt}), (std::set<std::string>{a1, a2}));
  EXPECT_EQ(ids({std::string("acme"), std::string("ann")}), (std::set<std::string>{a1}));
  EXPECT_EQ(ids({std::string("globex"), std::string("bob")}), (std::set<std::string>{}));
  EXPECT_EQ(ids({std::string(""), std::nullopt}), (std::set<std::string>{open}));
  auto reopened = Reopen();
  const SessionInfo info = *reopened->GetSession(a2);
  EXPECT_EQ(info.tenant, "acme");
  EXPECT_EQ(info.owner, "bob");
  EXPECT_EQ(reopened->GetSession(open)->tenant, "");
  absl::StatusOr<std::vector<SessionInfo>> globex = reopened->ListSessions(100, {std::string("globex"), std::nullopt});
  ASSERT_TRUE(globex.ok() && globex->size() == 1u);
  EXPECT_EQ(globex->front().owner, "ann");
}

// ---- client-tool continuations ----

TEST_P(SessionStoreContract, APausedTurnKeepsItsContinuationUntilClaimed) {
  const std::string id = SessionWithRunningTurn();
  const std::string blob("state\0with bytes", 16);
  ASSERT_TRUE(store().SaveContinuation(id, 1, blob, {Request("r1"), Request("r2", "capture_view")}).ok());
  EXPECT_EQ(TurnStatus(id), kTurnWaitingForClient);

  auto peek = store().PeekContinuation(id);
  ASSERT_TRUE(peek.ok()) << peek.status();
  EXPECT_EQ(peek->turn, 1);
  EXPECT_EQ(peek->state, blob);
  ASSERT_EQ(peek->tools.size(), 2u);
  EXPECT_EQ(peek->tools[0].request.request_id, "r1");
  EXPECT_EQ(peek->tools[1].request.tool, "capture_view");
  EXPECT_EQ(peek->tools[0].request.arguments, R"({"slice_id": 7})");
  EXPECT_EQ(peek->tools[1].state, ClientToolState::kPending);

  // Not claimable while a request is pending.
  EXPECT_EQ(store().ClaimContinuation(id, 1).status().code(), absl::StatusCode::kFailedPrecondition);
  auto first = store().AnswerClientTool(id, "r1", Json(R"({"selected": true})"));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->turn, 1);
  EXPECT_EQ(first->pending, 1);
  EXPECT_TRUE(store().ReadyContinuations(10)->empty());
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  auto second = store().AnswerClientTool(id, "r2", {"", png, "image/png", ""});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->pending, 0);
  const auto ready = *store().ReadyContinuations(10);
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0], (ContinuationKey{id, 1}));

  // A restarted process claims it: state and answers come back, the turn runs again.
  store_.reset();
  store_ = Reopen();
  EXPECT_EQ(TurnStatus(id), kTurnWaitingForClient);
  auto claimed = store().ClaimContinuation(id, 1);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_EQ(claimed->state, blob);
  ASSERT_EQ(claimed->tools.size(), 2u);
  EXPECT_EQ(claimed->tools[0].state, ClientToolState::kAnswered);
  EXPECT_EQ(claimed->tools[0].answer.result_json, R"({"selected": true})");
  EXPECT_EQ(claimed->tools[1].answer.image, png);
  EXPECT_EQ(claimed->tools[1].answer.image_mime, "image/png");
  EXPECT_GT(claimed->tools[1].settled_ns, 0);
  EXPECT_EQ(TurnStatus(id), kTurnRunning);
  EXPECT_EQ(store().ClaimContinuation(id, 1).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store().PeekContinuation(id).status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(store().ReadyContinuations(10)->empty());

  // A repeated answer is refused precisely, also after the claim.
  auto again = store().AnswerClientTool(id, "r1", Json("{}"));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(again.status().message().find("already answered"), absl::string_view::npos);

  // The same turn may pause again (the model calls another client tool), with new ids only.
  EXPECT_EQ(store().SaveContinuation(id, 1, "s2", {Request("r1")}).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(TurnStatus(id), kTurnRunning);  // nothing stored by the refused call
  EXPECT_EQ(store().PeekContinuation(id).status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(store().SaveContinuation(id, 1, "s2", {Request("r3")}).ok());
  EXPECT_EQ(store().PeekContinuation(id)->state, "s2");
  EXPECT_EQ(store().PeekContinuation(id)->tools.size(), 1u);
}

TEST_P(SessionStoreContract, PausingAndAnsweringAreRefusedPrecisely) {
  const std::string id = SessionWithRunningTurn();
  EXPECT_EQ(store().SaveContinuation(id, 1, "s", {}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store().SaveContinuation(id, 9, "s", {Request("r1")}).code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(store().SaveContinuation(id, 1, "s", {Request("r1")}).ok());
  // Already waiting: it cannot pause twice.
  EXPECT_EQ(store().SaveContinuation(id, 1, "s", {Request("r2")}).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store().AnswerClientTool(id, "r-unknown", Json("{}")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(store().AnswerClientTool(id, "r1", {}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store().AnswerClientTool(id, "r1", {"{}", "", "", "and an error"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(store().AnswerClientTool(id, "r1", {"", "", "", "the view is not open"}).ok());
  auto claimed = store().ClaimContinuation(id, 1);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed->tools[0].answer.error, "the view is not open");

  // Another session's request ids are not visible here.
  const std::string other = SessionWithRunningTurn();
  ASSERT_TRUE(store().SaveContinuation(other, 1, "s", {Request("r9")}).ok());
  EXPECT_EQ(store().AnswerClientTool(id, "r9", Json("{}")).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store().PeekContinuation(id).status().code(), absl::StatusCode::kNotFound);
}

TEST_P(SessionStoreContract, OverdueRequestsTimeOutOnceAndLateAnswersAreRefused) {
  const std::string id = SessionWithRunningTurn();
  ASSERT_TRUE(store().SaveContinuation(id, 1, "s", {Request("due", "select_slice", 1000),
                                                    Request("later", "capture_view", 5000)}).ok());
  EXPECT_TRUE(store().ExpireClientTools(999)->empty());
  auto touched = store().ExpireClientTools(1000);
  ASSERT_TRUE(touched.ok()) << touched.status();
  ASSERT_EQ(touched->size(), 1u);
  EXPECT_EQ((*touched)[0], (ContinuationKey{id, 1}));
  EXPECT_TRUE(store().ExpireClientTools(1000)->empty());  // settled once
  EXPECT_TRUE(store().ReadyContinuations(10)->empty());   // "later" is still pending
  auto late = store().AnswerClientTool(id, "due", Json("{}"));
  EXPECT_EQ(late.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(late.status().message().find("timed out"), absl::string_view::npos) << late.status();
  // An answer settled first is left alone by a later expiry.
  ASSERT_TRUE(store().AnswerClientTool(id, "later", Json(R"({"summary": "ok"})")).ok());
  EXPECT_TRUE(store().ExpireClientTools(9000)->empty());
  auto claimed = store().ClaimContinuation(id, 1);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_EQ(claimed->tools[0].state, ClientToolState::kTimedOut);
  EXPECT_EQ(claimed->tools[1].state, ClientToolState::kAnswered);
}

TEST_P(SessionStoreContract, CancellingClaimsAPendingContinuation) {
  const std::string id = SessionWithRunningTurn();
  ASSERT_TRUE(store().SaveContinuation(id, 1, "s", {Request("r1")}).ok());
  auto claimed = store().ClaimContinuation(id, 1, /*even_if_pending=*/true);
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_EQ(claimed->tools[0].state, ClientToolState::kPending);  // as it was when claimed
  auto late = store().AnswerClientTool(id, "r1", Json("{}"));
  EXPECT_EQ(late.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(late.status().message().find("cancelled"), absl::string_view::npos) << late.status();
  EXPECT_TRUE(store().ExpireClientTools(INT64_MAX)->empty());
}

TEST_P(SessionStoreContract, FinishingOrDeletingAWaitingTurnDropsItsContinuation) {
  const std::string id = SessionWithRunningTurn();
  ASSERT_TRUE(store().SaveContinuation(id, 1, "s", {Request("r1")}).ok());
  ASSERT_TRUE(store().FinishTurn(id, 1, "interrupted", "{}").ok());
  EXPECT_EQ(TurnStatus(id), "interrupted");
  EXPECT_EQ(store().PeekContinuation(id).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store().AnswerClientTool(id, "r1", Json("{}")).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(store().ExpireClientTools(INT64_MAX)->empty());

  const std::string gone = SessionWithRunningTurn();
  ASSERT_TRUE(store().SaveContinuation(gone, 1, "s", {Request("r1", "select_slice", 10)}).ok());
  ASSERT_TRUE(store().DeleteSession(gone).ok());
  EXPECT_EQ(store().AnswerClientTool(gone, "r1", Json("{}")).status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(store().ExpireClientTools(INT64_MAX)->empty());
  EXPECT_TRUE(store().ReadyContinuations(10)->empty());
}

// Two orchestrators race: answers against the timeout sweep, and claims against claims. Each
// request is settled exactly once and each continuation is resumed by exactly one of them.
TEST_P(SessionStoreContract, RacingProcessesSettleAndClaimExactlyOnce) {
  auto other = Reopen();
  constexpr int kSessions = 12;
  std::vector<std::string> ids;
  for (int i = 0; i < kSessions; ++i) {
    ids.push_back(SessionWithRunningTurn());
    ASSERT_TRUE(store().SaveContinuation(ids.back(), 1, "s" + std::to_string(i),
                                         {Request("r", "select_slice", 1000)}).ok());
  }
  std::atomic<int> answered{0}, refused{0}, claims{0}, lost_claims{0};
  std::vector<int> settled_by_answer(kSessions, 0);
  auto answer_all = [&](SessionStore* s) {
    for (int i = 0; i < kSessions; ++i) {
      auto r = s->AnswerClientTool(ids[i], "r", Json("{}"));
      if (r.ok()) {
        ++answered;
        settled_by_answer[i] = 1;
      } else {
        EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition) << r.status();
        ++refused;
      }
    }
  };
  std::thread a([&] { answer_all(store_.get()); });
  std::thread b([&] {
    auto touched = other->ExpireClientTools(2000);
    ASSERT_TRUE(touched.ok()) << touched.status();
  });
  a.join();
  b.join();
  EXPECT_EQ(answered + refused, kSessions);
  auto claim_all = [&](SessionStore* s) {
    for (int i = 0; i < kSessions; ++i) {
      auto c = s->ClaimContinuation(ids[i], 1);
      if (c.ok()) {
        ++claims;
        EXPECT_EQ(c->state, "s" + std::to_string(i));
        EXPECT_EQ(c->tools[0].state,
                  settled_by_answer[i] ? ClientToolState::kAnswered : ClientToolState::kTimedOut);
      } else {
        EXPECT_EQ(c.status().code(), absl::StatusCode::kNotFound) << c.status();
        ++lost_claims;
      }
    }
  };
  std::thread c1([&] { claim_all(store_.get()); });
  std::thread c2([&] { claim_all(other.get()); });
  c1.join();
  c2.join();
  EXPECT_EQ(claims.load(), kSessions);
  EXPECT_EQ(lost_claims.load(), kSessions);
  for (const std::string& id : ids) EXPECT_EQ(TurnStatus(id), kTurnRunning);
}

}  // namespace tw::agent::store_contract
