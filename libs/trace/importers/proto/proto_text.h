#pragma once
// Prints a serialized protobuf message as text format, driven by a small hand-written schema,
// in the layout trace_processor's protozero_to_text uses for metadata (trace_config_pbtxt): one
// field per line, nested messages as `name {` ... `}` indented by two spaces, fields the schema
// does not know printed by number (`27: 5`, `100: "<escaped bytes>"`).

#include <cstdint>
#include <string>
#include <string_view>

namespace tw {

struct ProtoTextEnumValue {
  int32_t value;
  const char* name;
};

struct ProtoTextEnum {
  const ProtoTextEnumValue* values;
  size_t count;
};

struct ProtoTextMessage;

struct ProtoTextField {
  enum class Kind : uint8_t {
    kInt32, kInt64, kUint32, kUint64, kSint32, kSint64, kBool, kEnum,
    kString, kBytes, kMessage, kDouble, kFloat, kFixed32, kFixed64, kSfixed32, kSfixed64,
  };
  uint32_t id;
  const char* name;
  Kind kind;
  const ProtoTextMessage* message = nullptr;  // kMessage
  const ProtoTextEnum* enum_type = nullptr;   // kEnum
};

struct ProtoTextMessage {
  const ProtoTextField* fields;
  size_t count;
  const ProtoTextField* Find(uint32_t id) const;
};

// `bytes` is a serialized message described by `schema`.
std::string ProtoToText(const ProtoTextMessage& schema, std::string_view bytes);

// Text-format string literal: quoted, with C escapes and octal for non-printable bytes.
std::string QuoteTextProtoString(std::string_view raw);

}  // namespace tw
