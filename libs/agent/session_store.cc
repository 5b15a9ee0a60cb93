#include "libs/agent/session_store.h"

#include <sqlite3.h>

#include <chrono>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/status_macros.h"

namespace tw::agent {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Session ids are random, not sequential, so one client cannot guess another's session.
std::string NewSessionId() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  return absl::StrFormat("s-%016x", rng());
}

// A prepared statement with positional binds; finalised on scope exit.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  bool ok() const { return stmt_ != nullptr; }
  Stmt& Bind(const std::string& v) {
    sqlite3_bind_text(stmt_, ++index_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& BindBlob(const std::string& v) {
    sqlite3_bind_blob(stmt_, ++index_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& Bind(int64_t v) {
    sqlite3_bind_int64(stmt_, ++index_, v);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(stmt_); }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  std::string Text(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    return p ? std::string(static_cast<const char*>(p), sqlite3_column_bytes(stmt_, col)) : "";
  }
  absl::Status Error() const {
    return absl::InternalError(absl::StrCat("session store: ", sqlite3_errmsg(db_)));
  }
  // Runs a statement that returns no rows.
  absl::Status Run() {
    if (!stmt_) return Error();
    return Step() == SQLITE_DONE ? absl::OkStatus() : Error();
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int index_ = 0;
};

constexpr char kSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS sessions(
  id TEXT PRIMARY KEY, trace_id TEXT NOT NULL, title TEXT NOT NULL,
  created_ns INTEGER NOT NULL, updated_ns INTEGER NOT NULL, last_seq INTEGER NOT NULL DEFAULT 0,
  input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0,
  cached_tokens INTEGER NOT NULL DEFAULT 0, cost_micro_usd INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS turns(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, turn INTEGER NOT NULL,
  question TEXT NOT NULL, mode TEXT NOT NULL, scene TEXT NOT NULL, status TEXT NOT NULL,
  started_ns INTEGER NOT NULL, finished_ns INTEGER NOT NULL DEFAULT 0, report_json TEXT NOT NULL DEFAULT '',
  reference_trace_id TEXT NOT NULL DEFAULT '', PRIMARY KEY(session_id, turn));
CREATE TABLE IF NOT EXISTS events(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
  turn INTEGER NOT NULL, kind TEXT NOT NULL, payload BLOB NOT NULL, ts_ns INTEGER NOT NULL,
  PRIMARY KEY(session_id, seq));
CREATE TABLE IF NOT EXISTS artifacts(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, artifact_id TEXT NOT NULL,
  json TEXT NOT NULL, PRIMARY KEY(session_id, artifact_id));
CREATE TABLE IF NOT EXISTS notes(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, note TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS continuations(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn INTEGER NOT NULL, state BLOB NOT NULL, created_ns INTEGER NOT NULL,
  UNIQUE(session_id, turn));
CREATE TABLE IF NOT EXISTS client_tool_requests(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, request_id TEXT NOT NULL,
  continuation_id INTEGER NOT NULL, turn INTEGER NOT NULL, ordinal INTEGER NOT NULL,
  tool TEXT NOT NULL, arguments TEXT NOT NULL, deadline_ns INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending', result_json TEXT NOT NULL DEFAULT '', image BLOB,
  image_mime TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '',
  settled_ns INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(session_id, request_id));
CREATE INDEX IF NOT EXISTS client_tool_requests_by_continuation
  ON client_tool_requests(continuation_id, state);
CREATE INDEX IF NOT EXISTS client_tool_requests_by_deadline
  ON client_tool_requests(state, deadline_ns);
)sql";

}  // namespace

ClientToolState ClientToolStateFromName(const std::string& name) {
  for (ClientToolState s : {ClientToolState::kPending, ClientToolState::kAnswered, ClientToolState::kTimedOut,
                            ClientToolState::kCancelled}) {
    if (name == ClientToolStateName(s)) return s;
  }
  return ClientToolState::kPending;
}

absl::Status SettledRequestError(const std::string& request_id, const std::string& tool,
                                 ClientToolState state) {
  const char* what = state == ClientToolState::kAnswered   ? "was already answered"
                     : state == ClientToolState::kTimedOut ? "timed out before this answer (the model was told)"
                                                           : "was cancelled with its turn";
  return absl::FailedPreconditionError(absl::StrCat("client-tool request '", request_id, "' (", tool, ") ", what));
}

const char* ClientToolStateName(ClientToolState state) {
  switch (state) {
    case ClientToolState::kPending: return "pending";
    case ClientToolState::kAnswered: return "answered";
    case ClientToolState::kTimedOut: return "timed_out";
    case ClientToolState::kCancelled: return "cancelled";
  }
  return "pending";
}

absl::StatusOr<std::unique_ptr<SqliteSessionStore>> SqliteSessionStore::Open(const std::string& path) {
  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return absl::UnavailableError(absl::StrCat("cannot open session store ", path, ": ", message));
  }
  std::unique_ptr<SqliteSessionStore> store(new SqliteSessionStore(db));
  sqlite3_busy_timeout(db, 5000);
  // WAL keeps readers (Resume) off the writer's back. NORMAL sync in WAL mode makes every
  // committed event survive a crash of the orchestrator process (the WAL is in the OS cache);
  // only a power loss can drop the last few, and it saves an fsync per streamed event, which
  // would otherwise dominate the per-turn overhead.
  for (const char* pragma : {"PRAGMA journal_mode=WAL;", "PRAGMA synchronous=NORMAL;",
                             "PRAGMA foreign_keys=ON;"}) {
    if (path != ":memory:" || std::string(pragma).find("WAL") == std::string::npos) {
      auto status = store->Exec(pragma);
      if (!status.ok()) return status;
    }
  }
  auto status = store->Exec(kSchema);
  if (!status.ok()) return status;
  status = store->AddMissingColumns();
  if (!status.ok()) return status;
  return store;
}

SqliteSessionStore::~SqliteSessionStore() { sqlite3_close(db_); }

absl::Status SqliteSessionStore::Exec(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    return absl::InternalError(absl::StrCat("session store: ", message));
  }
  return absl::OkStatus();
}

// Stores written before a column existed get it with its default, so an upgraded orchestrator
// opens the sessions an older one left.
absl::Status SqliteSessionStore::AddMissingColumns() {
  const std::pair<const char*, const char*> kAdded[] = {
      {"turns", "reference_trace_id"}, {"sessions", "tenant"}, {"sessions", "owner"}};
  for (const auto& [table, column] : kAdded) {
    bool present = false;
    {
      Stmt columns(db_, absl::StrCat("SELECT name FROM pragma_table_info('", table, "')").c_str());
      if (!columns.ok()) return columns.Error();
      while (columns.Step() == SQLITE_ROW) present |= columns.Text(0) == column;
    }
    if (present) continue;
    RETURN_IF_ERROR(Exec(absl::StrCat("ALTER TABLE ", table, " ADD COLUMN ", column,
                                      " TEXT NOT NULL DEFAULT '';")
                             .c_str()));
  }
  return Exec("CREATE INDEX IF NOT EXISTS sessions_by_tenant ON sessions(tenant, updated_ns);");
}

absl::Status SqliteSessionStore::RequireSession(const std::string& id) {
  Stmt s(db_, "SELECT 1 FROM sessions WHERE id = ?");
  if (!s.ok()) return s.Error();
  s.Bind(id);
  if (s.Step() != SQLITE_ROW) return absl::NotFoundError(absl::StrCat("unknown session '", id, "'"));
  return absl::OkStatus();
}

absl::StatusOr<SessionInfo> SqliteSessionStore::CreateSession(const std::string& trace_id,
                                                              const std::string& title,
                                                              const std::string& tenant,
                                                              const std::string& owner) {
  std::lock_guard<std::mutex> lock(mu_);
  SessionInfo info;
  info.id = NewSessionId();
  info.trace_id = trace_id;
  info.title = title;
  info.created_ns = info.updated_ns = NowNs();
  info.tenant = tenant;
  info.owner = owner;
  Stmt s(db_,
         "INSERT INTO sessions(id, trace_id, title, created_ns, updated_ns, tenant, owner) "
         "VALUES(?,?,?,?,?,?,?)");
  s.Bind(info.id).Bind(trace_id).Bind(title).Bind(info.created_ns).Bind(info.updated_ns).Bind(tenant).Bind(owner);
  auto status = s.Run();
  if (!status.ok()) return status;
  return info;
}

absl::StatusOr<SessionInfo> SqliteSessionStore::GetSession(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "SELECT id, trace_id, title, created_ns, updated_ns, last_seq, input_tokens, output_tokens, "
         "cached_tokens, cost_micro_usd, (SELECT COUNT(*) FROM turns t WHERE t.session_id = id), "
         "tenant, owner FROM sessions WHERE id = ?");
  if (!s.ok()) return s.Error();
  s.Bind(id);
  if (s.Step() != SQLITE_ROW) return absl::NotFoundError(absl::StrCat("unknown session '", id, "'"));
  SessionInfo info{s.Text(0), s.Text(1), s.Text(2), s.Int(3), s.Int(4), static_cast<int>(s.Int(10)),
                   s.Int(5), s.Int(6), s.Int(7), s.Int(8), s.Int(9), s.Text(11), s.Text(12)};
  return info;
}

absl::StatusOr<std::vector<SessionInfo>> SqliteSessionStore::ListSessions(int limit,
                                                                          const SessionFilter& filter) {
  std::vector<std::string> ids;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::string sql = "SELECT id FROM sessions WHERE 1";
    if (filter.tenant) sql += " AND tenant = ?";
    if (filter.owner) sql += " AND owner = ?";
    sql += " ORDER BY updated_ns DESC LIMIT ?";
    Stmt s(db_, sql.c_str());
    if (!s.ok()) return s.Error();
    if (filter.tenant) s.Bind(*filter.tenant);
    if (filter.owner) s.Bind(*filter.owner);
    s.Bind(static_cast<int64_t>(limit));
    while (s.Step() == SQLITE_ROW) ids.push_back(s.Text(0));
  }
  std::vector<SessionInfo> out;
  for (const std::string& id : ids) {
    auto info = GetSession(id);
    if (info.ok()) out.push_back(*info);  // deleted meanwhile: skip
  }
  return out;
}

absl::Status SqliteSessionStore::DeleteSession(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(id);
  if (!status.ok()) return status;
  Stmt s(db_, "DELETE FROM sessions WHERE id = ?");
  s.Bind(id);
  return s.Run();
}

absl::StatusOr<int> SqliteSessionStore::StartTurn(const std::string& session,
                                                  const std::string& question,
                                                  const std::string& mode,
                                                  const std::string& scene,
                                                  const std::string& reference_trace_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(session);
  if (!status.ok()) return status;
  Stmt next(db_, "SELECT COALESCE(MAX(turn), 0) + 1 FROM turns WHERE session_id = ?");
  next.Bind(session);
  if (next.Step() != SQLITE_ROW) return next.Error();
  const int turn = static_cast<int>(next.Int(0));
  Stmt s(db_,
         "INSERT INTO turns(session_id, turn, question, mode, scene, status, started_ns, "
         "reference_trace_id) VALUES(?,?,?,?,?,'running',?,?)");
  s.Bind(session).Bind(static_cast<int64_t>(turn)).Bind(question).Bind(mode).Bind(scene).Bind(NowNs())
      .Bind(reference_trace_id);
  status = s.Run();
  if (!status.ok()) return status;
  return turn;
}

absl::Status SqliteSessionStore::FinishTurn(const std::string& session, int turn,
                                            const std::string& status_text,
                                            const std::string& report_json) {
  std::lock_guard<std::mutex> lock(mu_);
  return InTransaction([&]() -> absl::Status {
    const int64_t now = NowNs();
    Stmt s(db_,
           "UPDATE turns SET status = ?, finished_ns = ?, report_json = ? "
           "WHERE session_id = ? AND turn = ?");
    s.Bind(status_text).Bind(now).Bind(report_json).Bind(session).Bind(static_cast<int64_t>(turn));
    RETURN_IF_ERROR(s.Run());
    if (sqlite3_changes(db_) == 0) {
      return absl::NotFoundError(absl::StrCat("unknown turn ", turn, " of session '", session, "'"));
    }
    // A turn that ends while it waits (interrupted, cancelled) leaves no continuation behind.
    Stmt cancel(db_,
                "UPDATE client_tool_requests SET state = 'cancelled', settled_ns = ?, image = NULL "
                "WHERE session_id = ? AND turn = ? AND state = 'pending'");
    cancel.Bind(now).Bind(session).Bind(static_cast<int64_t>(turn));
    RETURN_IF_ERROR(cancel.Run());
    Stmt drop(db_, "DELETE FROM continuations WHERE session_id = ? AND turn = ?");
    drop.Bind(session).Bind(static_cast<int64_t>(turn));
    return drop.Run();
  });
}

absl::StatusOr<std::vector<TurnInfo>> SqliteSessionStore::Turns(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(session);
  if (!status.ok()) return status;
  Stmt s(db_,
         "SELECT turn, question, mode, scene, status, started_ns, finished_ns, report_json, "
         "reference_trace_id FROM turns WHERE session_id = ? ORDER BY turn");
  s.Bind(session);
  std::vector<TurnInfo> out;
  while (s.Step() == SQLITE_ROW) {
    out.push_back({static_cast<int>(s.Int(0)), s.Text(1), s.Text(2), s.Text(3), s.Text(4), s.Int(5),
                   s.Int(6), s.Text(7), s.Text(8)});
  }
  return out;
}

absl::StatusOr<int64_t> SqliteSessionStore::AppendEvent(const std::string& session, int turn,
                                                        const std::string& kind,
                                                        const std::string& payload) {
  std::lock_guard<std::mutex> lock(mu_);
  // Sequence and insert in one transaction: numbers have no gaps even across a crash.
  auto status = Exec("BEGIN IMMEDIATE;");
  if (!status.ok()) return status;
  auto rollback = [&](absl::Status s) {
    Exec("ROLLBACK;").IgnoreError();
    return s;
  };
  Stmt bump(db_, "UPDATE sessions SET last_seq = last_seq + 1, updated_ns = ? WHERE id = ?");
  bump.Bind(NowNs()).Bind(session);
  status = bump.Run();
  if (!status.ok()) return rollback(status);
  if (sqlite3_changes(db_) == 0) {
    return rollback(absl::NotFoundError(absl::StrCat("unknown session '", session, "'")));
  }
  Stmt seq_stmt(db_, "SELECT last_seq FROM sessions WHERE id = ?");
  seq_stmt.Bind(session);
  if (seq_stmt.Step() != SQLITE_ROW) return rollback(seq_stmt.Error());
  const int64_t seq = seq_stmt.Int(0);
  Stmt insert(db_, "INSERT INTO events(session_id, seq, turn, kind, payload, ts_ns) VALUES(?,?,?,?,?,?)");
  insert.Bind(session).Bind(seq).Bind(static_cast<int64_t>(turn)).Bind(kind).BindBlob(payload).Bind(NowNs());
  status = insert.Run();
  if (!status.ok()) return rollback(status);
  status = Exec("COMMIT;");
  if (!status.ok()) return rollback(status);
  return seq;
}

absl::StatusOr<std::vector<StoredEvent>> SqliteSessionStore::EventsAfter(const std::string& session,
                                                                         int64_t after_seq,
                                                                         int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(session);
  if (!status.ok()) return status;
  Stmt s(db_,
         "SELECT seq, turn, kind, payload, ts_ns FROM events WHERE session_id = ? AND seq > ? "
         "ORDER BY seq LIMIT ?");
  s.Bind(session).Bind(after_seq).Bind(static_cast<int64_t>(limit));
  std::vector<StoredEvent> out;
  while (s.Step() == SQLITE_ROW) {
    out.push_back({s.Int(0), static_cast<int>(s.Int(1)), s.Text(2), s.Text(3), s.Int(4)});
  }
  return out;
}

absl::Status SqliteSessionStore::SaveArtifact(const std::string& session,
                                              const std::string& artifact_id,
                                              const std::string& json) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(session);
  if (!status.ok()) return status;
  Stmt s(db_, "INSERT OR REPLACE INTO artifacts(session_id, artifact_id, json) VALUES(?,?,?)");
  s.Bind(session).Bind(artifact_id).Bind(json);
  return s.Run();
}

absl::StatusOr<std::string> SqliteSessionStore::LoadArtifact(const std::string& session,
                                                             const std::string& artifact_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "SELECT json FROM artifacts WHERE session_id = ? AND artifact_id = ?");
  s.Bind(session).Bind(artifact_id);
  if (s.Step() != SQLITE_ROW) {
    return absl::NotFoundError(absl::StrCat("unknown artifact '", artifact_id, "' in session '", session, "'"));
  }
  return s.Text(0);
}

absl::Status SqliteSessionStore::AddNote(const std::string& session, const std::string& note) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(session);
  if (!status.ok()) return status;
  Stmt s(db_, "INSERT INTO notes(session_id, note) VALUES(?,?)");
  s.Bind(session).Bind(note);
  return s.Run();
}

absl::StatusOr<std::vector<std::string>> SqliteSessionStore::Notes(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  auto status = RequireSession(session);
  if (!status.ok()) return status;
  Stmt s(db_, "SELECT note FROM notes WHERE session_id = ? ORDER BY rowid");
  s.Bind(session);
  std::vector<std::string> out;
  while (s.Step() == SQLITE_ROW) out.push_back(s.Text(0));
  return out;
}

absl::Status SqliteSessionStore::AddUsage(const std::string& session, const TokenUsage& usage) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, "
         "cached_tokens = cached_tokens + ?, cost_micro_usd = cost_micro_usd + ? WHERE id = ?");
  s.Bind(usage.input_tokens).Bind(usage.output_tokens).Bind(usage.cached_tokens)
      .Bind(usage.cost_micro_usd).Bind(session);
  auto status = s.Run();
  if (!status.ok()) return status;
  if (sqlite3_changes(db_) == 0) return absl::NotFoundError(absl::StrCat("unknown session '", session, "'"));
  return absl::OkStatus();
}

absl::Status SqliteSessionStore::SetSessionTrace(const std::string& session,
                                                 const std::string& trace_id) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_, "UPDATE sessions SET trace_id = ?, updated_ns = ? WHERE id = ?");
  s.Bind(trace_id).Bind(NowNs()).Bind(session);
  RETURN_IF_ERROR(s.Run());
  if (sqlite3_changes(db_) == 0) return absl::NotFoundError(absl::StrCat("unknown session '", session, "'"));
  return absl::OkStatus();
}

// ---- client-tool continuations ----

absl::Status SqliteSessionStore::InTransaction(const std::function<absl::Status()>& body) {
  // IMMEDIATE takes the write lock up front: another process on the same file waits (busy
  // timeout) instead of interleaving, so every read-then-write below is atomic.
  RETURN_IF_ERROR(Exec("BEGIN IMMEDIATE;"));
  absl::Status status = body();
  if (status.ok()) status = Exec("COMMIT;");
  if (!status.ok()) Exec("ROLLBACK;").IgnoreError();
  return status;
}

absl::Status SqliteSessionStore::SaveContinuation(const std::string& session, int turn,
                                                  const std::string& state,
                                                  const std::vector<ClientToolRequest>& requests) {
  if (requests.empty()) {
    return absl::InvalidArgumentError("a continuation waits for at least one client-tool request");
  }
  std::lock_guard<std::mutex> lock(mu_);
  return InTransaction([&]() -> absl::Status {
    RETURN_IF_ERROR(RequireSession(session));
    Stmt t(db_, "SELECT status FROM turns WHERE session_id = ? AND turn = ?");
    t.Bind(session).Bind(static_cast<int64_t>(turn));
    if (t.Step() != SQLITE_ROW) {
      return absl::NotFoundError(absl::StrCat("unknown turn ", turn, " of session '", session, "'"));
    }
    const std::string status = t.Text(0);
    if (status != kTurnRunning) {
      return absl::FailedPreconditionError(absl::StrCat(
          "turn ", turn, " of session '", session, "' is ", status, ", not running: it cannot pause"));
    }
    const int64_t now = NowNs();
    Stmt c(db_, "INSERT INTO continuations(session_id, turn, state, created_ns) VALUES(?,?,?,?)");
    c.Bind(session).Bind(static_cast<int64_t>(turn)).BindBlob(state).Bind(now);
    RETURN_IF_ERROR(c.Run());
    const int64_t continuation_id = sqlite3_last_insert_rowid(db_);
    int64_t ordinal = 0;
    for (const ClientToolRequest& r : requests) {
      Stmt exists(db_, "SELECT 1 FROM client_tool_requests WHERE session_id = ? AND request_id = ?");
      exists.Bind(session).Bind(r.request_id);
      if (exists.Step() == SQLITE_ROW) {
        return absl::AlreadyExistsError(absl::StrCat("client-tool request '", r.request_id,
                                                     "' already exists in session '", session, "'"));
      }
      Stmt insert(db_,
                  "INSERT INTO client_tool_requests(session_id, request_id, continuation_id, turn, "
                  "ordinal, tool, arguments, deadline_ns) VALUES(?,?,?,?,?,?,?,?)");
      insert.Bind(session).Bind(r.request_id).Bind(continuation_id).Bind(static_cast<int64_t>(turn))
          .Bind(ordinal++).Bind(r.tool).Bind(r.arguments).Bind(r.deadline_ns);
      RETURN_IF_ERROR(insert.Run());
    }
    Stmt wait(db_, "UPDATE turns SET status = ? WHERE session_id = ? AND turn = ?");
    wait.Bind(std::string(kTurnWaitingForClient)).Bind(session).Bind(static_cast<int64_t>(turn));
    return wait.Run();
  });
}

absl::StatusOr<AnswerReceipt> SqliteSessionStore::AnswerClientTool(const std::string& session,
                                                                   const std::string& request_id,
                                                                   const ClientToolAnswer& answer) {
  const int outcomes = !answer.result_json.empty() + !answer.image.empty() + !answer.error.empty();
  if (outcomes != 1) {
    return absl::InvalidArgumentError(
        "a client-tool answer is exactly one of a JSON result, an image or an error");
  }
  std::lock_guard<std::mutex> lock(mu_);
  AnswerReceipt receipt;
  RETURN_IF_ERROR(InTransaction([&]() -> absl::Status {
    RETURN_IF_ERROR(RequireSession(session));
    Stmt r(db_,
           "SELECT state, turn, continuation_id, tool FROM client_tool_requests "
           "WHERE session_id = ? AND request_id = ?");
    r.Bind(session).Bind(request_id);
    if (r.Step() != SQLITE_ROW) {
      return absl::NotFoundError(absl::StrCat("no client-tool request '", request_id,
                                              "' in session '", session, "'"));
    }
    const ClientToolState state = ClientToolStateFromName(r.Text(0));
    receipt.turn = static_cast<int>(r.Int(1));
    const int64_t continuation_id = r.Int(2);
    if (state != ClientToolState::kPending) return SettledRequestError(request_id, r.Text(3), state);
    Stmt u(db_,
           "UPDATE client_tool_requests SET state = 'answered', result_json = ?, image = ?, "
           "image_mime = ?, error = ?, settled_ns = ? WHERE session_id = ? AND request_id = ?");
    u.Bind(answer.result_json).BindBlob(answer.image).Bind(answer.image_mime).Bind(answer.error)
        .Bind(NowNs()).Bind(session).Bind(request_id);
    RETURN_IF_ERROR(u.Run());
    Stmt n(db_,
           "SELECT COUNT(*) FROM client_tool_requests WHERE continuation_id = ? AND state = 'pending'");
    n.Bind(continuation_id);
    if (n.Step() != SQLITE_ROW) return n.Error();
    receipt.pending = static_cast<int>(n.Int(0));
    return absl::OkStatus();
  }));
  return receipt;
}

absl::StatusOr<std::vector<ContinuationKey>> SqliteSessionStore::ExpireClientTools(int64_t now_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<ContinuationKey> touched;
  RETURN_IF_ERROR(InTransaction([&]() -> absl::Status {
    Stmt due(db_,
             "SELECT DISTINCT session_id, turn FROM client_tool_requests "
             "WHERE state = 'pending' AND deadline_ns <= ? ORDER BY session_id, turn");
    due.Bind(now_ns);
    while (due.Step() == SQLITE_ROW) touched.push_back({due.Text(0), static_cast<int>(due.Int(1))});
    if (touched.empty()) return absl::OkStatus();
    Stmt u(db_,
           "UPDATE client_tool_requests SET state = 'timed_out', settled_ns = ? "
           "WHERE state = 'pending' AND deadline_ns <= ?");
    u.Bind(NowNs()).Bind(now_ns);
    return u.Run();
  }));
  return touched;
}

absl::StatusOr<std::vector<ContinuationKey>> SqliteSessionStore::ReadyContinuations(int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt s(db_,
         "SELECT c.session_id, c.turn FROM continuations c WHERE NOT EXISTS ("
         "SELECT 1 FROM client_tool_requests r WHERE r.continuation_id = c.id AND r.state = 'pending') "
         "ORDER BY c.created_ns, c.id LIMIT ?");
  if (!s.ok()) return s.Error();
  s.Bind(static_cast<int64_t>(limit));
  std::vector<ContinuationKey> out;
  while (s.Step() == SQLITE_ROW) out.push_back({s.Text(0), static_cast<int>(s.Int(1))});
  return out;
}

absl::StatusOr<Continuation> SqliteSessionStore::ReadContinuation(const std::string& session, int turn) {
  Stmt c(db_, "SELECT id, state FROM continuations WHERE session_id = ? AND turn = ?");
  c.Bind(session).Bind(static_cast<int64_t>(turn));
  if (c.Step() != SQLITE_ROW) {
    return absl::NotFoundError(absl::StrCat("turn ", turn, " of session '", session,
                                            "' has no continuation (not waiting, or claimed already)"));
  }
  Continuation out;
  out.session_id = session;
  out.turn = turn;
  const int64_t id = c.Int(0);
  out.state = c.Text(1);
  Stmt r(db_,
         "SELECT request_id, tool, arguments, deadline_ns, state, result_json, image, image_mime, "
         "error, settled_ns FROM client_tool_requests WHERE continuation_id = ? ORDER BY ordinal");
  r.Bind(id);
  while (r.Step() == SQLITE_ROW) {
    ClientToolSlot slot;
    slot.request = {r.Text(0), r.Text(1), r.Text(2), r.Int(3)};
    slot.state = ClientToolStateFromName(r.Text(4));
    slot.answer = {r.Text(5), r.Text(6), r.Text(7), r.Text(8)};
    slot.settled_ns = r.Int(9);
    out.tools.push_back(std::move(slot));
  }
  return out;
}

absl::StatusOr<Continuation> SqliteSessionStore::ClaimContinuation(const std::string& session, int turn,
                                                                   bool even_if_pending) {
  std::lock_guard<std::mutex> lock(mu_);
  Continuation out;
  RETURN_IF_ERROR(InTransaction([&]() -> absl::Status {
    RETURN_IF_ERROR(RequireSession(session));
    ASSIGN_OR_RETURN(out, ReadContinuation(session, turn));
    int pending = 0;
    for (const ClientToolSlot& slot : out.tools) pending += slot.state == ClientToolState::kPending;
    if (pending > 0 && !even_if_pending) {
      return absl::FailedPreconditionError(absl::StrCat("turn ", turn, " of session '", session,
                                                        "' still waits for ", pending,
                                                        " client-tool request(s)"));
    }
    const int64_t now = NowNs();
    // The requests stay (settled) so late answers get a precise status; their payloads go.
    Stmt settle(db_,
                "UPDATE client_tool_requests SET state = CASE state WHEN 'pending' THEN 'cancelled' "
                "ELSE state END, settled_ns = CASE settled_ns WHEN 0 THEN ? ELSE settled_ns END, "
                "image = NULL, result_json = '' WHERE session_id = ? AND turn = ? AND "
                "continuation_id = (SELECT id FROM continuations WHERE session_id = ? AND turn = ?)");
    settle.Bind(now).Bind(session).Bind(static_cast<int64_t>(turn)).Bind(session)
        .Bind(static_cast<int64_t>(turn));
    RETURN_IF_ERROR(settle.Run());
    Stmt drop(db_, "DELETE FROM continuations WHERE session_id = ? AND turn = ?");
    drop.Bind(session).Bind(static_cast<int64_t>(turn));
    RETURN_IF_ERROR(drop.Run());
    Stmt run(db_, "UPDATE turns SET status = ? WHERE session_id = ? AND turn = ?");
    run.Bind(std::string(kTurnRunning)).Bind(session).Bind(static_cast<int64_t>(turn));
    return run.Run();
  }));
  return out;
}

absl::StatusOr<Continuation> SqliteSessionStore::PeekContinuation(const std::string& session) {
  std::lock_guard<std::mutex> lock(mu_);
  RETURN_IF_ERROR(RequireSession(session));
  Stmt c(db_, "SELECT turn FROM continuations WHERE session_id = ? ORDER BY turn DESC LIMIT 1");
  c.Bind(session);
  if (c.Step() != SQLITE_ROW) {
    return absl::NotFoundError(absl::StrCat("no turn of session '", session, "' waits for the client"));
  }
  return ReadContinuation(session, static_cast<int>(c.Int(0)));
}

}  // namespace tw::agent
