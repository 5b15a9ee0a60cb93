#include "libs/trace/importers/proto/descriptor_args.h"

#include <cstdint>
#include <cstring>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "libs/trace/importers/proto/base64.h"
#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {
namespace {

// Deep enough for every real message; deeper nesting is treated as damage.
constexpr int kMaxDepth = 64;

class Walker {
 public:
  Walker(const DescriptorPool& pool, TraceStorage* storage, std::vector<Arg>* out,
         const DescriptorArgsOptions& options)
      : pool_(pool), storage_(storage), out_(out), options_(options) {}

  bool Message(const ProtoMessageDef& def, std::string_view bytes, const std::string& key,
               const std::string& flat_key, int depth) {
    if (depth > kMaxDepth) return false;
    absl::flat_hash_map<uint32_t, int> index;  // field number → next repeated index
    std::vector<uint32_t> present;
    bool empty = true;
    bool ok = true;
    proto::Decoder d(bytes);
    proto::Field f;
    while (d.Next(&f)) {
      empty = false;
      const ProtoFieldDef* field = def.Field(f.id);
      if (!field) continue;
      if (options_.add_defaults) present.push_back(f.id);
      if (depth == 0 && !Allowed(*field)) continue;
      const std::string child_flat = Join(flat_key, field->name);
      // Packed by the wire type, whatever the schema says.
      const bool packed = field->repeated && f.type == proto::kLengthDelimited &&
                          field->type != ProtoFieldDef::kMessage &&
                          field->type != ProtoFieldDef::kGroup &&
                          field->type != ProtoFieldDef::kString &&
                          field->type != ProtoFieldDef::kBytes;
      if (packed) {
        ok = Packed(*field, f, key, child_flat, &index[f.id]) && ok;
        continue;
      }
      std::string child_key = Join(key, field->name);
      if (field->repeated) child_key += "[" + std::to_string(index[f.id]++) + "]";
      if (field->type == ProtoFieldDef::kMessage || field->type == ProtoFieldDef::kGroup) {
        if (f.type != proto::kLengthDelimited || field->message_index < 0) continue;
        if (IsDebugAnnotation(*field)) {
          options_.debug_annotation_hook(f.as_string(), key, flat_key, out_);
          continue;
        }
        ok = Message(pool_.messages()[static_cast<size_t>(field->message_index)], f.as_string(),
                     child_key, child_flat, depth + 1) &&
             ok;
        continue;
      }
      Scalar(*field, f, child_key, child_flat);
    }
    if (d.error()) ok = false;
    if (options_.add_defaults) Defaults(def, present, key, flat_key, depth, &empty);
    if (empty && depth > 0) Add(key, flat_key, ArgValue());
    return ok;
  }

 private:
  bool IsDebugAnnotation(const ProtoFieldDef& field) {
    if (!options_.debug_annotation_hook) return false;
    if (!debug_annotation_index_) {
      debug_annotation_index_ =
          pool_.FindMessageIndex(".perfetto.protos.DebugAnnotation").value_or(UINT32_MAX);
    }
    return static_cast<uint32_t>(field.message_index) == *debug_annotation_index_;
  }

  static std::string Join(const std::string& prefix, const std::string& name) {
    return prefix.empty() ? name : prefix + "." + name;
  }

  // The allow-list names ordinary fields; extensions always pass, as in trace_processor.
  bool Allowed(const ProtoFieldDef& field) const {
    if (!options_.allowed_fields || field.is_extension) return true;
    for (uint32_t a : *options_.allowed_fields) {
      if (a == field.number) return true;
    }
    return false;
  }

  void Add(const std::string& key, const std::string& flat_key, ArgValue value) {
    if (options_.scalar_hook && options_.scalar_hook(key, flat_key, value, out_)) return;
    out_->push_back(Arg{storage_->Intern(flat_key), storage_->Intern(key), value});
  }

  bool Packed(const ProtoFieldDef& field, const proto::Field& f, const std::string& key,
              const std::string& flat_key, int* index) {
    auto element = [&](proto::Field e) {
      const std::string k = Join(key, field.name) + "[" + std::to_string((*index)++) + "]";
      Scalar(field, e, k, flat_key);
    };
    const uint8_t* p = f.data;
    const uint8_t* end = f.data + f.size;
    proto::Field e;
    e.id = f.id;
    switch (field.type) {
      case ProtoFieldDef::kFixed32:
      case ProtoFieldDef::kSfixed32:
      case ProtoFieldDef::kFloat:
        e.type = proto::kFixed32;
        for (; p + 4 <= end; p += 4) {
          uint32_t v;
          std::memcpy(&v, p, 4);
          e.int_value = v;
          element(e);
        }
        return p == end;
      case ProtoFieldDef::kFixed64:
      case ProtoFieldDef::kSfixed64:
      case ProtoFieldDef::kDouble:
        e.type = proto::kFixed64;
        for (; p + 8 <= end; p += 8) {
          uint64_t v;
          std::memcpy(&v, p, 8);
          e.int_value = v;
          element(e);
        }
        return p == end;
      default: {
        e.type = proto::kVarint;
        proto::PackedVarints it(f);
        uint64_t v;
        while (it.Next(&v)) {
          e.int_value = v;
          element(e);
        }
        return !it.error();
      }
    }
  }

  std::string EnumName(const ProtoFieldDef& field, int32_t value) const {
    if (field.enum_index >= 0) {
      const ProtoEnumDef& e = pool_.enums()[static_cast<size_t>(field.enum_index)];
      auto it = e.names.find(value);
      if (it != e.names.end()) return it->second;
    }
    return std::to_string(value);
  }

  void Scalar(const ProtoFieldDef& field, const proto::Field& f, const std::string& key,
              const std::string& flat_key) {
    switch (field.type) {
      case ProtoFieldDef::kInt32:
      case ProtoFieldDef::kSfixed32:
        return Add(key, flat_key, ArgValue::Int(f.as_int32()));
      case ProtoFieldDef::kSint32:
        return Add(key, flat_key, ArgValue::Int(f.as_sint32()));
      case ProtoFieldDef::kInt64:
      case ProtoFieldDef::kSfixed64:
        return Add(key, flat_key, ArgValue::Int(f.as_int64()));
      case ProtoFieldDef::kSint64:
        return Add(key, flat_key, ArgValue::Int(f.as_sint64()));
      case ProtoFieldDef::kUint32:
      case ProtoFieldDef::kFixed32:
        return Add(key, flat_key, ArgValue::Uint(f.as_uint32()));
      case ProtoFieldDef::kUint64:
      case ProtoFieldDef::kFixed64:
        return Add(key, flat_key, ArgValue::Uint(f.as_uint64()));
      case ProtoFieldDef::kBool:
        return Add(key, flat_key, ArgValue::Bool(f.as_bool()));
      case ProtoFieldDef::kDouble:
        return Add(key, flat_key, ArgValue::Real(f.as_double()));
      case ProtoFieldDef::kFloat:
        return Add(key, flat_key, ArgValue::Real(static_cast<double>(f.as_float())));
      case ProtoFieldDef::kString:
        return Add(key, flat_key, ArgValue::String(storage_->Intern(f.as_string())));
      case ProtoFieldDef::kBytes:
        return Add(key, flat_key, ArgValue::String(storage_->Intern(Base64Encode(f.as_string()))));
      case ProtoFieldDef::kEnum:
        return Add(key, flat_key,
                   ArgValue::String(storage_->Intern(EnumName(field, f.as_int32()))));
      case ProtoFieldDef::kMessage:
      case ProtoFieldDef::kGroup:
        return;
    }
  }

  void Defaults(const ProtoMessageDef& def, const std::vector<uint32_t>& present,
                const std::string& key, const std::string& flat_key, int depth, bool* empty) {
    for (const ProtoFieldDef& field : def.fields) {
      if (depth == 0 && !Allowed(field)) continue;
      bool seen = false;
      for (uint32_t p : present) seen = seen || p == field.number;
      if (seen) continue;
      *empty = false;
      const std::string k = Join(key, field.name);
      const std::string fk = Join(flat_key, field.name);
      const std::string number = field.default_value.value_or("0");
      if (field.repeated) {
        Add(k, fk, ArgValue());
        continue;
      }
      switch (field.type) {
        case ProtoFieldDef::kInt32:
        case ProtoFieldDef::kSfixed32:
        case ProtoFieldDef::kSint32:
        case ProtoFieldDef::kInt64:
        case ProtoFieldDef::kSfixed64:
        case ProtoFieldDef::kSint64:
          Add(k, fk, ArgValue::Int(std::strtoll(number.c_str(), nullptr, 10)));
          break;
        case ProtoFieldDef::kUint32:
        case ProtoFieldDef::kFixed32:
        case ProtoFieldDef::kUint64:
        case ProtoFieldDef::kFixed64:
          Add(k, fk, ArgValue::Uint(std::strtoull(number.c_str(), nullptr, 10)));
          break;
        case ProtoFieldDef::kBool:
          Add(k, fk, ArgValue::Bool(field.default_value == "true"));
          break;
        case ProtoFieldDef::kDouble:
        case ProtoFieldDef::kFloat:
          Add(k, fk, ArgValue::Real(std::strtod(number.c_str(), nullptr)));
          break;
        case ProtoFieldDef::kBytes:
          Add(k, fk, ArgValue::String(storage_->Intern("")));
          break;
        case ProtoFieldDef::kString:
          Add(k, fk, field.default_value
                         ? ArgValue::String(storage_->Intern(*field.default_value))
                         : ArgValue());
          break;
        case ProtoFieldDef::kMessage:
        case ProtoFieldDef::kGroup:
          Add(k, fk, ArgValue());
          break;
        case ProtoFieldDef::kEnum: {
          // A declared default is a value name already; otherwise the value 0's name.
          if (field.default_value) {
            Add(k, fk, ArgValue::String(storage_->Intern(*field.default_value)));
          } else {
            Add(k, fk, ArgValue::String(storage_->Intern(EnumName(field, 0))));
          }
          break;
        }
      }
    }
  }

  const DescriptorPool& pool_;
  TraceStorage* storage_;
  std::vector<Arg>* out_;
  const DescriptorArgsOptions& options_;
  std::optional<uint32_t> debug_annotation_index_;  // looked up on first need
};

}  // namespace

bool DescriptorToArgs(const DescriptorPool& pool, const ProtoMessageDef& def,
                      std::string_view bytes, TraceStorage* storage, std::vector<Arg>* out,
                      const DescriptorArgsOptions& options) {
  Walker walker(pool, storage, out, options);
  return walker.Message(def, bytes, options.key_prefix, options.flat_key_prefix, 0);
}

}  // namespace tw
