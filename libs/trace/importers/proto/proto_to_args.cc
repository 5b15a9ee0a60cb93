#include "libs/trace/importers/proto/proto_to_args.h"

#include <map>

namespace tw {
namespace {

const ArgsSchemaField* FindField(const ArgsSchemaMessage& schema, uint32_t id) {
  for (size_t i = 0; i < schema.count; ++i) {
    if (schema.fields[i].id == id) return &schema.fields[i];
  }
  return nullptr;
}

// "a[0].b[2].c" → "a.b.c": the flat key trace_processor stores beside the indexed key.
std::string FlatKey(const std::string& key) {
  std::string flat;
  flat.reserve(key.size());
  bool in_index = false;
  for (char c : key) {
    if (c == '[') in_index = true;
    if (!in_index) flat += c;
    if (c == ']') in_index = false;
  }
  return flat;
}

// The value of a scalar field as its declared type reads it; nullopt if the wire type does not
// fit the declared one (a malformed or foreign field).
std::optional<ArgValue> ScalarValue(const ArgsSchemaField& field, const proto::Field& f,
                                    TraceStorage* storage) {
  using Kind = ArgsSchemaField::Kind;
  switch (field.kind) {
    case Kind::kInt:
      if (f.type != proto::kVarint) return std::nullopt;
      return ArgValue::Int(f.as_int64());
    case Kind::kSint:
      if (f.type != proto::kVarint) return std::nullopt;
      return ArgValue::Int(f.as_sint64());
    case Kind::kUint:
      if (f.type != proto::kVarint) return std::nullopt;
      return ArgValue::Uint(f.as_uint64());
    case Kind::kFixed32:
      if (f.type != proto::kFixed32) return std::nullopt;
      return ArgValue::Uint(f.as_uint32());
    case Kind::kFloat:
      if (f.type != proto::kFixed32) return std::nullopt;
      return ArgValue::Real(static_cast<double>(f.as_float()));
    case Kind::kBool:
      if (f.type != proto::kVarint) return std::nullopt;
      return ArgValue::Bool(f.as_bool());
    case Kind::kString:
      if (f.type != proto::kLengthDelimited) return std::nullopt;
      return ArgValue::String(storage->Intern(f.as_string()));
    case Kind::kMessage:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool ProtoToArgs(const ArgsSchemaMessage& schema, const proto::Field& message,
                 const std::string& prefix, TraceStorage* storage, std::vector<Arg>* out) {
  std::map<uint32_t, int> next_index;  // repeated field id → index of its next element
  proto::Decoder d(message);
  proto::Field f;
  while (d.Next(&f)) {
    const ArgsSchemaField* field = FindField(schema, f.id);
    if (field == nullptr) continue;
    std::string key = prefix.empty() ? field->name : prefix + "." + field->name;
    if (field->repeated) key += "[" + std::to_string(next_index[f.id]++) + "]";
    if (field->kind == ArgsSchemaField::Kind::kMessage) {
      if (f.type != proto::kLengthDelimited || field->message == nullptr) continue;
      if (!ProtoToArgs(*field->message, f, key, storage, out)) return false;
      continue;
    }
    const std::optional<ArgValue> value = ScalarValue(*field, f, storage);
    if (!value) continue;
    out->push_back(Arg{storage->Intern(FlatKey(key)), storage->Intern(key), *value});
  }
  return !d.error();
}

}  // namespace tw
