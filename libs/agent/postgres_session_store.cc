#include "libs/agent/postgres_session_store.h"

#include <libpq-fe.h>
#include <sys/select.h>

#include <chrono>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tw::agent {
namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Random, not sequential (one client cannot guess another's session), like the SQLite store's.
std::string NewSessionId() {
  static std::mutex mu;
  static std::mt19937_64 rng(std::random_device{}());
  std::lock_guard<std::mutex> lock(mu);
  return absl::StrFormat("s-%016x", rng());
}

constexpr char kChannel[] = "tracewise_events";
// The lease a turn starts with, until its replica first renews it.
constexpr int64_t kInitialLeaseNs = int64_t{60} * 1'000'000'000;

// One statement each (PQexec runs them in order). Replicas starting together create it under an
// advisory lock: CREATE ... IF NOT EXISTS alone races in the catalogue.
constexpr char kSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS sessions(
  id TEXT PRIMARY KEY, trace_id TEXT NOT NULL, title TEXT NOT NULL,
  created_ns BIGINT NOT NULL, updated_ns BIGINT NOT NULL, last_seq BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0, output_tokens BIGINT NOT NULL DEFAULT 0,
  cached_tokens BIGINT NOT NULL DEFAULT 0, cost_micro_usd BIGINT NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS sessions_by_update ON sessions(updated_ns DESC);
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS tenant TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN IF NOT EXISTS owner TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS sessions_by_tenant ON sessions(tenant, updated_ns DESC);
CREATE TABLE IF NOT EXISTS turns(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, turn INTEGER NOT NULL,
  question TEXT NOT NULL, mode TEXT NOT NULL, scene TEXT NOT NULL, status TEXT NOT NULL,
  started_ns BIGINT NOT NULL, finished_ns BIGINT NOT NULL DEFAULT 0,
  report_json TEXT NOT NULL DEFAULT '', reference_trace_id TEXT NOT NULL DEFAULT '',
  lease_owner TEXT NOT NULL DEFAULT '', lease_until_ns BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY(session_id, turn));
CREATE TABLE IF NOT EXISTS events(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, seq BIGINT NOT NULL,
  turn INTEGER NOT NULL, kind TEXT NOT NULL, payload BYTEA NOT NULL, ts_ns BIGINT NOT NULL,
  PRIMARY KEY(session_id, seq));
CREATE TABLE IF NOT EXISTS artifacts(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, artifact_id TEXT NOT NULL,
  json TEXT NOT NULL, PRIMARY KEY(session_id, artifact_id));
CREATE TABLE IF NOT EXISTS notes(
  id BIGSERIAL PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, note TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS notes_by_session ON notes(session_id, id);
CREATE TABLE IF NOT EXISTS continuations(
  id BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn INTEGER NOT NULL, state BYTEA NOT NULL, created_ns BIGINT NOT NULL, UNIQUE(session_id, turn));
CREATE TABLE IF NOT EXISTS client_tool_requests(
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, request_id TEXT NOT NULL,
  continuation_id BIGINT NOT NULL, turn INTEGER NOT NULL, ordinal INTEGER NOT NULL,
  tool TEXT NOT NULL, arguments TEXT NOT NULL, deadline_ns BIGINT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending', result_json TEXT NOT NULL DEFAULT '', image BYTEA,
  image_mime TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '',
  settled_ns BIGINT NOT NULL DEFAULT 0, PRIMARY KEY(session_id, request_id));
CREATE INDEX IF NOT EXISTS client_tool_requests_by_continuation
  ON client_tool_requests(continuation_id, state);
CREATE INDEX IF NOT EXISTS client_tool_requests_pending
  ON client_tool_requests(deadline_ns) WHERE state = 'pending';
)sql";

absl::Status NotFoundSession(const std::string& id) {
  return absl::NotFoundError(absl::StrCat("unknown session '", id, "'"));
}

}  // namespace

// A parameter: text, or binary (bytea).
struct PgParam {
  std::string value;
  bool binary = false;
  PgParam(std::string v) : value(std::move(v)) {}  // NOLINT: implicit on purpose
  PgParam(const char* v) : value(v) {}              // NOLINT
  PgParam(int64_t v) : value(std::to_string(v)) {}  // NOLINT
  PgParam(int v) : value(std::to_string(v)) {}      // NOLINT
  static PgParam Bytes(std::string v) {
    PgParam p(std::move(v));
    p.binary = true;
    return p;
  }
};

class PgResult {
 public:
  explicit PgResult(PGresult* r) : r_(r) {}
  PgResult(PgResult&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  ~PgResult() { PQclear(r_); }
  int rows() const { return PQntuples(r_); }
  std::string Text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col), static_cast<size_t>(PQgetlength(r_, row, col)));
  }
  int64_t Int(int row, int col) const { return std::atoll(PQgetvalue(r_, row, col)); }
  // A bytea column in text format (hex).
  std::string Bytes(int row, int col) const {
    size_t n = 0;
    unsigned char* raw = PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(r_, row, col)), &n);
    std::string out(reinterpret_cast<char*>(raw), n);
    PQfreemem(raw);
    return out;
  }
  bool Null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  int64_t affected() const { return std::atoll(PQcmdTuples(r_)); }

 private:
  PGresult* r_;
};

// libpq waits for a connection without limit by default: an unreachable database must fail a
// call (UNAVAILABLE) in seconds instead. A URL or connection string that sets its own
// connect_timeout keeps it.
std::string WithConnectTimeout(const std::string& url) {
  if (url.find("connect_timeout") != std::string::npos) return url;
  const bool is_url = url.rfind("postgres://", 0) == 0 || url.rfind("postgresql://", 0) == 0;
  if (!is_url) return url + " connect_timeout=5";
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=5";
}

class PgConnection {
 public:
  static absl::StatusOr<std::unique_ptr<PgConnection>> Open(const std::string& url) {
    PGconn* c = PQconnectdb(WithConnectTimeout(url).c_str());
    if (PQstatus(c) != CONNECTION_OK) {
      std::string message = PQerrorMessage(c);
      PQfinish(c);
      while (!message.empty() && message.back() == '\n') message.pop_back();
      return absl::UnavailableError(absl::StrCat("cannot reach the session database: ", message));
    }
    return std::unique_ptr<PgConnection>(new PgConnection(c));
  }
  ~PgConnection() { PQfinish(c_); }
  PGconn* raw() { return c_; }
  bool healthy() const { return PQstatus(c_) == CONNECTION_OK; }

  absl::StatusOr<PgResult> Exec(const char* sql, const std::vector<PgParam>& params = {}) {
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    for (const PgParam& p : params) {
      values.push_back(p.value.data());
      lengths.push_back(static_cast<int>(p.value.size()));
      formats.push_back(p.binary ? 1 : 0);
    }
    PGresult* r = PQexecParams(c_, sql, static_cast<int>(params.size()), nullptr, values.data(),
                               lengths.data(), formats.data(), 0);
    PgResult result(r);
    const ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    return Error(r);
  }
  absl::Status Run(const char* sql, const std::vector<PgParam>& params = {}) {
    return Exec(sql, params).status();
  }
  // Several statements without parameters (the schema).
  absl::Status Script(const char* sql) {
    PGresult* r = PQexec(c_, sql);
    PgResult result(r);
    const ExecStatusType status = PQresultStatus(r);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return absl::OkStatus();
    return Error(r);
  }

 private:
  explicit PgConnection(PGconn* c) : c_(c) {}
  absl::Status Error(PGresult* r) {
    std::string message = r ? PQresultErrorMessage(r) : PQerrorMessage(c_);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    const std::string code = state ? state : "";
    message = absl::StrCat("session database: ", message);
    if (!healthy() || code.rfind("08", 0) == 0 || code.rfind("57P", 0) == 0) {
      return absl::UnavailableError(message);
    }
    if (code == "23505") return absl::AlreadyExistsError(message);
    if (code == "40001" || code == "40P01") return absl::AbortedError(message);
    return absl::InternalError(message);
  }
  PGconn* c_;
};

// A borrowed connection; goes back to the pool (or is dropped if it broke) when destroyed.
struct PostgresSessionStore::Lease {
  PostgresSessionStore* store = nullptr;
  std::unique_ptr<PgConnection> conn;
  Lease(PostgresSessionStore* s, std::unique_ptr<PgConnection> c) : store(s), conn(std::move(c)) {}
  Lease(Lease&& o) noexcept : store(o.store), conn(std::move(o.conn)) {}
  ~Lease() {
    if (conn) store->Return(std::move(conn), conn->healthy());
  }
  PgConnection* operator->() { return conn.get(); }
  // Runs `body` in a transaction: COMMIT when it returns OK, ROLLBACK otherwise.
  template <typename F>
  absl::Status Transaction(F body) {
    if (absl::Status s = conn->Run("BEGIN"); !s.ok()) return s;
    absl::Status s = body();
    if (!s.ok()) {
      (void)conn->Run("ROLLBACK");
      return s;
    }
    return conn->Run("COMMIT");
  }
};

absl::StatusOr<PostgresSessionStore::Lease> PostgresSessionStore::Borrow() {
  std::unique_lock<std::mutex> lock(pool_mu_);
  pool_cv_.wait(lock, [&] { return !idle_.empty() || open_ < pool_size_; });
  if (!idle_.empty()) {
    auto conn = std::move(idle_.back());
    idle_.pop_back();
    return Lease(this, std::move(conn));
  }
  ++open_;
  lock.unlock();
  auto conn = PgConnection::Open(url_);
  absl::Status setup = conn.status();
  // Commits do not wait for the WAL flush (as the SQLite store's synchronous=NORMAL): an
  // orchestrator that dies loses nothing it committed, a database server that crashes may lose
  // the last fraction of a second, and a turn does not pay a disk flush per streamed event.
  // A URL that sets synchronous_commit itself (options=-csynchronous_commit=on) keeps it.
  if (setup.ok() && url_.find("synchronous_commit") == std::string::npos) {
    setup = (*conn)->Run("SET synchronous_commit = off");
  }
  if (!setup.ok()) {
    std::lock_guard<std::mutex> relock(pool_mu_);
    --open_;
    pool_cv_.notify_one();
    return setup;
  }
  return Lease(this, std::move(*conn));
}

void PostgresSessionStore::Return(std::unique_ptr<PgConnection> conn, bool healthy) {
  std::lock_guard<std::mutex> lock(pool_mu_);
  if (healthy) {
    idle_.push_back(std::move(conn));
  } else {
    --open_;  // dropped; the next Borrow opens a fresh one
  }
  pool_cv_.notify_one();
}

absl::StatusOr<std::unique_ptr<PostgresSessionStore>> PostgresSessionStore::Open(const std::string& url,
                                                                                 int pool_size) {
  std::unique_ptr<PostgresSessionStore> store(new PostgresSessionStore(url));
  store->pool_size_ = std::max(1, pool_size);
  auto conn = store->Borrow();
  if (!conn.ok()) return conn.status();
  if (absl::Status s = (*conn)->Run("SET client_min_messages = warning"); !s.ok()) return s;
  absl::Status schema = conn->Transaction([&]() -> absl::Status {
    if (absl::Status s = (*conn)->Run("SELECT pg_advisory_xact_lock(7254117)"); !s.ok()) return s;
    return (*conn)->Script(kSchema);
  });
  if (!schema.ok()) return schema;
  store->listener_ = std::thread([s = store.get()] { s->ListenLoop(); });
  return store;
}

PostgresSessionStore::PostgresSessionStore(std::string url) : url_(std::move(url)) {}

PostgresSessionStore::~PostgresSessionStore() {
  {
    std::lock_guard<std::mutex> lock(notify_mu_);
    stopping_ = true;
  }
  notify_cv_.notify_all();
  if (listener_.joinable()) listener_.join();
}

void PostgresSessionStore::ListenLoop() {
  std::unique_ptr<PgConnection> conn;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(notify_mu_);
      if (stopping_) return;
    }
    if (!conn || !conn->healthy()) {
      conn.reset();
      auto opened = PgConnection::Open(url_);
      if (opened.ok() && (*opened)->Run(absl::StrCat("LISTEN ", kChannel).c_str()).ok()) {
        conn = std::move(*opened);
        // Notifications may have been missed while disconnected: wake every waiter to re-read.
        std::lock_guard<std::mutex> lock(notify_mu_);
        ++generation_;
        for (auto& [session, gen] : notified_) gen = generation_;
        notify_cv_.notify_all();
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        continue;
      }
    }
    const int fd = PQsocket(conn->raw());
    fd_set read;
    FD_ZERO(&read);
    FD_SET(fd, &read);
    timeval tv{0, 200 * 1000};  // also the shutdown latency
    if (select(fd + 1, &read, nullptr, nullptr, &tv) < 0) continue;
    if (!PQconsumeInput(conn->raw())) {
      conn.reset();
      continue;
    }
    bool any = false;
    std::lock_guard<std::mutex> lock(notify_mu_);
    while (PGnotify* n = PQnotifies(conn->raw())) {
      notified_[n->extra] = ++generation_;
      any = true;
      PQfreemem(n);
    }
    if (any) notify_cv_.notify_all();
  }
}

absl::StatusOr<int64_t> PostgresSessionStore::LastSeq(const std::string& session) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec("SELECT last_seq FROM sessions WHERE id = $1", {session});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NotFoundSession(session);
  return r->Int(0, 0);
}

absl::StatusOr<int64_t> PostgresSessionStore::WaitForEvents(const std::string& session,
                                                            int64_t after_seq, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    int64_t seen;
    {
      std::lock_guard<std::mutex> lock(notify_mu_);
      seen = notified_[session];
    }
    auto last = LastSeq(session);
    if (!last.ok() || *last > after_seq) return last;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return last;
    // A notification wakes us at once; polling every half second covers a dropped LISTEN.
    std::unique_lock<std::mutex> lock(notify_mu_);
    notify_cv_.wait_until(lock, std::min(deadline, now + std::chrono::milliseconds(500)),
                          [&] { return stopping_ || notified_[session] != seen; });
    if (stopping_) return absl::UnavailableError("the session store is closing");
  }
}

absl::StatusOr<SessionInfo> PostgresSessionStore::CreateSession(const std::string& trace_id,
                                                                const std::string& title,
                                                                const std::string& tenant,
                                                                const std::string& owner) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  SessionInfo info;
  info.id = NewSessionId();
  info.trace_id = trace_id;
  info.title = title;
  info.created_ns = info.updated_ns = NowNs();
  info.tenant = tenant;
  info.owner = owner;
  absl::Status s = (*conn)->Run(
      "INSERT INTO sessions(id, trace_id, title, created_ns, updated_ns, tenant, owner) "
      "VALUES($1,$2,$3,$4,$5,$6,$7)",
      {info.id, trace_id, title, info.created_ns, info.updated_ns, tenant, owner});
  if (!s.ok()) return s;
  return info;
}

namespace {
constexpr char kSessionColumns[] =
    "SELECT s.id, s.trace_id, s.title, s.created_ns, s.updated_ns, s.last_seq, s.input_tokens, "
    "s.output_tokens, s.cached_tokens, s.cost_micro_usd, "
    "(SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id), s.tenant, s.owner FROM sessions s ";

SessionInfo SessionFrom(const PgResult& r, int row) {
  return SessionInfo{r.Text(row, 0), r.Text(row, 1), r.Text(row, 2), r.Int(row, 3), r.Int(row, 4),
                     static_cast<int>(r.Int(row, 10)), r.Int(row, 5), r.Int(row, 6), r.Int(row, 7),
                     r.Int(row, 8), r.Int(row, 9), r.Text(row, 11), r.Text(row, 12)};
}
}  // namespace

absl::StatusOr<SessionInfo> PostgresSessionStore::GetSession(const std::string& id) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(absl::StrCat(kSessionColumns, "WHERE s.id = $1").c_str(), {id});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NotFoundSession(id);
  return SessionFrom(*r, 0);
}

absl::StatusOr<std::vector<SessionInfo>> PostgresSessionStore::ListSessions(int limit,
                                                                            const SessionFilter& filter) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  std::string where = "WHERE TRUE ";
  std::vector<PgParam> params;
  if (filter.tenant) {
    params.push_back(*filter.tenant);
    absl::StrAppend(&where, "AND s.tenant = $", params.size(), " ");
  }
  if (filter.owner) {
    params.push_back(*filter.owner);
    absl::StrAppend(&where, "AND s.owner = $", params.size(), " ");
  }
  params.push_back(static_cast<int64_t>(limit));
  auto r = (*conn)->Exec(
      absl::StrCat(kSessionColumns, where, "ORDER BY s.updated_ns DESC LIMIT $", params.size()).c_str(),
      params);
  if (!r.ok()) return r.status();
  std::vector<SessionInfo> out;
  for (int i = 0; i < r->rows(); ++i) out.push_back(SessionFrom(*r, i));
  return out;
}

absl::Status PostgresSessionStore::DeleteSession(const std::string& id) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec("DELETE FROM sessions WHERE id = $1", {id});
  if (!r.ok()) return r.status();
  if (r->affected() == 0) return NotFoundSession(id);
  std::lock_guard<std::mutex> lock(notify_mu_);
  notified_.erase(id);
  return absl::OkStatus();
}

absl::StatusOr<int> PostgresSessionStore::StartTurn(const std::string& session,
                                                    const std::string& question,
                                                    const std::string& mode,
                                                    const std::string& scene,
                                                    const std::string& reference_trace_id) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  int turn = 0;
  // The session row's lock orders replicas starting turns in one session; the next statement
  // then sees every turn committed before it.
  absl::Status s = conn->Transaction([&]() -> absl::Status {
    auto locked = (*conn)->Exec("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", {session});
    if (!locked.ok()) return locked.status();
    if (locked->rows() == 0) return NotFoundSession(session);
    // One turn at a time per session, whichever replica asks.
    auto busy = (*conn)->Exec(
        "SELECT turn FROM turns WHERE session_id = $1 AND status IN ('running', 'waiting_for_client') "
        "ORDER BY turn DESC LIMIT 1",
        {session});
    if (!busy.ok()) return busy.status();
    if (busy->rows() > 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "turn ", busy->Int(0, 0), " is still running in this session; cancel it or wait"));
    }
    // A lease from the start, so a replica that dies before its first renewal still leaves a
    // turn the others can take over.
    const int64_t now = NowNs();
    auto next = (*conn)->Exec(
        "INSERT INTO turns(session_id, turn, question, mode, scene, status, started_ns, "
        "reference_trace_id, lease_until_ns) SELECT $1, COALESCE(MAX(turn), 0) + 1, $2, $3, $4, "
        "'running', $5, $6, $7 FROM turns WHERE session_id = $1 RETURNING turn",
        {session, question, mode, scene, now, reference_trace_id, now + kInitialLeaseNs});
    if (!next.ok()) return next.status();
    turn = static_cast<int>(next->Int(0, 0));
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return turn;
}

absl::Status PostgresSessionStore::FinishTurn(const std::string& session, int turn,
                                              const std::string& status,
                                              const std::string& report_json) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  return conn->Transaction([&]() -> absl::Status {
    const int64_t now = NowNs();
    auto r = (*conn)->Exec(
        "UPDATE turns SET status = $1, finished_ns = $2, report_json = $3, lease_owner = '', "
        "lease_until_ns = 0 WHERE session_id = $4 AND turn = $5",
        {status, now, report_json, session, turn});
    if (!r.ok()) return r.status();
    if (r->affected() == 0) {
      return absl::NotFoundError(absl::StrCat("unknown turn ", turn, " of session '", session, "'"));
    }
    // A turn that ends while it waits (interrupted, cancelled) leaves no continuation behind.
    if (absl::Status s = (*conn)->Run(
            "UPDATE client_tool_requests SET state = 'cancelled', settled_ns = $3, image = NULL "
            "WHERE session_id = $1 AND turn = $2 AND state = 'pending'",
            {session, turn, now});
        !s.ok()) {
      return s;
    }
    return (*conn)->Run("DELETE FROM continuations WHERE session_id = $1 AND turn = $2", {session, turn});
  });
}

absl::StatusOr<std::vector<TurnInfo>> PostgresSessionStore::Turns(const std::string& session) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  // One statement: the session's existence and its turns from one snapshot.
  auto r = (*conn)->Exec(
      "SELECT t.turn, t.question, t.mode, t.scene, t.status, t.started_ns, t.finished_ns, "
      "t.report_json, t.reference_trace_id FROM sessions s LEFT JOIN turns t ON t.session_id = s.id "
      "WHERE s.id = $1 ORDER BY t.turn",
      {session});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NotFoundSession(session);
  std::vector<TurnInfo> out;
  for (int i = 0; i < r->rows(); ++i) {
    if (r->Null(i, 0)) continue;  // the session without turns
    out.push_back({static_cast<int>(r->Int(i, 0)), r->Text(i, 1), r->Text(i, 2), r->Text(i, 3),
                   r->Text(i, 4), r->Int(i, 5), r->Int(i, 6), r->Text(i, 7), r->Text(i, 8)});
  }
  return out;
}

absl::StatusOr<int64_t> PostgresSessionStore::AppendEvent(const std::string& session, int turn,
                                                          const std::string& kind,
                                                          const std::string& payload) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  // One statement, so one transaction and one round trip: the session row's lock hands out the
  // next number, the primary key (session_id, seq) rejects any duplicate, and the notification
  // goes out when (and only if) the event is committed.
  auto r = (*conn)->Exec(
      "WITH s AS (UPDATE sessions SET last_seq = last_seq + 1, updated_ns = $2 WHERE id = $1 "
      "RETURNING last_seq), "
      "e AS (INSERT INTO events(session_id, seq, turn, kind, payload, ts_ns) "
      "SELECT $1, last_seq, $3, $4, $5, $2 FROM s RETURNING seq) "
      "SELECT seq, pg_notify('tracewise_events', $1) FROM e",
      {session, NowNs(), turn, kind, PgParam::Bytes(payload)});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NotFoundSession(session);
  return r->Int(0, 0);
}

absl::StatusOr<std::vector<StoredEvent>> PostgresSessionStore::EventsAfter(const std::string& session,
                                                                           int64_t after_seq,
                                                                           int limit) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(
      "SELECT e.seq, e.turn, e.kind, e.payload, e.ts_ns, s.id FROM sessions s "
      "LEFT JOIN LATERAL (SELECT * FROM events WHERE session_id = s.id AND seq > $2 ORDER BY seq "
      "LIMIT $3) e ON TRUE WHERE s.id = $1 ORDER BY e.seq",
      {session, after_seq, static_cast<int64_t>(limit)});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NotFoundSession(session);
  std::vector<StoredEvent> out;
  for (int i = 0; i < r->rows(); ++i) {
    if (r->Null(i, 0)) continue;  // the session without (further) events
    out.push_back({r->Int(i, 0), static_cast<int>(r->Int(i, 1)), r->Text(i, 2), r->Bytes(i, 3),
                   r->Int(i, 4)});
  }
  return out;
}

absl::Status PostgresSessionStore::SaveArtifact(const std::string& session,
                                                const std::string& artifact_id,
                                                const std::string& json) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(
      "INSERT INTO artifacts(session_id, artifact_id, json) SELECT id, $2, $3 FROM sessions "
      "WHERE id = $1 ON CONFLICT (session_id, artifact_id) DO UPDATE SET json = EXCLUDED.json",
      {session, artifact_id, json});
  if (!r.ok()) return r.status();
  if (r->affected() == 0) return NotFoundSession(session);
  return absl::OkStatus();
}

absl::StatusOr<std::string> PostgresSessionStore::LoadArtifact(const std::string& session,
                                                               const std::string& artifact_id) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec("SELECT json FROM artifacts WHERE session_id = $1 AND artifact_id = $2",
                         {session, artifact_id});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) {
    return absl::NotFoundError(
        absl::StrCat("unknown artifact '", artifact_id, "' in session '", session, "'"));
  }
  return r->Text(0, 0);
}

absl::Status PostgresSessionStore::AddNote(const std::string& session, const std::string& note) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec("INSERT INTO notes(session_id, note) SELECT id, $2 FROM sessions WHERE id = $1",
                         {session, note});
  if (!r.ok()) return r.status();
  if (r->affected() == 0) return NotFoundSession(session);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> PostgresSessionStore::Notes(const std::string& session) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(
      "SELECT n.note, s.id FROM sessions s LEFT JOIN notes n ON n.session_id = s.id "
      "WHERE s.id = $1 ORDER BY n.id",
      {session});
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NotFoundSession(session);
  std::vector<std::string> out;
  for (int i = 0; i < r->rows(); ++i) {
    if (!r->Null(i, 0)) out.push_back(r->Text(i, 0));  // NULL: the session without notes
  }
  return out;
}

absl::Status PostgresSessionStore::AddUsage(const std::string& session, const TokenUsage& usage) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(
      "UPDATE sessions SET input_tokens = input_tokens + $2, output_tokens = output_tokens + $3, "
      "cached_tokens = cached_tokens + $4, cost_micro_usd = cost_micro_usd + $5 WHERE id = $1",
      {session, usage.input_tokens, usage.output_tokens, usage.cached_tokens, usage.cost_micro_usd});
  if (!r.ok()) return r.status();
  if (r->affected() == 0) return NotFoundSession(session);
  return absl::OkStatus();
}

absl::Status PostgresSessionStore::RenewTurnLease(const std::string& session, int turn,
                                                  const std::string& owner, int64_t until_ns) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  // Taken only while the turn runs and nobody else has taken it over.
  auto r = (*conn)->Exec(
      "UPDATE turns SET lease_owner = $3, lease_until_ns = $4 WHERE session_id = $1 AND turn = $2 "
      "AND status IN ('running', 'waiting_for_client') AND (lease_owner = '' OR lease_owner = $3)",
      {session, turn, owner, until_ns});
  if (!r.ok()) return r.status();
  if (r->affected() == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "turn ", turn, " of session '", session, "' no longer runs under this replica's lease"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::pair<std::string, int>>> PostgresSessionStore::ClaimExpiredTurns(
    const std::string& owner, int64_t now_ns, int64_t until_ns) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  // Row locks make this exact: a replica that loses the race re-reads the row, finds the new
  // lease in the future and skips it.
  auto r = (*conn)->Exec(
      "UPDATE turns SET lease_owner = $1, lease_until_ns = $3 WHERE status = 'running' "
      "AND lease_until_ns < $2 RETURNING session_id, turn",
      {owner, now_ns, until_ns});
  if (!r.ok()) return r.status();
  std::vector<std::pair<std::string, int>> out;
  for (int i = 0; i < r->rows(); ++i) out.emplace_back(r->Text(i, 0), static_cast<int>(r->Int(i, 1)));
  return out;
}

absl::Status PostgresSessionStore::SetSessionTrace(const std::string& session,
                                                   const std::string& trace_id) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec("UPDATE sessions SET trace_id = $2, updated_ns = $3 WHERE id = $1",
                         {session, trace_id, NowNs()});
  if (!r.ok()) return r.status();
  if (r->affected() == 0) return NotFoundSession(session);
  return absl::OkStatus();
}

// ---- client-tool continuations ----

namespace {

absl::Status NotFoundTurn(const std::string& session, int turn) {
  return absl::NotFoundError(absl::StrCat("unknown turn ", turn, " of session '", session, "'"));
}

// A continuation and its requests (locked FOR UPDATE when `lock`), read on `conn` inside the
// caller's transaction; `id` gets its row id.
absl::StatusOr<Continuation> ReadContinuationOn(PgConnection& conn, const std::string& session, int turn,
                                                bool lock, int64_t* id) {
  auto c = conn.Exec(lock ? "SELECT id, state FROM continuations WHERE session_id = $1 AND turn = $2 FOR UPDATE"
                          : "SELECT id, state FROM continuations WHERE session_id = $1 AND turn = $2",
                     {session, turn});
  if (!c.ok()) return c.status();
  if (c->rows() == 0) {
    return absl::NotFoundError(absl::StrCat("turn ", turn, " of session '", session,
                                            "' has no continuation (not waiting, or claimed already)"));
  }
  Continuation out;
  out.session_id = session;
  out.turn = turn;
  *id = c->Int(0, 0);
  out.state = c->Bytes(0, 1);
  auto r = conn.Exec(lock ? "SELECT request_id, tool, arguments, deadline_ns, state, result_json, image, "
                            "image_mime, error, settled_ns FROM client_tool_requests "
                            "WHERE continuation_id = $1 ORDER BY ordinal FOR UPDATE"
                          : "SELECT request_id, tool, arguments, deadline_ns, state, result_json, image, "
                            "image_mime, error, settled_ns FROM client_tool_requests "
                            "WHERE continuation_id = $1 ORDER BY ordinal",
                     {*id});
  if (!r.ok()) return r.status();
  for (int i = 0; i < r->rows(); ++i) {
    ClientToolSlot slot;
    slot.request = {r->Text(i, 0), r->Text(i, 1), r->Text(i, 2), r->Int(i, 3)};
    slot.state = ClientToolStateFromName(r->Text(i, 4));
    slot.answer = {r->Text(i, 5), r->Null(i, 6) ? "" : r->Bytes(i, 6), r->Text(i, 7), r->Text(i, 8)};
    slot.settled_ns = r->Int(i, 9);
    out.tools.push_back(std::move(slot));
  }
  return out;
}

}  // namespace

absl::Status PostgresSessionStore::SaveContinuation(const std::string& session, int turn,
                                                    const std::string& state,
                                                    const std::vector<ClientToolRequest>& requests) {
  if (requests.empty()) {
    return absl::InvalidArgumentError("a continuation waits for at least one client-tool request");
  }
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  return conn->Transaction([&]() -> absl::Status {
    auto exists = (*conn)->Exec("SELECT 1 FROM sessions WHERE id = $1", {session});
    if (!exists.ok()) return exists.status();
    if (exists->rows() == 0) return NotFoundSession(session);
    // The turn's row lock orders this against another replica pausing or finishing it.
    auto t = (*conn)->Exec("SELECT status FROM turns WHERE session_id = $1 AND turn = $2 FOR UPDATE",
                           {session, turn});
    if (!t.ok()) return t.status();
    if (t->rows() == 0) return NotFoundTurn(session, turn);
    if (t->Text(0, 0) != kTurnRunning) {
      return absl::FailedPreconditionError(absl::StrCat("turn ", turn, " of session '", session, "' is ",
                                                        t->Text(0, 0), ", not running: it cannot pause"));
    }
    for (const ClientToolRequest& r : requests) {
      auto used = (*conn)->Exec("SELECT 1 FROM client_tool_requests WHERE session_id = $1 AND request_id = $2",
                                {session, r.request_id});
      if (!used.ok()) return used.status();
      if (used->rows() > 0) {
        return absl::AlreadyExistsError(absl::StrCat("client-tool request '", r.request_id,
                                                     "' already exists in session '", session, "'"));
      }
    }
    const int64_t now = NowNs();
    auto c = (*conn)->Exec(
        "INSERT INTO continuations(session_id, turn, state, created_ns) VALUES($1,$2,$3,$4) RETURNING id",
        {session, turn, PgParam::Bytes(state), now});
    if (!c.ok()) return c.status();
    const int64_t id = c->Int(0, 0);
    int ordinal = 0;
    for (const ClientToolRequest& r : requests) {
      if (absl::Status s = (*conn)->Run(
              "INSERT INTO client_tool_requests(session_id, request_id, continuation_id, turn, ordinal, "
              "tool, arguments, deadline_ns) VALUES($1,$2,$3,$4,$5,$6,$7,$8)",
              {session, r.request_id, id, turn, ordinal++, r.tool, r.arguments, r.deadline_ns});
          !s.ok()) {
        return s;
      }
    }
    return (*conn)->Run("UPDATE turns SET status = $3 WHERE session_id = $1 AND turn = $2",
                        {session, turn, kTurnWaitingForClient});
  });
}

absl::StatusOr<AnswerReceipt> PostgresSessionStore::AnswerClientTool(const std::string& session,
                                                                     const std::string& request_id,
                                                                     const ClientToolAnswer& answer) {
  const int outcomes = !answer.result_json.empty() + !answer.image.empty() + !answer.error.empty();
  if (outcomes != 1) {
    return absl::InvalidArgumentError(
        "a client-tool answer is exactly one of a JSON result, an image or an error");
  }
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  AnswerReceipt receipt;
  absl::Status status = conn->Transaction([&]() -> absl::Status {
    auto exists = (*conn)->Exec("SELECT 1 FROM sessions WHERE id = $1", {session});
    if (!exists.ok()) return exists.status();
    if (exists->rows() == 0) return NotFoundSession(session);
    // Only a pending request is settled: of a racing answer and timeout, one updates the row.
    auto u = (*conn)->Exec(
        "UPDATE client_tool_requests SET state = 'answered', result_json = $3, image = $4, "
        "image_mime = $5, error = $6, settled_ns = $7 WHERE session_id = $1 AND request_id = $2 "
        "AND state = 'pending' RETURNING turn, continuation_id",
        {session, request_id, answer.result_json, PgParam::Bytes(answer.image), answer.image_mime,
         answer.error, NowNs()});
    if (!u.ok()) return u.status();
    if (u->rows() == 0) {
      auto r = (*conn)->Exec("SELECT state, tool FROM client_tool_requests WHERE session_id = $1 AND request_id = $2",
                             {session, request_id});
      if (!r.ok()) return r.status();
      if (r->rows() == 0) {
        return absl::NotFoundError(absl::StrCat("no client-tool request '", request_id, "' in session '",
                                                session, "'"));
      }
      return SettledRequestError(request_id, r->Text(0, 1), ClientToolStateFromName(r->Text(0, 0)));
    }
    receipt.turn = static_cast<int>(u->Int(0, 0));
    auto n = (*conn)->Exec(
        "SELECT COUNT(*) FROM client_tool_requests WHERE continuation_id = $1 AND state = 'pending'",
        {u->Int(0, 1)});
    if (!n.ok()) return n.status();
    receipt.pending = static_cast<int>(n->Int(0, 0));
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return receipt;
}

absl::StatusOr<std::vector<ContinuationKey>> PostgresSessionStore::ExpireClientTools(int64_t now_ns) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(
      "WITH due AS (UPDATE client_tool_requests SET state = 'timed_out', settled_ns = $2 "
      "WHERE state = 'pending' AND deadline_ns <= $1 RETURNING session_id, turn) "
      "SELECT DISTINCT session_id, turn FROM due ORDER BY session_id, turn",
      {now_ns, NowNs()});
  if (!r.ok()) return r.status();
  std::vector<ContinuationKey> out;
  for (int i = 0; i < r->rows(); ++i) out.push_back({r->Text(i, 0), static_cast<int>(r->Int(i, 1))});
  return out;
}

absl::StatusOr<std::vector<ContinuationKey>> PostgresSessionStore::ReadyContinuations(int limit) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto r = (*conn)->Exec(
      "SELECT c.session_id, c.turn FROM continuations c WHERE NOT EXISTS (SELECT 1 FROM "
      "client_tool_requests r WHERE r.continuation_id = c.id AND r.state = 'pending') "
      "ORDER BY c.created_ns, c.id LIMIT $1",
      {static_cast<int64_t>(limit)});
  if (!r.ok()) return r.status();
  std::vector<ContinuationKey> out;
  for (int i = 0; i < r->rows(); ++i) out.push_back({r->Text(i, 0), static_cast<int>(r->Int(i, 1))});
  return out;
}

absl::StatusOr<Continuation> PostgresSessionStore::ClaimContinuation(const std::string& session, int turn,
                                                                     bool even_if_pending) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  Continuation out;
  absl::Status status = conn->Transaction([&]() -> absl::Status {
    auto exists = (*conn)->Exec("SELECT 1 FROM sessions WHERE id = $1", {session});
    if (!exists.ok()) return exists.status();
    if (exists->rows() == 0) return NotFoundSession(session);
    // FOR UPDATE: a second claimer waits here, then finds the row gone (NOT_FOUND).
    int64_t id = 0;
    auto read = ReadContinuationOn(*conn->conn, session, turn, /*lock=*/true, &id);
    if (!read.ok()) return read.status();
    out = std::move(*read);
    int pending = 0;
    for (const ClientToolSlot& slot : out.tools) pending += slot.state == ClientToolState::kPending;
    if (pending > 0 && !even_if_pending) {
      return absl::FailedPreconditionError(absl::StrCat("turn ", turn, " of session '", session,
                                                        "' still waits for ", pending,
                                                        " client-tool request(s)"));
    }
    // The requests stay (settled) so late answers get a precise status; their payloads go.
    if (absl::Status s = (*conn)->Run(
            "UPDATE client_tool_requests SET state = CASE WHEN state = 'pending' THEN 'cancelled' "
            "ELSE state END, settled_ns = CASE WHEN settled_ns = 0 THEN $2 ELSE settled_ns END, "
            "image = NULL, result_json = '' WHERE continuation_id = $1",
            {id, NowNs()});
        !s.ok()) {
      return s;
    }
    if (absl::Status s = (*conn)->Run("DELETE FROM continuations WHERE id = $1", {id}); !s.ok()) return s;
    // Running again, under no replica's lease yet: the claimer's renewal takes it, and until
    // then nobody takes it for a dead replica's turn.
    return (*conn)->Run(
        "UPDATE turns SET status = $3, lease_owner = '', lease_until_ns = $4 WHERE session_id = $1 AND turn = $2",
        {session, turn, kTurnRunning, NowNs() + kInitialLeaseNs});
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<Continuation> PostgresSessionStore::PeekContinuation(const std::string& session) {
  auto conn = Borrow();
  if (!conn.ok()) return conn.status();
  auto exists = (*conn)->Exec("SELECT 1 FROM sessions WHERE id = $1", {session});
  if (!exists.ok()) return exists.status();
  if (exists->rows() == 0) return NotFoundSession(session);
  auto c = (*conn)->Exec("SELECT turn FROM continuations WHERE session_id = $1 ORDER BY turn DESC LIMIT 1",
                         {session});
  if (!c.ok()) return c.status();
  if (c->rows() == 0) {
    return absl::NotFoundError(absl::StrCat("no turn of session '", session, "' waits for the client"));
  }
  int64_t id = 0;
  return ReadContinuationOn(*conn->conn, session, static_cast<int>(c->Int(0, 0)), /*lock=*/false, &id);
}

}  // namespace tw::agent
