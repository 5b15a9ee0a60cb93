#include "libs/trace/importers/common/atrace_parser.h"

#include <charconv>

namespace tw {
namespace {

template <typename T>
bool ParseInt(std::string_view s, T* out) {
  if (s.empty()) return false;
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

AtraceParseResult ParseAtraceMarker(std::string_view text, AtraceMarker* out) {
  *out = {};
  // Writers often leave a trailing newline or NUL.
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.remove_suffix(1);
  size_t off = 0;
  auto next_field = [&]() {
    if (off >= text.size()) {
      off = text.size() + 1;
      return std::string_view();
    }
    const size_t start = off;
    while (off < text.size() && text[off] != '|') ++off;
    std::string_view field = text.substr(start, off - start);
    if (off < text.size()) ++off;  // the separator
    else off = text.size() + 1;
    return field;
  };
  auto rest = [&]() { return off >= text.size() ? std::string_view() : text.substr(off); };

  const std::string_view phase = next_field();
  if (phase.empty()) return AtraceParseResult::kFailure;
  out->phase = phase[0];
  const std::string_view tgid = next_field();
  out->has_tgid = ParseInt(tgid, &out->tgid);
  if (!out->has_tgid) out->tgid = 0;

  switch (out->phase) {
    case 'B': {
      if (!out->has_tgid) return AtraceParseResult::kFailure;
      const std::string_view name = rest();
      out->name = name.empty() ? std::string_view("[empty slice name]") : name;
      return AtraceParseResult::kSuccess;
    }
    case 'E':
      return AtraceParseResult::kSuccess;
    case 'S':
    case 'F': {
      out->name = next_field();
      const std::string_view cookie = next_field();
      if (!out->has_tgid || out->name.empty() || !ParseInt(cookie, &out->value)) {
        return AtraceParseResult::kFailure;
      }
      return AtraceParseResult::kSuccess;
    }
    case 'I':
      out->name = next_field();
      if (!out->has_tgid || out->name.empty()) return AtraceParseResult::kFailure;
      return AtraceParseResult::kSuccess;
    case 'N':
      out->track_name = next_field();
      out->name = next_field();
      if (!out->has_tgid || out->track_name.empty() || out->name.empty()) {
        return AtraceParseResult::kFailure;
      }
      return AtraceParseResult::kSuccess;
    case 'C': {
      out->name = next_field();
      const std::string_view value = next_field();
      if (!out->has_tgid || out->name.empty() || !ParseInt(value, &out->value)) {
        return AtraceParseResult::kFailure;
      }
      return AtraceParseResult::kSuccess;
    }
    case 'G': {
      out->track_name = next_field();
      out->name = next_field();
      const std::string_view cookie = next_field();
      if (!out->has_tgid || out->track_name.empty() || out->name.empty() ||
          !ParseInt(cookie, &out->value)) {
        return AtraceParseResult::kFailure;
      }
      return AtraceParseResult::kSuccess;
    }
    case 'H': {
      out->track_name = next_field();
      const std::string_view f3 = next_field();
      const std::string_view f4 = next_field();
      const std::string_view cookie = f4.empty() ? f3 : f4;
      if (!out->has_tgid || out->track_name.empty() || !ParseInt(cookie, &out->value)) {
        return AtraceParseResult::kFailure;
      }
      return AtraceParseResult::kSuccess;
    }
    default:
      return AtraceParseResult::kUnsupported;
  }
}

}  // namespace tw
