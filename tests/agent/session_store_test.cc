// The SQLite session store against the SessionStore contract (session_store_contract.h): a fresh
// file per test, and `reopen` as a second connection to it — a restarted orchestrator, or a
// second orchestrator process sharing the file.
#include <filesystem>
#include <memory>
#include <string>

#include "tests/agent/session_store_contract.h"
#include "tests/common/process_temp_dir.h"

namespace tw::agent::store_contract {
namespace {

std::string* CurrentPath() {
  static std::string path;
  return &path;
}

std::unique_ptr<SessionStore> OpenSqlite(const std::string& path) {
  auto store = SqliteSessionStore::Open(path);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return nullptr;
  return std::move(*store);
}

SessionStoreFactory SqliteFactory() {
  return {"sqlite",
          [] {
            static int n = 0;
            *CurrentPath() = ::tw::testing::ProcessTempDir() + "sessions_" + std::to_string(++n) + ".db";
            for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(*CurrentPath() + suffix);
            return OpenSqlite(*CurrentPath());
          },
          [] { return OpenSqlite(*CurrentPath()); }};
}

INSTANTIATE_TEST_SUITE_P(Sqlite, SessionStoreContract, ::testing::Values(SqliteFactory()),
                         SessionStoreFactoryName);

}  // namespace
}  // namespace tw::agent::store_contract
