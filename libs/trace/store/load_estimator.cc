#include "libs/trace/store/load_estimator.h"

#include <algorithm>
#include <cmath>

namespace tw {
namespace {

// Memory per file byte before anything was measured, by kind: deliberately on the high side
// (a refusal is cheaper than a killed pod), measured with `tracewise info` on the shared and
// tracegen traces. Gzip'd files expand several times before any of that applies.
struct Prior {
  const char* kind;
  double peak;
  double resident;
};
constexpr Prior kPriors[] = {
    {"perfetto_proto", 6.0, 4.0},
    {"json", 3.0, 1.5},
    {"systrace", 4.0, 2.5},
    {"systrace_html", 4.0, 2.5},
};
constexpr double kDefaultPeak = 6.0;
constexpr double kDefaultResident = 4.0;
constexpr double kGzipExpansion = 8.0;
// Predictions are padded by this much: two traces of one kind differ.
constexpr double kMargin = 1.15;
// Fixed cost of any loaded trace: SQLite connection, schema, statement caches.
constexpr int64_t kPerTraceBytes = 4 << 20;

// Rises at once to a bigger observation; drifts slowly down toward smaller ones.
double Follow(double current, double observed) {
  if (current <= 0 || observed >= current) return observed;
  return 0.7 * current + 0.3 * observed;
}

}  // namespace

LoadEstimator::Ratios LoadEstimator::RatiosFor(const std::string& kind) const {
  auto it = kinds_.find(kind);
  if (it != kinds_.end() && it->second.samples > 0) return it->second;
  const bool gzip = kind.size() > 5 && kind.compare(kind.size() - 5, 5, "+gzip") == 0;
  const std::string base = gzip ? kind.substr(0, kind.size() - 5) : kind;
  Ratios r{kDefaultPeak, kDefaultResident, 0};
  for (const Prior& p : kPriors) {
    if (base == p.kind) r = {p.peak, p.resident, 0};
  }
  if (gzip) {
    r.peak *= kGzipExpansion;
    r.resident *= kGzipExpansion;
  }
  return r;
}

LoadEstimate LoadEstimator::Estimate(const std::string& trace_id, const std::string& kind,
                                     int64_t file_bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto known = traces_.find(trace_id);
  if (known != traces_.end()) {
    LoadEstimate e = known->second;
    e.peak_bytes = static_cast<int64_t>(static_cast<double>(e.peak_bytes) * 1.05);
    e.measured = true;
    return e;
  }
  const Ratios r = RatiosFor(kind);
  const double bytes = static_cast<double>(std::max<int64_t>(file_bytes, 0));
  LoadEstimate e;
  e.resident_bytes = static_cast<int64_t>(bytes * r.resident * kMargin) + kPerTraceBytes;
  e.peak_bytes = std::max(e.resident_bytes,
                          static_cast<int64_t>(bytes * r.peak * kMargin) + kPerTraceBytes);
  return e;
}

void LoadEstimator::Observe(const std::string& trace_id, const std::string& kind,
                            int64_t file_bytes, int64_t peak_bytes, int64_t resident_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  LoadEstimate& own = traces_[trace_id];
  own.resident_bytes = resident_bytes;
  own.peak_bytes = std::max({peak_bytes, resident_bytes, own.peak_bytes});
  if (file_bytes <= 0) return;
  Ratios current = RatiosFor(kind);
  Ratios& r = kinds_[kind];
  const double bytes = static_cast<double>(file_bytes);
  const double resident = static_cast<double>(std::max<int64_t>(resident_bytes - kPerTraceBytes, 0)) / bytes;
  // A load whose peak could not be measured still says the peak was at least the resident size.
  const double peak = static_cast<double>(std::max<int64_t>(std::max(peak_bytes, resident_bytes) - kPerTraceBytes, 0)) / bytes;
  if (r.samples == 0) {
    // The first real figure replaces the prior outright, except that an unmeasured peak keeps
    // the prior's ratio of peak to resident.
    r.resident = resident;
    r.peak = peak_bytes > 0 ? peak : std::max(peak, resident * current.peak / current.resident);
  } else {
    r.resident = Follow(r.resident, resident);
    if (peak_bytes > 0) r.peak = Follow(r.peak, peak);
    r.peak = std::max(r.peak, r.resident);
  }
  ++r.samples;
}

double LoadEstimator::PeakRatio(const std::string& kind) const {
  std::lock_guard<std::mutex> lock(mu_);
  return RatiosFor(kind).peak;
}

double LoadEstimator::ResidentRatio(const std::string& kind) const {
  std::lock_guard<std::mutex> lock(mu_);
  return RatiosFor(kind).resident;
}

}  // namespace tw
