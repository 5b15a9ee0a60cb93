// What the session store costs a turn (issue #15: < 50 ms per turn on PostgreSQL): a turn's
// store traffic as the orchestrator writes it — StartTurn, 80 events (progress, tool calls and
// results, data envelopes, findings, the conclusion, done), 10 artifacts, usage, FinishTurn,
// and a follower reading the events back — on SQLite (file, WAL) and on PostgreSQL (a server
// this binary starts; skipped without the server binaries).
//
//   build/tests/agent/tw_session_store_benchmark
#include <benchmark/benchmark.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <filesystem>

#include "libs/agent/postgres_session_store.h"
#include "libs/agent/session_store.h"
#include "tests/common/postgres_server.h"

namespace {

tw::testing::PostgresServer* server = nullptr;

void OneTurn(benchmark::State& state, tw::agent::SessionStore& store) {
  auto session = store.CreateSession(std::string(64, 'a'), "bench");
  if (!session.ok()) {
    state.SkipWithError(std::string(session.status().message()).c_str());
    return;
  }
  const std::string event(600, 'x');     // a typical serialized event
  const std::string artifact(8000, 'y');  // a data envelope's first rows
  int64_t events = 0;
  for (auto _ : state) {
    auto turn = store.StartTurn(session->id, "why does scrolling stutter?", "auto", "scrolling");
    if (!turn.ok()) {
      state.SkipWithError(std::string(turn.status().message()).c_str());
      return;
    }
    for (int i = 0; i < 80; ++i) {
      if (!store.AppendEvent(session->id, *turn, "progress", event).ok()) {
        state.SkipWithError("append failed");
        return;
      }
      if (i % 8 == 0) {
        (void)store.SaveArtifact(session->id, "art-" + std::to_string(*turn) + "-" + std::to_string(i), artifact);
      }
    }
    (void)store.AddUsage(session->id, {1000, 200, 0, 10});
    (void)store.FinishTurn(session->id, *turn, "done", artifact);
    auto read = store.EventsAfter(session->id, events, 1000);
    events += static_cast<int64_t>(read.ok() ? read->size() : 0);
  }
  state.counters["events_per_turn"] = 80;
}

void BM_TurnOnSqlite(benchmark::State& state) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("tw_store_bench_" + std::to_string(getpid()) + ".db")).string();
  {
    auto store = tw::agent::SqliteSessionStore::Open(path);
    if (!store.ok()) {
      state.SkipWithError("cannot open SQLite");
      return;
    }
    OneTurn(state, **store);
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}
BENCHMARK(BM_TurnOnSqlite)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

void BM_TurnOnPostgres(benchmark::State& state) {
  if (!server->ok()) {
    state.SkipWithError(server->skip_reason().c_str());
    return;
  }
  auto store = tw::agent::PostgresSessionStore::Open(server->url());
  if (!store.ok()) {
    state.SkipWithError(std::string(store.status().message()).c_str());
    return;
  }
  OneTurn(state, **store);
}
BENCHMARK(BM_TurnOnPostgres)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  tw::testing::PostgresServer pg(/*durable=*/true);  // fsync and synchronous commit on
  server = &pg;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
