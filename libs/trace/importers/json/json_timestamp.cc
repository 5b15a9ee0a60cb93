#include "libs/trace/importers/json/json_timestamp.h"

#include <limits>
#include <string>

namespace tw {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Exponents beyond this cannot give an int64 (or round to anything but 0); bounding them keeps
// the digit arithmetic below small.
constexpr int64_t kMaxExponent = 400;

}  // namespace

std::optional<int64_t> MicrosLiteralToNanos(std::string_view s) {
  size_t i = 0;
  const bool negative = i < s.size() && s[i] == '-';
  if (negative) ++i;
  // The value is digits × 10^exp10 with `digits` free of leading zeros.
  std::string digits;
  int64_t exp10 = 0;
  bool any_digit = false;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    any_digit = true;
    if (digits.empty() && s[i] == '0') continue;
    digits.push_back(s[i]);
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      any_digit = true;
      --exp10;
      if (digits.empty() && s[i] == '0') continue;
      digits.push_back(s[i]);
    }
  }
  if (!any_digit) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exp_negative = s[i++] == '-';
    if (i >= s.size() || !IsDigit(s[i])) return std::nullopt;
    int64_t e = 0;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      if (e < kMaxExponent) e = e * 10 + (s[i] - '0');
    }
    exp10 += exp_negative ? -e : e;
  }
  if (i != s.size()) return std::nullopt;
  if (digits.empty()) return 0;

  // Microseconds to nanoseconds: three more decimal places.
  const int64_t shift = exp10 + 3;
  if (shift >= 0) {
    // An integer: the digits followed by `shift` zeros, if that fits.
    if (static_cast<int64_t>(digits.size()) + shift > 19) return std::nullopt;
    digits.append(static_cast<size_t>(shift), '0');
    uint64_t v = 0;  // at most 19 digits: no uint64 overflow
    for (char c : digits) v = v * 10 + static_cast<uint64_t>(c - '0');
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  }
  // Drop -shift digits from the right, rounding on the first one dropped.
  const int64_t keep = static_cast<int64_t>(digits.size()) + shift;
  if (keep > 19) return std::nullopt;
  uint64_t v = 0;
  for (int64_t k = 0; k < keep; ++k) v = v * 10 + static_cast<uint64_t>(digits[k] - '0');
  if (keep >= 0 && digits[static_cast<size_t>(keep)] >= '5') ++v;
  if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

}  // namespace tw
