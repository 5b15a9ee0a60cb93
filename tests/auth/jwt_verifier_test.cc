#include "libs/auth/jwt_verifier.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "absl/strings/escaping.h"
#include "libs/auth/authenticator.h"
#include "tests/auth/test_keys.h"

namespace tw::auth {
namespace {

const std::string kSecret = "0123456789abcdef0123456789abcdef-test-secret";

class JwtTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::TempDir("tw-jwt"));
    rsa_ = new testing::RsaPair(testing::MakeRsaPair(*dir_, "signer"));
    other_ = new testing::RsaPair(testing::MakeRsaPair(*dir_, "attacker"));
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
    delete rsa_;
    delete other_;
  }
  void SetUp() override { ASSERT_FALSE(rsa_->public_pem.empty()) << "openssl could not make a key"; }

  static JwtSettings Settings() {
    JwtSettings s;
    s.keys.push_back({JwtAlgorithm::kHs256, kSecret, ""});
    s.keys.push_back({JwtAlgorithm::kRs256, rsa_->public_pem, ""});
    s.leeway_seconds = 0;
    return s;
  }
  static nlohmann::json Claims(int64_t exp_offset = 3600) {
    return {{"sub", "alice"},
            {"tenant", "acme"},
            {"role", "admin"},
            {"exp", absl::ToUnixSeconds(absl::Now()) + exp_offset}};
  }
  static std::string Hs(const nlohmann::json& claims, const std::string& secret = kSecret) {
    return *SignJwt(JwtAlgorithm::kHs256, secret, claims.dump());
  }
  static std::string Rs(const nlohmann::json& claims, const testing::RsaPair& pair) {
    return *SignJwt(JwtAlgorithm::kRs256, pair.private_pem, claims.dump());
  }
  static absl::StatusCode Code(const std::string& token, JwtSettings s = Settings()) {
    return JwtVerifier(std::move(s)).Verify(token, absl::Now()).status().code();
  }

  static std::string* dir_;
  static testing::RsaPair* rsa_;
  static testing::RsaPair* other_;
};
std::string* JwtTest::dir_ = nullptr;
testing::RsaPair* JwtTest::rsa_ = nullptr;
testing::RsaPair* JwtTest::other_ = nullptr;

TEST_F(JwtTest, Hs256AndRs256TokensGiveTheirClaims) {
  for (const std::string& token : {Hs(Claims()), Rs(Claims(), *rsa_)}) {
    auto id = JwtVerifier(Settings()).Verify(token, absl::Now());
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(id->tenant, "acme");
    EXPECT_EQ(id->role, Role::kAdmin);
    EXPECT_EQ(id->subject, "alice");
    EXPECT_EQ(id->method, "jwt");
  }
}

TEST_F(JwtTest, ForgedExpiredAndUnsignedTokensAreRefused) {
  EXPECT_EQ(Code(Hs(Claims(), "another-secret-that-is-32-bytes-long!!")), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Code(Rs(Claims(), *other_)), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Code(Hs(Claims(-10))), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Code(Rs(Claims(-10), *rsa_)), absl::StatusCode::kUnauthenticated);
  auto no_exp = Claims();
  no_exp.erase("exp");
  EXPECT_EQ(Code(Hs(no_exp)), absl::StatusCode::kUnauthenticated);
  auto future = Claims();
  future["nbf"] = absl::ToUnixSeconds(absl::Now()) + 600;
  EXPECT_EQ(Code(Hs(future)), absl::StatusCode::kUnauthenticated);

  // A payload edited after signing (tenant swapped) no longer matches its signature.
  const std::string good = Hs(Claims());
  const size_t a = good.find('.'), b = good.rfind('.');
  auto edited = Claims();
  edited["tenant"] = "victim";
  std::string payload;
  absl::WebSafeBase64Escape(edited.dump(), &payload);
  EXPECT_EQ(Code(good.substr(0, a + 1) + payload + good.substr(b)), absl::StatusCode::kUnauthenticated);

  // alg: none, with and without a signature part.
  std::string header, body;
  absl::WebSafeBase64Escape(R"({"alg":"none","typ":"JWT"})", &header);
  absl::WebSafeBase64Escape(Claims().dump(), &body);
  EXPECT_EQ(Code(header + "." + body + "."), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Code(header + "." + body + ".x"), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(Code("not.a.jwt"), absl::StatusCode::kUnauthenticated);
}

TEST_F(JwtTest, HmacWithThePublicKeyIsNotAccepted) {
  // The classic confusion: an HS256 token whose secret is the RSA public key. Only RS256 keys
  // are configured, so no HS256 key is tried at all.
  JwtSettings rs_only;
  rs_only.keys.push_back({JwtAlgorithm::kRs256, rsa_->public_pem, ""});
  EXPECT_EQ(Code(Hs(Claims(), rsa_->public_pem), rs_only), absl::StatusCode::kUnauthenticated);
  EXPECT_TRUE(JwtVerifier(rs_only).Verify(Rs(Claims(), *rsa_), absl::Now()).ok());
}

TEST_F(JwtTest, ClaimsIssuerAudienceAndLeeway) {
  JwtSettings s = Settings();
  s.issuer = "https://idp.test";
  s.audience = "tracewise";
  s.tenant_claim = "org";
  s.role_claim = "tw_role";
  auto claims = Claims();
  claims["org"] = "globex";
  claims["tw_role"] = "viewer";
  EXPECT_EQ(Code(Hs(claims), s), absl::StatusCode::kUnauthenticated);  // no iss
  claims["iss"] = "https://idp.test";
  claims["aud"] = nlohmann::json::array({"other", "tracewise"});
  auto id = JwtVerifier(s).Verify(Hs(claims), absl::Now());
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->tenant, "globex");
  EXPECT_EQ(id->role, Role::kViewer);
  claims["aud"] = "someone-else";
  EXPECT_EQ(Code(Hs(claims), s), absl::StatusCode::kUnauthenticated);

  auto bad_role = Claims();
  bad_role["role"] = "root";
  EXPECT_EQ(Code(Hs(bad_role)), absl::StatusCode::kUnauthenticated);
  auto no_tenant = Claims();
  no_tenant.erase("tenant");
  EXPECT_EQ(Code(Hs(no_tenant)), absl::StatusCode::kUnauthenticated);

  // Expired 10 s ago: refused without leeway, accepted with 30 s of it.
  JwtSettings lenient = Settings();
  lenient.leeway_seconds = 30;
  EXPECT_TRUE(JwtVerifier(lenient).Verify(Hs(Claims(-10)), absl::Now()).ok());
}

TEST_F(JwtTest, KidSelectsTheKey) {
  JwtSettings s;
  s.leeway_seconds = 0;
  s.keys.push_back({JwtAlgorithm::kRs256, other_->public_pem, "old"});
  s.keys.push_back({JwtAlgorithm::kRs256, rsa_->public_pem, "new"});
  const std::string token = *SignJwt(JwtAlgorithm::kRs256, rsa_->private_pem, Claims().dump(), "new");
  EXPECT_TRUE(JwtVerifier(s).Verify(token, absl::Now()).ok());
  const std::string wrong_kid = *SignJwt(JwtAlgorithm::kRs256, rsa_->private_pem, Claims().dump(), "old");
  EXPECT_EQ(JwtVerifier(s).Verify(wrong_kid, absl::Now()).status().code(), absl::StatusCode::kUnauthenticated);
}

TEST_F(JwtTest, AVerifiedTokenIsRememberedOnlyUntilItExpires) {
  JwtVerifier verifier(Settings());
  const absl::Time now = absl::Now();
  const std::string token = Rs(Claims(60), *rsa_);
  ASSERT_TRUE(verifier.Verify(token, now).ok());
  EXPECT_TRUE(verifier.Verify(token, now + absl::Seconds(30)).ok());  // from the cache
  // Past its exp: refused, cache or not.
  EXPECT_EQ(verifier.Verify(token, now + absl::Seconds(61)).status().code(), absl::StatusCode::kUnauthenticated);
  // A forged token is never cached as valid: same claims, wrong signature, still refused.
  EXPECT_EQ(verifier.Verify(Rs(Claims(60), *other_), now).status().code(), absl::StatusCode::kUnauthenticated);
}

TEST_F(JwtTest, AuthenticatorRoutesJwtsAndKeys) {
  AuthConfig config;
  config.jwt = Settings();
  Authenticator auth(config);
  EXPECT_TRUE(auth.Authenticate("Bearer " + Hs(Claims())).ok());
  EXPECT_EQ(auth.Authenticate("Bearer " + Hs(Claims(-100))).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(auth.Authenticate("Bearer twk_nothing").status().code(), absl::StatusCode::kUnauthenticated);
}

}  // namespace
}  // namespace tw::auth
