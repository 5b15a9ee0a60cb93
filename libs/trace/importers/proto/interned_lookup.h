#pragma once
// Reads fields of messages a sequence interned (InternedData entries are stored as raw bytes,
// keyed by their InternedData field number and iid).

#include <cstdint>
#include <optional>
#include <string_view>

#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/importers/proto/sequence_state.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

// The length-delimited field `field` of interned message (`type`, `iid`): for EventName,
// EventCategory, DebugAnnotationName, InternedString and LogMessageBody that is field 2.
// nullopt when the message or the field is missing. The view is only valid until the
// sequence interns more data.
inline std::optional<std::string_view> InternedString(const SequenceState& seq, uint32_t type,
                                                      uint64_t iid, uint32_t field = 2) {
  const std::string* bytes = seq.Lookup(type, iid);
  if (!bytes) return std::nullopt;
  proto::Decoder d(*bytes);
  proto::Field f;
  std::optional<std::string_view> out;
  while (d.Next(&f)) {
    if (f.id == field && f.type == proto::kLengthDelimited) out = f.as_string();
  }
  return out;
}

// InternedString, counting a lookup of a message the sequence never interned in
// interned_data_tokenizer_errors, as trace_processor counts each such lookup.
inline std::optional<std::string_view> InternedStringCounted(TraceStorage* storage,
                                                             const SequenceState& seq,
                                                             uint32_t type, uint64_t iid,
                                                             uint32_t field = 2) {
  if (!seq.Lookup(type, iid)) {
    storage->IncrementStat("interned_data_tokenizer_errors");
    return std::nullopt;
  }
  return InternedString(seq, type, iid, field);
}

}  // namespace tw
