// A turn keeps the reference trace it compared with, and a session file written before turns had
// that column opens with its turns intact (the column is added with an empty default).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "libs/agent/session_store.h"
#include "tests/common/process_temp_dir.h"

namespace tw::agent {
namespace {

TEST(SessionStoreUpgradeTest, TurnsKeepTheirReferenceTrace) {
  auto store = SqliteSessionStore::Open(":memory:");
  ASSERT_TRUE(store.ok()) << store.status();
  auto session = (*store)->CreateSession("trace-a", "compare");
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE((*store)->StartTurn(session->id, "compare with b", "full", "", "trace-b").ok());
  ASSERT_TRUE((*store)->StartTurn(session->id, "and alone?", "quick", "").ok());
  auto turns = (*store)->Turns(session->id);
  ASSERT_TRUE(turns.ok());
  ASSERT_EQ(turns->size(), 2u);
  EXPECT_EQ((*turns)[0].reference_trace_id, "trace-b");
  EXPECT_EQ((*turns)[1].reference_trace_id, "");
}

TEST(SessionStoreUpgradeTest, OlderFilesGainTheReferenceColumn) {
  const std::string path = ::tw::testing::ProcessTempDir() + "old_sessions.db";
  {
    // The turns table as the first version of the store wrote it.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const char* old_schema = R"sql(
      CREATE TABLE sessions(
        id TEXT PRIMARY KEY, trace_id TEXT NOT NULL, title TEXT NOT NULL,
        created_ns INTEGER NOT NULL, updated_ns INTEGER NOT NULL, last_seq INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0,
        cached_tokens INTEGER NOT NULL DEFAULT 0, cost_micro_usd INTEGER NOT NULL DEFAULT 0);
      CREATE TABLE turns(
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, turn INTEGER NOT NULL,
        question TEXT NOT NULL, mode TEXT NOT NULL, scene TEXT NOT NULL, status TEXT NOT NULL,
        started_ns INTEGER NOT NULL, finished_ns INTEGER NOT NULL DEFAULT 0,
        report_json TEXT NOT NULL DEFAULT '', PRIMARY KEY(session_id, turn));
      INSERT INTO sessions(id, trace_id, title, created_ns, updated_ns) VALUES('s-old', 't', 'x', 1, 1);
      INSERT INTO turns(session_id, turn, question, mode, scene, status, started_ns)
        VALUES('s-old', 1, 'why?', 'full', 'cpu', 'done', 5);
    )sql";
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db, old_schema, nullptr, nullptr, &error), SQLITE_OK) << error;
    sqlite3_close(db);
  }
  for (int open = 0; open < 2; ++open) {  // the upgrade happens once; reopening is a no-op
    auto store = SqliteSessionStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.status();
    auto turns = (*store)->Turns("s-old");
    ASSERT_TRUE(turns.ok()) << turns.status();
    ASSERT_EQ(turns->size(), open == 0 ? 1u : 2u);
    EXPECT_EQ((*turns)[0].question, "why?");
    EXPECT_EQ((*turns)[0].reference_trace_id, "");
    // Sessions from before tenancy belong to no tenant (only an anonymous caller sees them).
    EXPECT_EQ((*store)->GetSession("s-old")->tenant, "");
    EXPECT_EQ((*store)->ListSessions(10, {std::string(""), std::nullopt})->size(), 1u);
    if (open == 0) {
      ASSERT_TRUE((*store)->StartTurn("s-old", "compare", "full", "", "t2").ok());
    } else {
      EXPECT_EQ((*turns)[1].reference_trace_id, "t2");
    }
  }
}

}  // namespace
}  // namespace tw::agent
