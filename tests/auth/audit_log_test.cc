#include "libs/auth/audit_log.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/auth/test_keys.h"

namespace tw::auth {
namespace {

TEST(AuditLog, OneJsonLinePerRecordFromManyThreads) {
  const std::string dir = testing::TempDir("tw-audit");
  auto log = AuditLog::Open(dir + "/sub/audit.jsonl");
  ASSERT_TRUE(log.ok()) << log.status();
  Identity who{"ci-bot", "acme", Role::kUploader, "api_key", "abc123"};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) (*log)->Record(who, "upload", "trace/" + std::to_string(t), "ok", "name=\"x\ny\"");
    });
  }
  for (auto& t : threads) t.join();
  (*log)->Record(AnonymousIdentity(), "delete", "session/s1", "PERMISSION_DENIED");
  std::istringstream lines(testing::ReadAll(dir + "/sub/audit.jsonl"));
  std::string line;
  int count = 0;
  nlohmann::json last;
  while (std::getline(lines, line)) {
    last = nlohmann::json::parse(line);
    ++count;
    if (count == 1) {
      EXPECT_EQ(last["tenant"], "acme");
      EXPECT_EQ(last["subject"], "ci-bot");
      EXPECT_EQ(last["role"], "uploader");
      EXPECT_EQ(last["action"], "upload");
      EXPECT_EQ(last["key_id"], "abc123");
      EXPECT_EQ(last["detail"], "name=\"x\ny\"");
    }
  }
  EXPECT_EQ(count, 201);
  EXPECT_EQ(last["action"], "delete");
  EXPECT_EQ(last["outcome"], "PERMISSION_DENIED");
  std::filesystem::remove_all(dir);
}

TEST(AuditLog, WithoutPathRecordsNothing) {
  auto log = AuditLog::Open("");
  ASSERT_TRUE(log.ok());
  (*log)->Record(AnonymousIdentity(), "ask", "session/x", "ok");
}

}  // namespace
}  // namespace tw::auth
