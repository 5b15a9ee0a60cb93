#include "libs/trace/importers/systrace/ftrace_text_args.h"

#include <limits>

namespace tw {
namespace {

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}
std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  return s;
}

// Length of "key" when a "key=" starts at `pos`, else 0.
size_t KeyAt(std::string_view s, size_t pos) {
  size_t i = pos;
  while (i < s.size() && IsKeyChar(s[i])) ++i;
  return (i > pos && i < s.size() && s[i] == '=') ? i - pos : 0;
}

bool SeparatorAt(std::string_view s, size_t pos) {
  return s.substr(pos, 3) == "==>" && (pos + 3 == s.size() || IsBlank(s[pos + 3]));
}

}  // namespace

std::optional<int64_t> ParseTextInt(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  const std::optional<uint64_t> magnitude = ParseTextUint(s, false);
  if (!magnitude) return std::nullopt;
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (*magnitude > kMax + 1) return std::nullopt;
    return static_cast<int64_t>(0 - *magnitude);
  }
  if (*magnitude > kMax) return std::nullopt;
  return static_cast<int64_t>(*magnitude);
}

std::optional<uint64_t> ParseTextUint(std::string_view s, bool hex) {
  if (hex && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  const uint64_t base = hex ? 16 : 10;
  uint64_t v = 0;
  for (char c : s) {
    uint64_t digit;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint64_t>(c - '0');
    } else if (hex && c >= 'a' && c <= 'f') {
      digit = static_cast<uint64_t>(c - 'a' + 10);
    } else if (hex && c >= 'A' && c <= 'F') {
      digit = static_cast<uint64_t>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    if (v > (std::numeric_limits<uint64_t>::max() - digit) / base) return std::nullopt;
    v = v * base + digit;
  }
  return v;
}

FtraceTextArgs::FtraceTextArgs(std::string_view text) {
  // Walk token starts; each "key=" opens a pair whose value ends where the next pair or "==>"
  // begins.
  std::string_view key;
  size_t value_start = 0;
  bool open = false;
  size_t leading_end = std::string_view::npos;  // end of the text before the first key
  auto close = [&](size_t end) {
    if (open) pairs_.emplace_back(key, TrimRight(text.substr(value_start, end - value_start)));
    open = false;
  };
  for (size_t pos = 0; pos < text.size(); ++pos) {
    if (pos > 0 && !IsBlank(text[pos - 1])) continue;
    if (IsBlank(text[pos])) continue;
    if (SeparatorAt(text, pos)) {
      if (leading_end == std::string_view::npos) leading_end = pos;
      close(pos);
      pos += 2;
      continue;
    }
    const size_t key_len = KeyAt(text, pos);
    if (key_len == 0) continue;
    if (leading_end == std::string_view::npos) leading_end = pos;
    close(pos);
    key = text.substr(pos, key_len);
    value_start = pos + key_len + 1;
    open = true;
    pos = value_start - 1;  // a value may begin with what looks like a key ("a=b=c")
    while (pos + 1 < text.size() && !IsBlank(text[pos + 1])) ++pos;
  }
  close(text.size());
  const std::string_view leading = TrimRight(
      TrimLeft(text.substr(0, leading_end == std::string_view::npos ? text.size() : leading_end)));
  if (!leading.empty()) pairs_.insert(pairs_.begin(), {std::string_view("buf"), leading});
}

std::optional<std::string_view> FtraceTextArgs::Find(std::string_view key) const {
  for (const auto& [k, v] : pairs_) {
    if (k == key) return v;
  }
  return std::nullopt;
}

std::optional<int64_t> FtraceTextArgs::FindInt(std::string_view key) const {
  const std::optional<std::string_view> v = Find(key);
  return v ? ParseTextInt(*v) : std::nullopt;
}

std::optional<uint64_t> FtraceTextArgs::FindUint(std::string_view key, bool hex) const {
  const std::optional<std::string_view> v = Find(key);
  return v ? ParseTextUint(*v, hex) : std::nullopt;
}

}  // namespace tw
