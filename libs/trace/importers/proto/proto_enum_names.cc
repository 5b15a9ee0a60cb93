#include "libs/trace/importers/proto/proto_enum_names.h"

namespace tw {
namespace {

// descriptor.proto field numbers.
constexpr uint32_t kExtensionSet = 1;        // ExtensionDescriptor.extension_set
constexpr uint32_t kFile = 1;                // FileDescriptorSet.file
constexpr uint32_t kFilePackage = 2;         // FileDescriptorProto.package
constexpr uint32_t kFileMessageType = 4;     // FileDescriptorProto.message_type
constexpr uint32_t kFileEnumType = 5;        // FileDescriptorProto.enum_type
constexpr uint32_t kMessageName = 1;         // DescriptorProto.name
constexpr uint32_t kMessageEnumType = 4;     // DescriptorProto.enum_type
constexpr uint32_t kEnumName = 1;            // EnumDescriptorProto.name
constexpr uint32_t kEnumValue = 2;           // EnumDescriptorProto.value
constexpr uint32_t kEnumValueName = 1;       // EnumValueDescriptorProto.name
constexpr uint32_t kEnumValueNumber = 2;     // EnumValueDescriptorProto.number

}  // namespace

bool ProtoEnumNames::AddExtensionDescriptor(const proto::Field& descriptor) {
  proto::Decoder d(descriptor);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id != kExtensionSet || f.type != proto::kLengthDelimited) continue;
    proto::Decoder set(f);
    proto::Field file;
    while (set.Next(&file)) {
      if (file.id == kFile && file.type == proto::kLengthDelimited && !AddFile(file)) {
        return false;
      }
    }
    if (set.error()) return false;
  }
  return !d.error();
}

bool ProtoEnumNames::AddFile(const proto::Field& file) {
  std::string package;
  {
    proto::Decoder d(file);
    proto::Field f;
    while (d.Next(&f)) {
      if (f.id == kFilePackage) package = std::string(f.as_string());
    }
    if (d.error()) return false;
  }
  const std::string scope = package.empty() ? "" : "." + package;
  proto::Decoder d(file);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.type != proto::kLengthDelimited) continue;
    if (f.id == kFileEnumType && !AddEnum(scope, f)) return false;
    if (f.id != kFileMessageType) continue;
    std::string message_name;
    proto::Decoder md(f);
    proto::Field m;
    while (md.Next(&m)) {
      if (m.id == kMessageName) message_name = std::string(m.as_string());
    }
    proto::Decoder nested(f);
    while (nested.Next(&m)) {
      if (m.id == kMessageEnumType && m.type == proto::kLengthDelimited &&
          !AddEnum(scope + "." + message_name, m)) {
        return false;
      }
    }
  }
  return !d.error();
}

bool ProtoEnumNames::AddEnum(const std::string& scope, const proto::Field& enum_type) {
  std::string name;
  absl::flat_hash_map<int32_t, std::string> values;
  proto::Decoder d(enum_type);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == kEnumName) name = std::string(f.as_string());
    if (f.id != kEnumValue || f.type != proto::kLengthDelimited) continue;
    std::string value_name;
    int32_t number = 0;
    proto::Decoder vd(f);
    proto::Field v;
    while (vd.Next(&v)) {
      if (v.id == kEnumValueName) value_name = std::string(v.as_string());
      if (v.id == kEnumValueNumber) number = v.as_int32();
    }
    if (vd.error()) return false;
    values.try_emplace(number, std::move(value_name));
  }
  if (d.error()) return false;
  auto& known = enums_[scope + "." + name];
  for (auto& [number, value_name] : values) known.insert_or_assign(number, std::move(value_name));
  return true;
}

std::optional<std::string_view> ProtoEnumNames::Find(std::string_view enum_name,
                                                     int32_t value) const {
  auto e = enums_.find(std::string(enum_name));
  if (e == enums_.end()) return std::nullopt;
  auto v = e->second.find(value);
  if (v == e->second.end()) return std::nullopt;
  return v->second;
}

}  // namespace tw
