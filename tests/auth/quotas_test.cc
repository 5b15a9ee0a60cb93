#include "libs/auth/quotas.h"

#include <gtest/gtest.h>

namespace tw::auth {
namespace {

QuotaSettings Limits() {
  QuotaSettings s;
  s.defaults.requests_per_minute = 60;
  s.defaults.concurrent_turns = 1;
  s.defaults.llm_micro_usd_per_day = 1'000'000;
  s.defaults.stored_bytes = 1000;
  QuotaLimits big;
  big.concurrent_turns = 3;
  s.tenants.push_back({"big", big});
  return s;
}

TEST(Quotas, RequestRateRefusesWithRetryAfterThenRefills) {
  TenantQuotas q(Limits());
  const absl::Time t0 = absl::FromUnixSeconds(1'000'000);
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(q.AdmitRequest("a", t0).ok()) << i;
  absl::Status refused = q.AdmitRequest("a", t0);
  EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted);
  ASSERT_TRUE(RetryAfterSeconds(refused).has_value());
  EXPECT_EQ(*RetryAfterSeconds(refused), 1);
  EXPECT_TRUE(q.AdmitRequest("b", t0).ok());  // another tenant has its own bucket
  EXPECT_TRUE(q.AdmitRequest("a", t0 + absl::Seconds(1)).ok());  // one per second refills
  EXPECT_FALSE(q.AdmitRequest("a", t0 + absl::Seconds(1)).ok());
}

TEST(Quotas, ConcurrentTurnsAreLeases) {
  TenantQuotas q(Limits());
  auto first = q.AcquireTurn("a");
  ASSERT_TRUE(first.ok());
  auto second = q.AcquireTurn("a");
  EXPECT_EQ(second.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(RetryAfterSeconds(second.status()).has_value());
  EXPECT_EQ(q.RunningTurns("a"), 1);
  first->Release();
  EXPECT_EQ(q.RunningTurns("a"), 0);
  EXPECT_TRUE(q.AcquireTurn("a").ok());  // released by the temporary's destructor too
  std::vector<TenantQuotas::TurnLease> big;
  for (int i = 0; i < 3; ++i) big.push_back(std::move(*q.AcquireTurn("big")));
  EXPECT_FALSE(q.AcquireTurn("big").ok());
}

TEST(Quotas, SpendPerUtcDay) {
  TenantQuotas q(Limits());
  const absl::Time noon = absl::FromUnixSeconds(19'000 * 86400 + 43'200);
  EXPECT_TRUE(q.CheckSpend("a", noon).ok());
  q.AddSpend("a", 600'000, noon);
  EXPECT_TRUE(q.CheckSpend("a", noon).ok());
  q.AddSpend("a", 400'000, noon);
  absl::Status refused = q.CheckSpend("a", noon);
  EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(*RetryAfterSeconds(refused), 43'200);  // until midnight UTC
  EXPECT_TRUE(q.CheckSpend("a", noon + absl::Hours(12)).ok());  // a new day
  EXPECT_TRUE(q.CheckSpend("b", noon).ok());
}

TEST(Quotas, StoredBytes) {
  TenantQuotas q(Limits());
  EXPECT_TRUE(q.CheckStoredBytes("a", 400, 600).ok());
  EXPECT_EQ(q.CheckStoredBytes("a", 401, 600).code(), absl::StatusCode::kResourceExhausted);
  TenantQuotas none(QuotaSettings{});
  EXPECT_TRUE(none.CheckStoredBytes("a", int64_t{1} << 50, 1).ok());
  EXPECT_TRUE(none.AdmitRequest("a").ok());
}

}  // namespace
}  // namespace tw::auth
