#include "libs/auth/api_key.h"

#include <gtest/gtest.h>

#include <set>

#include "libs/auth/authenticator.h"
#include "libs/auth/tenant_ids.h"

namespace tw::auth {
namespace {

TEST(ApiKey, NewKeysAreRandomAndHashedWithoutTheKey) {
  std::set<std::string> keys;
  for (int i = 0; i < 50; ++i) {
    auto key = GenerateApiKey();
    ASSERT_TRUE(key.ok());
    EXPECT_EQ(key->rfind("twk_", 0), 0u);
    EXPECT_GE(key->size(), 4u + 43u);
    keys.insert(*key);
    const std::string hash = HashApiKey(*key);
    EXPECT_EQ(hash.size(), 7u + 64u);
    EXPECT_EQ(hash.find(key->substr(4)), std::string::npos);
  }
  EXPECT_EQ(keys.size(), 50u);
  EXPECT_EQ(HashApiKey("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(ApiKeyId("sha256:ba7816bf8f01cfea414140de"), "ba7816bf8f01");
}

TEST(ApiKey, ConstantTimeEquals) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
}

AuthConfig ConfigWith(const std::string& key, const std::string& tenant, Role role) {
  AuthConfig config;
  config.api_keys.push_back({HashApiKey(key), tenant, role, "", ""});
  return config;
}

TEST(Authenticator, ApiKeyMapsToTenantAndRole) {
  const std::string key = *GenerateApiKey();
  Authenticator auth(ConfigWith(key, "acme", Role::kUploader));
  auto id = auth.Authenticate("Bearer " + key);
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->tenant, "acme");
  EXPECT_EQ(id->role, Role::kUploader);
  EXPECT_EQ(id->method, "api_key");
  EXPECT_EQ(id->key_id, ApiKeyId(HashApiKey(key)));
  EXPECT_FALSE(id->anonymous());
  EXPECT_TRUE(auth.Authenticate("bearer   " + key).ok());  // scheme is case-insensitive
}

TEST(Authenticator, RefusesMissingMalformedAndUnknownTokens) {
  const std::string key = *GenerateApiKey();
  Authenticator auth(ConfigWith(key, "acme", Role::kViewer));
  for (const std::string& header : std::vector<std::string>{std::string(""), std::string("Bearer"), std::string("Bearer "),
                                   "Basic " + key, key, "Bearer " + key + "x",
                                   std::string("Bearer twk_forged"), std::string("Bearer a.b.c")}) {
    auto id = auth.Authenticate(header);
    EXPECT_EQ(id.status().code(), absl::StatusCode::kUnauthenticated) << header;
  }
}

TEST(Identity, RolesNest) {
  Identity viewer{"v", "t", Role::kViewer, "api_key", ""};
  Identity uploader{"u", "t", Role::kUploader, "api_key", ""};
  Identity admin{"a", "t", Role::kAdmin, "api_key", ""};
  EXPECT_TRUE(viewer.Allows(Permission::kAsk));
  EXPECT_TRUE(viewer.Allows(Permission::kRead));
  EXPECT_FALSE(viewer.Allows(Permission::kUpload));
  EXPECT_EQ(viewer.Require(Permission::kDelete).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(uploader.Allows(Permission::kUpload));
  EXPECT_FALSE(uploader.Allows(Permission::kDelete));
  EXPECT_TRUE(admin.Allows(Permission::kDelete));
  EXPECT_TRUE(admin.Allows(Permission::kListTenant));
  // Lists: own objects unless admin, never another tenant's.
  EXPECT_TRUE(viewer.ListsObject("t", "v"));
  EXPECT_FALSE(viewer.ListsObject("t", "someone"));
  EXPECT_TRUE(admin.ListsObject("t", "someone"));
  EXPECT_FALSE(admin.ListsObject("other", "a"));
  EXPECT_TRUE(AnonymousIdentity().ListsObject("", "x"));
  EXPECT_TRUE(AnonymousIdentity().SeesTenant("anything"));
}

TEST(TenantIds, SameContentDifferentTenantsDifferentIds) {
  const std::string content(64, 'a');
  EXPECT_EQ(TenantObjectId("", content), content);
  const std::string a = TenantObjectId("a", content);
  const std::string b = TenantObjectId("b", content);
  EXPECT_NE(a, b);
  EXPECT_NE(a, content);
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a, TenantObjectId("a", content));
  EXPECT_NE(TenantObjectId("a:1", content), TenantObjectId("a", "1:" + content));
}

}  // namespace
}  // namespace tw::auth
