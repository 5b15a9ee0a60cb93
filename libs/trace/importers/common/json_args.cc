#include "libs/trace/importers/common/json_args.h"

#include <string>

#include "libs/trace/importers/common/json_value.h"

namespace tw {
namespace {

// Deep enough for any real producer; deeper containers are kept whole, as their JSON text, so
// a hostile input cannot make the walk recurse without bound.
constexpr int kMaxArgDepth = 32;

class Flattener {
 public:
  Flattener(TraceStorage* storage, JsonArrayIndices* indices, std::vector<Arg>* out)
      : storage_(storage), indices_(indices), out_(out) {}

  // `key` / `flat_key` name the container whose members are being added.
  bool Container(const JsonValue& container, std::string& key, std::string& flat_key,
                 int depth) {
    const size_t key_size = key.size();
    const size_t flat_size = flat_key.size();
    bool ok = true;
    if (container.type == JsonValue::Type::kObject) {
      ok = ForEachJsonMember(container.text, [&](std::string_view member, const JsonValue& v) {
        key.resize(key_size);
        flat_key.resize(flat_size);
        key.append(".").append(member);
        flat_key.append(".").append(member);
        ok = Value(v, key, flat_key, depth);
        return ok;
      }) && ok;
    } else {
      // Looked up per element: walking an element may add arrays to the map.
      const std::string array_key = key;
      ok = ForEachJsonElement(container.text, [&](const JsonValue& v) {
        key.resize(key_size);
        flat_key.resize(flat_size);
        if (v.type == JsonValue::Type::kNull) return true;  // nulls do not take an index
        const size_t index = (*indices_)[array_key]++;
        key.append("[").append(std::to_string(index)).append("]");
        ok = Value(v, key, flat_key, depth);
        return ok;
      }) && ok;
    }
    key.resize(key_size);
    flat_key.resize(flat_size);
    return ok;
  }

  bool Value(const JsonValue& v, std::string& key, std::string& flat_key, int depth) {
    switch (v.type) {
      case JsonValue::Type::kNull:
        return true;
      case JsonValue::Type::kBool:
        Add(key, flat_key, ArgValue::Bool(v.boolean));
        return true;
      case JsonValue::Type::kNumber:
        if (std::optional<int64_t> i = JsonNumberToInt64(v.text)) {
          Add(key, flat_key, ArgValue::Int(*i));
        } else if (std::optional<double> d = JsonNumberToDouble(v.text)) {
          Add(key, flat_key, ArgValue::Real(*d));
        } else {
          return false;
        }
        return true;
      case JsonValue::Type::kString:
        Add(key, flat_key, ArgValue::String(storage_->Intern(v.text)));
        return true;
      case JsonValue::Type::kObject:
      case JsonValue::Type::kArray:
        if (depth >= kMaxArgDepth) {
          Add(key, flat_key, ArgValue::String(storage_->Intern(v.text)));
          return true;
        }
        return Container(v, key, flat_key, depth + 1);
    }
    return true;
  }

  void Add(const std::string& key, const std::string& flat_key, ArgValue value) {
    out_->push_back(Arg{storage_->Intern(flat_key), storage_->Intern(key), value});
  }

  TraceStorage* storage_;
  JsonArrayIndices* indices_;
  std::vector<Arg>* out_;
};

}  // namespace

bool FlattenJsonArgs(std::string_view object_text, std::string_view prefix, TraceStorage* storage,
                     std::vector<Arg>* out) {
  JsonValue root;
  root.type = JsonValue::Type::kObject;
  root.text = object_text;
  std::string key(prefix);
  std::string flat_key(prefix);
  JsonArrayIndices indices;
  return Flattener(storage, &indices, out).Container(root, key, flat_key, 0);
}

bool FlattenJsonValue(std::string_view text, const std::string& key, const std::string& flat_key,
                      TraceStorage* storage, JsonArrayIndices* indices, std::vector<Arg>* out) {
  JsonValue root;
  std::string scratch;
  // A container is walked as it stands, so damage late in it keeps the leaves before it.
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (text[first] == '{' || text[first] == '[')) {
    root.type = text[first] == '{' ? JsonValue::Type::kObject : JsonValue::Type::kArray;
    root.text = text;
  } else if (!ParseJsonValue(text, &root, &scratch)) {
    return false;
  }
  std::string k = key;
  std::string fk = flat_key;
  return Flattener(storage, indices, out).Value(root, k, fk, 0);
}

}  // namespace tw
