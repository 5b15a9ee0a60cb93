#pragma once
// Durable session state for the orchestrator (DESIGN.md §6): sessions, their turns, the event
// stream with per-session sequence numbers (so a client can resume from a sequence after a
// disconnect), artifacts, notes and token usage. A restarted orchestrator opens the same store
// and carries on. `SqliteSessionStore` keeps it in one SQLite file (WAL; committed events survive a process crash).

#include <cstdint>
#include <memory>
#include <mutex>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

struct sqlite3;

namespace tw::agent {

struct SessionInfo {
  std::string id;
  std::string trace_id;
  std::string title;
  int64_t created_ns = 0;
  int64_t updated_ns = 0;
  int turns = 0;
  int64_t last_seq = 0;
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cached_tokens = 0;
  int64_t cost_micro_usd = 0;
};

struct TurnInfo {
  int index = 0;
  std::string question;
  std::string mode;
  std::string scene;
  std::string status;  // running | done | error | cancelled | interrupted
  int64_t started_ns = 0;
  int64_t finished_ns = 0;
  std::string report_json;
  std::string reference_trace_id;  // the trace it compared with; empty = none
};

struct StoredEvent {
  int64_t seq = 0;
  int turn = 0;
  std::string kind;     // progress, thought, answer_delta, tool_call, tool_result, ...
  std::string payload;  // serialized event (opaque to the store)
  int64_t ts_ns = 0;
};

struct TokenUsage {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cached_tokens = 0;
  int64_t cost_micro_usd = 0;
};

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  virtual absl::StatusOr<SessionInfo> CreateSession(const std::string& trace_id,
                                                    const std::string& title) = 0;
  // NOT_FOUND for unknown sessions everywhere below.
  virtual absl::StatusOr<SessionInfo> GetSession(const std::string& id) = 0;
  virtual absl::StatusOr<std::vector<SessionInfo>> ListSessions(int limit) = 0;
  virtual absl::Status DeleteSession(const std::string& id) = 0;

  virtual absl::StatusOr<int> StartTurn(const std::string& session, const std::string& question,
                                        const std::string& mode, const std::string& scene,
                                        const std::string& reference_trace_id = "") = 0;
  virtual absl::Status FinishTurn(const std::string& session, int turn, const std::string& status,
                                  const std::string& report_json) = 0;
  virtual absl::StatusOr<std::vector<TurnInfo>> Turns(const std::string& session) = 0;

  // Appends an event and returns its sequence number (1, 2, ... per session, no gaps).
  virtual absl::StatusOr<int64_t> AppendEvent(const std::string& session, int turn,
                                              const std::string& kind,
                                              const std::string& payload) = 0;
  // Events with seq > after_seq, in order, at most `limit`.
  virtual absl::StatusOr<std::vector<StoredEvent>> EventsAfter(const std::string& session,
                                                               int64_t after_seq, int limit) = 0;

  virtual absl::Status SaveArtifact(const std::string& session, const std::string& artifact_id,
                                    const std::string& json) = 0;
  virtual absl::StatusOr<std::string> LoadArtifact(const std::string& session,
                                                   const std::string& artifact_id) = 0;
  virtual absl::Status AddNote(const std::string& session, const std::string& note) = 0;
  virtual absl::StatusOr<std::vector<std::string>> Notes(const std::string& session) = 0;
  virtual absl::Status AddUsage(const std::string& session, const TokenUsage& usage) = 0;

  // ---- several orchestrators on one store (PostgreSQL; DESIGN.md §6) ----
  // A store one process owns (SQLite) keeps no leases: the defaults below fit it.
  // Whether other processes write this store too (leases and cross-process following apply).
  virtual bool shared() const { return false; }
  // Extends a running turn's lease for `owner` (a replica id) to `until_ns` (Unix ns).
  // FAILED_PRECONDITION when the turn no longer runs or another replica took it over.
  virtual absl::Status RenewTurnLease(const std::string& session, int turn,
                                      const std::string& owner, int64_t until_ns) {
    (void)session, (void)turn, (void)owner, (void)until_ns;
    return absl::OkStatus();
  }
  // Running turns whose lease ran out before `now_ns` (their orchestrator died), each taken over
  // by `owner` until `until_ns` at once: of racing replicas exactly one gets a turn, and then
  // ends it (interrupted).
  virtual absl::StatusOr<std::vector<std::pair<std::string, int>>> ClaimExpiredTurns(
      const std::string& owner, int64_t now_ns, int64_t until_ns) {
    (void)owner, (void)now_ns, (void)until_ns;
    return std::vector<std::pair<std::string, int>>{};
  }
  // Waits until the session's last sequence number passes `after_seq` or `timeout_ms` passes;
  // returns the last sequence number. This default polls; a shared store is woken by the
  // writer, whichever process it is.
  virtual absl::StatusOr<int64_t> WaitForEvents(const std::string& session, int64_t after_seq,
                                                int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (true) {
      auto info = GetSession(session);
      if (!info.ok() || info->last_seq > after_seq || std::chrono::steady_clock::now() >= deadline) {
        return info.ok() ? absl::StatusOr<int64_t>(info->last_seq) : info.status();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
};

class SqliteSessionStore : public SessionStore {
 public:
  // Creates the file and schema when missing. ":memory:" gives a private in-memory store.
  static absl::StatusOr<std::unique_ptr<SqliteSessionStore>> Open(const std::string& path);
  ~SqliteSessionStore() override;

  absl::StatusOr<SessionInfo> CreateSession(const std::string& trace_id,
                                            const std::string& title) override;
  absl::StatusOr<SessionInfo> GetSession(const std::string& id) override;
  absl::StatusOr<std::vector<SessionInfo>> ListSessions(int limit) override;
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

 private:
  explicit SqliteSessionStore(sqlite3* db) : db_(db) {}
  absl::Status Exec(const char* sql);
  absl::Status AddMissingColumns();
  absl::Status RequireSession(const std::string& id);

  sqlite3* db_;
  std::mutex mu_;  // one writer at a time; sequence numbers are assigned under it
};

}  // namespace tw::agent
