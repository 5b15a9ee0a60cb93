#pragma once
// Streams the outer structure of a Chrome JSON trace and hands out its parts one at a time:
// each element of the "traceEvents" array (or of a top-level array), each line of an embedded
// "systemTraceEvents" ftrace text, and the small top-level values the importer reads
// ("displayTimeUnit", "metadata"). Only the part being handed out is held in memory (plus one
// read chunk), so a trace of any size streams in bounded memory; values nobody reads (stack
// frames, samples, ...) are skipped as they stream past.
//
// Leniency follows what producers write and trace_processor accepts: a top-level array may lack
// its closing ']' (a tracer that died mid-write), stray commas between events are ignored, and
// a leading UTF-8 byte-order mark is skipped.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/trace/reader/chunk_source.h"

namespace tw {

class JsonTraceReader {
 public:
  enum class Kind {
    kEvent,               // `text`: one element of the events array (normally an object)
    kOversizedEvent,      // an element longer than the limit: skipped unread
    kDisplayTimeUnit,     // `text`: the raw JSON value of "displayTimeUnit"
    kMetadata,            // `text`: the raw JSON value of "metadata"
    kSystemTraceLine,     // `text`: one line of "systemTraceEvents", unescaped
    kOversizedLine,       // a systemTraceEvents line longer than the limit: skipped
    kSystemTraceNotText,  // "systemTraceEvents" that is not a string (Fuchsia JSON): skipped
    kTrailingData,        // something other than whitespace after the trace: ignored
    kEnd,
  };
  struct Item {
    Kind kind = Kind::kEnd;
    std::string_view text;  // valid until the next call to Next()
  };

  // `max_value_bytes` bounds one event (or metadata value, or line) held in memory.
  JsonTraceReader(ChunkSource* source, size_t max_value_bytes);

  // The next part. INVALID_ARGUMENT when the bytes stop being a JSON trace's structure (the
  // message says what was expected where); the reader is finished then. A stream that ends in
  // the middle gives kEnd with truncated() set; a read error of the source does the same,
  // with source_error() set.
  absl::StatusOr<Item> Next();

  bool truncated() const { return truncated_; }
  const absl::Status& source_error() const { return source_error_; }
  // The file had a "traceEvents" array or was a top-level array: it is shaped like a trace.
  bool saw_trace_events() const { return saw_trace_events_; }
  bool saw_system_trace_text() const { return saw_system_text_; }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  enum class State {
    kStart,
    kObjectKey,     // in the top-level object, before a key (or its end)
    kAfterMember,   // in the top-level object, after a member
    kArray,         // in the events array, before an element (or its end)
    kSystemText,    // inside the systemTraceEvents string
    kAfterTop,      // after the top-level value
    kDone,
  };
  // Where a value scan stands, so a value split across reads is not rescanned from its start.
  struct Scan {
    size_t offset = 0;          // bytes examined, from pos_
    std::vector<char> closers;  // brackets still open
    bool in_string = false;
    bool escape = false;
    bool discard = false;       // over the limit: bytes are dropped as they are examined
  };
  enum class ScanResult { kDone, kEof, kBad };  // kEof: the stream ended inside the value

  // Makes at least `n` unread bytes available; false at the end of the stream.
  bool Ensure(size_t n);
  // The next non-whitespace byte (not consumed); -1 at the end of the stream.
  int PeekNonWs();
  // Scans the value starting at pos_. On kDone, `*length` is its size (0 when discarded).
  ScanResult ScanValue(Scan* scan, size_t limit, size_t* length);
  // Reads a whole value at pos_ into view (or skips it when over `limit`).
  enum class ValueResult { kValue, kSkipped, kBad, kEof };
  ValueResult ReadValue(size_t limit, std::string_view* text);
  // One step of the state machine: an item (or error) to hand out, or nullopt when it only
  // moved to another state.
  using Step = std::optional<absl::StatusOr<Item>>;
  Step NextStep();
  Step ObjectKey();
  Step ArrayElement();
  Step SystemTextLine();
  absl::Status Damage(std::string_view what);
  Item End(bool truncated);

  ChunkSource* source_;
  size_t max_value_bytes_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
  State state_ = State::kStart;
  bool top_level_array_ = false;
  bool truncated_ = false;
  bool saw_trace_events_ = false;
  bool saw_system_text_ = false;
  absl::Status source_error_;
  int64_t bytes_read_ = 0;
  std::string line_;  // the systemTraceEvents line being unescaped
  bool line_overlong_ = false;
};

}  // namespace tw
