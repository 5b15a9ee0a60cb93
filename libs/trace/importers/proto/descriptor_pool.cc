#include "libs/trace/importers/proto/descriptor_pool.h"

#include "libs/trace/importers/proto/proto_decoder.h"

namespace tw {
namespace {

// descriptor.proto field numbers (wire-format facts).
namespace file_set { constexpr uint32_t kFile = 1; }
namespace file {
constexpr uint32_t kPackage = 2, kMessageType = 4, kEnumType = 5, kExtension = 7;
}
namespace message {
constexpr uint32_t kName = 1, kField = 2, kNestedType = 3, kEnumType = 4, kExtension = 6;
}
namespace field {
constexpr uint32_t kName = 1, kExtendee = 2, kNumber = 3, kLabel = 4, kType = 5, kTypeName = 6,
                   kDefaultValue = 7;
constexpr uint64_t kLabelRepeated = 3;
}  // namespace field
namespace enum_type { constexpr uint32_t kName = 1, kValue = 2; }
namespace enum_value { constexpr uint32_t kName = 1, kNumber = 2; }

}  // namespace

void DescriptorPool::AliasPackage(std::string from, std::string to) {
  alias_from_ = std::move(from);
  alias_to_ = std::move(to);
}

std::string DescriptorPool::Canonical(std::string_view full_name) const {
  if (!alias_from_.empty() && full_name.substr(0, alias_from_.size()) == alias_from_ &&
      (full_name.size() == alias_from_.size() || full_name[alias_from_.size()] == '.')) {
    return alias_to_ + std::string(full_name.substr(alias_from_.size()));
  }
  return std::string(full_name);
}

// A FieldDescriptorProto; `extendee` is set for an extension. Type names are made canonical;
// a relative one (protoc writes them qualified, hand-made sets may not) is taken as being in
// the file's package.
ProtoFieldDef DescriptorPool::ReadField(std::string_view bytes, const std::string& package,
                                        std::string* extendee) const {
  auto qualified = [&](std::string_view name) {
    if (!name.empty() && name[0] == '.') return Canonical(name);
    return package + "." + std::string(name);
  };
  ProtoFieldDef fd;
  proto::Decoder xd(bytes);
  proto::Field x;
  while (xd.Next(&x)) {
    switch (x.id) {
      case field::kName: fd.name = std::string(x.as_string()); break;
      case field::kExtendee:
        if (extendee) *extendee = qualified(x.as_string());
        break;
      case field::kNumber: fd.number = x.as_uint32(); break;
      case field::kLabel: fd.repeated = x.as_uint64() == field::kLabelRepeated; break;
      case field::kType: fd.type = static_cast<ProtoFieldDef::Type>(x.as_uint32()); break;
      case field::kTypeName: fd.type_name = qualified(x.as_string()); break;
      case field::kDefaultValue: fd.default_value = std::string(x.as_string()); break;
      default: break;
    }
  }
  return fd;
}

bool DescriptorPool::AddFileDescriptorSet(std::string_view bytes) {
  proto::Decoder d(bytes);
  proto::Field f;
  bool ok = true;
  while (d.Next(&f)) {
    if (f.id != file_set::kFile || f.type != proto::kLengthDelimited) continue;
    std::string package;
    {
      proto::Decoder fd(f);
      proto::Field x;
      while (fd.Next(&x)) {
        if (x.id == file::kPackage) package = std::string(x.as_string());
      }
    }
    const std::string scope = package.empty() ? "" : Canonical("." + package);
    proto::Decoder fd(f);
    proto::Field x;
    while (fd.Next(&x)) {
      if (x.type != proto::kLengthDelimited) continue;
      if (x.id == file::kMessageType) AddMessage(x.as_string(), scope, scope);
      if (x.id == file::kEnumType) AddEnum(x.as_string(), scope);
      if (x.id == file::kExtension) AddExtension(x.as_string(), scope);
    }
    if (fd.error()) ok = false;
  }
  if (d.error()) ok = false;
  Resolve();
  return ok;
}

void DescriptorPool::AddMessage(std::string_view bytes, const std::string& scope,
                                const std::string& package) {
  std::string name;
  std::vector<ProtoFieldDef> fields;
  std::vector<std::string_view> nested_messages, nested_enums;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    switch (f.id) {
      case message::kName: name = scope + "." + std::string(f.as_string()); break;
      case message::kNestedType: nested_messages.push_back(f.as_string()); break;
      case message::kEnumType: nested_enums.push_back(f.as_string()); break;
      case message::kField: fields.push_back(ReadField(f.as_string(), package, nullptr)); break;
      case message::kExtension: AddExtension(f.as_string(), package); break;
      default: break;
    }
  }
  auto [it, inserted] = message_by_name_.try_emplace(name, static_cast<uint32_t>(messages_.size()));
  if (inserted) {
    messages_.emplace_back();
    messages_.back().full_name = name;
  }
  ProtoMessageDef& def = messages_[it->second];
  for (ProtoFieldDef& fd : fields) {
    if (!def.by_number.try_emplace(fd.number, static_cast<uint32_t>(def.fields.size())).second) {
      continue;  // the number is taken: its first definition stays
    }
    def.fields.push_back(std::move(fd));
  }
  for (std::string_view m : nested_messages) AddMessage(m, name, package);
  for (std::string_view e : nested_enums) AddEnum(e, name);
}

void DescriptorPool::AddEnum(std::string_view bytes, const std::string& scope) {
  std::string name;
  absl::flat_hash_map<int32_t, std::string> values;
  proto::Decoder d(bytes);
  proto::Field f;
  while (d.Next(&f)) {
    if (f.id == enum_type::kName) name = scope + "." + std::string(f.as_string());
    if (f.id == enum_type::kValue && f.type == proto::kLengthDelimited) {
      std::string value_name;
      int32_t number = 0;
      proto::Decoder vd(f);
      proto::Field v;
      while (vd.Next(&v)) {
        if (v.id == enum_value::kName) value_name = std::string(v.as_string());
        if (v.id == enum_value::kNumber) number = v.as_int32();
      }
      values.try_emplace(number, std::move(value_name));  // aliases: the first name is kept
    }
  }
  auto [it, inserted] = enum_by_name_.try_emplace(name, static_cast<uint32_t>(enums_.size()));
  if (inserted) {
    enums_.emplace_back();
    enums_.back().full_name = name;
  }
  // An enum defined again (by a later file) names its values anew.
  for (auto& [number, value_name] : values) {
    enums_[it->second].names.insert_or_assign(number, std::move(value_name));
  }
}

void DescriptorPool::AddExtension(std::string_view bytes, const std::string& package) {
  std::string extendee;
  ProtoFieldDef fd = ReadField(bytes, package, &extendee);
  fd.is_extension = true;
  pending_extensions_.emplace_back(std::move(extendee), std::move(fd));
}

void DescriptorPool::Resolve() {
  // Extensions join their message (declared in any file added so far) as ordinary fields; one
  // whose message is not known yet waits for a later file. A number already taken keeps its
  // first definition, as a descriptor pool must.
  std::vector<std::pair<std::string, ProtoFieldDef>> waiting;
  for (auto& [extendee, fd] : pending_extensions_) {
    auto it = message_by_name_.find(extendee);
    if (it == message_by_name_.end()) {
      waiting.emplace_back(std::move(extendee), std::move(fd));
      continue;
    }
    ProtoMessageDef& m = messages_[it->second];
    if (m.by_number.contains(fd.number)) continue;
    m.by_number.emplace(fd.number, static_cast<uint32_t>(m.fields.size()));
    m.fields.push_back(std::move(fd));
  }
  pending_extensions_ = std::move(waiting);
  for (ProtoMessageDef& m : messages_) {
    for (ProtoFieldDef& f : m.fields) {
      if (f.type == ProtoFieldDef::kMessage || f.type == ProtoFieldDef::kGroup) {
        auto it = message_by_name_.find(f.type_name);
        f.message_index = it == message_by_name_.end() ? -1 : static_cast<int32_t>(it->second);
      } else if (f.type == ProtoFieldDef::kEnum) {
        auto it = enum_by_name_.find(f.type_name);
        f.enum_index = it == enum_by_name_.end() ? -1 : static_cast<int32_t>(it->second);
      }
    }
  }
}

std::optional<uint32_t> DescriptorPool::FindMessageIndex(std::string_view full_name) const {
  auto it = message_by_name_.find(Canonical(full_name));
  if (it == message_by_name_.end()) return std::nullopt;
  return it->second;
}

const ProtoMessageDef* DescriptorPool::FindMessage(std::string_view full_name) const {
  const std::optional<uint32_t> index = FindMessageIndex(full_name);
  return index ? &messages_[*index] : nullptr;
}

std::optional<std::string_view> DescriptorPool::EnumValueName(std::string_view enum_full_name,
                                                              int32_t value) const {
  auto e = enum_by_name_.find(Canonical(enum_full_name));
  if (e == enum_by_name_.end()) return std::nullopt;
  const auto& names = enums_[e->second].names;
  auto v = names.find(value);
  if (v == names.end()) return std::nullopt;
  return v->second;
}

}  // namespace tw
