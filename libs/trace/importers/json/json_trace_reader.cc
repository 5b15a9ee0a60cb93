#include "libs/trace/importers/json/json_trace_reader.h"

#include "absl/strings/str_cat.h"

namespace tw {
namespace {

// Bytes asked of the source per read.
constexpr size_t kReadChunk = 256 << 10;
// Keys of the top-level object are short; a longer one means this is not a trace.
constexpr size_t kMaxKeyBytes = 64 << 10;

bool IsWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool StartsLiteral(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == 't' || c == 'f' || c == 'n' || c == 'N' ||
         c == 'I';
}

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
  } else {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

JsonTraceReader::JsonTraceReader(ChunkSource* source, size_t max_value_bytes)
    : source_(source), max_value_bytes_(max_value_bytes) {}

bool JsonTraceReader::Ensure(size_t n) {
  while (buf_.size() - pos_ < n) {
    if (eof_) return false;
    // Drop what was consumed before growing: the buffer holds one value plus one read.
    if (pos_ > 0) {
      buf_.erase(0, pos_);
      pos_ = 0;
    }
    const size_t old = buf_.size();
    buf_.resize(old + kReadChunk);
    absl::StatusOr<size_t> got =
        source_->Read(reinterpret_cast<uint8_t*>(buf_.data() + old), kReadChunk);
    if (!got.ok()) {
      source_error_ = got.status();
      buf_.resize(old);
      eof_ = true;
      return false;
    }
    buf_.resize(old + *got);
    bytes_read_ += static_cast<int64_t>(*got);
    if (*got == 0) eof_ = true;
  }
  return true;
}

int JsonTraceReader::PeekNonWs() {
  for (;;) {
    if (!Ensure(1)) return -1;
    const char c = buf_[pos_];
    if (!IsWs(c)) return static_cast<unsigned char>(c);
    ++pos_;
  }
}

JsonTraceReader::ScanResult JsonTraceReader::ScanValue(Scan* s, size_t limit, size_t* length) {
  const char first = buf_[pos_];
  const bool literal = first != '{' && first != '[' && first != '"';
  if (literal && !StartsLiteral(first)) return ScanResult::kBad;
  for (;;) {
    const char* data = buf_.data() + pos_;
    const size_t avail = buf_.size() - pos_;
    size_t i = s->offset;
    size_t end = 0;  // one past the value, once found
    for (; i < avail && end == 0; ++i) {
      const char c = data[i];
      if (s->in_string) {
        if (s->escape) {
          s->escape = false;
        } else if (c == '\\') {
          s->escape = true;
        } else if (c == '"') {
          s->in_string = false;
          if (s->closers.empty()) end = i + 1;
        }
        continue;
      }
      if (literal) {
        if (c == ',' || c == '}' || c == ']' || IsWs(c)) {
          end = i;
          break;
        }
        continue;
      }
      switch (c) {
        case '"':
          s->in_string = true;
          break;
        case '{':
          s->closers.push_back('}');
          break;
        case '[':
          s->closers.push_back(']');
          break;
        case '}':
        case ']':
          if (s->closers.empty() || s->closers.back() != c) return ScanResult::kBad;
          s->closers.pop_back();
          if (s->closers.empty()) end = i + 1;
          break;
        default:
          break;
      }
    }
    if (end != 0) {
      if (s->discard) {
        pos_ += end;
        *length = 0;
      } else if (end > limit) {
        pos_ += end;
        s->discard = true;
        *length = 0;
      } else {
        *length = end;
      }
      return ScanResult::kDone;
    }
    s->offset = i;
    if (s->offset > limit) s->discard = true;
    if (s->discard) {
      // Over the limit: what was examined is dropped, so skipping costs no memory.
      pos_ += s->offset;
      s->offset = 0;
    }
    if (!Ensure(s->offset + 1)) {
      // A literal may end the stream (a bare top-level value); anything else is cut off.
      if (literal && s->offset > 0 && !s->discard) {
        *length = s->offset;
        return ScanResult::kDone;
      }
      return ScanResult::kEof;
    }
  }
}

JsonTraceReader::ValueResult JsonTraceReader::ReadValue(size_t limit, std::string_view* text) {
  Scan scan;
  size_t length = 0;
  switch (ScanValue(&scan, limit, &length)) {
    case ScanResult::kBad: return ValueResult::kBad;
    case ScanResult::kEof: return ValueResult::kEof;
    case ScanResult::kDone: break;
  }
  if (scan.discard) return ValueResult::kSkipped;
  *text = std::string_view(buf_.data() + pos_, length);
  pos_ += length;
  return ValueResult::kValue;
}

absl::Status JsonTraceReader::Damage(std::string_view what) {
  state_ = State::kDone;
  const int64_t offset = bytes_read_ - static_cast<int64_t>(buf_.size() - pos_);
  return absl::InvalidArgumentError(
      absl::StrCat("JSON trace: ", std::string(what), " (at byte ", offset, ")"));
}

JsonTraceReader::Item JsonTraceReader::End(bool truncated) {
  truncated_ = truncated || !source_error_.ok();
  state_ = State::kDone;
  return Item{Kind::kEnd, {}};
}

JsonTraceReader::Step JsonTraceReader::ObjectKey() {
  for (;;) {
    int c = PeekNonWs();
    if (c < 0) return End(true);
    if (c == ',') {  // between members (stray ones are tolerated)
      ++pos_;
      continue;
    }
    if (c == '}') {
      ++pos_;
      state_ = State::kAfterTop;
      return std::nullopt;
    }
    if (c != '"') return Damage("expected a key in the top-level object");
    Scan scan;
    size_t length = 0;
    switch (ScanValue(&scan, kMaxKeyBytes, &length)) {
      case ScanResult::kBad: return Damage("malformed key in the top-level object");
      case ScanResult::kEof: return End(true);
      case ScanResult::kDone: break;
    }
    if (scan.discard) return Damage("overlong key in the top-level object");
    const std::string key(buf_.data() + pos_ + 1, length - 2);  // without the quotes
    pos_ += length;
    c = PeekNonWs();
    if (c < 0) return End(true);
    if (c != ':') return Damage("expected ':' after a key in the top-level object");
    ++pos_;
    c = PeekNonWs();
    if (c < 0) return End(true);

    if (key == "traceEvents") {
      if (c != '[') return Damage("\"traceEvents\" is not an array");
      ++pos_;
      saw_trace_events_ = true;
      state_ = State::kArray;
      return std::nullopt;
    }
    if (key == "systemTraceEvents" && c == '"') {
      ++pos_;
      saw_system_text_ = true;
      line_.clear();
      line_overlong_ = false;
      state_ = State::kSystemText;
      return std::nullopt;
    }
    const bool wanted = key == "displayTimeUnit" || key == "metadata";
    std::string_view text;
    const ValueResult r = ReadValue(wanted ? max_value_bytes_ : 0, &text);
    if (r == ValueResult::kBad) return Damage(absl::StrCat("malformed value of \"", key, "\""));
    if (r == ValueResult::kEof) return End(true);
    state_ = State::kAfterMember;
    if (key == "systemTraceEvents") return Item{Kind::kSystemTraceNotText, {}};
    if (r == ValueResult::kValue && key == "displayTimeUnit") {
      return Item{Kind::kDisplayTimeUnit, text};
    }
    if (r == ValueResult::kValue && key == "metadata") return Item{Kind::kMetadata, text};
    return std::nullopt;
  }
}

JsonTraceReader::Step JsonTraceReader::ArrayElement() {
  for (;;) {
    const int c = PeekNonWs();
    // A top-level array may simply stop: the format allows a missing ']'.
    if (c < 0) return End(!top_level_array_);
    if (c == ',') {
      ++pos_;
      continue;
    }
    if (c == ']') {
      ++pos_;
      state_ = top_level_array_ ? State::kAfterTop : State::kAfterMember;
      return std::nullopt;
    }
    std::string_view text;
    switch (ReadValue(max_value_bytes_, &text)) {
      case ValueResult::kValue: return Item{Kind::kEvent, text};
      case ValueResult::kSkipped: return Item{Kind::kOversizedEvent, {}};
      case ValueResult::kBad: return Damage("malformed trace event (brackets do not match)");
      case ValueResult::kEof: return End(true);
    }
  }
}

JsonTraceReader::Step JsonTraceReader::SystemTextLine() {
  line_.clear();
  line_overlong_ = false;
  auto emit = [&]() {
    return line_overlong_ ? Item{Kind::kOversizedLine, {}}
                          : Item{Kind::kSystemTraceLine, std::string_view(line_)};
  };
  auto append = [&](char c) {
    if (line_.size() < max_value_bytes_) {
      line_.push_back(c);
    } else {
      line_overlong_ = true;
    }
  };
  for (;;) {
    if (!Ensure(1)) return End(true);
    const char c = buf_[pos_];
    if (c == '"') {
      ++pos_;
      state_ = State::kAfterMember;
      if (line_.empty() && !line_overlong_) return std::nullopt;
      return emit();
    }
    if (c != '\\') {
      append(c);
      ++pos_;
      continue;
    }
    if (!Ensure(2)) return End(true);
    const char e = buf_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case 'n': return emit();  // lines are separated by escaped newlines
      case '"': case '\\': case '/': append(e); break;
      case 'b': append('\b'); break;
      case 'f': append('\f'); break;
      case 'r': append('\r'); break;
      case 't': append('\t'); break;
      case 'u': {
        if (!Ensure(4)) return End(true);
        uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
          const int h = HexValue(buf_[pos_ + k]);
          if (h < 0) return Damage("malformed \\u escape in \"systemTraceEvents\"");
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        pos_ += 4;
        std::string utf8;
        AppendUtf8(cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : cp, &utf8);
        for (char u : utf8) append(u);
        break;
      }
      default:
        return Damage("malformed escape in \"systemTraceEvents\"");
    }
  }
}

absl::StatusOr<JsonTraceReader::Item> JsonTraceReader::Next() {
  // Each step either produces an item or moves to another state; a loop (not recursion) so a
  // file with millions of skipped keys cannot exhaust the stack.
  for (;;) {
    Step step = NextStep();
    if (step) return *std::move(step);
  }
}

JsonTraceReader::Step JsonTraceReader::NextStep() {
  switch (state_) {
    case State::kStart: {
      if (Ensure(3) && buf_.compare(pos_, 3, "\xEF\xBB\xBF") == 0) pos_ += 3;
      const int c = PeekNonWs();
      if (c == '{') {
        ++pos_;
        state_ = State::kObjectKey;
      } else if (c == '[') {
        ++pos_;
        top_level_array_ = true;
        saw_trace_events_ = true;
        state_ = State::kArray;
      } else if (c < 0) {
        if (!source_error_.ok()) return End(true);
        return Damage("the file is empty");
      } else {
        return Damage("not JSON: the first character is neither '{' nor '['");
      }
      return std::nullopt;
    }
    case State::kObjectKey:
      return ObjectKey();
    case State::kAfterMember: {
      const int c = PeekNonWs();
      if (c < 0) return End(true);
      if (c == ',') {
        ++pos_;
        state_ = State::kObjectKey;
      } else if (c == '}') {
        ++pos_;
        state_ = State::kAfterTop;
      } else {
        return Damage("expected ',' or '}' in the top-level object");
      }
      return std::nullopt;
    }
    case State::kArray:
      return ArrayElement();
    case State::kSystemText:
      return SystemTextLine();
    case State::kAfterTop: {
      for (;;) {
        const int c = PeekNonWs();
        if (c < 0) return End(false);
        if (c != 0) break;
        ++pos_;  // NUL padding (preallocated files) is not data
      }
      state_ = State::kDone;
      return Item{Kind::kTrailingData, {}};
    }
    case State::kDone:
      return Item{Kind::kEnd, {}};
  }
  return Item{Kind::kEnd, {}};
}

}  // namespace tw
