#pragma once
// Per-tenant limits (auth config `quotas:`): stored bytes (trace-query), concurrent turns and
// LLM spend per UTC day (orchestrator), request rate (gateway). Each refusal is
// RESOURCE_EXHAUSTED carrying a retry-after (seconds; RetryAfterSeconds reads it), which the
// gateway sends as `Retry-After` with 429 and gRPC servers as `retry-after` trailing metadata.
// A tenant without a limit configured is never refused.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "libs/auth/auth_config.h"

namespace tw::auth {

// RESOURCE_EXHAUSTED with `message` and a retry-after payload.
absl::Status QuotaExceeded(const std::string& message, int64_t retry_after_seconds);
// The retry-after a quota refusal carries, if any.
std::optional<int64_t> RetryAfterSeconds(const absl::Status& status);

class TenantQuotas {
 public:
  explicit TenantQuotas(QuotaSettings settings) : settings_(std::move(settings)) {}
  QuotaLimits LimitsFor(const std::string& tenant) const { return settings_.For(tenant); }

  // Stored bytes: `held` is what the tenant stores now, `adding` the new object's size.
  absl::Status CheckStoredBytes(const std::string& tenant, int64_t held, int64_t adding) const;

  // Request rate: a token bucket of requests_per_minute, refilled continuously.
  absl::Status AdmitRequest(const std::string& tenant, absl::Time now = absl::Now());

  // Concurrent turns: a slot held for the turn's life (the lease gives it back).
  class TurnLease {
   public:
    TurnLease() = default;
    TurnLease(TurnLease&& other) noexcept : quotas_(other.quotas_), tenant_(std::move(other.tenant_)) {
      other.quotas_ = nullptr;
    }
    TurnLease& operator=(TurnLease&& other) noexcept;
    ~TurnLease() { Release(); }
    void Release();

   private:
    friend class TenantQuotas;
    TurnLease(TenantQuotas* quotas, std::string tenant) : quotas_(quotas), tenant_(std::move(tenant)) {}
    TenantQuotas* quotas_ = nullptr;
    std::string tenant_;
  };
  absl::StatusOr<TurnLease> AcquireTurn(const std::string& tenant);
  int64_t RunningTurns(const std::string& tenant);

  // LLM spend per UTC day, in micro-USD: refused once the day's spend reached the limit.
  absl::Status CheckSpend(const std::string& tenant, absl::Time now = absl::Now());
  void AddSpend(const std::string& tenant, int64_t micro_usd, absl::Time now = absl::Now());
  int64_t SpentToday(const std::string& tenant, absl::Time now = absl::Now());

 private:
  struct Bucket {
    double tokens = 0;
    absl::Time refilled = absl::InfinitePast();
  };
  struct Spend {
    int64_t day = 0;  // days since the epoch (UTC)
    int64_t micro_usd = 0;
  };
  QuotaSettings settings_;
  std::mutex mu_;
  std::map<std::string, Bucket> buckets_;
  std::map<std::string, int64_t> turns_;
  std::map<std::string, Spend> spend_;
};

}  // namespace tw::auth
