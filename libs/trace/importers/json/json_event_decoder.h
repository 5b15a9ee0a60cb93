#pragma once
// Decodes one element of a Chrome JSON trace's "traceEvents" array into a JsonEventData: the
// fields trace_processor reads ("ph", "ts", "dur", "pid", "tid", "name", "cat", "id", "id2",
// "bind_id", "flow_in"/"flow_out", "s", "bp", "tts", "tdur", "args"), coerced the way it
// coerces them (numeric or string pids, microseconds to nanoseconds, hex flow ids, ...), and
// the "args" a phase needs already read (see events.h). Strings are interned into `storage`.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libs/trace/events/events.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

enum class JsonEventStatus {
  kEvent,           // decoded: push it
  kEmpty,           // "{}": a common trailing filler, skipped without complaint
  kV8Sample,        // 'P' (legacy V8 CPU profile): `v8_profile_id` and `v8_args` say what
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
  // 'P': the profile's id ("id": a hex string or a number; nullopt when absent) and the raw
  // "args" object (a view into the event text).
  std::optional<uint64_t> v8_profile_id;
  bool v8_profile_id_invalid = false;  // "id" is a string that is not hexadecimal
  std::string_view v8_args;
  std::string error;  // why the event failed, for diagnostics
  // When it failed because of a value ("dur" not a number, ...): what trace_processor logs.
  std::string value_error;
  bool malformed = false;  // failed because the text is not JSON (not just missing fields)
};

JsonEventStatus DecodeJsonEvent(std::string_view text, TraceStorage* storage,
                                DecodedJsonEvent* out);

}  // namespace tw
