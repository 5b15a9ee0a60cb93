#include "libs/trace/importers/systrace/ftrace_text_line.h"

#include <limits>

namespace tw {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// What the pattern's \s matches.
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool IsFlagLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.'; }
bool IsFlagDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || c == '.'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::optional<uint32_t> ParseU32(std::string_view s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
    if (v > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  }
  return static_cast<uint32_t>(v);
}

// A cursor over the line; every step either advances or leaves `pos` alone.
struct Cursor {
  std::string_view s;
  size_t pos;
  bool AtEnd() const { return pos >= s.size(); }
  char Peek() const { return AtEnd() ? '\0' : s[pos]; }
  bool Take(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++pos;
    return true;
  }
  std::string_view Digits() {
    const size_t start = pos;
    while (!AtEnd() && IsDigit(s[pos])) ++pos;
    return s.substr(start, pos - start);
  }
  size_t Spaces() {
    const size_t start = pos;
    while (!AtEnd() && IsSpace(s[pos])) ++pos;
    return pos - start;
  }
};

// From `pos` on: "<seconds>.<fraction>:" then whitespace then "<event>:". The event is the
// longest run of non-space characters that is followed by ':' (so "sched:sched_switch:" keeps
// its inner colon, as the pattern's greedy \S+ does).
bool MatchTimestampAndEvent(Cursor c, FtraceTextLine* out, size_t* end) {
  const size_t ts_start = c.pos;
  if (c.Digits().empty() || !c.Take('.') || c.Digits().empty()) return false;
  const std::string_view ts_text = c.s.substr(ts_start, c.pos - ts_start);
  if (!c.Take(':') || c.Spaces() == 0) return false;
  const size_t run_start = c.pos;
  while (!c.AtEnd() && !IsSpace(c.s[c.pos])) ++c.pos;
  const std::string_view run = c.s.substr(run_start, c.pos - run_start);
  const size_t colon = run.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::optional<int64_t> ts = ParseFtraceTimestamp(ts_text);
  if (!ts) return false;
  out->ts = *ts;
  out->event = run.substr(0, colon);
  *end = run_start + colon + 1;
  return true;
}

// Tries the columns after the '-' at `dash`. `end` receives where the args start.
bool MatchAt(std::string_view line, size_t dash, FtraceTextLine* out, size_t* end) {
  Cursor c{line, dash + 1};
  const std::string_view pid = c.Digits();
  if (pid.empty() || c.Spaces() == 0) return false;
  c.Take('(');
  c.Spaces();
  std::string_view tgid;
  if (IsDigit(c.Peek())) {
    tgid = c.Digits();
  } else {
    while (c.Peek() == '-' && !c.AtEnd()) ++c.pos;  // "(-----)": not known
  }
  c.Take(')');
  if (IsSpace(c.Peek()) && !c.AtEnd()) ++c.pos;
  if (!c.Take('[')) return false;
  const std::string_view cpu = c.Digits();
  if (cpu.empty() || !c.Take(']')) return false;
  c.Spaces();

  // Flags are optional and their last characters may be digits, so the timestamp can start
  // at three places; the longest flags that still leave a timestamp win.
  const size_t flags_start = c.pos;
  bool matched = false;
  for (size_t tail : {2, 1}) {
    if (flags_start + 3 + tail > line.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < 3 && ok; ++i) ok = IsFlagLetter(line[flags_start + i]);
    for (size_t i = 0; i < tail && ok; ++i) ok = IsFlagDigit(line[flags_start + 3 + i]);
    if (!ok) continue;
    Cursor after{line, flags_start + 3 + tail};
    after.Spaces();
    if (MatchTimestampAndEvent(after, out, end)) {
      matched = true;
      break;
    }
  }
  if (!matched && !MatchTimestampAndEvent(c, out, end)) return false;

  const std::optional<uint32_t> pid_value = ParseU32(pid);
  const std::optional<uint32_t> cpu_value = ParseU32(cpu);
  if (!pid_value || !cpu_value) return false;
  out->pid = *pid_value;
  out->cpu = *cpu_value;
  out->tgid = ParseU32(tgid);
  return true;
}

}  // namespace

std::optional<int64_t> ParseFtraceTimestamp(std::string_view text) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= text.size()) return std::nullopt;
  const std::string_view secs = text.substr(0, dot);
  const std::string_view frac = text.substr(dot + 1);
  // 9,223,372,035 s is the last second whose nanoseconds fit in int64.
  constexpr int64_t kMaxSeconds = std::numeric_limits<int64_t>::max() / 1000000000 - 1;
  int64_t s = 0;
  for (char ch : secs) {
    if (!IsDigit(ch)) return std::nullopt;
    s = s * 10 + (ch - '0');
    if (s > kMaxSeconds) return std::nullopt;
  }
  int64_t ns = 0;
  int64_t scale = 100000000;
  for (char ch : frac) {
    if (!IsDigit(ch)) return std::nullopt;
    ns += (ch - '0') * scale;
    scale /= 10;
  }
  return s * 1000000000 + ns;
}

bool ParseFtraceTextLine(std::string_view line, FtraceTextLine* out) {
  for (size_t dash = line.find('-'); dash != std::string_view::npos;
       dash = line.find('-', dash + 1)) {
    size_t end = 0;
    FtraceTextLine parsed;
    if (!MatchAt(line, dash, &parsed, &end)) continue;
    parsed.task = Trim(line.substr(0, dash));
    parsed.args = Trim(line.substr(end));
    *out = parsed;
    return true;
  }
  return false;
}

}  // namespace tw
