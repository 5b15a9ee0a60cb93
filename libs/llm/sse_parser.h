#pragma once
// Incremental parser for Server-Sent Events (the WHATWG event-stream format) as both LLM
// providers stream them. Bytes arrive in arbitrary network-sized pieces: an event, a line, even
// a "\r\n" pair may be split across Feed() calls, so the parser keeps the unfinished tail.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tw::llm {

struct SseEvent {
  std::string event;  // the `event:` name; empty means the default ("message")
  std::string data;   // all `data:` lines of the event joined with '\n'
  std::string id;
};

class SseParser {
 public:
  // Returning false from the handler stops parsing; Feed() then returns false too.
  using Handler = std::function<bool(const SseEvent&)>;
  explicit SseParser(Handler handler) : handler_(std::move(handler)) {}

  // Consumes the next piece of the stream, dispatching every event it completes.
  bool Feed(std::string_view bytes);

  // True when the stream stopped in the middle of an event (bytes or fields not yet dispatched
  // by a blank line): the server or the connection ended the stream early.
  bool HasPartialEvent() const;

  int64_t events_dispatched() const { return events_dispatched_; }

 private:
  bool ProcessLine(std::string_view line);

  Handler handler_;
  std::string pending_;            // bytes after the last complete line
  bool last_was_cr_ = false;       // a "\r" ended the previous piece: skip a following "\n"
  SseEvent current_;
  bool has_data_ = false;
  bool has_fields_ = false;        // any field seen since the last dispatch
  bool stopped_ = false;
  int64_t events_dispatched_ = 0;
};

}  // namespace tw::llm
