#include "libs/llm/sse_parser.h"

#include <algorithm>

namespace tw::llm {

bool SseParser::Feed(std::string_view bytes) {
  if (stopped_) return false;
  size_t start = 0;
  // A "\r\n" split across two pieces: the "\r" already ended a line.
  if (last_was_cr_ && !bytes.empty() && bytes[0] == '\n') start = 1;
  last_was_cr_ = false;
  for (size_t i = start; i < bytes.size(); ++i) {
    const char c = bytes[i];
    if (c != '\n' && c != '\r') continue;
    std::string_view line;
    if (pending_.empty()) {
      line = bytes.substr(start, i - start);
    } else {
      pending_.append(bytes.substr(start, i - start));
      line = pending_;
    }
    const bool keep_going = ProcessLine(line);
    pending_.clear();
    if (c == '\r') {
      if (i + 1 < bytes.size()) {
        if (bytes[i + 1] == '\n') ++i;
      } else {
        last_was_cr_ = true;
      }
    }
    start = i + 1;
    if (!keep_going) {
      stopped_ = true;
      return false;
    }
  }
  pending_.append(bytes.substr(std::min(start, bytes.size())));
  return true;
}

bool SseParser::ProcessLine(std::string_view line) {
  if (line.empty()) {  // blank line: dispatch
    const bool dispatch = has_data_;
    SseEvent event = std::move(current_);
    current_ = SseEvent{};
    has_data_ = false;
    has_fields_ = false;
    // Per the spec an event without data is not dispatched (e.g. a lone `event:` line).
    if (!dispatch) return true;
    ++events_dispatched_;
    return handler_(event);
  }
  if (line[0] == ':') return true;  // comment (keep-alives such as ": OPENROUTER PROCESSING")
  std::string_view field = line;
  std::string_view value;
  if (size_t colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  }
  has_fields_ = true;
  if (field == "data") {
    if (has_data_) current_.data.push_back('\n');
    current_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    current_.event.assign(value);
  } else if (field == "id") {
    current_.id.assign(value);
  }
  // `retry:` and unknown fields are ignored: reconnection is the retry policy's business.
  return true;
}

bool SseParser::HasPartialEvent() const { return !pending_.empty() || has_fields_; }

}  // namespace tw::llm
