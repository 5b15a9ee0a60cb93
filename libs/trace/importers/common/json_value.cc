#include "libs/trace/importers/common/json_value.h"

#include <charconv>
#include <limits>

namespace tw {
namespace {

bool IsWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// A position in JSON text with the grammar's productions as methods.
class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  void SkipWs() {
    while (pos_ < s_.size() && IsWs(s_[pos_])) ++pos_;
  }
  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek() const { return s_[pos_]; }
  bool Consume(char c) {
    if (AtEnd() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // A string at the cursor; its unescaped contents in `out` (viewing the input when there is
  // nothing to unescape, else `scratch`). Raw control characters are tolerated: producers do
  // write them, and refusing the event would lose more than it protects.
  bool String(std::string_view* out, std::string* scratch) {
    if (!Consume('"')) return false;
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\\') ++pos_;
    if (pos_ >= s_.size()) return false;
    if (s_[pos_] == '"') {
      *out = s_.substr(start, pos_ - start);
      ++pos_;
      return true;
    }
    scratch->assign(s_.data() + start, pos_ - start);
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') {
        *out = *scratch;
        return true;
      }
      if (c != '\\') {
        scratch->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return false;
      const char e = s_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': scratch->push_back(e); break;
        case 'b': scratch->push_back('\b'); break;
        case 'f': scratch->push_back('\f'); break;
        case 'n': scratch->push_back('\n'); break;
        case 'r': scratch->push_back('\r'); break;
        case 't': scratch->push_back('\t'); break;
        case 'u': {
          std::optional<uint32_t> cp = Hex4();
          if (!cp) return false;
          if (*cp >= 0xD800 && *cp <= 0xDBFF) {
            // A high surrogate pairs with a following low one; alone it is not a character.
            const size_t save = pos_;
            std::optional<uint32_t> low;
            if (Consume('\\') && Consume('u')) low = Hex4();
            if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
              *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
            } else {
              pos_ = save;
              *cp = 0xFFFD;
            }
          } else if (*cp >= 0xDC00 && *cp <= 0xDFFF) {
            *cp = 0xFFFD;
          }
          AppendUtf8(*cp, scratch);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  // A number literal, validated against JSON's grammar; NaN and (-)Infinity are accepted too
  // because common writers (Python's json module) emit them for float counters.
  bool Number(std::string_view* out) {
    const size_t start = pos_;
    Consume('-');
    if (Word("Infinity") || (pos_ == start && Word("NaN"))) {
      *out = s_.substr(start, pos_ - start);
      return true;
    }
    if (AtEnd() || !IsDigit(Peek())) return false;
    if (Peek() == '0') {
      ++pos_;
    } else {
      while (!AtEnd() && IsDigit(Peek())) ++pos_;
    }
    if (Consume('.')) {
      if (AtEnd() || !IsDigit(Peek())) return false;
      while (!AtEnd() && IsDigit(Peek())) ++pos_;
    }
    if (!AtEnd() && (Peek() == 'e' || Peek() == 'E')) {
      ++pos_;
      if (!Consume('+')) Consume('-');
      if (AtEnd() || !IsDigit(Peek())) return false;
      while (!AtEnd() && IsDigit(Peek())) ++pos_;
    }
    *out = s_.substr(start, pos_ - start);
    return true;
  }

  bool Word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  // An object or array at the cursor, delimited by matching brackets (strings skipped); the
  // contents are not validated here.
  bool Container(std::string_view* out) {
    const size_t start = pos_;
    char closers[kMaxJsonDepth];
    int depth = 0;
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      switch (c) {
        case '"':
          while (pos_ < s_.size() && s_[pos_] != '"') pos_ += s_[pos_] == '\\' ? 2 : 1;
          if (pos_ >= s_.size()) return false;
          ++pos_;
          break;
        case '{':
        case '[':
          if (depth == kMaxJsonDepth) return false;
          closers[depth++] = c == '{' ? '}' : ']';
          break;
        case '}':
        case ']':
          if (depth == 0 || closers[depth - 1] != c) return false;
          if (--depth == 0) {
            *out = s_.substr(start, pos_ - start);
            return true;
          }
          break;
        default:
          break;
      }
    }
    return false;
  }

  bool Value(JsonValue* v, std::string* scratch) {
    SkipWs();
    if (AtEnd()) return false;
    switch (Peek()) {
      case '"':
        v->type = JsonValue::Type::kString;
        return String(&v->text, scratch);
      case '{':
        v->type = JsonValue::Type::kObject;
        return Container(&v->text);
      case '[':
        v->type = JsonValue::Type::kArray;
        return Container(&v->text);
      case 't':
        v->type = JsonValue::Type::kBool;
        v->boolean = true;
        v->text = {};
        return Word("true");
      case 'f':
        v->type = JsonValue::Type::kBool;
        v->boolean = false;
        v->text = {};
        return Word("false");
      case 'n':
        v->type = JsonValue::Type::kNull;
        v->text = {};
        return Word("null");
      default:
        v->type = JsonValue::Type::kNumber;
        return Number(&v->text);
    }
  }

 private:
  std::optional<uint32_t> Hex4() {
    if (s_.size() - pos_ < 4) return std::nullopt;
    uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = HexValue(s_[pos_ + i]);
      if (h < 0) return std::nullopt;
      cp = cp * 16 + static_cast<uint32_t>(h);
    }
    pos_ += 4;
    return cp;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

// Shared by both walkers: `open`/`close` delimit, `keyed` says whether members have keys.
template <typename Fn>
bool Walk(std::string_view text, char open, char close, bool keyed, Fn&& fn) {
  Reader r(text);
  std::string key_scratch;
  std::string value_scratch;
  r.SkipWs();
  if (!r.Consume(open)) return false;
  r.SkipWs();
  if (!r.Consume(close)) {
    for (;;) {
      std::string_view key;
      if (keyed) {
        r.SkipWs();
        if (!r.String(&key, &key_scratch)) return false;
        r.SkipWs();
        if (!r.Consume(':')) return false;
      }
      JsonValue value;
      if (!r.Value(&value, &value_scratch)) return false;
      if (!fn(key, value)) return true;
      r.SkipWs();
      if (r.Consume(',')) continue;
      if (r.Consume(close)) break;
      return false;
    }
  }
  r.SkipWs();
  return r.AtEnd();
}

}  // namespace

bool ForEachJsonMember(std::string_view text, JsonMemberFn fn) {
  return Walk(text, '{', '}', true,
              [&](std::string_view key, const JsonValue& v) { return fn(key, v); });
}

bool ForEachJsonElement(std::string_view text, JsonElementFn fn) {
  return Walk(text, '[', ']', false, [&](std::string_view, const JsonValue& v) { return fn(v); });
}

bool ParseJsonValue(std::string_view text, JsonValue* out, std::string* scratch) {
  Reader r(text);
  if (!r.Value(out, scratch)) return false;
  r.SkipWs();
  return r.AtEnd();
}

std::optional<uint64_t> JsonNumberToUint64(std::string_view literal) {
  if (literal.empty()) return std::nullopt;
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), v);
  if (ec != std::errc() || end != literal.data() + literal.size()) return std::nullopt;
  return v;
}

std::optional<int64_t> JsonNumberToInt64(std::string_view literal) {
  if (literal.empty()) return std::nullopt;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), v);
  if (ec != std::errc() || end != literal.data() + literal.size()) return std::nullopt;
  return v;
}

std::optional<double> JsonNumberToDouble(std::string_view literal) {
  if (literal.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), v);
  if (end != literal.data() + literal.size()) return std::nullopt;
  // Out of range: from_chars leaves `v` untouched; JSON readers saturate to infinity or zero.
  if (ec == std::errc::result_out_of_range) {
    const bool negative = literal[0] == '-';
    const bool tiny = literal.find_first_of("eE") != std::string_view::npos &&
                      literal[literal.find_first_of("eE") + 1] == '-';
    if (tiny) return negative ? -0.0 : 0.0;
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (ec != std::errc()) return std::nullopt;
  return v;
}

}  // namespace tw
