#include "libs/auth/auth_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "libs/auth/api_key.h"
#include "libs/auth/authenticator.h"
#include "tests/auth/test_keys.h"

namespace tw::auth {
namespace {

const std::string kHash = "sha256:" + std::string(64, 'a');

TEST(AuthConfig, ParsesKeysJwtQuotasAndResolvesFiles) {
  const std::string dir = testing::TempDir("tw-authcfg");
  testing::WriteAll(dir + "/hs.secret", "0123456789abcdef0123456789abcdef!\n");
  auto pair = testing::MakeRsaPair(dir, "idp");
  ASSERT_FALSE(pair.public_pem.empty());
  const std::string yaml = R"(
api_keys:
  - {hash: )" + kHash + R"(, tenant: acme, role: uploader, subject: ci-bot}
jwt:
  issuer: https://idp.test
  claims: {tenant: org, role: tw_role}
  keys:
    - {algorithm: HS256, secret_file: hs.secret}
    - {algorithm: RS256, public_key_file: idp.pub.pem, kid: k1}
quotas:
  default: {stored_bytes: 1GiB, concurrent_turns: 2, llm_usd_per_day: 1.5, requests_per_minute: 60}
  tenants:
    acme: {concurrent_turns: 5}
audit_log: audit.jsonl
)";
  testing::WriteAll(dir + "/auth.yaml", yaml);
  auto config = LoadAuthConfig(dir + "/auth.yaml");
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->api_keys.size(), 1u);
  EXPECT_EQ(config->api_keys[0].tenant, "acme");
  EXPECT_EQ(config->api_keys[0].role, Role::kUploader);
  EXPECT_EQ(config->api_keys[0].subject, "ci-bot");
  ASSERT_EQ(config->jwt.keys.size(), 2u);
  EXPECT_EQ(config->jwt.keys[0].material, "0123456789abcdef0123456789abcdef!");  // newline trimmed
  EXPECT_EQ(config->jwt.keys[1].kid, "k1");
  EXPECT_EQ(config->jwt.tenant_claim, "org");
  EXPECT_EQ(config->jwt.role_claim, "tw_role");
  EXPECT_EQ(config->jwt.subject_claim, "sub");
  EXPECT_EQ(config->audit_log, dir + "/audit.jsonl");
  const QuotaLimits acme = config->quotas.For("acme");
  EXPECT_EQ(*acme.stored_bytes, int64_t{1} << 30);
  EXPECT_EQ(*acme.concurrent_turns, 5);
  EXPECT_EQ(*acme.llm_micro_usd_per_day, 1'500'000);
  EXPECT_EQ(*config->quotas.For("other").concurrent_turns, 2);
  std::filesystem::remove_all(dir);
}

TEST(AuthConfig, MalformedConfigsNameTheField) {
  struct Case {
    std::string yaml;
    std::string mentions;
  };
  const std::vector<Case> cases = {
      {"", "empty"},
      {"api_keys: []", "nobody could authenticate"},
      {"api_keys:\n  - {hash: sha256:abc, tenant: t, role: admin}", "api_keys[0]"},
      {"api_keys:\n  - {hash: " + kHash + ", tenant: t, role: root}", "unknown role"},
      {"api_keys:\n  - {hash: " + kHash + ", role: admin}", "tenant"},
      {"jwt:\n  keys:\n    - {algorithm: HS256, secret: short}", "32 bytes"},
      {"jwt:\n  keys:\n    - {algorithm: none}", "not supported"},
      {"jwt:\n  keys: []", "jwt.keys"},
      {"apikeys: []", "unknown section"},
      {"api_keys:\n  - {hash: " + kHash + ", tenant: t, role: admin}\nquotas:\n  default: {turns: 3}",
       "unknown quota"},
      {"api_keys: [", "YAML"},
  };
  for (const Case& c : cases) {
    auto config = ParseAuthConfig(c.yaml, "");
    ASSERT_FALSE(config.ok()) << c.yaml;
    EXPECT_NE(std::string(config.status().message()).find(c.mentions), std::string::npos)
        << c.yaml << " → " << config.status();
  }
  EXPECT_EQ(LoadAuthConfig("/nonexistent/auth.yaml").status().code(), absl::StatusCode::kNotFound);
}

TEST(AuthConfig, AppendApiKeyKeepsTheRestAndStoresOnlyTheHash) {
  const std::string dir = testing::TempDir("tw-authcfg");
  const std::string path = dir + "/auth.yaml";
  testing::WriteAll(path, "jwt:\n  keys:\n    - {algorithm: HS256, secret: 0123456789abcdef0123456789abcdef}\n");
  const std::string key = *GenerateApiKey();
  ASSERT_TRUE(AppendApiKey(path, {HashApiKey(key), "acme", Role::kViewer, "dashboard", "2026-11-26T00:00:00Z"}).ok());
  const std::string key2 = *GenerateApiKey();
  ASSERT_TRUE(AppendApiKey(path, {HashApiKey(key2), "globex", Role::kAdmin, "", ""}).ok());
  const std::string text = testing::ReadAll(path);
  EXPECT_EQ(text.find(key), std::string::npos);
  EXPECT_EQ(text.find(key.substr(4)), std::string::npos);
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto config = LoadAuthConfig(path);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->jwt.keys.size(), 1u);
  ASSERT_EQ(config->api_keys.size(), 2u);
  Authenticator auth(*config);
  auto who = auth.Authenticate("Bearer " + key);
  ASSERT_TRUE(who.ok());
  EXPECT_EQ(who->tenant, "acme");
  EXPECT_EQ(who->subject, "dashboard");
  EXPECT_EQ(auth.Authenticate("Bearer " + key2)->tenant, "globex");

  // A fresh file is created.
  const std::string fresh = dir + "/new.yaml";
  ASSERT_TRUE(AppendApiKey(fresh, {HashApiKey(key), "t", Role::kUploader, "", ""}).ok());
  EXPECT_TRUE(LoadAuthConfig(fresh).ok());
  std::filesystem::remove_all(dir);
}

TEST(AuthConfig, ByteSizes) {
  EXPECT_EQ(*ParseByteSize("1024"), 1024);
  EXPECT_EQ(*ParseByteSize("2KiB"), 2048);
  EXPECT_EQ(*ParseByteSize("1.5 GB"), int64_t{3} << 29);
  EXPECT_FALSE(ParseByteSize("lots").ok());
  EXPECT_FALSE(ParseByteSize("5 parsecs").ok());
}

}  // namespace
}  // namespace tw::auth
