#include "libs/trace/reader/format_detector.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// Text signatures are looked for this far into the head; real files put them on line one.
constexpr size_t kTextWindow = 4096;
// A first packet declaring more than this is not a trace we would import anyway.
constexpr uint64_t kMaxPlausiblePacket = 256ull << 20;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view SkipBomAndSpace(std::string_view s) {
  if (StartsWith(s, "\xEF\xBB\xBF")) s.remove_prefix(3);
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')) {
    s.remove_prefix(1);
  }
  return s;
}

// Text formats never contain raw control bytes (JSON forbids them even inside strings), while
// protobuf almost always does: any length or field value under 32 is one. Bytes >= 0x80 are
// allowed so UTF-8 text counts as text.
bool LooksLikeText(std::string_view s) {
  for (unsigned char c : s.substr(0, kTextWindow)) {
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f) return false;
  }
  return true;
}

// ---- Perfetto protobuf ----------------------------------------------------------------------

// The reader stage sits below the importers, so it carries its own few lines of wire format
// rather than including the importer's decoder.
enum WireType : uint64_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

bool ReadVarint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*p >= end) return false;
    const uint8_t b = *(*p)++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;  // more than 10 bytes
}

enum class Walk { kClean, kTruncated, kInvalid };

// Walks the fields in [p, end). The head usually ends inside a field: that is kTruncated, not
// an error. An overlong varint, field id 0, a group or an unknown wire type is kInvalid. At
// top level (`packets` non-null) the first field must be packet = 1, and each packet's payload
// is walked too, which is what tells a real trace from text that happens to start with '\n'.
Walk WalkFields(const uint8_t* p, const uint8_t* end, int* packets) {
  bool first = true;
  while (p < end) {
    // ReadVarint fails both on a cut-off and on an overlong varint; only the latter can happen
    // with 10 or more bytes left.
    auto varint = [&](uint64_t* v) -> Walk {
      const uint8_t* before = p;
      if (ReadVarint(&p, end, v)) return Walk::kClean;
      return end - before >= 10 ? Walk::kInvalid : Walk::kTruncated;
    };
    uint64_t key;
    if (Walk w = varint(&key); w != Walk::kClean) return w;
    const uint64_t id = key >> 3;
    const uint64_t type = key & 7;
    if (id == 0 || id > 0x1fffffff) return Walk::kInvalid;
    if (packets && first && (id != 1 || type != kLengthDelimited)) {
      return Walk::kInvalid;
    }
    first = false;
    switch (type) {
      case kVarint: {
        uint64_t v;
        if (Walk w = varint(&v); w != Walk::kClean) return w;
        break;
      }
      case kFixed64:
        if (end - p < 8) return Walk::kTruncated;
        p += 8;
        break;
      case kFixed32:
        if (end - p < 4) return Walk::kTruncated;
        p += 4;
        break;
      case kLengthDelimited: {
        uint64_t len;
        if (Walk w = varint(&len); w != Walk::kClean) return w;
        if (len > kMaxPlausiblePacket) return Walk::kInvalid;
        const size_t avail = static_cast<size_t>(end - p);
        const bool complete = len <= avail;
        if (packets && id == 1) {
          const uint8_t* payload_end = complete ? p + len : end;
          const Walk inner = WalkFields(p, payload_end, nullptr);
          // A complete packet whose last field runs past its end is malformed, not cut off.
          if (inner == Walk::kInvalid || (complete && inner == Walk::kTruncated)) {
            return Walk::kInvalid;
          }
          if (complete) ++*packets;
        }
        if (!complete) return Walk::kTruncated;
        p += len;
        break;
      }
      default:
        return Walk::kInvalid;
    }
  }
  return Walk::kClean;
}

struct ProtoEvidence {
  bool plausible = false;
  int complete_packets = 0;
};

ProtoEvidence CheckPerfettoProto(std::string_view head) {
  ProtoEvidence e;
  if (head.empty() || static_cast<uint8_t>(head[0]) != 0x0a) return e;
  const auto* p = reinterpret_cast<const uint8_t*>(head.data());
  // Damage after at least one well-formed packet is the importer's business (it keeps the
  // packets before it); detection only needs a good start.
  e.plausible = WalkFields(p, p + head.size(), &e.complete_packets) != Walk::kInvalid ||
                e.complete_packets > 0;
  return e;
}

// ---- JSON -----------------------------------------------------------------------------------

// '{' must open an object with a key (or be empty), '[' an array of event objects. That rules
// out most binary that merely starts with a brace.
bool LooksLikeJson(std::string_view t) {
  if (t.empty() || (t[0] != '{' && t[0] != '[')) return false;
  const char open = t[0];
  std::string_view rest = SkipBomAndSpace(t.substr(1));
  if (rest.empty()) return true;
  return open == '{' ? (rest[0] == '"' || rest[0] == '}') : (rest[0] == '{' || rest[0] == ']');
}

// ---- systrace -------------------------------------------------------------------------------

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// "<seconds>.<fraction>"
bool IsFtraceTimestamp(std::string_view ts) {
  const size_t dot = ts.find('.');
  return dot != std::string_view::npos && IsDigits(ts.substr(0, dot)) &&
         IsDigits(ts.substr(dot + 1));
}

// Irq flags: three letters or dots, then one or two hex digits or dots ("d..3", "dNs1.").
bool IsFtraceFlags(std::string_view flags) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.'; };
  auto digit = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '.'; };
  if (flags.size() < 4 || flags.size() > 5) return false;
  for (size_t i = 0; i < flags.size(); ++i) {
    if (!(i < 3 ? letter(flags[i]) : digit(flags[i]))) return false;
  }
  return true;
}

// One ftrace text line: "<task>-<pid> [(<tgid>)] [<cpu>] [<flags>] <sec>.<usec>: <event>...",
// e.g. "          <...>-1234  (-----) [001] d..3  1234.567890: sched_switch: ...".
bool LooksLikeFtraceLine(std::string_view line) {
  for (size_t lb = line.find('['); lb != std::string_view::npos; lb = line.find('[', lb + 1)) {
    const size_t rb = line.find(']', lb);
    if (rb == std::string_view::npos || !IsDigits(line.substr(lb + 1, rb - lb - 1))) continue;
    std::string_view before = TrimRight(line.substr(0, lb));
    if (!before.empty() && before.back() == ')') {  // optional tgid column
      const size_t lp = before.rfind('(');
      if (lp == std::string_view::npos) continue;
      before = TrimRight(before.substr(0, lp));
    }
    const size_t dash = before.rfind('-');
    if (dash == std::string_view::npos || dash == 0 || !IsDigits(before.substr(dash + 1))) continue;
    // The timestamp is the token that ends in ':' after the cpu column.
    std::string_view after = line.substr(rb + 1);
    const size_t colon = after.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view ts = TrimRight(after.substr(0, colon));
    const size_t sp = ts.find_last_of(" \t");
    if (sp != std::string_view::npos) ts = ts.substr(sp + 1);
    if (IsFtraceTimestamp(ts)) return true;
    // The irq flags may be glued to the timestamp ("d..2 1.5" written "d..21.5"): three flag
    // letters then one or two flag digits, as the systrace line grammar allows.
    for (size_t flags : {5, 4}) {
      if (ts.size() > flags && IsFtraceFlags(ts.substr(0, flags)) &&
          IsFtraceTimestamp(ts.substr(flags))) {
        return true;
      }
    }
  }
  return false;
}

// Header-less ftrace text: the first line that is not a comment must be an event line.
bool LooksLikeFtraceText(std::string_view t) {
  t = t.substr(0, kTextWindow);
  while (!t.empty()) {
    const size_t nl = t.find('\n');
    const std::string_view line = t.substr(0, nl);
    t = nl == std::string_view::npos ? std::string_view() : t.substr(nl + 1);
    if (TrimRight(line).empty() || line[0] == '#') continue;
    // atrace writes a "cpus=<n>" header before the events.
    if (StartsWith(line, "cpus=") && IsDigits(TrimRight(line.substr(5)))) continue;
    return LooksLikeFtraceLine(line);
  }
  return false;
}

// "TRACE:" on a line of its own marks atrace's output (the data after it may be zlib'd). It can
// follow a few lines of tool chatter, which must be text.
bool HasAtraceMarker(std::string_view head) {
  const std::string_view window = head.substr(0, kTextWindow);
  for (size_t pos = 0; (pos = window.find("TRACE:", pos)) != std::string_view::npos; ++pos) {
    const bool line_start = pos == 0 || window[pos - 1] == '\n';
    const std::string_view tail = window.substr(pos + 6);
    const bool line_end = StartsWith(tail, "\n") || StartsWith(tail, "\r\n") || tail.empty();
    if (line_start && line_end && LooksLikeText(window.substr(0, pos))) return true;
  }
  return false;
}

bool LooksLikeHtml(std::string_view t) {
  if (t.empty() || t[0] != '<') return false;
  const std::string lower = Lower(t.substr(0, kTextWindow));
  return lower.find("<!doctype html") != std::string::npos ||
         lower.find("<html") != std::string::npos;
}

}  // namespace

TraceFormat DetectTraceFormat(std::string_view head) {
  if (head.empty()) return TraceFormat::kEmpty;
  if (head.size() >= 2 && static_cast<uint8_t>(head[0]) == 0x1f &&
      static_cast<uint8_t>(head[1]) == 0x8b) {
    return TraceFormat::kGzip;
  }
  // Proto first, but never for text: "\n{" is both a JSON file starting with a newline and a
  // packet of 123 bytes, and "\n# tracer" is both ftrace text and a 35-byte packet.
  const ProtoEvidence proto = CheckPerfettoProto(head);
  const bool text = LooksLikeText(head);
  if (proto.plausible && !text) return TraceFormat::kPerfettoProto;

  // dumpstate's banner, or the version line a checkin dump starts with.
  if (StartsWith(head, "========================================================\n== dumpstate: ") ||
      StartsWith(head, "9,0,i,vers,")) {
    return TraceFormat::kAndroidDumpstate;
  }
  const std::string_view t = SkipBomAndSpace(head);
  if (HasAtraceMarker(head)) return TraceFormat::kSystrace;
  if (LooksLikeJson(t)) return TraceFormat::kJson;
  if (LooksLikeHtml(t)) return TraceFormat::kSystraceHtml;
  if (StartsWith(t, "# tracer:") || LooksLikeFtraceText(t)) return TraceFormat::kSystrace;
  // Text-like but no text format matched: a proto whose first packets happen to be printable.
  // Only believe that with at least one whole, well-formed packet in view.
  if (proto.plausible && proto.complete_packets > 0) return TraceFormat::kPerfettoProto;
  return TraceFormat::kUnknown;
}

std::string_view TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kUnknown:
      return "unknown";
    case TraceFormat::kPerfettoProto:
      return "perfetto_proto";
    case TraceFormat::kJson:
      return "json";
    case TraceFormat::kSystrace:
      return "systrace";
    case TraceFormat::kSystraceHtml:
      return "systrace_html";
    case TraceFormat::kAndroidDumpstate:
      return "android_dumpstate";
    case TraceFormat::kGzip:
      return "gzip";
    case TraceFormat::kEmpty:
      return "empty";
  }
  return "unknown";
}

std::string DescribeTraceHead(std::string_view head) {
  if (head.empty()) return "no bytes";
  constexpr size_t kShow = 16;
  const std::string_view shown = head.substr(0, kShow);
  std::string printable;
  std::string hex;
  for (unsigned char c : shown) {
    if (c == '\n') {
      printable += "\\n";
    } else if (c == '\t') {
      printable += "\\t";
    } else if (c == '"' || c == '\\') {
      printable += '\\';
      printable += static_cast<char>(c);
    } else {
      printable += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '.';
    }
    static constexpr char kHex[] = "0123456789abcdef";
    if (!hex.empty()) hex += ' ';
    hex += kHex[c >> 4];
    hex += kHex[c & 0xf];
  }
  return absl::StrCat(LooksLikeText(head) ? "text" : "binary data", " starting \"", printable,
                      head.size() > kShow ? "...\"" : "\"", " (hex ", hex,
                      head.size() > kShow ? " ...)" : ")");
}

}  // namespace tw
