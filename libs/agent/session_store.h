#pragma once
// Durable session state for the orchestrator (DESIGN.md §6): sessions, their turns, the event
// stream with per-session sequence numbers (so a client can resume from a sequence after a
// disconnect), artifacts, notes, token usage, and the continuations of turns paused for
// client-side tools. A restarted orchestrator opens the same store and carries on.
// `SqliteSessionStore` keeps it in one SQLite file (WAL; committed events survive a process
// crash); a PostgreSQL implementation shares it between orchestrator replicas.
//
// Implementing the interface: every method is one atomic step, also across processes that share
// the store (several orchestrators on one database): sequence numbers stay unique and gapless per
// session, a client-tool request is settled exactly once (answered or timed out), and a
// continuation is claimed by exactly one caller. Status codes are part of the contract (the
// orchestrator passes them to clients): NOT_FOUND for unknown sessions, turns, requests and
// continuations, FAILED_PRECONDITION for a state that does not allow the call, ALREADY_EXISTS for
// a duplicate id. tests/agent/session_store_contract.h is the conformance suite: instantiate it
// with a factory for a new implementation.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <chrono>
#include <optional>
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
  // Who the session belongs to (issue #16): the creator's tenant and subject. Both empty when
  // authentication is off.
  std::string tenant;
  std::string owner;
};

// Which sessions ListSessions returns: every one, or a tenant's, or one owner's in a tenant.
struct SessionFilter {
  std::optional<std::string> tenant;
  std::optional<std::string> owner;
};

// Turn statuses. A turn starts running; it may pause (waiting_for_client) and run again any
// number of times; it ends with one of the final statuses.
inline constexpr char kTurnRunning[] = "running";
inline constexpr char kTurnWaitingForClient[] = "waiting_for_client";

struct TurnInfo {
  int index = 0;
  std::string question;
  std::string mode;
  std::string scene;
  std::string status;  // running | waiting_for_client | done | error | cancelled | interrupted
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

// ---- Continuations of turns paused for client-side tools (DESIGN.md §5) ----
// When the model calls tools that run in the client (select_slice, capture_view, ...), the turn
// saves a continuation — an opaque state blob written by the turn runner — and one request per
// client tool call, then frees its thread. Each request is settled once: answered
// (AnswerClientTool) or timed out (ExpireClientTools). When none is pending, one orchestrator
// claims the continuation (ClaimContinuation) and resumes the turn from it.

struct ClientToolRequest {
  std::string request_id;  // unique within its session
  std::string tool;
  std::string arguments;   // JSON text as the model sent it
  int64_t deadline_ns = 0;  // Unix ns; still pending then, the request times out
};

// How a client answered. Exactly one of: a JSON result, an image, an error.
struct ClientToolAnswer {
  std::string result_json;
  std::string image;       // bytes
  std::string image_mime;  // e.g. image/png
  std::string error;
};

// A request stays in the store after its continuation is claimed (answers dropped), so a late
// or repeated answer is told precisely what happened to it.
enum class ClientToolState {
  kPending,
  kAnswered,
  kTimedOut,
  kCancelled,  // its continuation was claimed while it was pending (the turn was cancelled)
};
const char* ClientToolStateName(ClientToolState state);
ClientToolState ClientToolStateFromName(const std::string& name);
// The FAILED_PRECONDITION an answer to an already settled request gets, saying how it was settled.
absl::Status SettledRequestError(const std::string& request_id, const std::string& tool,
                                 ClientToolState state);

struct ClientToolSlot {
  ClientToolRequest request;
  ClientToolState state = ClientToolState::kPending;
  ClientToolAnswer answer;  // when answered
  int64_t settled_ns = 0;   // Unix ns when answered or timed out; 0 while pending
};

struct Continuation {
  std::string session_id;
  int turn = 0;
  std::string state;                  // opaque to the store (bytes)
  std::vector<ClientToolSlot> tools;  // in the order they were saved
};

struct ContinuationKey {
  std::string session_id;
  int turn = 0;
  bool operator==(const ContinuationKey& o) const { return session_id == o.session_id && turn == o.turn; }
};

// What AnswerClientTool settled: the turn the request belongs to and how many requests of its
// continuation are still pending (0: the continuation can be claimed).
struct AnswerReceipt {
  int turn = 0;
  int pending = 0;
};

class SessionStore {
 public:
  virtual ~SessionStore() = default;
  virtual absl::StatusOr<SessionInfo> CreateSession(const std::string& trace_id,
                                                    const std::string& title,
                                                    const std::string& tenant = "",
                                                    const std::string& owner = "") = 0;
  // NOT_FOUND for unknown sessions everywhere below.
  virtual absl::StatusOr<SessionInfo> GetSession(const std::string& id) = 0;
  // The most recently updated first.
  virtual absl::StatusOr<std::vector<SessionInfo>> ListSessions(int limit,
                                                                const SessionFilter& filter = {}) = 0;
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

  // Points the session at another trace (a session switching trace). Turns and events stay.
  virtual absl::Status SetSessionTrace(const std::string& session, const std::string& trace_id) = 0;

  // ---- client-tool continuations ----
  // Pauses a running turn: stores its continuation and requests (at least one), and the turn's
  // status becomes waiting_for_client. NOT_FOUND: unknown session or turn; FAILED_PRECONDITION:
  // the turn is not running (e.g. it already waits); ALREADY_EXISTS: a request id already used
  // in the session. Nothing is stored when it fails.
  virtual absl::Status SaveContinuation(const std::string& session, int turn,
                                        const std::string& state,
                                        const std::vector<ClientToolRequest>& requests) = 0;
  // Settles a pending request with the client's answer. NOT_FOUND: unknown session, or no such
  // request in it; FAILED_PRECONDITION: already answered, timed out, or cancelled (the message
  // says which).
  virtual absl::StatusOr<AnswerReceipt> AnswerClientTool(const std::string& session,
                                                         const std::string& request_id,
                                                         const ClientToolAnswer& answer) = 0;
  // Settles every pending request whose deadline is <= now_ns as timed out and returns the
  // continuations it touched. A request an answer settled first is left alone, and vice versa.
  virtual absl::StatusOr<std::vector<ContinuationKey>> ExpireClientTools(int64_t now_ns) = 0;
  // Continuations no request of which is pending any more: ready to claim (e.g. the process that
  // settled the last request died before claiming). At most `limit`, oldest first.
  virtual absl::StatusOr<std::vector<ContinuationKey>> ReadyContinuations(int limit) = 0;
  // Takes a continuation to resume (or, with `even_if_pending`, to cancel) it: returns it with
  // its requests and answers, removes it from the store (requests still pending become
  // cancelled) and sets the turn running again, all at once — of racing callers exactly one
  // gets it. NOT_FOUND: no continuation (none saved, or
  // claimed already); FAILED_PRECONDITION: a request is still pending and !even_if_pending. A
  // shared store also resets the turn's lease (no owner, a first lease), so the claimer's
  // RenewTurnLease takes it and no replica takes the resumed turn for a dead one's.
  virtual absl::StatusOr<Continuation> ClaimContinuation(const std::string& session, int turn,
                                                         bool even_if_pending = false) = 0;
  // The session's waiting continuation without taking it (GetSession's pending requests);
  // NOT_FOUND when no turn of the session waits.
  virtual absl::StatusOr<Continuation> PeekContinuation(const std::string& session) = 0;
};

class SqliteSessionStore : public SessionStore {
 public:
  // Creates the file and schema when missing. ":memory:" gives a private in-memory store.
  static absl::StatusOr<std::unique_ptr<SqliteSessionStore>> Open(const std::string& path);
  ~SqliteSessionStore() override;

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

 private:
  explicit SqliteSessionStore(sqlite3* db) : db_(db) {}
  absl::Status Exec(const char* sql);
  absl::Status AddMissingColumns();
  absl::Status RequireSession(const std::string& id);
  // Runs `body` inside BEGIN IMMEDIATE ... COMMIT (ROLLBACK when it fails).
  absl::Status InTransaction(const std::function<absl::Status()>& body);
  absl::StatusOr<Continuation> ReadContinuation(const std::string& session, int turn);

  sqlite3* db_;
  std::mutex mu_;  // one writer at a time; sequence numbers are assigned under it
};

}  // namespace tw::agent
