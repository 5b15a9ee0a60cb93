#include "libs/trace/importers/proto/debug_annotation_decoder.h"

#include <algorithm>
#include <optional>

#include "libs/trace/importers/common/json_args.h"
#include "libs/trace/importers/proto/descriptor_args.h"
#include "libs/trace/importers/proto/interned_lookup.h"
#include "libs/trace/importers/proto/perfetto_fields.h"

namespace tw {
namespace {

namespace da = pf::debug_annotation;
namespace nv = pf::debug_annotation_nested_value;

// Producers can nest annotations arbitrarily; a malicious trace must not exhaust the stack.
constexpr int kMaxDepth = 64;

constexpr std::string_view kDebugAnnotationProtoName = ".perfetto.protos.DebugAnnotation";

std::string Sanitize(std::string_view raw) {
  std::string s(raw);
  std::replace(s.begin(), s.end(), '.', '_');
  std::replace(s.begin(), s.end(), '[', '_');
  std::replace(s.begin(), s.end(), ']', '_');
  return s;
}

}  // namespace

std::function<void(std::string_view, const std::string&, const std::string&, std::vector<Arg>*)>
AnnotationFieldHook(TraceStorage* storage, const SequenceState* seq, const DescriptorPool* pool) {
  return [storage, seq, pool](std::string_view annotation, const std::string& parent_key,
                              const std::string& parent_flat_key, std::vector<Arg>* out) {
    DebugAnnotationDecoder nested(storage, seq, out, pool, parent_key);
    nested.DecodeUnder(annotation, parent_flat_key);
  };
}

DebugAnnotationDecoder::DebugAnnotationDecoder(TraceStorage* storage, const SequenceState* seq,
                                               std::vector<Arg>* out, const DescriptorPool* pool,
                                               std::string root)
    : storage_(storage), seq_(seq), out_(out), pool_(pool), key_(root), flat_key_(std::move(root)) {}

bool DebugAnnotationDecoder::Decode(const proto::Field& annotation) {
  const Mark root = Save();
  const Result r = DecodeNamed(annotation, 0);
  Restore(root);
  first_done_ = true;
  return r.ok;
}

bool DebugAnnotationDecoder::DecodeUnder(std::string_view annotation, const std::string& flat_root) {
  flat_key_ = flat_root;
  proto::Field field;
  field.type = proto::kLengthDelimited;
  field.data = reinterpret_cast<const uint8_t*>(annotation.data());
  field.size = annotation.size();
  return Decode(field);
}

void DebugAnnotationDecoder::EnterDict(std::string_view name) {
  if (!key_.empty()) key_.push_back('.');
  key_.append(name);
  if (!flat_key_.empty()) flat_key_.push_back('.');
  flat_key_.append(name);
}

void DebugAnnotationDecoder::EnterArray(size_t index) {
  key_.push_back('[');
  key_.append(std::to_string(index));
  key_.push_back(']');
}

void DebugAnnotationDecoder::Emit(ArgValue value) {
  out_->push_back(Arg{storage_->Intern(flat_key_), storage_->Intern(key_), value});
}

bool DebugAnnotationDecoder::ResolveName(const proto::Field& annotation,
                                         std::string* name) const {
  proto::Decoder d(annotation);
  proto::Field f;
  uint64_t name_iid = 0;
  std::optional<std::string_view> inline_name;
  while (d.Next(&f)) {
    if (f.id == da::kNameIid && f.type == proto::kVarint) name_iid = f.int_value;
    if (f.id == da::kName && f.type == proto::kLengthDelimited) inline_name = f.as_string();
  }
  if (name_iid) {
    const auto interned = InternedString(*seq_, pf::interned_data::kDebugAnnotationNames,
                                         name_iid, pf::debug_annotation_name::kName);
    if (!interned) return false;
    *name = Sanitize(*interned);
    return true;
  }
  if (!inline_name) return false;
  *name = Sanitize(*inline_name);
  return true;
}

DebugAnnotationDecoder::Result DebugAnnotationDecoder::DecodeNamed(
    const proto::Field& annotation, int depth) {
  if (depth > kMaxDepth) return {false, false};
  std::string name;
  if (!ResolveName(annotation, &name)) return {false, false};
  const Mark mark = Save();
  EnterDict(name);
  const Result r = DecodeValue(annotation, depth);
  Restore(mark);
  return r;
}

DebugAnnotationDecoder::Result DebugAnnotationDecoder::DecodeValue(
    const proto::Field& annotation, int depth) {
  if (depth > kMaxDepth) return {false, false};
  // Collect the value fields first: which one wins does not depend on their order on the wire.
  std::vector<proto::Field> dict_entries;
  std::vector<proto::Field> array_values;
  std::optional<proto::Field> bool_v, uint_v, int_v, double_v, string_v, string_iid_v, pointer_v,
      json_v, proto_v, proto_type_name, proto_type_name_iid, nested_v;
  proto::Decoder d(annotation);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case da::kDictEntries: dict_entries.push_back(f); break;
      case da::kArrayValues: array_values.push_back(f); break;
      case da::kBoolValue: bool_v = f; break;
      case da::kUintValue: uint_v = f; break;
      case da::kIntValue: int_v = f; break;
      case da::kDoubleValue: double_v = f; break;
      case da::kStringValue: string_v = f; break;
      case da::kStringValueIid: string_iid_v = f; break;
      case da::kPointerValue: pointer_v = f; break;
      case da::kLegacyJsonValue: json_v = f; break;
      case da::kProtoValue: proto_v = f; break;
      case da::kProtoTypeName: proto_type_name = f; break;
      case da::kProtoTypeNameIid: proto_type_name_iid = f; break;
      case da::kNestedValue: nested_v = f; break;
      default: break;
    }
  }
  if (d.error()) return {false, false};

  if (!first_done_ && depth == 0 && string_v) {
    first_string_value_ = storage_->Intern(string_v->as_string());
  }

  if (!dict_entries.empty()) {
    Result r{true, true};
    for (const proto::Field& entry : dict_entries) {
      const Result c = DecodeNamed(entry, depth + 1);
      if (!c.ok) return {false, true};
    }
    return r;
  }
  if (!array_values.empty()) {
    // An element that produced nothing (e.g. an empty array) does not use up an index.
    Result r{true, false};
    const std::string array_key = key_;
    for (const proto::Field& entry : array_values) {
      const Mark mark = Save();
      EnterArray(next_array_index_[array_key]);
      const Result c = DecodeValue(entry, depth + 1);
      Restore(mark);
      if (!c.ok) return {false, r.added};
      if (c.added) {
        ++next_array_index_[array_key];
        r.added = true;
      }
    }
    return r;
  }
  if (bool_v) {
    Emit(ArgValue::Bool(bool_v->as_bool()));
  } else if (uint_v) {
    Emit(ArgValue::Uint(uint_v->as_uint64()));
  } else if (int_v) {
    Emit(ArgValue::Int(int_v->as_int64()));
  } else if (double_v) {
    Emit(ArgValue::Real(double_v->as_double()));
  } else if (string_v) {
    Emit(ArgValue::String(storage_->Intern(string_v->as_string())));
  } else if (string_iid_v) {
    const auto s = InternedString(*seq_, pf::interned_data::kDebugAnnotationStringValues,
                                  string_iid_v->int_value, pf::interned_string::kStr);
    if (!s) return {false, false};
    Emit(ArgValue::String(storage_->Intern(*s)));
  } else if (pointer_v) {
    Emit(ArgValue::Pointer(pointer_v->as_uint64()));
  } else if (json_v) {
    // Expanded into args like any other structure (its arrays share this event's indices).
    // Damaged JSON keeps what was read before the damage and is not an error.
    FlattenJsonValue(json_v->as_string(), key_, flat_key_, storage_, &next_array_index_, out_);
  } else if (proto_v) {
    std::string type_name;
    if (proto_type_name) {
      type_name = std::string(proto_type_name->as_string());
    } else if (proto_type_name_iid) {
      const auto s =
          InternedString(*seq_, pf::interned_data::kDebugAnnotationValueTypeNames,
                         proto_type_name_iid->int_value, pf::debug_annotation_value_type_name::kName);
      if (!s) return {false, false};
      type_name = std::string(*s);
    } else {
      return {false, false};
    }
    if (type_name == kDebugAnnotationProtoName) {
      const Result c = DecodeNamed(*proto_v, depth + 1);
      return {c.ok, true};
    }
    return DecodeProtoValue(type_name, proto_v->as_string());
  } else if (nested_v) {
    return DecodeNested(*nested_v, depth + 1);
  } else {
    return {true, false};
  }
  return {true, true};
}

DebugAnnotationDecoder::Result DebugAnnotationDecoder::DecodeProtoValue(
    std::string_view type_name, std::string_view bytes) {
  const ProtoMessageDef* def = pool_ ? pool_->FindMessage(type_name) : nullptr;
  // A type no descriptor defines cannot be read: the annotation is malformed, as for
  // trace_processor (which counts it as a parser error).
  if (!def) return {false, true};
  // An empty message is still a value: a NULL under the annotation's key.
  if (bytes.empty()) {
    Emit(ArgValue());
    return {true, true};
  }
  DescriptorArgsOptions options;
  options.key_prefix = key_;
  options.flat_key_prefix = flat_key_;
  options.debug_annotation_hook = AnnotationFieldHook(storage_, seq_, pool_);
  if (!DescriptorToArgs(*pool_, *def, bytes, storage_, out_, options)) return {false, true};
  return {true, true};
}

DebugAnnotationDecoder::Result DebugAnnotationDecoder::DecodeNested(
    const proto::Field& nested_value, int depth) {
  if (depth > kMaxDepth) return {false, false};
  uint32_t type = pf::nested_value_type::kUnspecified;
  std::vector<std::string_view> dict_keys;
  std::vector<proto::Field> dict_values;
  std::vector<proto::Field> array_values;
  std::optional<proto::Field> bool_v, int_v, double_v, string_v;
  proto::Decoder d(nested_value);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case nv::kNestedType: type = f.as_uint32(); break;
      case nv::kDictKeys: dict_keys.push_back(f.as_string()); break;
      case nv::kDictValues: dict_values.push_back(f); break;
      case nv::kArrayValues: array_values.push_back(f); break;
      case nv::kIntValue: int_v = f; break;
      case nv::kDoubleValue: double_v = f; break;
      case nv::kBoolValue: bool_v = f; break;
      case nv::kStringValue: string_v = f; break;
      default: break;
    }
  }
  if (d.error()) return {false, false};
  switch (type) {
    case pf::nested_value_type::kDict: {
      if (dict_keys.size() != dict_values.size()) return {false, false};
      for (size_t i = 0; i < dict_keys.size(); ++i) {
        const Mark mark = Save();
        EnterDict(Sanitize(dict_keys[i]));
        const Result c = DecodeNested(dict_values[i], depth + 1);
        Restore(mark);
        if (!c.ok) return {false, true};
      }
      return {true, true};
    }
    case pf::nested_value_type::kArray: {
      Result r{true, false};
      const std::string array_key = key_;
      for (const proto::Field& entry : array_values) {
        const Mark mark = Save();
        EnterArray(next_array_index_[array_key]);
        const Result c = DecodeNested(entry, depth + 1);
        Restore(mark);
        if (!c.ok) return {false, r.added};
        if (c.added) {
          ++next_array_index_[array_key];
          r.added = true;
        }
      }
      return r;
    }
    default:
      if (bool_v) {
        Emit(ArgValue::Bool(bool_v->as_bool()));
      } else if (int_v) {
        Emit(ArgValue::Int(int_v->as_int64()));
      } else if (double_v) {
        Emit(ArgValue::Real(double_v->as_double()));
      } else if (string_v) {
        Emit(ArgValue::String(storage_->Intern(string_v->as_string())));
      } else {
        return {true, false};
      }
      return {true, true};
  }
}

}  // namespace tw
