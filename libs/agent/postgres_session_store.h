#pragma once
// The session store on PostgreSQL (libpq): the shared store of orchestrator replicas
// (DESIGN.md §6, §8). Same contract as SqliteSessionStore; what differs is that several
// processes write at once:
// - every method is one transaction; event sequence numbers come from the session row
//   (`UPDATE ... SET last_seq = last_seq + 1 RETURNING`, which locks the row until commit), and
//   `PRIMARY KEY (session_id, seq)` makes a duplicate impossible, not just unlikely;
// - each append also `NOTIFY`s the session (delivered at commit), so a replica following a turn
//   another replica runs hears of new events at once (WaitForEvents), with polling as the
//   fallback if the notification connection drops.
// A small pool of connections serves concurrent calls; a broken connection is reopened on the
// next call (UNAVAILABLE for the call that found it broken). Commits are asynchronous
// (synchronous_commit = off, like the SQLite store's synchronous=NORMAL): what a replica
// committed survives the replica's crash; only a crash of the database server itself may drop
// the last fraction of a second.

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "libs/agent/session_store.h"

namespace tw::agent {

class PgConnection;

class PostgresSessionStore : public SessionStore {
 public:
  // `url`: postgres://USER:PASSWORD@HOST:PORT/DB (or any libpq connection string). Creates the
  // schema when missing (serialised between replicas by an advisory lock). UNAVAILABLE when the
  // server cannot be reached.
  static absl::StatusOr<std::unique_ptr<PostgresSessionStore>> Open(const std::string& url,
                                                                    int pool_size = 4);
  ~PostgresSessionStore() override;

  absl::StatusOr<SessionInfo> CreateSession(const std::string& trace_id, const std::string& title,
                                            const std::string& tenant = "",
                                            const std::string& owner = "") override;
  absl::StatusOr<SessionInfo> GetSession(const std::string& id) override;
  absl::StatusOr<std::vector<SessionInfo>> ListSessions(int limit,
                                                        const SessionFilter& filter = {}) override;
  absl::Status DeleteSession(const std::string& id) override;
  absl::StatusOr<int> StartTurn(const std::string& session, const std::string& question,
                                const std::string& mode, const std::string& scene,
                                const std::string& reference_trace_id = "") override;
  absl::Status FinishTurn(const std::string& session, int turn, const std::string& status,
                          const std::string& report_json) override;
  absl::StatusOr<std::vector<TurnInfo>> Turns(const std::string& session) override;
  absl::StatusOr<int64_t> AppendEvent(const std::string& session, int turn, const std::string& kind,
                                      const std::string& payload) override;
  absl::StatusOr<std::vector<StoredEvent>> EventsAfter(const std::string& session,
                                                       int64_t after_seq, int limit) override;
  absl::Status SaveArtifact(const std::string& session, const std::string& artifact_id,
                            const std::string& json) override;
  absl::StatusOr<std::string> LoadArtifact(const std::string& session,
                                           const std::string& artifact_id) override;
  absl::Status AddNote(const std::string& session, const std::string& note) override;
  absl::StatusOr<std::vector<std::string>> Notes(const std::string& session) override;
  absl::Status AddUsage(const std::string& session, const TokenUsage& usage) override;
  absl::Status SetSessionTrace(const std::string& session, const std::string& trace_id) override;
  // Client-tool continuations: conditional updates and row locks (FOR UPDATE on the turn, the
  // continuation and its requests) make each step atomic between replicas.
  absl::Status SaveContinuation(const std::string& session, int turn, const std::string& state,
                                const std::vector<ClientToolRequest>& requests) override;
  absl::StatusOr<AnswerReceipt> AnswerClientTool(const std::string& session,
                                                 const std::string& request_id,
                                                 const ClientToolAnswer& answer) override;
  absl::StatusOr<std::vector<ContinuationKey>> ExpireClientTools(int64_t now_ns) override;
  absl::StatusOr<std::vector<ContinuationKey>> ReadyContinuations(int limit) override;
  absl::StatusOr<Continuation> ClaimContinuation(const std::string& session, int turn,
                                                 bool even_if_pending = false) override;
  absl::StatusOr<Continuation> PeekContinuation(const std::string& session) override;

  bool shared() const override { return true; }
  absl::Status RenewTurnLease(const std::string& session, int turn, const std::string& owner,
                              int64_t until_ns) override;
  absl::StatusOr<std::vector<std::pair<std::string, int>>> ClaimExpiredTurns(
      const std::string& owner, int64_t now_ns, int64_t until_ns) override;
  // Woken by NOTIFY from any replica's AppendEvent (polling every half second as a fallback).
  absl::StatusOr<int64_t> WaitForEvents(const std::string& session, int64_t after_seq,
                                        int timeout_ms) override;

 private:
  explicit PostgresSessionStore(std::string url);
  struct Lease;  // one pooled connection, returned on destruction
  absl::StatusOr<Lease> Borrow();
  void Return(std::unique_ptr<PgConnection> conn, bool healthy);
  absl::StatusOr<int64_t> LastSeq(const std::string& session);
  void ListenLoop();

  std::string url_;
  std::mutex pool_mu_;
  std::condition_variable pool_cv_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int open_ = 0;
  int pool_size_ = 4;

  // LISTEN side: one connection on its own thread, waking WaitForEvents callers.
  std::mutex notify_mu_;
  std::condition_variable notify_cv_;
  std::map<std::string, int64_t> notified_;  // session -> generation of its last notification
  int64_t generation_ = 0;
  bool stopping_ = false;
  std::thread listener_;
};

}  // namespace tw::agent
