#pragma once
// Decodes one element of a Chrome JSON trace's "traceEvents" array into a JsonEventData: the
// fields trace_processor reads ("ph", "ts", "dur", "pid", "tid", "name", "cat", "id", "id2",
// "bind_id", "flow_in"/"flow_out", "s", "bp", "tts", "tdur", "args"), coerced the way it
// coerces them (numeric or string pids, microseconds to nanoseconds, hex flow ids, ...), and
// the "args" a phase needs already read (see events.h). Strings are interned into `storage`.

#include <cstdint>
#include <string>
#include <string_view>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

enum class JsonEventStatus {
  kEvent,           // decoded: push it
  kEmpty,           // "{}": a common trailing filler, skipped without complaint
  kV8Sample,        // 'P' (V8 CPU profile chunk): there is no table for it, skipped
  kFailed,          // not importable (see `error`): counts in json_tokenizer_failure
};

struct DecodedJsonEvent {
  int64_t ts = 0;  // ns
  JsonEventData data;
  // Problems inside an otherwise importable event, as trace_processor counts them: a malformed
  // "id2" (json_tokenizer_failure) and unreadable counter / metadata fields
  // (json_parser_failure).
  int tokenizer_failures = 0;
  int parser_failures = 0;
  std::string error;  // why the event failed, for diagnostics
  bool malformed = false;  // failed because the text is not JSON (not just missing fields)
};

JsonEventStatus DecodeJsonEvent(std::string_view text, TraceStorage* storage,
                                DecodedJsonEvent* out);

}  // namespace tw
