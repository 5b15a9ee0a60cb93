#pragma once
// Flattens a protobuf message into args the way trace_processor's proto-to-args parser names
// them: nested messages as "outer.inner", repeated fields with an index ("pointer[0].axis"),
// scalars typed by the schema (fixed32 and float share a wire type, so the schema decides).
// Driven by a small hand-written schema; fields the schema does not know are skipped.

#include <cstdint>
#include <string>
#include <vector>

#include "libs/trace/events/events.h"
#include "libs/trace/importers/proto/proto_decoder.h"
#include "libs/trace/storage/trace_storage.h"

namespace tw {

struct ArgsSchemaMessage;

struct ArgsSchemaField {
  enum class Kind : uint8_t { kInt, kSint, kUint, kFixed32, kFloat, kBool, kString, kMessage };
  uint32_t id;
  const char* name;
  Kind kind;
  bool repeated = false;
  const ArgsSchemaMessage* message = nullptr;  // kMessage
};

struct ArgsSchemaMessage {
  const ArgsSchemaField* fields;
  size_t count;
};

// Appends the args of `message` (its fields, under `prefix` when not empty) to `out`.
// Returns false if the bytes are not a well-formed message.
bool ProtoToArgs(const ArgsSchemaMessage& schema, const proto::Field& message,
                 const std::string& prefix, TraceStorage* storage, std::vector<Arg>* out);

}  // namespace tw
