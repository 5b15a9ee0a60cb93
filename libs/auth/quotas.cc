#include "libs/auth/quotas.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tw::auth {
namespace {

constexpr char kRetryAfterPayload[] = "type.tracewise.dev/retry-after";
constexpr int64_t kTurnRetrySeconds = 5;

int64_t DayOf(absl::Time t) { return absl::ToUnixSeconds(t) / 86400; }

int64_t SecondsToMidnight(absl::Time now) {
  const int64_t s = absl::ToUnixSeconds(now);
  return std::max<int64_t>(1, (s / 86400 + 1) * 86400 - s);
}

}  // namespace

absl::Status QuotaExceeded(const std::string& message, int64_t retry_after_seconds) {
  absl::Status status = absl::ResourceExhaustedError(message);
  status.SetPayload(kRetryAfterPayload, absl::Cord(absl::StrCat(std::max<int64_t>(1, retry_after_seconds))));
  return status;
}

std::optional<int64_t> RetryAfterSeconds(const absl::Status& status) {
  auto payload = status.GetPayload(kRetryAfterPayload);
  int64_t seconds = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &seconds)) return std::nullopt;
  return seconds;
}

absl::Status TenantQuotas::CheckStoredBytes(const std::string& tenant, int64_t held,
                                            int64_t adding) const {
  const auto limit = settings_.For(tenant).stored_bytes;
  if (!limit || held + adding <= *limit) return absl::OkStatus();
  // No waiting makes room: retry once something was deleted (an hour is a hint, not a promise).
  return QuotaExceeded(absl::StrCat("tenant storage quota exceeded: ", held, " bytes stored + ",
                                    adding, " new > ", *limit, " allowed; delete traces first"),
                       3600);
}

absl::Status TenantQuotas::AdmitRequest(const std::string& tenant, absl::Time now) {
  const auto limit = settings_.For(tenant).requests_per_minute;
  if (!limit) return absl::OkStatus();
  if (*limit == 0) return QuotaExceeded("tenant request rate quota is 0", 60);
  const double capacity = static_cast<double>(*limit);
  const double per_second = capacity / 60.0;
  std::lock_guard<std::mutex> lock(mu_);
  Bucket& b = buckets_[tenant];
  if (b.refilled == absl::InfinitePast()) {
    b.tokens = capacity;
  } else {
    b.tokens = std::min(capacity, b.tokens + absl::ToDoubleSeconds(now - b.refilled) * per_second);
  }
  b.refilled = now;
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return absl::OkStatus();
  }
  const int64_t wait = static_cast<int64_t>(std::ceil((1.0 - b.tokens) / per_second));
  return QuotaExceeded(absl::StrCat("tenant request rate quota exceeded (", *limit,
                                    " requests per minute)"),
                       wait);
}

TenantQuotas::TurnLease& TenantQuotas::TurnLease::operator=(TurnLease&& other) noexcept {
  if (this != &other) {
    Release();
    quotas_ = other.quotas_;
    tenant_ = std::move(other.tenant_);
    other.quotas_ = nullptr;
  }
  return *this;
}

void TenantQuotas::TurnLease::Release() {
  if (quotas_ == nullptr) return;
  std::lock_guard<std::mutex> lock(quotas_->mu_);
  auto it = quotas_->turns_.find(tenant_);
  if (it != quotas_->turns_.end() && --it->second <= 0) quotas_->turns_.erase(it);
  quotas_ = nullptr;
}

absl::StatusOr<TenantQuotas::TurnLease> TenantQuotas::AcquireTurn(const std::string& tenant) {
  const auto limit = settings_.For(tenant).concurrent_turns;
  std::lock_guard<std::mutex> lock(mu_);
  int64_t& running = turns_[tenant];
  if (limit && running >= *limit) {
    return QuotaExceeded(absl::StrCat("tenant concurrent turn quota exceeded: ", running,
                                      " running, ", *limit, " allowed"),
                         kTurnRetrySeconds);
  }
  ++running;
  return TurnLease(this, tenant);
}

int64_t TenantQuotas::RunningTurns(const std::string& tenant) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = turns_.find(tenant);
  return it == turns_.end() ? 0 : it->second;
}

absl::Status TenantQuotas::CheckSpend(const std::string& tenant, absl::Time now) {
  const auto limit = settings_.For(tenant).llm_micro_usd_per_day;
  if (!limit) return absl::OkStatus();
  const int64_t spent = SpentToday(tenant, now);
  if (spent < *limit) return absl::OkStatus();
  return QuotaExceeded(absl::StrCat("tenant LLM spend quota exceeded: $", spent / 1e6,
                                    " spent today (UTC), $", *limit / 1e6, " allowed per day"),
                       SecondsToMidnight(now));
}

void TenantQuotas::AddSpend(const std::string& tenant, int64_t micro_usd, absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  Spend& s = spend_[tenant];
  const int64_t day = DayOf(now);
  if (s.day != day) s = {day, 0};
  s.micro_usd += std::max<int64_t>(0, micro_usd);
}

int64_t TenantQuotas::SpentToday(const std::string& tenant, absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = spend_.find(tenant);
  if (it == spend_.end() || it->second.day != DayOf(now)) return 0;
  return it->second.micro_usd;
}

}  // namespace tw::auth
